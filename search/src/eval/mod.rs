//! Static evaluation for Xiangqi and Janggi.
//!
//! A sum of terms, each computed for both colours as a middlegame/endgame
//! pair and tapered by the phase: material, piece-square tables (soldier
//! advancement reported separately), mobility of chariots, horses (legs
//! blocked), cannons (with screens) and Janggi elephants, king safety
//! (missing advisors and elephants, open file in front of the general,
//! cannons on the general's file, attackers near the palace) and connected
//! chariots; Janggi adds the worth of pieces by how full the board is and
//! the danger of enemy pieces attacking points of the palace. Every number
//! comes from [`params`], and [`tune`] fits them to games. The evaluation
//! is computed from scratch at each node: it only walks the piece lists.

pub mod params;
mod tables;
pub mod tune;

use movegen::leaps::{self, Leap};
use movegen::{Color, Direction, Piece, PieceKind, Position, Square};
use params::{GameParams, Pair};
use tables::Pst;

/// One game's evaluation weights: the parameters and the full
/// piece-square tables expanded from them.
#[derive(Clone, Debug)]
pub struct Weights {
    /// The parameters.
    pub params: GameParams,
    pst: Pst,
    /// Whether any [`GameParams::crowd`] value is set (else the board
    /// count is not needed: Xiangqi's evaluation skips it).
    crowd: bool,
    /// [`GameParams::threat`] by attacker kind, then victim kind: zero
    /// where the victim is not worth more than the attacker.
    threat: [[Pair; 8]; 8],
    /// Whether any threat weight is set (else soldiers' attacks are not
    /// looked at).
    threats: bool,
}

/// Rank of a kind for threats: an attack by a piece of lower rank on a
/// piece of higher rank is a threat (the general is never a victim: an
/// attack on it is a check).
const THREAT_RANK: [u8; 8] = {
    let mut r = [0; 8];
    r[PieceKind::Soldier.index()] = 1;
    r[PieceKind::Advisor.index()] = 2;
    r[PieceKind::Elephant.index()] = 2;
    r[PieceKind::Horse.index()] = 3;
    r[PieceKind::Cannon.index()] = 4;
    r[PieceKind::Chariot.index()] = 5;
    r
};

impl Weights {
    /// Weights from parameters (expands the piece-square tables).
    pub const fn new(params: GameParams) -> Weights {
        let mut crowd = false;
        let mut k = 0;
        while k < params.crowd.len() {
            crowd |= params.crowd[k][0] != 0 || params.crowd[k][1] != 0;
            k += 1;
        }
        let mut threat = [[[0; 2]; 8]; 8];
        let mut threats = false;
        let mut a = 0;
        while a < 8 {
            let mut v = 0;
            while v < 8 {
                if THREAT_RANK[v] > THREAT_RANK[a] && a != PieceKind::General.index() {
                    threat[a][v] = params.threat[v];
                    threats |= params.threat[v][0] != 0 || params.threat[v][1] != 0;
                }
                v += 1;
            }
            a += 1;
        }
        Weights {
            pst: tables::build_pst(&params),
            params,
            crowd,
            threat,
            threats,
        }
    }

    /// The built-in weights of a game.
    #[inline(always)]
    pub fn builtin(janggi: bool) -> &'static Weights {
        if janggi {
            &JANGGI_WEIGHTS
        } else {
            &XIANGQI_WEIGHTS
        }
    }
}

static XIANGQI_WEIGHTS: Weights = Weights::new(params::XIANGQI);
static JANGGI_WEIGHTS: Weights = Weights::new(params::JANGGI);

/// The terms of the evaluation, as `eval` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Material,
    PieceSquares,
    Soldiers,
    Mobility,
    KingSafety,
    Chariots,
    Threats,
}

impl Term {
    /// Every term, in the order of the `eval` table.
    const ALL: [Term; 7] = [
        Term::Material,
        Term::PieceSquares,
        Term::Soldiers,
        Term::Mobility,
        Term::KingSafety,
        Term::Chariots,
        Term::Threats,
    ];

