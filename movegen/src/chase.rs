//! Xiangqi chase detection (docs/RULES.md §1.3), on plain boards.
//!
//! A move by side S *chases* an enemy piece V when, after the move, S has a
//! qualifying capture of V that it did not have before the move. A capture
//! `a × v` qualifies when:
//! - the attacker is not a general or a soldier, and the capture is legal
//!   for S (so a pinned attacker only counts against its pinner);
//! - the victim is not the general and not a soldier on its own side of
//!   the river;
//! - a horse or cannon takes a chariot, or an advisor or elephant takes a
//!   chariot, horse or cannon (these count even against protected pieces);
//! - otherwise V has no legal recapture after the capture (a pinned
//!   protector or a general that may not recapture is a fake root; a check
//!   standing when the capture is threatened makes no root fake), and
//!   for equal kinds V could not legally take the attacker itself (else it
//!   is an offer to exchange).
//!
//! "New" is judged per (attacker, victim) pair, the moved piece keeping its
//! identity, and only by the ways docs/RULES.md lists: the moved piece's own
//! captures (unless it had the same one before, as a chariot sliding along
//! its line of attack), attacks that did not exist before (a discovered
//! line, a new cannon screen, a freed horse leg), and existing attacks
//! whose victim lost its protection through the move ("protection
//! removed"): a protector just became pinned, or the screen of a
//! protecting cannon was taken away or doubled (then only when that is all
//! the move does, see [`chased_by_move`]). An attack that existed and
//! persists is not
//! new otherwise, even if a protector's line was blocked or the attacker
//! was unpinned.
//!
//! Whether a move threatens mate (a "kill", which never counts as a chase)
//! needs legal move generation and is decided in `judge.rs`.
//!
//! Everything here is computed lazily, at judgement time, by replaying the
//! few moves of a repetition cycle on a copy of the board; make/unmake and
//! perft pay nothing for it.

use crate::attacks::{general_attacked, piece_attacks, After, Plain};
use crate::variant::XiangqiRules;
use crate::{Color, Move, Piece, PieceKind};

/// The 90 points of a board.
pub(crate) type Board = [Option<Piece>; 90];

/// Victims of one move (squares of the chased enemy pieces after the move).
pub(crate) type Victims = arrayvec::ArrayVec<u8, 16>;

/// Squares of up to 16 pieces of one side.
type Squares = arrayvec::ArrayVec<u8, 16>;

/// Square of a colour's general, if on the board. Generals never leave
/// their palace, so only the nine palace points are searched.
fn general_square(b: &Board, c: Color) -> Option<u8> {
    let base: u8 = if c == Color::Red { 0 } else { 63 };
    let general = Piece::new(c, PieceKind::General);
    (0..3u8)
        .flat_map(|r| (3..6u8).map(move |f| base + r * 9 + f))
        .find(|&s| b[s as usize] == Some(general))
}

/// Whether the piece on `from` may legally capture (or move) to `to`,
/// judged only by the safety of its own general afterwards: the caller has
/// already established that the piece attacks `to`. Either side may be
/// asked, whoever is to move.
fn legal_capture(b: &Board, from: u8, to: u8) -> bool {
    let Some(mover) = b[from as usize] else {
        return false;
    };
    let c = mover.color();
    let ks = if mover.kind() == PieceKind::General {
        to
    } else {
        match general_square(b, c) {
            Some(s) => s,
            // No general: nothing can be exposed.
            None => return true,
        }
    };
    let view = After {
        base: &Plain(b),
        from,
        to,
        mover,
    };
    !general_attacked::<XiangqiRules, _>(&view, ks, !c)
}

/// Whether the piece on `from` attacks `to` (by movement rules only).
#[inline]
fn attacks(b: &Board, from: u8, to: u8) -> bool {
    piece_attacks::<XiangqiRules, _>(&Plain(b), from, to)
}

/// The pieces of colour `by` that attack the point `s`, as a mask (bit `i`
/// for point `i`).
fn attackers_of(b: &Board, s: u8, by: Color) -> u128 {
    (0..90u8)
        .filter(|&x| b[x as usize].is_some_and(|p| p.color() == by) && attacks(b, x, s))
        .fold(0, |m, x| m | 1u128 << x)
}

/// The pieces checking the general of colour `c` on the board, as a mask;
/// 0 when it is not in check (the usual case, tested first).
fn checkers(b: &Board, c: Color) -> u128 {
    match general_square(b, c) {
        Some(ks) if general_attacked::<XiangqiRules, _>(&Plain(b), ks, !c) => {
            attackers_of(b, ks, !c)
        }
        _ => 0,
    }
}

