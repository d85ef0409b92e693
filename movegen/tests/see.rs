//! Static exchange evaluation against exchanges played out with the move
//! generator: on hand-built positions for each piece kind's quirks
//! (cannon screens appearing and vanishing, horse legs and Janggi elephant
//! paths unblocked mid-exchange, pins, palace diagonals, Janggi cannon
//! rules) and on thousands of positions from random play in both games.
//!
//! The reference plays the exchange on the real position: at each step the
//! legal captures onto the point from `legal_captures`, the least valuable
//! capturer (ties: kind order of [`SeeValues::order`], then the lowest
//! point), `make_move`, and each side may stop. `see_ge` must agree with it
//! exactly at the threshold: true at the reference value, false one above.
//! A second reference lets each side choose any capturer (a true minimax
//! over the captures on the point); least-valuable-first is a heuristic
//! there, so only the rate of agreement is checked.

use movegen::{setups, Move, PieceKind, Position, SeeValues, Variant};

/// Test values in whole units (general: more than everything else).
const XQ: SeeValues = SeeValues::new([0, 1000, 2, 2, 4, 9, 5, 1]);
const JG: SeeValues = SeeValues::new([0, 1000, 3, 3, 5, 13, 7, 2]);

fn values(v: Variant) -> &'static SeeValues {
    if v.is_janggi() {
        &JG
    } else {
        &XQ
    }
}

fn pos(fen: &str, v: Variant) -> Position {
    Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal move with this ICCS text (`c3c6`).
fn mv(p: &Position, text: &str) -> Move {
    p.legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} not legal in {}", p.to_fen()))
}

fn value_on(p: &Position, s: movegen::Square, vals: &SeeValues) -> i32 {
    p.piece_at(s).map_or(0, |x| vals.value(x.kind()))
}

/// Rank of a capture in the least-valuable-first order.
fn lva_key(p: &Position, m: Move, vals: &SeeValues) -> (usize, u8) {
    let k = p
        .piece_at(m.from())
        .map_or(PieceKind::General, |x| x.kind());
    let rank = vals.order().iter().position(|&o| o == k).unwrap_or(7);
    (rank, m.from().raw())
}

/// What the side to move gains by continuing the exchange on `to` (it may
/// stop: never negative). `lva`: only the least valuable capturer.
fn continue_exchange(p: &mut Position, to: movegen::Square, vals: &SeeValues, lva: bool) -> i32 {
    let mut caps: Vec<Move> = p
        .legal_captures()
        .iter()
        .copied()
        .filter(|m| m.to() == to)
        .collect();
    if lva {
        caps.sort_by_key(|&m| lva_key(p, m, vals));
        caps.truncate(1);
    }
    let mut best = 0;
    for m in caps {
        let gain = value_on(p, to, vals);
        p.make_move(m);
        let v = gain - continue_exchange(p, to, vals, lva);
        p.unmake_move();
        best = best.max(v);
    }
    best
}

/// The exchange value of the legal move `m` by the reference.
fn reference(p: &mut Position, m: Move, lva: bool) -> i32 {
    let vals = values(p.variant());
    let gain = value_on(p, m.to(), vals);
    p.make_move(m);
    let v = gain - continue_exchange(p, m.to(), vals, lva);
    p.unmake_move();
    v
}

/// `see_ge` says exactly `v`: at least `v`, not `v + 1`.
fn assert_see(p: &Position, m: Move, v: i32) {
    let vals = values(p.variant());
    assert!(
        p.see_ge(m, v, vals) && !p.see_ge(m, v + 1, vals),
        "{} {m}: expected {v}, see_ge(v)={} see_ge(v+1)={}",
        p.to_fen(),
        p.see_ge(m, v, vals),
        p.see_ge(m, v + 1, vals)
    );
}

