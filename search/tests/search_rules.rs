//! Search behaviour under the game-ending rules (docs/RULES.md §1.3–1.5, 2.2–2.3),
//! through the public [`search::Engine`] API only.
//!
//! - Repetition cycles from the reference data (`xiangqi_chase_cases.tsv`
//!   and the repetition lines of `ends.txt`), replayed up to just before the
//!   move that completes the decisive occurrence: when the side to move is
//!   the offender (it would lose by perpetual check / chase, or by Janggi
//!   counting at the repetition), its chosen move must not be the cycle
//!   move; when the opponent is the offender (the cycle move wins by rule),
//!   the engine must play it and see a decided win.
//! - The Xiangqi 60-move rule (with the 10-check allowance) and Janggi
//!   counting at the move limit, where the engine must see the verdict one
//!   ply ahead.
//! - A second occurrence of a game-history position is not yet a verdict.
//!
//! Expectations come from the rules and the reference verdicts, not from
//! what the engine happens to play. Searches are short (a node budget and a
//! depth cap) so the file runs in seconds in the dev profile.

mod search_common;

use movegen::{move_text, Move, Position, Ranks, Variant};
use search::{BestMove, Limits, Score};
use search_common::search_with;

// The reference data is the workspace's (`tests/data/`, shared with the
// rules core's tests and the benchmarks), so the path starts at this
// crate's root.
const ENDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/ends.txt"
));
const CHASE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/xiangqi_chase_cases.tsv"
));

/// Node budget of one test search.
const NODES: u64 = 150_000;
/// Depth cap of one test search.
const DEPTH: u32 = 8;
/// Scores at least this large (centipawns) are decided games: the search
/// scores wins by rule (repetition verdicts, counting) far beyond any
/// evaluation and below mate scores.
const DECIDED_MIN: i32 = 10_000;

/// A short search: [`NODES`] nodes, at most [`DEPTH`] plies.
fn search(pos: &Position) -> BestMove {
    search_with(
        pos,
        Limits {
            depth: Some(DEPTH),
            nodes: Some(NODES),
            ..Limits::default()
        },
    )
}

/// Move text with ranks 1–10, as in the data files.
fn text(m: Option<Move>) -> String {
    m.map_or_else(|| "(none)".into(), |m| move_text(m, Ranks::OneBased))
}

/// Whether a score is a decided win for the side to move (by rule or mate).
fn is_decided_win(s: Score) -> bool {
    match s {
        Score::Cp(v) => v >= DECIDED_MIN,
        Score::Mate(n) => n > 0,
    }
}

/// Whether a score is a decided loss for the side to move.
fn is_decided_loss(s: Score) -> bool {
    match s {
        Score::Cp(v) => v <= -DECIDED_MIN,
        Score::Mate(n) => n < 0,
    }
}

/// One repetition case: the position just before the move that completes
/// the decisive repetition, that move, and whether the side to move there
/// is the offender (loses if it plays it) or the beneficiary (wins).
struct Cycle {
    /// Where the case comes from, for messages.
    name: String,
    /// The position (with history) before the completing move.
    pos: Position,
    /// The move that completes the repetition.
    cycle_move: Move,
    /// `true`: the side to move loses by playing the cycle move;
    /// `false`: it wins by playing it.
    mover_loses: bool,
}

/// Build a [`Cycle`] from a case whose `moves` end with the repetition and
/// whose final verdict makes `last_mover_loses` true or false.
fn cycle(name: String, variant: &str, fen: &str, moves: &str, last_mover_loses: bool) -> Cycle {
    let v: Variant = variant
        .parse()
        .unwrap_or_else(|e| panic!("{name}: variant: {e}"));
    let mut pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{name}: fen: {e}"));
    let mv: Vec<&str> = moves.split_whitespace().collect();
    let Some((last, before)) = mv.split_last() else {
        panic!("{name}: no moves");
    };
    pos.play_text_moves(before.iter().copied(), Ranks::OneBased)
        .unwrap_or_else(|(i, e)| panic!("{name}: move {i}: {e}"));
    let cycle_move = pos
        .parse_move(last, Ranks::OneBased)
        .unwrap_or_else(|e| panic!("{name}: last move: {e}"));
    Cycle {
        name,
        pos,
        cycle_move,
        mover_loses: last_mover_loses,
    }
}