/// Whether the piece on `from` attacks `to` and may take there, judged by
/// the safety of its own general afterwards, where a check by the pieces
/// in `checking` does not count: those already give check on the board on
/// which the capture is threatened, and the threatened side answers that
/// check before the threat can be carried out (docs/RULES.md §1.3,
/// "protected piece": a check voids no protection). With `checking` 0 this
/// is plain legality. A general must still move to a safe point.
fn may_take(b: &Board, from: u8, to: u8, checking: u128) -> bool {
    if !attacks(b, from, to) {
        return false;
    }
    let Some(p) = b[from as usize] else {
        return false;
    };
    if checking == 0 || p.kind() == PieceKind::General {
        return legal_capture(b, from, to);
    }
    let mut after = *b;
    after[to as usize] = Some(p);
    after[from as usize] = None;
    match general_square(&after, p.color()) {
        Some(ks) => attackers_of(&after, ks, !p.color()) & !checking == 0,
        None => true,
    }
}

/// Whether a piece may be the victim of a chase where it stands: not the
/// general, not a soldier that has not crossed the river.
fn chaseable(p: Piece, s: u8) -> bool {
    match p.kind() {
        PieceKind::General => false,
        PieceKind::Soldier => {
            let rank = s / 9;
            match p.color() {
                Color::Red => rank >= 5,
                Color::Black => rank <= 4,
            }
        }
        _ => true,
    }
}

/// Whether an attacker of this kind may chase at all (generals and
/// soldiers chase freely).
fn can_chase(k: PieceKind) -> bool {
    !matches!(k, PieceKind::General | PieceKind::Soldier)
}

/// Attacks that count against a protected piece: a weaker piece on a
/// stronger one.
fn counts_when_protected(attacker: PieceKind, victim: PieceKind) -> bool {
    use PieceKind::*;
    match attacker {
        Horse | Cannon => victim == Chariot,
        Advisor | Elephant => matches!(victim, Chariot | Horse | Cannon),
        _ => false,
    }
}

/// Whether the victim on `v` has a legal recapture once the piece on `a`
/// has taken it (a check standing on `b` voids none, see [`may_take`]).
fn protected_after_capture(b: &Board, a: u8, v: u8) -> bool {
    let Some(attacker) = b[a as usize] else {
        return false;
    };
    let mut after = *b;
    after[v as usize] = Some(attacker);
    after[a as usize] = None;
    let defender = !attacker.color();
    let checking = checkers(b, defender);
    (0..90u8).any(|r| {
        after[r as usize].is_some_and(|p| p.color() == defender) && may_take(&after, r, v, checking)
    })
}

/// Whether `a × v` is a qualifying capture (see the module docs).
fn qualifies(b: &Board, a: u8, v: u8) -> bool {
    let (Some(attacker), Some(victim)) = (b[a as usize], b[v as usize]) else {
        return false;
    };
    if !attacks(b, a, v) || !legal_capture(b, a, v) {
        return false;
    }
    if counts_when_protected(attacker.kind(), victim.kind()) {
        return true;
    }
    if protected_after_capture(b, a, v) {
        return false;
    }
    if attacker.kind() == victim.kind() {
        // An offer to exchange, unless the victim cannot take back.
        return !may_take(b, v, a, checkers(b, victim.color()));
    }
    true
}

/// The pieces of side `s` that may chase, and the enemy pieces that may be
/// chased (restricted to the squares in `only`, when given).
fn chase_candidates(b: &Board, s: Color, only: Option<&[u8]>) -> (Squares, Squares) {
    let mut ours = Squares::new();
    let mut theirs = Squares::new();
    for (i, p) in b.iter().enumerate() {
        let Some(p) = *p else { continue };
        let i = i as u8;
        if p.color() == s {
            if can_chase(p.kind()) && !ours.is_full() {
                ours.push(i);
            }
        } else if chaseable(p, i) && only.map_or(true, |o| o.contains(&i)) && !theirs.is_full() {
            theirs.push(i);
        }
    }
    (ours, theirs)
}

/// Play a move on a plain board (no legality test).
pub(crate) fn apply(b: &mut Board, m: Move) {
    if m.is_pass() {
        return;
    }
    let (from, to) = (m.from().index(), m.to().index());
    b[to] = b[from];
    b[from] = None;
}

/// Take a move back on a plain board, restoring what it captured.
pub(crate) fn revert(b: &mut Board, m: Move, captured: Option<Piece>) {
    if m.is_pass() {
        return;
    }
    let (from, to) = (m.from().index(), m.to().index());
    b[from] = b[to];
    b[to] = captured;
}