/// Hand-built positions with their exchange values, each checked against
/// the reference too.
#[test]
fn hand_built_exchanges() {
    let cases: &[(Variant, &str, &str, i32, &str)] = &[
        // Cannon captures over the chariot: the black chariot recaptures
        // and loses itself to the chariot, so black stops: +4.
        (
            Variant::Xiangqi,
            "2rk5/9/9/2n6/9/9/2R6/2C6/9/4K4 w - - 0 1",
            "c2c6",
            4,
            "cannon over its own chariot",
        ),
        // The chariot takes first: its leaving takes the cannon's screen
        // away, so nothing recaptures the black chariot: 4 - 9.
        (
            Variant::Xiangqi,
            "2rk5/9/9/2n6/9/9/2R6/2C6/9/4K4 w - - 0 1",
            "c3c6",
            -5,
            "the capturer was the cannon's screen",
        ),
        // The advisor takes, and unblocks the horse's leg on d0: black
        // does not recapture (it would lose its second chariot): +9.
        (
            Variant::Xiangqi,
            "3k5/9/9/9/4r4/9/9/9/4r4/2NA1K3 w - - 0 1",
            "d0e1",
            9,
            "horse leg unblocked by the first capturer",
        ),
        // The chariot on e3 is pinned by the chariot on e9: it may not
        // recapture on d3: 4 - 9.
        (
            Variant::Xiangqi,
            "3rrk3/9/9/9/9/9/R2nR4/9/9/4K4 w - - 0 1",
            "a3d3",
            -5,
            "pinned recapturer",
        ),
        // A soldier across the river captures sideways, and is lost: 5 - 1.
        (
            Variant::Xiangqi,
            "3r1k3/9/9/9/3cP4/9/9/9/9/4K4 w - - 0 1",
            "e5d5",
            4,
            "soldier across the river",
        ),
        // Janggi: no cannon recaptures over the cannon on c4 (nor may the
        // cannon on c4 capture without a screen): 13 - 5.
        (
            Variant::Janggi,
            "9/3k5/2p6/2r6/9/1NC6/9/2C6/4K4/9 w - - 0 1",
            "b4c6",
            8,
            "Janggi cannon may not jump a cannon",
        ),
        // Janggi: the soldier takes the guard on the palace diagonal; the
        // general may not recapture, the chariot on f7 guards e8 along the
        // diagonal: +3.
        (
            Variant::Janggi,
            "3k5/4a4/3P1R3/9/9/9/9/9/4K4/9 w - - 0 1",
            "d7e8",
            3,
            "palace diagonals: soldier, chariot, general",
        ),
        // Janggi: the chariot takes along the palace diagonal and unblocks
        // the elephant's first point: the second chariot does not
        // recapture: +13.
        (
            Variant::Janggi,
            "3k1r3/9/9/9/3p5/9/9/5r3/9/2BRK4 w - - 0 1",
            "d0f2",
            13,
            "elephant path unblocked by the first capturer",
        ),
    ];
    for &(v, fen, text, expected, what) in cases {
        let mut p = pos(fen, v);
        let m = mv(&p, text);
        assert_eq!(reference(&mut p, m, true), expected, "{what}: reference");
        assert_see(&p, m, expected);
    }
}

/// Tiny deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Counts of one random-play run: moves checked, and how many agreed with
/// the free-choice minimax.
#[derive(Default)]
struct Tally {
    checked: usize,
    minimax_agree: usize,
}

/// Play `games` random games of `variant` and check `see_ge` on every
/// capture (and a few quiet moves) of every position.
fn random_play(variant: Variant, games: usize, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let names = setups::janggi_setup_names();
    for _ in 0..games {
        let mut p = if variant.is_janggi() {
            let name = &names[rng.below(names.len())];
            setups::janggi_setup(name, variant).expect("setup")
        } else {
            Position::startpos(variant)
        };
        let plies = 20 + rng.below(140);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let caps: Vec<Move> = p.legal_captures().iter().copied().collect();
            for &m in &caps {
                let r = reference(&mut p, m, true);
                assert_see(&p, m, r);
                tally.checked += 1;
                if reference(&mut p, m, false) == r {
                    tally.minimax_agree += 1;
                }
            }
            // Quiet moves: is the piece safe where it goes?
            for _ in 0..2 {
                let m = moves[rng.below(moves.len())];
                if !m.is_pass() && p.piece_at(m.to()).is_none() {
                    let r = reference(&mut p, m, true);
                    assert_see(&p, m, r);
                    tally.checked += 1;
                    tally.minimax_agree += 1;
                }
            }
            // Prefer captures now and then, so that material thins out
            // and the pieces come into contact.
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(m);
        }
    }
    tally
}

fn check_tally(what: &str, t: &Tally) {
    let rate = t.minimax_agree as f64 / t.checked.max(1) as f64;
    eprintln!(
        "{what}: {} moves checked, {:.2}% agree with the free-choice minimax",
        t.checked,
        100.0 * rate
    );
    assert!(t.checked > 2000, "{what}: too few moves checked");
    assert!(rate > 0.97, "{what}: least-valuable-first too often wrong");
}

#[test]
fn random_xiangqi_positions() {
    let t = random_play(Variant::Xiangqi, 60, 0x5EE1);
    check_tally("xiangqi", &t);
}

#[test]
fn random_janggi_positions() {
    let t = random_play(Variant::Janggi, 60, 0x5EE2);
    check_tally("janggi", &t);
}

#[test]
fn random_janggi_modern_positions() {
    // No bikjang: facing generals are simply allowed.
    let t = random_play(Variant::JanggiModern, 30, 0x5EE3);
    check_tally("janggi-modern", &t);
}