/// Cases of `xiangqi_chase_cases.tsv` with a decisive `expected` verdict.
/// The verdict is from the view of the side to move after all moves, so
/// `Win` means the last mover (who completed the cycle) is the offender.
fn chase_cycles() -> Vec<Cycle> {
    let mut out = Vec::new();
    for line in CHASE.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [idx, _comment, fen, moves, expected, _fsf, _pika] = f[..] else {
            continue;
        };
        let last_mover_loses = match expected {
            "Win" => true,
            "Loss" => false,
            _ => continue,
        };
        out.push(cycle(
            format!("chase case {idx}"),
            "xiangqi",
            fen,
            moves,
            last_mover_loses,
        ));
    }
    out
}

/// Repetition lines of `ends.txt` with a winner: perpetual check, Janggi
/// repetition decided by counting, and `janggimodern`'s shuttle rule.
fn ends_cycles() -> Vec<Cycle> {
    let mut out = Vec::new();
    for (n, line) in ENDS.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let [variant, fen, moves, outcome] = f[..] else {
            continue;
        };
        let mut parts = outcome.split(':');
        let (Some(kind), Some(winner)) = (parts.next(), parts.nth(1)) else {
            continue;
        };
        if !matches!(
            kind,
            "perpetual_check" | "repetition_counting" | "repetition_other"
        ) {
            continue;
        }
        let winner_is_red = match winner {
            "w" => true,
            "b" => false,
            _ => continue,
        };
        let c = cycle(
            format!("ends.txt line {} ({variant}, {kind})", n + 1),
            variant,
            fen,
            moves,
            false,
        );
        let mover_is_red = c.pos.side_to_move() == movegen::Color::Red;
        out.push(Cycle {
            mover_loses: mover_is_red != winner_is_red,
            ..c
        });
    }
    out
}