/// The enemy pieces that the move `m`, played on board `before`, chases
/// (their squares, which the move does not change unless it captured).
/// With `only`, just those victims are examined (the search for a
/// perpetual chase needs no others once it has candidates).
///
/// A victim left unprotected only by a screen change (docs/RULES.md §1.3,
/// "protection removed") counts only when that is all the move does: the
/// move chases nothing in another way and blocks no enemy attack on the
/// mover's pieces. The book's appendix diagram, a soldier stepping in and
/// out of a protecting cannon's line, is such a move; a chariot that leaves
/// the line while making its own attack (the two chariots of diagrams
/// 71–75, case 106 of `tests/data/xiangqi_wxf_book.tsv`) or a horse that
/// doubles the screen while blocking an attack on its own chariot (diagram
/// 61) chases nobody by the screen change.
pub(crate) fn chased_by_move(before: &Board, m: Move, only: Option<&[u8]>) -> Victims {
    if m.is_pass() {
        return Victims::new();
    }
    let Some(mover) = before[m.from().index()] else {
        return Victims::new();
    };
    let mut after = *before;
    apply(&mut after, m);
    let (direct, screen) = new_captures(before, &after, m, mover.color(), only);
    if screen.is_empty() || !direct.is_empty() {
        return direct;
    }
    // Only screen changes: they count when they are the move's whole point.
    if only.is_some()
        && !new_captures(before, &after, m, mover.color(), None)
            .0
            .is_empty()
    {
        return direct;
    }
    if blocks_attack(before, &after, mover.color(), m.to().raw()) {
        return direct;
    }
    screen
}

/// The victims of the move `m` (from `before` to `after`, played by `us`):
/// those it attacks anew, and apart from them those it leaves unprotected
/// only by changing the screen of a protecting cannon.
fn new_captures(
    before: &Board,
    after: &Board,
    m: Move,
    us: Color,
    only: Option<&[u8]>,
) -> (Victims, Victims) {
    let (mut direct, mut screen) = (Victims::new(), Victims::new());
    let (from, to) = (m.from().raw(), m.to().raw());
    let (ours, theirs) = chase_candidates(after, us, only);
    for &v in &theirs {
        let mut by_screen = false;
        let chased = ours.iter().any(|&a| {
            if !qualifies(after, a, v) {
                return false;
            }
            if a == to {
                // The moved piece: new unless it already had this capture
                // from where it stood (a chariot sliding along its line).
                !qualifies(before, from, v)
            } else if !attacks(before, a, v) {
                // A discovered line, a new cannon screen, a freed leg.
                true
            } else {
                // The attack was there before: new only if it did not
                // qualify and the move took away the victim's protection,
                // by pinning a protector (a fake root) or by changing the
                // screen of a protecting cannon (family C, counted by the
                // caller). Blocking a protector's line, or unpinning one's
                // own attacker, is not a new threat (reference cases 22
                // and 31).
                if qualifies(before, a, v) {
                    return false;
                }
                match protector_lost(before, after, a, v) {
                    Lost::None => false,
                    Lost::Pinned => true,
                    Lost::Screen => {
                        by_screen = true;
                        false
                    }
                }
            }
        });
        if chased && !direct.is_full() {
            direct.push(v);
        } else if by_screen && !screen.is_full() {
            screen.push(v);
        }
    }
    (direct, screen)
}

/// Whether the move (from `before` to `after`, played by `us`, the moved
/// piece now on `to`) blocks an enemy attack on another piece of `us`.
fn blocks_attack(before: &Board, after: &Board, us: Color, to: u8) -> bool {
    (0..90u8).any(|p| {
        p != to
            && after[p as usize].is_some_and(|q| q.color() == us)
            && after[p as usize] == before[p as usize]
            && (0..90u8).any(|e| {
                after[e as usize].is_some_and(|q| q.color() != us)
                    && attacks(before, e, p)
                    && !attacks(after, e, p)
            })
    })
}

/// How the move took away a protector of a victim (see [`protector_lost`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lost {
    /// No protector was lost.
    None,
    /// A protector is now pinned (a fake root).
    Pinned,
    /// A protecting cannon lost its screen, or got a second one.
    Screen,
}

/// Whether the move took away a protector of the victim on `v` against
/// `a × v` (docs/RULES.md §1.3, "protection removed"): some piece that could
/// legally recapture on `v` after `a × v` on the board `before` still
/// stands where it stood but may no longer recapture, because it is now
/// pinned (a fake root) or because it is a cannon whose screen the move
/// took away or doubled. A chariot's or horse's line merely blocked does
/// not count, as the book does not count it (reference cases 22 and 23).
fn protector_lost(before: &Board, after: &Board, a: u8, v: u8) -> Lost {
    let capture = |b: &Board| -> Option<Board> {
        let attacker = b[a as usize]?;
        let mut c = *b;
        c[v as usize] = Some(attacker);
        c[a as usize] = None;
        Some(c)
    };
    let (Some(cb), Some(ca)) = (capture(before), capture(after)) else {
        return Lost::None;
    };
    let Some(victim) = before[v as usize] else {
        return Lost::None;
    };
    let defender = victim.color();
    let (check_before, check_after) = (checkers(before, defender), checkers(after, defender));
    let mut lost = Lost::None;
    for r in 0..90u8 {
        let Some(p) = cb[r as usize] else { continue };
        if r == v || p.color() != defender || ca[r as usize] != Some(p) {
            continue;
        }
        if !may_take(&cb, r, v, check_before) {
            continue;
        }
        if attacks(&ca, r, v) {
            if !may_take(&ca, r, v, check_after) {
                return Lost::Pinned;
            }
        } else if p.kind() == PieceKind::Cannon {
            lost = Lost::Screen;
        }
    }
    lost
}