    /// The term's row title in the `eval` table.
    fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquares => "Piece squares",
            Term::Soldiers => "Soldiers",
            Term::Mobility => "Mobility",
            Term::KingSafety => "King safety",
            Term::Chariots => "Chariots",
            Term::Threats => "Threats",
        }
    }
}

/// Per-term, per-colour scores collected when tracing.
struct Trace {
    t: [[Pair; 2]; Term::ALL.len()],
}

/// Accumulates the evaluation; with `TRACE` it also records each term.
struct Acc<const TRACE: bool> {
    mg: i32,
    eg: i32,
    trace: Trace,
}

impl<const TRACE: bool> Acc<TRACE> {
    #[inline(always)]
    fn add(&mut self, term: Term, c: Color, v: Pair) {
        let s = if c == Color::Red { 1 } else { -1 };
        self.mg += s * v[0];
        self.eg += s * v[1];
        if TRACE {
            let e = &mut self.trace.t[term as usize][c.index()];
            e[0] += v[0];
            e[1] += v[1];
        }
    }
}

/// Per colour, the points near its palace that count an enemy piece as an
/// attacker: files 2–6 of its own first four ranks.
const NEAR_PALACE: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= 2 && f <= 6 {
            if r <= 3 {
                t[0] |= 1 << s;
            }
            if 9 - r <= 3 {
                t[1] |= 1 << s;
            }
        }
        s += 1;
    }
    t
};

#[inline(always)]
fn coords(s: Square) -> (i32, i32) {
    (i32::from(s.file()), i32::from(s.rank()))
}

/// Whether the piece on `s` (if any) belongs to the other side.
#[inline(always)]
fn enemy_on(b: &[Option<Piece>; 90], us: Color, s: Option<Square>) -> bool {
    s.is_some_and(|s| b[s.index()].is_some_and(|p| p.color() != us))
}

/// The kind of the enemy piece on `s`, if there is one.
#[inline(always)]
fn enemy_kind(b: &[Option<Piece>; 90], us: Color, s: Square) -> Option<PieceKind> {
    b[s.index()].filter(|p| p.color() != us).map(|p| p.kind())
}

/// Chariot moves: empty points up to the first piece, plus that piece if
/// it is an enemy.
#[inline(always)]
fn chariot_mobility(pos: &Position, us: Color, s: Square) -> i32 {
    let b = pos.board();
    let mut n = 0;
    for d in Direction::ALL {
        let l = pos.scan_line(s, d);
        n += i32::from(l.gap) + i32::from(enemy_on(b, us, l.first));
    }
    n
}

/// Cannon moves. Xiangqi: empty points before the screen plus a capture
/// behind it. Janggi: cannons only jump, over a screen that is no cannon,
/// to the empty points behind it or an enemy that is no cannon. Also the
/// threats on the enemy pieces it could capture (`row`: weight by victim).
#[inline(always)]
fn cannon_mobility(
    pos: &Position,
    us: Color,
    s: Square,
    janggi: bool,
    row: &[Pair; 8],
    threat: &mut Pair,
) -> i32 {
    let b = pos.board();
    let is_cannon = |x: Option<Square>| {
        x.is_some_and(|x| b[x.index()].is_some_and(|p| p.kind() == PieceKind::Cannon))
    };
    let mut n = 0;
    for d in Direction::ALL {
        let l = pos.scan_line(s, d);
        if janggi && (l.first.is_none() || is_cannon(l.first)) {
            continue;
        }
        let victim = l.second.and_then(|t| enemy_kind(b, us, t));
        let capture = victim.is_some_and(|k| !janggi || k != PieceKind::Cannon);
        if let Some(k) = victim.filter(|_| capture) {
            add_pair(threat, row[k.index()]);
        }
        n += i32::from(if janggi { l.gap2 } else { l.gap }) + i32::from(capture);
    }
    n
}

#[inline(always)]
fn add_pair(a: &mut Pair, b: Pair) {
    a[0] += b[0];
    a[1] += b[1];
}

