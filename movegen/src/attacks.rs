//! Attack detection on a board, or on a board as it would be after a move.
//!
//! The legality test of a move does not make it: it looks at the board
//! through [`After`], a view with the origin emptied and the destination
//! occupied by the mover. Because only enemy pieces can attack, a captured
//! enemy piece simply disappears from the view.

use crate::geometry::*;
use crate::occupancy::{blockers, ray_line};
use crate::variant::GameRules;
use crate::{Color, Piece, PieceKind, Square};

/// Read-only access to the contents of the 90 points.
pub(crate) trait BoardView {
    /// The piece on a point (raw index), if any.
    fn at(&self, s: u8) -> Option<Piece>;

    /// Occupancy of the file (`vertical`, bit per rank) or rank (bit per
    /// file) with index `i`. Views without kept masks compute it.
    #[inline]
    fn line(&self, vertical: bool, i: u8) -> u32 {
        let mut m = 0;
        let n = if vertical { 10 } else { 9 };
        for j in 0..n {
            let s = if vertical { j * 9 + i } else { i * 9 + j };
            if self.at(s).is_some() {
                m |= 1 << j;
            }
        }
        m
    }
}

/// The board as stored.
pub(crate) struct Plain<'a>(pub(crate) &'a [Option<Piece>; 90]);

impl BoardView for Plain<'_> {
    #[inline(always)]
    fn at(&self, s: u8) -> Option<Piece> {
        self.0[s as usize]
    }
}

/// A board view after moving `mover` from `from` to `to` (capturing
/// whatever stood there).
pub(crate) struct After<'a, V: BoardView> {
    pub(crate) base: &'a V,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) mover: Piece,
}

impl<V: BoardView> BoardView for After<'_, V> {
    #[inline(always)]
    fn at(&self, s: u8) -> Option<Piece> {
        if s == self.to {
            Some(self.mover)
        } else if s == self.from {
            None
        } else {
            self.base.at(s)
        }
    }

    #[inline(always)]
    fn line(&self, vertical: bool, i: u8) -> u32 {
        let mut m = self.base.line(vertical, i);
        let on_line = |s: u8| if vertical { s % 9 == i } else { s / 9 == i };
        let bit = |s: u8| 1u32 << if vertical { s / 9 } else { s % 9 };
        if on_line(self.from) {
            m &= !bit(self.from);
        }
        if on_line(self.to) {
            m |= bit(self.to);
        }
        m
    }
}

/// Scan one line from a general: true if the first piece met is an enemy
/// chariot (or, in Xiangqi, the enemy general: the flying-general rule), or
/// the piece behind the first one is an enemy cannon (in Janggi the screen
/// may not itself be a cannon).
#[inline(always)]
fn line_attacks<R: GameRules, B: BoardView>(
    b: &B,
    line: &[u8],
    chariot: Piece,
    cannon: Piece,
    general: Piece,
) -> bool {
    let mut it = line.iter();
    let first = loop {
        match it.next() {
            None => return false,
            Some(&s) => {
                if let Some(p) = b.at(s) {
                    break p;
                }
            }
        }
    };
    if first == chariot || (R::FLYING_GENERAL && first == general) {
        return true;
    }
    if R::JUMPING_CANNON && first.kind() == PieceKind::Cannon {
        return false;
    }
    for &s in it {
        if let Some(p) = b.at(s) {
            return p == cannon;
        }
    }
    false
}

/// Whether side `by` attacks the general on `g` along orthogonal direction
/// `d` (see [`ray_line`]). The first two pieces on the line decide: a
/// chariot (Xiangqi: or the general) first, or a cannon second over a valid
/// screen.
#[inline(always)]
fn ortho_line_attacks<R: GameRules, B: BoardView>(b: &B, g: u8, d: usize, by: Color) -> bool {
    let (vertical, line, _, _) = ray_line(g, d);
    let (first, second, _) = blockers(b.line(vertical, line), g, d);
    let Some(p1) = first.and_then(|s| b.at(s)) else {
        return false;
    };
    if p1 == Piece::new(by, PieceKind::Chariot)
        || (R::FLYING_GENERAL && p1 == Piece::new(by, PieceKind::General))
    {
        return true;
    }
    if R::JUMPING_CANNON && p1.kind() == PieceKind::Cannon {
        return false;
    }
    second.is_some_and(|s| b.at(s) == Some(Piece::new(by, PieceKind::Cannon)))
}