/// Run every case of `cases` matching `mover_loses`, collecting failures.
/// The reference repetitions include `ends.txt` line 10 (`janggimodern`),
/// where the cycle move is Cho's fifth shuttle move in a row and loses by
/// the shuttle rule although Cho is a horse up on counting.
fn check_cycles(cases: Vec<Cycle>, mover_loses: bool) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for c in cases.into_iter().filter(|c| c.mover_loses == mover_loses) {
        checked += 1;
        let b = search(&c.pos);
        let ok = if mover_loses {
            // The offender must leave the cycle, and searched alone the
            // cycle move must show as lost (most offenders would not play
            // it anyway; this part shows the verdict is really seen).
            let alone = search_with(
                &c.pos,
                Limits {
                    depth: Some(DEPTH),
                    nodes: Some(NODES),
                    searchmoves: vec![c.cycle_move],
                    ..Limits::default()
                },
            );
            if !is_decided_loss(alone.score) {
                failures.push(format!(
                    "{}: fen {} cycle move {} searched alone scores {:?}, not a loss",
                    c.name,
                    c.pos.to_fen(),
                    text(Some(c.cycle_move)),
                    alone.score
                ));
            }
            b.best.is_some() && b.best != Some(c.cycle_move)
        } else {
            // The beneficiary completes the cycle and sees the win (a
            // faster mate would do as well).
            (b.best == Some(c.cycle_move) && is_decided_win(b.score))
                || matches!(b.score, Score::Mate(n) if n > 0)
        };
        if !ok {
            failures.push(format!(
                "{}: fen {} cycle move {}: got {} score {:?} depth {}",
                c.name,
                c.pos.to_fen(),
                text(Some(c.cycle_move)),
                text(b.best),
                b.score,
                b.depth
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn offender_breaks_xiangqi_chase_cycles() {
    let n = check_cycles(chase_cycles(), true);
    assert!(n >= 15, "only {n} cases");
}

#[test]
fn beneficiary_keeps_xiangqi_chase_cycles() {
    let n = check_cycles(chase_cycles(), false);
    assert!(n >= 4, "only {n} cases");
}

#[test]
fn offender_breaks_reference_repetitions() {
    let n = check_cycles(ends_cycles(), true);
    assert!(n >= 5, "only {n} cases");
}

#[test]
fn beneficiary_keeps_reference_repetitions() {
    let n = check_cycles(ends_cycles(), false);
    assert!(n >= 5, "only {n} cases");
}

fn pos(fen: &str, v: Variant) -> Position {
    Position::from_fen(fen, v).unwrap_or_else(|e| panic!("fen {fen}: {e}"))
}

/// Red (to move) has only its general against two chariots and cannot
/// capture: with 119 plies already without a capture, every move reaches
/// the 60-move limit and draws (docs/RULES.md §1.4), so the search must score
/// the position a draw; with a fresh counter it is clearly lost.
#[test]
fn xiangqi_move_limit_saves_the_weaker_side() {
    let fen = "3k5/9/9/9/9/9/9/r8/8r/4K4 w - - {} 1";
    // Red's general on e1 can only step along rank 1 (the chariot on i2
    // holds rank 2; d1 would face Black's general).
    let near = pos(&fen.replace("{}", "119"), Variant::Xiangqi);
    assert!(!near.legal_moves().is_empty());
    assert!(near.legal_captures().is_empty());
    let b = search(&near);
    assert_eq!(
        b.score,
        Score::Cp(0),
        "at 119 plies every Red move draws; got {} {:?}",
        text(b.best),
        b.score
    );
    let fresh = pos(&fen.replace("{}", "0"), Variant::Xiangqi);
    let b = search(&fresh);
    assert!(
        match b.score {
            Score::Cp(v) => v < -300,
            Score::Mate(n) => n < 0,
        },
        "without the limit Red is lost; got {:?}",
        b.score
    );
}

/// Red (to move) is far ahead but 119 plies have passed without a capture:
/// a quiet move draws at once, so Red must capture the soldier (resetting
/// the count) or mate. The soldier can be taken safely by the chariot.
#[test]
fn xiangqi_move_limit_makes_the_stronger_side_capture() {
    let p = pos("3k5/9/9/9/9/p8/9/R8/9/4K4 w - - 119 80", Variant::Xiangqi);
    let capture = p.legal_captures();
    assert!(!capture.is_empty());
    let b = search(&p);
    let best = b.best.unwrap_or_else(|| panic!("no move"));
    let ok = capture.contains(&best) || matches!(b.score, Score::Mate(n) if n > 0);
    assert!(
        ok,
        "at 119 plies a quiet move draws; got {} {:?}",
        text(b.best),
        b.score
    );
    assert!(
        !matches!(b.score, Score::Cp(0)),
        "capturing keeps the win; got {:?}",
        b.score
    );
}

/// Janggi at the move limit (100 plies in `janggi` and
/// `janggitraditional`). Cho (to move) has a chariot against Han's cannon,
/// two guards and two soldiers, one of which Cho's chariot can take: Cho 13
/// points, Han 7 + 6 + 4 + 1.5 = 18.5. A Han soldier on e7 keeps the
/// generals from facing. After 99 plies without a capture any quiet move
/// (the pass included) ends the game: under `janggi` by counting, which Cho
/// loses, so Cho must capture the soldier; without that soldier every move
/// loses on count. Under `janggitraditional` the limit is a draw, so Cho is
/// at least level.
#[test]
fn janggi_move_limit_counting_and_draw() {
    let fen = "3a1a3/4k4/2c6/4p4/9/9/p8/9/4K4/R8 w - - 99 60";
    let p = pos(fen, Variant::Janggi);
    let captures = p.legal_captures();
    assert_eq!(captures.len(), 1, "only a1a4 captures");
    let b = search(&p);
    assert!(
        b.best.is_some_and(|m| captures.contains(&m)),
        "janggi: a quiet move loses on count; got {} {:?}",
        text(b.best),
        b.score
    );
    assert!(
        !is_decided_loss(b.score),
        "capturing avoids the count; got {:?}",
        b.score
    );

    let no_capture = pos(
        "3a1a3/4k4/2c6/4p4/9/9/9/9/4K4/R8 w - - 99 60",
        Variant::Janggi,
    );
    assert!(no_capture.legal_captures().is_empty());
    let b = search(&no_capture);
    assert!(
        is_decided_loss(b.score),
        "janggi: every move loses on count; got {} {:?}",
        text(b.best),
        b.score
    );

    let b = search(&pos(fen, Variant::JanggiTraditional));
    assert!(
        matches!(b.score, Score::Cp(v) if v >= 0),
        "janggitraditional: a quiet move draws; got {} {:?}",
        text(b.best),
        b.score
    );
}

/// Cho far ahead on points (two chariots against a lone general) at 99
/// plies: under `janggi` every quiet move wins on count, so the search must
/// see a decided win; under `janggicasual` the limit draws (unless Cho
/// mates at once, which two chariots cannot do from here).
#[test]
fn janggi_counting_win_is_seen_at_the_limit() {
    let fen = "4k4/9/9/9/9/9/9/9/3K5/RR7 w - - 99 60";
    let b = search(&pos(fen, Variant::Janggi));
    assert!(
        is_decided_win(b.score),
        "janggi: ahead at the limit wins on count; got {} {:?}",
        text(b.best),
        b.score
    );
    let b = search(&pos(fen, Variant::JanggiCasual));
    assert_eq!(
        b.score,
        Score::Cp(0),
        "janggicasual: the limit draws; got {}",
        text(b.best)
    );
}

/// Cho's horse on e5 is all that keeps the generals apart; taking the Han
/// soldier on c6 wins material but lets Han pass to accept bikjang, and
/// Han wins the count (two chariots and +1.5 against a horse and a
/// soldier). Even at depth 1, where Han's reply lies in quiescence, the
/// search must see that pass and not take.
#[test]
fn janggi_bikjang_pass_is_seen_beyond_the_horizon() {
    let fen = "r7r/4k4/9/9/2p6/4N4/2P6/9/4K4/9 w - - 0 1";
    let p = pos(fen, Variant::Janggi);
    let take = p
        .parse_move("e5c6", Ranks::OneBased)
        .expect("legal capture");
    for depth in [1, 2] {
        let b = search_with(
            &p,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        assert_ne!(
            b.best,
            Some(take),
            "depth {depth}: Nxc6 allows bikjang lost on count; got {:?}",
            b.score
        );
    }
}

/// Bikjang binds the side to move like a check: it must break it or pass
/// (accepting it, which loses here on count), so the quiescence search may
/// not stand pat on the static evaluation there. Han's horse captures off
/// the file between the generals; Cho's general cannot leave the file (the
/// chariots hold the d and f files), so Cho must pass and loses on count.
/// Standing pat scored the capture as a plain material gain (+17 pawns).
#[test]
fn janggi_bikjang_binds_like_a_check_in_quiescence() {
    let p = pos("9/4k4/3r1r3/9/4n4/2C6/9/9/4K4/9 b - - 0 1", Variant::Janggi);
    let b = search_with(
        &p,
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
    );
    assert!(
        is_decided_win(b.score),
        "opening the file wins on count at once; got {:?} with {}",
        b.score,
        text(b.best)
    );
}

/// Extend `p` by `plies` plies in which Red checks on every move, nobody
/// captures, no position repeats (`seen` holds the keys so far) and the
/// side to move always has a move, ending where it has no capture and no
/// move back to a position seen; depth-first with backtracking.
fn checking_walk(p: &mut Position, plies: u32, seen: &mut Vec<u64>) -> bool {
    if plies == 0 {
        // At the end the side to move has no capture (every reply keeps
        // counting) and no reply returns to a position already seen (no
        // repetition verdict gets in the way).
        if !p.legal_captures().is_empty() {
            return false;
        }
        return p.legal_moves().into_iter().all(|m| {
            p.make_move(m);
            let fresh = !seen.contains(&p.key());
            p.unmake_move();
            fresh
        });
    }
    let red = p.side_to_move() == movegen::Color::Red;
    for m in p.legal_moves() {
        if p.piece_at(m.to()).is_some() || (red && !p.gives_check(m)) {
            continue;
        }
        p.make_move(m);
        if !seen.contains(&p.key()) && !p.legal_moves().is_empty() {
            seen.push(p.key());
            if checking_walk(p, plies - 1, seen) {
                return true;
            }
            seen.pop();
        }
        p.unmake_move();
    }
    false
}

/// The 10-check allowance (docs/RULES.md §1.4) as the search sees it. From a FEN
/// counter of 96, Red (two chariots against a lone general) gives 12 checks
/// in 23 plies, ending with the 12th check (no capture, no position
/// repeated, so no repetition rule applies). The plain counter is 119 and
/// any Black reply makes it 120, but Red's 11th and 12th checks and the
/// replies to them do not count: the rule count stays at 116 and the game
/// goes on, lost for Black. Set up from the same FEN with a counter of 119
/// and no history, every Black reply reaches the limit: a draw.
#[test]
fn xiangqi_excess_checks_keep_the_game_going_in_search() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 96 50", Variant::Xiangqi);
    let mut seen = vec![p.key()];
    assert!(
        checking_walk(&mut p, 23, &mut seen),
        "no 23-ply checking walk found"
    );
    assert_eq!(p.rule_plies(), 119);
    assert_eq!(movegen::move_limit_count(&p), 116, "rules core count");
    let b = search(&p);
    assert!(
        matches!(b.score, Score::Mate(n) if n < 0) || matches!(b.score, Score::Cp(v) if v < -500),
        "count 116: the game goes on and Black is lost; got {} {:?} at {}",
        text(b.best),
        b.score,
        p.to_fen()
    );

    let fen = p.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let reset = format!("{} {} - - 119 80", fields[0], fields[1]);
    let b = search(&pos(&reset, Variant::Xiangqi));
    assert_eq!(
        b.score,
        Score::Cp(0),
        "count 119 without history: every reply reaches the limit; got {} at {reset}",
        text(b.best)
    );
}

/// A position that occurred once in the game history, before the root, is
/// not yet a repetition verdict when it comes back: the game rule judges at
/// the third occurrence, and only repetitions of positions on the search
/// path may be scored at once (docs/RULES.md §1.3). Chase case 1 after
/// `c3a3 a8b8 a3b3 b8a8 b3a3`: Black to move. `a8b8` returns to the
/// position after Black's first move (its second occurrence) with Red
/// having chased on every move of that cycle, but Red is not bound to
/// continue: it can stop chasing before the third occurrence. So Black has
/// no forced win by rule, and its score must not be a decided win.
#[test]
fn game_history_second_occurrence_is_not_a_verdict() {
    let mut p = pos(
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        Variant::Xiangqi,
    );
    let moves = ["c3a3", "a8b8", "a3b3", "b8a8", "b3a3"];
    p.play_text_moves(moves, Ranks::OneBased)
        .unwrap_or_else(|(i, e)| panic!("move {i}: {e}"));
    let b = search(&p);
    assert!(
        !is_decided_win(b.score),
        "a second occurrence from the game history is no win yet; got {} {:?}",
        text(b.best),
        b.score
    );
}