/// Where a leap lands: counts as a move unless an own piece stands
/// there, and adds the threat on an enemy piece.
#[inline(always)]
fn leap_target(
    b: &[Option<Piece>; 90],
    us: Color,
    t: Square,
    row: &[Pair; 8],
    threat: &mut Pair,
) -> i32 {
    match b[t.index()] {
        Some(p) if p.color() == us => 0,
        Some(p) => {
            add_pair(threat, row[p.kind().index()]);
            1
        }
        None => 1,
    }
}

/// Janggi elephant leaps (two intermediate points) to empty or enemy
/// points, and the threats on the enemy pieces it could capture.
#[inline(always)]
fn leap_mobility(
    b: &[Option<Piece>; 90],
    us: Color,
    leaps: &[Leap],
    row: &[Pair; 8],
    threat: &mut Pair,
) -> i32 {
    let mut n = 0;
    for l in leaps {
        if b[l.first_block().index()].is_none() && b[l.second_block().index()].is_none() {
            n += leap_target(b, us, l.to(), row, threat);
        }
    }
    n
}

/// Horse jumps: as [`leap_mobility`] with its single leg tested once.
#[inline(always)]
fn horse_mobility(
    b: &[Option<Piece>; 90],
    us: Color,
    leaps: &[Leap],
    row: &[Pair; 8],
    threat: &mut Pair,
) -> i32 {
    let mut n = 0;
    for l in leaps {
        if b[l.first_block().index()].is_none() {
            n += leap_target(b, us, l.to(), row, threat);
        }
    }
    n
}

/// Pairs of `us`'s soldiers (on `list`) side by side on one rank.
#[inline(always)]
fn soldier_pairs(b: &[Option<Piece>; 90], us: Color, list: &[Square]) -> i32 {
    let soldier = Some(Piece::new(us, PieceKind::Soldier));
    list.iter()
        .filter(|s| s.file() < 8 && b[s.index() + 1] == soldier)
        .count() as i32
}

/// Threats by soldiers: the enemy pieces on the points a soldier steps to
/// (forward and sideways; the Janggi palace diagonals are left out).
#[inline(always)]
fn soldier_threats(pos: &Position, us: Color, row: &[Pair; 8], threat: &mut Pair) {
    let b = pos.board();
    let forward = if us == Color::Red { 1 } else { -1 };
    for &s in pos.pieces(us, PieceKind::Soldier) {
        let (f, r) = coords(s);
        for (df, dr) in [(0, forward), (-1, 0), (1, 0)] {
            let (tf, tr) = (f + df, r + dr);
            let Some(t) = u8::try_from(tf)
                .ok()
                .zip(u8::try_from(tr).ok())
                .and_then(|(f, r)| Square::from_coords(f, r))
            else {
                continue;
            };
            if let Some(k) = enemy_kind(b, us, t) {
                add_pair(threat, row[k.index()]);
            }
        }
    }
}

/// Pieces strictly between two points on one file.
fn between_on_file(b: &[Option<Piece>; 90], f: i32, r1: i32, r2: i32) -> i32 {
    let (lo, hi) = (r1.min(r2), r1.max(r2));
    ((lo + 1)..hi)
        .filter(|&r| b[(r * 9 + f) as usize].is_some())
        .count() as i32
}