/// The orthogonal direction from `g` towards `x`, if they share a file or
/// rank (and differ).
#[inline(always)]
fn ortho_dir(g: u8, x: u8) -> Option<usize> {
    let (gf, gr, xf, xr) = (g % 9, g / 9, x % 9, x / 9);
    if gf == xf {
        match xr.cmp(&gr) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    } else if gr == xr {
        Some(if xf > gf { 2 } else { 3 })
    } else {
        None
    }
}

/// Whether side `by` attacks the general on `g` on the board `b` as it is
/// after a move from `from` to `to`, **given that it did not attack it
/// before the move**. Only what the move changed is examined: the lines
/// from the general through `from` and through `to` (an uncovered line, a
/// new or captured cannon screen, a chariot or cannon arriving), horse legs
/// and Janggi elephant paths through `from`, and, when `mover_is_by`, a
/// horse, soldier or Janggi elephant arriving on `to` (line pieces arriving
/// are covered by the line through `to`). Callers check the result against
/// [`general_attacked`] in debug builds.
#[inline]
pub(crate) fn attacked_after_move<R: GameRules, B: BoardView>(
    b: &B,
    g: u8,
    by: Color,
    from: u8,
    to: u8,
    mover_is_by: bool,
) -> bool {
    let k = g as usize;
    let d_from = ortho_dir(g, from);
    let d_to = ortho_dir(g, to);
    if let Some(d) = d_from {
        if ortho_line_attacks::<R, B>(b, g, d, by) {
            return true;
        }
    }
    if let Some(d) = d_to {
        if d_to != d_from && ortho_line_attacks::<R, B>(b, g, d, by) {
            return true;
        }
    }
    let bit = |m: u128, x: u8| (m >> x) & 1 != 0;
    let [legs, horses, blocks, elephants] = LEAP_MASKS[k];
    if bit(legs, from) || (mover_is_by && bit(horses, to)) {
        let horse = Some(Piece::new(by, PieceKind::Horse));
        for a in HORSE_ATTACKERS[k].as_slice() {
            if (a.b1 == from || (mover_is_by && a.sq == to))
                && b.at(a.sq) == horse
                && b.at(a.b1).is_none()
            {
                return true;
            }
        }
    }
    if R::PALACE_DIAGONALS && (bit(DIAG_MASK[k], from) || bit(DIAG_MASK[k], to)) {
        let (chariot, cannon, general) = (
            Piece::new(by, PieceKind::Chariot),
            Piece::new(by, PieceKind::Cannon),
            Piece::new(by, PieceKind::General),
        );
        for ray in &DIAG_RAYS[k] {
            let ray = ray.as_slice();
            if (ray.contains(&from) || ray.contains(&to))
                && line_attacks::<R, B>(b, ray, chariot, cannon, general)
            {
                return true;
            }
        }
    }
    if R::LONG_ELEPHANT && (bit(blocks, from) || (mover_is_by && bit(elephants, to))) {
        let elephant = Some(Piece::new(by, PieceKind::Elephant));
        for a in ELEPHANT_J_ATTACKERS[k].as_slice() {
            if (a.b1 == from || a.b2 == from || (mover_is_by && a.sq == to))
                && b.at(a.sq) == elephant
                && b.at(a.b1).is_none()
                && b.at(a.b2).is_none()
            {
                return true;
            }
        }
    }
    mover_is_by
        && R::soldier_attackers(by.index(), k).contains(&to)
        && b.at(to) == Some(Piece::new(by, PieceKind::Soldier))
}

/// Whether a move from `from` to `to`, already played on the view `b`,
/// leaves the general on `ks` attacked by side `by` (the mover's side): the
/// check test behind `make_move`'s check flag and `gives_check`.
///
/// With `shortcut`, the defender was not in check before the move (the
/// previous move was an ordinary one, so it was the mover's turn and the
/// mover's rules kept its own general safe, and nothing attacked the
/// defender's). Then only a move that leaves or lands on a point that
/// matters to that general can give check: two mask tests settle most
/// quiet moves, and the rest look only at what the move changed
/// ([`attacked_after_move`]). Without it (after a pass, which may have
/// accepted bikjang in check, or at the start) the whole board is tested.
/// Debug builds check the shortcut against the full test.
#[inline(always)]
pub(crate) fn check_given<R: GameRules, B: BoardView>(
    b: &B,
    ks: u8,
    by: Color,
    from: u8,
    to: u8,
    shortcut: bool,
) -> bool {
    if !shortcut {
        return general_attacked::<R, B>(b, ks, by);
    }
    let k = ks as usize;
    let touched = (R::CHECK_FROM[k] >> from) | (R::CHECK_TO[k] >> to);
    let check = touched & 1 != 0 && attacked_after_move::<R, B>(b, ks, by, from, to, true);
    debug_assert_eq!(
        check,
        general_attacked::<R, B>(b, ks, by),
        "check shortcut after {from}-{to}"
    );
    check
}

