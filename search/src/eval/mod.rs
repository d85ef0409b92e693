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
//! comes from [`params`], and the `jiang-tune` crate (`tune/`) fits them to
//! games. The evaluation
//! is computed from scratch at each node: it only walks the piece lists.

mod king;
mod mobility;
pub mod params;
mod tables;

use king::between_on_file;
use mobility::{
    cannon_mobility, chariot_mobility, coords, leap_mobility, soldier_pairs, soldier_threats,
};
use movegen::leaps;
use movegen::{ByGame, Color, Game, Piece, PieceKind, Position, Square};
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
    pub fn builtin(game: Game) -> &'static Weights {
        BUILTIN.get(game)
    }
}

/// The built-in weights, from [`params::XIANGQI`] and [`params::JANGGI`].
static BUILTIN: ByGame<Weights> =
    ByGame::new(Weights::new(params::XIANGQI), Weights::new(params::JANGGI));

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
            let n = leap_mobility::<false>(b, us, leaps::horse(s), row, &mut threat);
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
                    leap_mobility::<true>(b, us, leaps, row, &mut threat),
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
            let danger = king::danger(pos, p, us);
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

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let w = Weights::builtin(pos.variant().game());
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
    let w = Weights::builtin(pos.variant().game());
    eval_impl::<false>(pos, w, Some(psq)).0
}

#[inline(always)]
fn piece_psq(game: Game, p: Piece, s: Square) -> Pair {
    let w = Weights::builtin(game);
    let m = w.params.material[p.kind().index()];
    let t = i32::from(w.pst[p.color().index()][p.kind().index()][s.index()]);
    [m[0] + t, m[1] + t]
}

/// Material plus piece-square value of the whole board, Red's view,
/// `[mg, eg]`.
pub(crate) fn psq(pos: &Position) -> Pair {
    let game = pos.variant().game();
    let mut v = [0, 0];
    for s in Square::all() {
        if let Some(p) = pos.piece_at(s) {
            let x = piece_psq(game, p, s);
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
    let game = pos.variant().game();
    let (a, b) = (piece_psq(game, p, m.from()), piece_psq(game, p, m.to()));
    let mut d = [b[0] - a[0], b[1] - a[1]];
    if let Some(v) = pos.piece_at(m.to()) {
        // The victim's value disappears (it is the other colour's).
        let x = piece_psq(game, v, m.to());
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
    let w = Weights::builtin(pos.variant().game());
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
mod tests;