/// The evaluation with weights `w` (of the position's game); `psq`
/// (material and piece squares, Red's view) is used when the caller keeps
/// it incrementally, else it is computed here.
fn eval_impl<const TRACE: bool>(pos: &Position, w: &Weights, psq: Option<Pair>) -> (i32, Trace) {
    let janggi = pos.variant().is_janggi();
    let p: &GameParams = &w.params;
    let b = pos.board();
    let mut acc = Acc::<TRACE> {
        mg: 0,
        eg: 0,
        trace: Trace {
            t: [[[0; 2]; 2]; Term::ALL.len()],
        },
    };

    let phase = game_phase(pos);
    let crowd = if w.crowd { board_count(pos) } else { 0 };
    if let Some(v) = psq {
        acc.mg += v[0];
        acc.eg += v[1];
    }

    for us in Color::BOTH {
        let them = !us;
        // Material and piece squares.
        for k in PieceKind::ALL {
            if psq.is_some() {
                break;
            }
            let list = pos.pieces(us, k);
            if list.is_empty() {
                continue;
            }
            let n = list.len() as i32;
            let m = p.material[k.index()];
            acc.add(Term::Material, us, [m[0] * n, m[1] * n]);
            let table = &w.pst[us.index()][k.index()];
            let mut ps = 0;
            for &s in list {
                ps += i32::from(table[s.index()]);
            }
            let term = if k == PieceKind::Soldier {
                Term::Soldiers
            } else {
                Term::PieceSquares
            };
            acc.add(term, us, [ps, ps]);
        }

        // Soldiers side by side.
        if p.soldier_pair != [0, 0] {
            let n = soldier_pairs(b, us, pos.pieces(us, PieceKind::Soldier));
            acc.add(
                Term::Soldiers,
                us,
                [p.soldier_pair[0] * n, p.soldier_pair[1] * n],
            );
        }

        // Mobility, and threats: attacks on more valuable enemy pieces.
        let mut threat = [0; 2];
        let rows = &w.threat;
        let mut mob = [0; 2];
        let mut add_mob = |k: PieceKind, n: i32| {
            let w = p.mobility[k.index()];
            let d = n - p.mobility_base[k.index()];
            mob[0] += w[0] * d;
            mob[1] += w[1] * d;
        };
        for &s in pos.pieces(us, PieceKind::Chariot) {
            add_mob(PieceKind::Chariot, chariot_mobility(pos, us, s));
        }
        let row = &rows[PieceKind::Horse.index()];
        for &s in pos.pieces(us, PieceKind::Horse) {
            let n = horse_mobility(b, us, leaps::horse(s), row, &mut threat);
            add_mob(PieceKind::Horse, n);
        }
        let row = &rows[PieceKind::Cannon.index()];
        for &s in pos.pieces(us, PieceKind::Cannon) {
            let n = cannon_mobility(pos, us, s, janggi, row, &mut threat);
            add_mob(PieceKind::Cannon, n);
        }
        if janggi {
            let row = &rows[PieceKind::Elephant.index()];
            for &s in pos.pieces(us, PieceKind::Elephant) {
                let leaps = leaps::janggi_elephant(s);
                add_mob(
                    PieceKind::Elephant,
                    leap_mobility(b, us, leaps, row, &mut threat),
                );
            }
        }
        acc.add(Term::Mobility, us, mob);
        if w.threats {
            soldier_threats(pos, us, &rows[PieceKind::Soldier.index()], &mut threat);
        }
        acc.add(Term::Threats, us, threat);

        // King safety of `us` (added as a negative for `us`).
        if pos.count(us, PieceKind::General) == 1 {
            let g = pos.general(us);
            let (gf, gr) = coords(g);
            let heavy = |c: Color| {
                (pos.count(c, PieceKind::Chariot)
                    + pos.count(c, PieceKind::Horse)
                    + pos.count(c, PieceKind::Cannon)) as i32
            };
            let attackers = heavy(them);
            let mut danger = 0;
            let missing_adv = 2 - pos.count(us, PieceKind::Advisor) as i32;
            let missing_ele = 2 - pos.count(us, PieceKind::Elephant) as i32;
            danger +=
                (missing_adv * p.missing_advisor + missing_ele * p.missing_elephant) * attackers;

            // Own pieces in front of the general on its file.
            let forward = if us == Color::Red { 1 } else { -1 };
            let mut shield = false;
            let mut r = gr + forward;
            while (0..10).contains(&r) {
                if let Some(q) = b[(r * 9 + gf) as usize] {
                    if q.color() == us {
                        shield = true;
                        break;
                    }
                }
                r += forward;
            }
            if !shield {
                danger += p.open_file_chariot * pos.count(them, PieceKind::Chariot) as i32;
            }
            for &s in pos.pieces(them, PieceKind::Cannon) {
                let (cf, cr) = coords(s);
                if cf == gf {
                    danger += p.central_cannon;
                    match between_on_file(b, gf, gr, cr) {
                        0 => danger += p.open_head_cannon,
                        2 => danger += p.cannon_on_file,
                        _ => {}
                    }
                }
            }

            // Enemy pieces near the palace.
            let mut count = 0;
            let mut weight = 0;
            for k in [
                PieceKind::Horse,
                PieceKind::Chariot,
                PieceKind::Cannon,
                PieceKind::Soldier,
            ] {
                for &s in pos.pieces(them, k) {
                    if NEAR_PALACE[us.index()] >> s.index() & 1 != 0 {
                        count += 1;
                        weight += p.attacker_weight[k.index()];
                    }
                }
            }
            if count >= 2 {
                danger += weight * count * p.attack_scale / 16;
            } else {
                danger += weight / 4;
            }
            if p.palace_scale != 0 {
                danger += palace_danger(pos, p, us);
            }
            acc.add(Term::KingSafety, us, [-danger, -danger / 4]);
        }

        // Pieces whose worth depends on how full the board is.
        for k in CROWD_KINDS.into_iter().filter(|_| w.crowd) {
            let c = p.crowd[k.index()];
            if c != [0, 0] {
                let n = pos.count(us, k) as i32 * (crowd - params::CROWD_BASE);
                acc.add(Term::Material, us, [c[0] * n / 8, c[1] * n / 8]);
            }
        }

        // Connected chariots.
        let ch = pos.pieces(us, PieceKind::Chariot);
        if ch.len() == 2 {
            let ((f1, r1), (f2, r2)) = (coords(ch[0]), coords(ch[1]));
            let connected = if f1 == f2 {
                between_on_file(b, f1, r1, r2) == 0
            } else if r1 == r2 {
                let (lo, hi) = (f1.min(f2), f1.max(f2));
                ((lo + 1)..hi).all(|f| b[(r1 * 9 + f) as usize].is_none())
            } else {
                false
            };
            if connected {
                acc.add(Term::Chariots, us, p.connected_chariots);
            }
        }
    }

    (taper(pos, [acc.mg, acc.eg], phase), acc.trace)
}