/// Whether the general standing on `ks` is attacked by side `by`.
///
/// Only pieces that can ever reach a general are tested: chariots, cannons,
/// horses, soldiers, the flying general (Xiangqi) and elephants (Janggi;
/// Xiangqi elephants never cross the river). Advisors, guards and generals
/// cannot leave their own palace, so never reach the enemy general.
#[inline]
pub(crate) fn general_attacked<R: GameRules, B: BoardView>(b: &B, ks: u8, by: Color) -> bool {
    let chariot = Piece::new(by, PieceKind::Chariot);
    let cannon = Piece::new(by, PieceKind::Cannon);
    let general = Piece::new(by, PieceKind::General);
    let horse = Piece::new(by, PieceKind::Horse);
    let soldier = Piece::new(by, PieceKind::Soldier);
    let k = ks as usize;

    for a in HORSE_ATTACKERS[k].as_slice() {
        if b.at(a.sq) == Some(horse) && b.at(a.b1).is_none() {
            return true;
        }
    }
    for &s in R::soldier_attackers(by.index(), k) {
        if b.at(s) == Some(soldier) {
            return true;
        }
    }
    for d in 0..4 {
        if ortho_line_attacks::<R, B>(b, ks, d, by) {
            return true;
        }
    }
    if R::PALACE_DIAGONALS {
        for ray in &DIAG_RAYS[k] {
            if ray.len > 0 && line_attacks::<R, B>(b, ray.as_slice(), chariot, cannon, general) {
                return true;
            }
        }
    }
    if R::LONG_ELEPHANT {
        let elephant = Piece::new(by, PieceKind::Elephant);
        for a in ELEPHANT_J_ATTACKERS[k].as_slice() {
            if b.at(a.sq) == Some(elephant) && b.at(a.b1).is_none() && b.at(a.b2).is_none() {
                return true;
            }
        }
    }
    false
}

/// Whether the two generals stand on one file with nothing between them.
#[inline]
pub(crate) fn generals_facing<B: BoardView>(b: &B, k1: u8, k2: u8) -> bool {
    if k1 % 9 != k2 % 9 {
        return false;
    }
    let (lo, hi) = if k1 < k2 { (k1, k2) } else { (k2, k1) };
    let mut s = lo + 9;
    while s < hi {
        if b.at(s).is_some() {
            return false;
        }
        s += 9;
    }
    true
}

/// Whether the piece on `from` attacks point `to` — that is, could capture
/// an enemy piece standing there by the piece's movement rules, ignoring
/// whether that would leave its own general in check. `to` may be empty
/// (then: would attack a piece placed there). For a Janggi cannon, a
/// cannon on `to` is never attacked.
pub(crate) fn piece_attacks<R: GameRules, B: BoardView>(b: &B, from: u8, to: u8) -> bool {
    let Some(p) = b.at(from) else { return false };
    let c = p.color().index();
    let f = from as usize;
    match p.kind() {
        PieceKind::General => {
            R::general_steps(c, f).contains(&to)
                || (R::FLYING_GENERAL
                    && b.at(to).is_some_and(|q| q.kind() == PieceKind::General)
                    && generals_facing(b, from, to))
        }
        PieceKind::Advisor => R::advisor_steps(c, f).contains(&to),
        // Xiangqi leaps have `b2 == b1`, so one test covers both games.
        PieceKind::Elephant => R::elephant_leaps(c, f)
            .iter()
            .any(|l| l.sq == to && b.at(l.b1).is_none() && b.at(l.b2).is_none()),
        PieceKind::Horse => HORSE[f]
            .as_slice()
            .iter()
            .any(|l| l.sq == to && b.at(l.b1).is_none()),
        PieceKind::Soldier => R::soldier_steps(c, f).contains(&to),
        PieceKind::Chariot => {
            let mut reaches = false;
            for_each_line::<R>(f, |line| {
                reaches |= slider_reaches(b, line, to, false, false);
            });
            reaches
        }
        PieceKind::Cannon => {
            if R::JUMPING_CANNON && b.at(to).is_some_and(|q| q.kind() == PieceKind::Cannon) {
                return false;
            }
            let mut reaches = false;
            for_each_line::<R>(f, |line| {
                reaches |= slider_reaches(b, line, to, true, R::JUMPING_CANNON);
            });
            reaches
        }
    }
}

