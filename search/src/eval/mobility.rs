//! Mobility of chariots, cannons, horses and Janggi elephants, and the
//! threats found on the way: attacks on enemy pieces worth more than the
//! attacker. Soldiers' pairs and threats.

use super::params::Pair;
use movegen::leaps::Leap;
use movegen::{Color, Direction, Piece, PieceKind, Position, Square};

#[inline(always)]
pub(super) fn coords(s: Square) -> (i32, i32) {
    (i32::from(s.file()), i32::from(s.rank()))
}

/// Whether the piece on `s` (if any) belongs to the other side.
#[inline(always)]
pub(super) fn enemy_on(b: &[Option<Piece>; 90], us: Color, s: Option<Square>) -> bool {
    s.is_some_and(|s| b[s.index()].is_some_and(|p| p.color() != us))
}

/// The kind of the enemy piece on `s`, if there is one.
#[inline(always)]
pub(super) fn enemy_kind(b: &[Option<Piece>; 90], us: Color, s: Square) -> Option<PieceKind> {
    b[s.index()].filter(|p| p.color() != us).map(|p| p.kind())
}

/// Chariot moves: empty points up to the first piece, plus that piece if
/// it is an enemy.
#[inline(always)]
pub(super) fn chariot_mobility(pos: &Position, us: Color, s: Square) -> i32 {
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
pub(super) fn cannon_mobility(
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
pub(super) fn add_pair(a: &mut Pair, b: Pair) {
    a[0] += b[0];
    a[1] += b[1];
}

/// Where a leap lands: counts as a move unless an own piece stands
/// there, and adds the threat on an enemy piece.
#[inline(always)]
pub(super) fn leap_target(
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

/// Leaps to empty or enemy points, and the threats on the enemy pieces
/// they could capture. `TWO_BLOCKS`: a Janggi elephant, whose two
/// intermediate points must be empty; else a horse, whose single leg is
/// tested once (its second block is the same point).
#[inline(always)]
pub(super) fn leap_mobility<const TWO_BLOCKS: bool>(
    b: &[Option<Piece>; 90],
    us: Color,
    leaps: &[Leap],
    row: &[Pair; 8],
    threat: &mut Pair,
) -> i32 {
    let mut n = 0;
    for l in leaps {
        let free = b[l.first_block().index()].is_none()
            && (!TWO_BLOCKS || b[l.second_block().index()].is_none());
        if free {
            n += leap_target(b, us, l.to(), row, threat);
        }
    }
    n
}

/// Pairs of `us`'s soldiers (on `list`) side by side on one rank.
#[inline(always)]
pub(super) fn soldier_pairs(b: &[Option<Piece>; 90], us: Color, list: &[Square]) -> i32 {
    let soldier = Some(Piece::new(us, PieceKind::Soldier));
    list.iter()
        .filter(|s| s.file() < 8 && b[s.index() + 1] == soldier)
        .count() as i32
}

/// Threats by soldiers: the enemy pieces on the points a soldier steps to
/// (forward and sideways; the Janggi palace diagonals are left out).
#[inline(always)]
pub(super) fn soldier_threats(pos: &Position, us: Color, row: &[Pair; 8], threat: &mut Pair) {
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