/// Kinds whose worth depends on how full the board is ([`GameParams::crowd`]).
pub const CROWD_KINDS: [PieceKind; 4] = [
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
];

/// Kinds that count as attackers of palace points
/// ([`GameParams::palace_attack`]).
pub const PALACE_ATTACKERS: [PieceKind; 5] = [
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// Kinds that can be threatened by a less valuable piece
/// ([`GameParams::threat`]).
pub const THREAT_VICTIMS: [PieceKind; 5] = [
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
];

/// Pieces on the board, generals not counted.
#[inline(always)]
fn board_count(pos: &Position) -> i32 {
    let mut n = 0;
    for c in Color::BOTH {
        for k in PieceKind::ALL {
            if k != PieceKind::General {
                n += pos.count(c, k) as i32;
            }
        }
    }
    n
}

/// Whether a piece of kind `k` on (`f`, `r`) could reach a point of the
/// palace whose ranks start at `r0` (a cheap geometric filter before the
/// exact attack tests).
#[inline(always)]
fn may_reach_palace(k: PieceKind, f: i32, r: i32, r0: i32) -> bool {
    let (df, dr) = ((f - 4).abs() - 1, (r - (r0 + 1)).abs() - 1);
    match k {
        // Lines: on a palace file or rank.
        PieceKind::Chariot | PieceKind::Cannon => df <= 0 || dr <= 0,
        PieceKind::Horse => df <= 2 && dr <= 2,
        PieceKind::Elephant => df <= 3 && dr <= 3,
        _ => df <= 1 && dr <= 1,
    }
}

/// Per colour, the nine points of its palace.
const PALACE: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= 3 && f <= 5 {
            if r <= 2 {
                t[0] |= 1 << s;
            }
            if r >= 7 {
                t[1] |= 1 << s;
            }
        }
        s += 1;
    }
    t
};