/// The points the piece on `from` attacks, as a mask (bit `i` for point
/// `i`): exactly the `to` for which [`piece_attacks`] holds, found in one
/// walk of each line instead of one test per point.
pub(crate) fn attack_mask<R: GameRules, B: BoardView>(b: &B, from: u8) -> u128 {
    let Some(p) = b.at(from) else { return 0 };
    let c = p.color().index();
    let f = from as usize;
    let steps = |list: &[u8]| list.iter().fold(0u128, |m, &s| m | 1 << s);
    match p.kind() {
        PieceKind::General => {
            let mut m = steps(R::general_steps(c, f));
            if R::FLYING_GENERAL {
                // Only the first piece up or down the file can be faced.
                for ray in &RAYS[f][..2] {
                    let first = ray.as_slice().iter().find_map(|&s| b.at(s).map(|q| (s, q)));
                    if let Some((s, _)) = first.filter(|(_, q)| q.kind() == PieceKind::General) {
                        m |= 1 << s;
                    }
                }
            }
            m
        }
        PieceKind::Advisor => steps(R::advisor_steps(c, f)),
        PieceKind::Elephant => R::elephant_leaps(c, f)
            .iter()
            .filter(|l| b.at(l.b1).is_none() && b.at(l.b2).is_none())
            .fold(0, |m, l| m | 1 << l.sq),
        PieceKind::Horse => HORSE[f]
            .as_slice()
            .iter()
            .filter(|l| b.at(l.b1).is_none())
            .fold(0, |m, l| m | 1 << l.sq),
        PieceKind::Soldier => steps(R::soldier_steps(c, f)),
        PieceKind::Chariot => {
            let mut m = 0u128;
            for_each_line::<R>(f, |line| {
                for &s in line {
                    m |= 1 << s;
                    if b.at(s).is_some() {
                        break;
                    }
                }
            });
            m
        }
        PieceKind::Cannon => {
            let mut m = 0u128;
            for_each_line::<R>(f, |line| {
                let mut screened = false;
                for &s in line {
                    let q = b.at(s);
                    let cannon =
                        R::JUMPING_CANNON && q.is_some_and(|q| q.kind() == PieceKind::Cannon);
                    if screened {
                        // Beyond the screen: empty points and the first piece
                        // (never a Janggi cannon).
                        if !cannon {
                            m |= 1 << s;
                        }
                        if q.is_some() {
                            break;
                        }
                    } else if q.is_some() {
                        if cannon {
                            break;
                        }
                        screened = true;
                    }
                }
            });
            m
        }
    }
}

/// Visit the lines a slider on `f` moves along: the four orthogonal rays,
/// then (when the rules have them) the palace diagonals. The one loop over
/// lines shared by the generator and the attack test.
#[inline(always)]
pub(crate) fn for_each_line<R: GameRules>(f: usize, mut visit: impl FnMut(&'static [u8])) {
    for ray in &RAYS[f] {
        visit(ray.as_slice());
    }
    for_each_diagonal::<R>(f, visit);
}

/// Visit the palace diagonals from `f`, if the rules have them.
#[inline(always)]
pub(crate) fn for_each_diagonal<R: GameRules>(f: usize, mut visit: impl FnMut(&'static [u8])) {
    if R::PALACE_DIAGONALS {
        for ray in &DIAG_RAYS[f] {
            visit(ray.as_slice());
        }
    }
}

/// Whether a slider reaches `to` along `line`: a chariot directly, a
/// cannon over exactly one screen (not a cannon in Janggi).
fn slider_reaches<B: BoardView>(
    b: &B,
    line: &[u8],
    to: u8,
    cannon: bool,
    no_cannon_screen: bool,
) -> bool {
    let mut screens = 0;
    for &s in line {
        if s == to {
            return screens == usize::from(cannon);
        }
        if let Some(p) = b.at(s) {
            if !cannon || screens == 1 || (no_cannon_screen && p.kind() == PieceKind::Cannon) {
                return false;
            }
            screens += 1;
        }
    }
    false
}

/// Convert a raw index from a table into a [`Square`].
#[inline(always)]
pub(crate) fn square(s: u8) -> Square {
    Square::from_index_unchecked(s)
}