/// Leaps (horse or Janggi elephant) that land on a point of `mask` with
/// their intermediate points empty.
#[inline(always)]
fn leaps_into(b: &[Option<Piece>; 90], leaps: &[Leap], mask: u128) -> i32 {
    let mut n = 0;
    for l in leaps {
        let free = b[l.first_block().index()].is_none() && b[l.second_block().index()].is_none();
        n += i32::from(free && mask >> l.to().index() & 1 != 0);
    }
    n
}

/// Danger to `us`'s general from enemy pieces attacking points of its
/// palace: each attacked point counts the attacker's weight, and the sum
/// grows with the number of pieces taking part.
fn palace_danger(pos: &Position, p: &GameParams, us: Color) -> i32 {
    let them = !us;
    let r0 = if us == Color::Red { 0 } else { 7 };
    let palace = PALACE[us.index()];
    let b = pos.board();
    let mut units = 0;
    let mut pieces = 0;
    for k in PALACE_ATTACKERS {
        let w = p.palace_attack[k.index()];
        if w == 0 {
            continue;
        }
        for &s in pos.pieces(them, k) {
            let (f, r) = coords(s);
            if !may_reach_palace(k, f, r, r0) {
                continue;
            }
            let hits = match k {
                // Leapers: count the leaps that land in the palace with
                // their legs free (the same test as `attacks`, without
                // asking it about all nine points).
                PieceKind::Horse => leaps_into(b, leaps::horse(s), palace),
                PieceKind::Elephant => leaps_into(b, leaps::janggi_elephant(s), palace),
                _ => {
                    let mut hits = 0;
                    for pr in r0..r0 + 3 {
                        for pf in 3..6 {
                            if let Some(t) = Square::from_coords(pf, pr as u8) {
                                hits += i32::from(t != s && pos.attacks(s, t));
                            }
                        }
                    }
                    hits
                }
            };
            if hits > 0 {
                units += w * hits;
                pieces += 1;
            }
        }
    }
    units * pieces * p.palace_scale / 64
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let w = Weights::builtin(pos.variant().is_janggi());
    eval_impl::<false>(pos, w, None).0
}

/// [`evaluate`] with other weights (for tuning them).
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    eval_impl::<false>(pos, w, None).0
}

/// [`evaluate`] with material and piece squares supplied by the caller
/// (kept incrementally by the search with [`psq`] and [`psq_delta`]).
#[inline]
pub(crate) fn evaluate_with_psq(pos: &Position, psq: Pair) -> i32 {
    let w = Weights::builtin(pos.variant().is_janggi());
    eval_impl::<false>(pos, w, Some(psq)).0
}

#[inline(always)]
fn piece_psq(janggi: bool, p: Piece, s: Square) -> Pair {
    let w = Weights::builtin(janggi);
    let m = w.params.material[p.kind().index()];
    let t = i32::from(w.pst[p.color().index()][p.kind().index()][s.index()]);
    [m[0] + t, m[1] + t]
}

/// Material plus piece-square value of the whole board, Red's view,
/// `[mg, eg]`.
pub(crate) fn psq(pos: &Position) -> Pair {
    let janggi = pos.variant().is_janggi();
    let mut v = [0, 0];
    for s in Square::all() {
        if let Some(p) = pos.piece_at(s) {
            let x = piece_psq(janggi, p, s);
            let sign = if p.color() == Color::Red { 1 } else { -1 };
            v[0] += sign * x[0];
            v[1] += sign * x[1];
        }
    }
    v
}

/// How [`psq`] changes when `m` is played (call before making it).
#[inline]
pub(crate) fn psq_delta(pos: &Position, m: movegen::Move) -> Pair {
    if m.is_pass() {
        return [0, 0];
    }
    let Some(p) = pos.piece_at(m.from()) else {
        return [0, 0];
    };
    let janggi = pos.variant().is_janggi();
    let (a, b) = (piece_psq(janggi, p, m.from()), piece_psq(janggi, p, m.to()));
    let mut d = [b[0] - a[0], b[1] - a[1]];
    if let Some(v) = pos.piece_at(m.to()) {
        // The victim's value disappears (it is the other colour's).
        let x = piece_psq(janggi, v, m.to());
        d[0] += x[0];
        d[1] += x[1];
    }
    if p.color() == Color::Red {
        d
    } else {
        [-d[0], -d[1]]
    }
}

/// The material and piece-square part of the evaluation alone, tapered,
/// from the side to move's view (for lazy cut-offs).
#[inline]
pub(crate) fn psq_only(pos: &Position, psq: Pair) -> i32 {
    let phase = game_phase(pos);
    taper(pos, psq, phase)
}

/// The game phase from the heavy pieces left, `0..=PHASE_MAX` (full board).
#[inline(always)]
fn game_phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for c in Color::BOTH {
        phase += pos.count(c, PieceKind::Chariot) as i32 * params::PHASE_CHARIOT
            + pos.count(c, PieceKind::Horse) as i32 * params::PHASE_HORSE
            + pos.count(c, PieceKind::Cannon) as i32 * params::PHASE_CANNON;
    }
    phase.min(params::PHASE_MAX)
}

/// Blend a Red-view `[mg, eg]` pair by the phase and turn it to the side to
/// move's view, with the tempo bonus.
#[inline(always)]
fn taper(pos: &Position, v: Pair, phase: i32) -> i32 {
    let v = (v[0] * phase + v[1] * (params::PHASE_MAX - phase)) / params::PHASE_MAX;
    let v = if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    };
    v + params::TEMPO
}

/// A per-term breakdown of [`evaluate`], for the `eval` command.
pub fn eval_trace(pos: &Position) -> String {
    use std::fmt::Write;
    let w = Weights::builtin(pos.variant().is_janggi());
    let (v, tr) = eval_impl::<true>(pos, w, None);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<14}|  First (mg  eg) | Second (mg  eg) |  Total (mg  eg)",
        "Term"
    );
    let _ = writeln!(s, "{}", "-".repeat(68));
    for term in Term::ALL {
        let [r, bl] = tr.t[term as usize];
        let _ = writeln!(
            s,
            "{:<14}| {:>6} {:>6}   | {:>6} {:>6}   | {:>6} {:>6}",
            term.name(),
            r[0],
            r[1],
            bl[0],
            bl[1],
            r[0] - bl[0],
            r[1] - bl[1]
        );
    }
    let _ = writeln!(s, "{}", "-".repeat(68));
    let _ = writeln!(s, "Tempo: {} (side to move)", params::TEMPO);
    let _ = writeln!(s, "Final evaluation: {v} cp (side to move)");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    /// The position rotated by 180 degrees with colours and side swapped:
    /// the same game from the other player's seat.
    fn colour_swapped(pos: &Position) -> Position {
        mirrored(&pos_flip(pos))
    }

    fn pos_flip(pos: &Position) -> Position {
        transform(pos, |s| s.flip_rank(), true)
    }

    fn mirrored(pos: &Position) -> Position {
        transform(pos, |s| s.mirror(), false)
    }

    fn transform(pos: &Position, f: impl Fn(Square) -> Square, swap: bool) -> Position {
        let mut board = [None; 90];
        for s in Square::all() {
            if let Some(p) = pos.piece_at(s) {
                let c = if swap { !p.color() } else { p.color() };
                board[f(s).index()] = Some(Piece::new(c, p.kind()));
            }
        }
        let mut fen = String::new();
        for r in (0..10).rev() {
            let mut empty = 0;
            for fl in 0..9 {
                match board[r * 9 + fl] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        let side = if swap {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        fen.push_str(&format!(" {} - - 0 1", side.fen_char()));
        Position::from_fen(&fen, pos.variant()).unwrap()
    }

    #[test]
    fn symmetric_under_mirror_and_colour_swap() {
        let fens = [
            (
                Variant::Xiangqi,
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            ),
            (
                Variant::Xiangqi,
                "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 6",
            ),
            (
                Variant::Xiangqi,
                "3k5/4a4/4b4/9/2p6/9/9/4C4/4A4/3AK4 w - - 0 40",
            ),
            (
                Variant::Janggi,
                "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            ),
            (
                Variant::Janggi,
                "r1ba1a1nr/4k4/1cn2b1c1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1B1NC1/4K4/R1BA1A2R b - - 0 1",
            ),
        ];
        for (v, fen) in fens {
            let pos = Position::from_fen(fen, v).unwrap();
            let e = evaluate(&pos);
            assert_eq!(evaluate(&mirrored(&pos)), e, "mirror {fen}");
            assert_eq!(evaluate(&colour_swapped(&pos)), e, "colour swap {fen}");
            assert!(eval_trace(&pos).contains(&format!("Final evaluation: {e} cp")));
        }
    }

    #[test]
    fn incremental_psq_matches() {
        for v in [Variant::Xiangqi, Variant::Janggi] {
            let mut pos = Position::startpos(v);
            let mut acc = psq(&pos);
            for i in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures so that the capture path is exercised.
                let m = moves
                    .iter()
                    .copied()
                    .find(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
                    .unwrap_or(moves[(i * 7) % moves.len()]);
                let d = psq_delta(&pos, m);
                acc = [acc[0] + d[0], acc[1] + d[1]];
                pos.make_move(m);
                assert_eq!(acc, psq(&pos));
                assert_eq!(evaluate_with_psq(&pos, acc), evaluate(&pos));
            }
        }
    }

    #[test]
    fn material_matters() {
        let full = Position::startpos(Variant::Xiangqi);
        let no_rook = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
            Variant::Xiangqi,
        )
        .unwrap();
        assert!(evaluate(&no_rook) < evaluate(&full) - 400);
    }

    #[test]
    fn a_horse_attacking_a_chariot_is_a_threat() {
        // Red's horse on c3 attacks Black's chariot on d5 (its leg c4 is
        // free); the chariot attacks nothing worth more than itself.
        let fen = "9/4k4/9/9/9/3r5/9/2N6/4K4/9 w - - 0 1";
        let pos = Position::from_fen(fen, Variant::Janggi).unwrap();
        let mut p = params::JANGGI;
        p.threat = [[0, 0]; 8];
        let without = Weights::new(p);
        p.threat[PieceKind::Chariot.index()] = [40, 40];
        let with = Weights::new(p);
        assert_eq!(
            evaluate_with(&pos, &with) - evaluate_with(&pos, &without),
            40
        );
        // A threat on a horse is none from a chariot: only the horse's
        // attack on the chariot counts.
        p.threat[PieceKind::Horse.index()] = [25, 25];
        let both = Weights::new(p);
        assert_eq!(evaluate_with(&pos, &both), evaluate_with(&pos, &with));
        assert!(eval_trace(&pos).contains("Threats"));
    }

    #[test]
    fn soldiers_side_by_side_count_once_per_pair() {
        // Red soldiers on a4 b4 c4 (two pairs) and e4; Black's on a7.
        let fen = "9/4k4/9/p8/9/9/PPP1P4/9/4K4/9 w - - 0 1";
        let pos = Position::from_fen(fen, Variant::Janggi).unwrap();
        let red = pos.pieces(Color::Red, PieceKind::Soldier);
        assert_eq!(soldier_pairs(pos.board(), Color::Red, red), 2);
        let mut p = params::JANGGI;
        p.soldier_pair = [0, 0];
        let without = Weights::new(p);
        p.soldier_pair = [15, 15];
        let with = Weights::new(p);
        assert_eq!(
            evaluate_with(&pos, &with) - evaluate_with(&pos, &without),
            30
        );
    }
}
