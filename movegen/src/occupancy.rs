//! Occupancy of each file and rank as a bit mask, kept next to the mailbox.
//!
//! Sliding pieces (chariots, cannons) and the line tests around a general
//! only care about the first and second occupied point along a line. With
//! one small mask per file (10 bits, one per rank) and per rank (9 bits, one
//! per file), those are found with a shift and a trailing/leading-zero count
//! instead of walking the line point by point. The mailbox stays the one
//! source of truth for what stands where; the masks only say *whether*.

use crate::geometry::{file_of, rank_of};

/// One bit per point of every file and every rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Occupancy {
    /// `files[f]` bit `r`: point (file f, rank r) is occupied.
    files: [u16; 9],
    /// `ranks[r]` bit `f`: point (file f, rank r) is occupied.
    ranks: [u16; 10],
}

impl Occupancy {
    /// Mark point `s` occupied.
    #[inline(always)]
    pub(crate) fn set(&mut self, s: u8) {
        let (f, r) = (file_of(s as usize) as usize, rank_of(s as usize) as usize);
        self.files[f] |= 1 << r;
        self.ranks[r] |= 1 << f;
    }

    /// Mark point `s` empty.
    #[inline(always)]
    pub(crate) fn clear(&mut self, s: u8) {
        let (f, r) = (file_of(s as usize) as usize, rank_of(s as usize) as usize);
        self.files[f] &= !(1 << r);
        self.ranks[r] &= !(1 << f);
    }

    /// The mask of the file (`vertical`) or rank with index `i`.
    #[inline(always)]
    pub(crate) fn line(&self, vertical: bool, i: u8) -> u32 {
        u32::from(if vertical {
            self.files[i as usize]
        } else {
            self.ranks[i as usize]
        })
    }
}

/// How direction `d` of [`crate::geometry::RAYS`] (up, down, right, left)
/// runs through the line masks from point `s`: `(vertical, line index,
/// position on the line, towards higher bits)`.
#[inline(always)]
pub(crate) fn ray_line(s: u8, d: usize) -> (bool, u8, u8, bool) {
    let (f, r) = (file_of(s as usize) as u8, rank_of(s as usize) as u8);
    match d {
        0 => (true, f, r, true),
        1 => (true, f, r, false),
        2 => (false, r, f, true),
        _ => (false, r, f, false),
    }
}

/// The occupied points of `mask` strictly beyond position `at` in the given
/// direction, as a mask.
#[inline(always)]
pub(crate) fn beyond(mask: u32, at: u8, up: bool) -> u32 {
    if up {
        mask & !((2u32 << at) - 1)
    } else {
        mask & ((1u32 << at) - 1)
    }
}

/// The nearest set bit of a non-empty `beyond` mask in the direction, and
/// the mask without it.
#[inline(always)]
pub(crate) fn nearest(mask: u32, up: bool) -> (u8, u32) {
    debug_assert!(mask != 0);
    let b = if up {
        mask.trailing_zeros()
    } else {
        31 - mask.leading_zeros()
    };
    (b as u8, mask & !(1 << b))
}

/// The point at position `i` of a file (`vertical`) or rank with index
/// `line`.
#[inline(always)]
pub(crate) fn point(vertical: bool, line: u8, i: u8) -> u8 {
    if vertical {
        i * 9 + line
    } else {
        line * 9 + i
    }
}

/// The first two occupied points from `s` in direction `d` (see
/// [`ray_line`]) given the line's mask, and the number of empty points
/// before the first one.
#[inline(always)]
pub(crate) fn blockers(mask: u32, s: u8, d: usize) -> (Option<u8>, Option<u8>, u8) {
    let (vertical, line, at, up) = ray_line(s, d);
    let rest = beyond(mask, at, up);
    let len = if up {
        (if vertical { 9 } else { 8 }) - at
    } else {
        at
    };
    if rest == 0 {
        return (None, None, len);
    }
    let (b1, rest) = nearest(rest, up);
    let gap = b1.abs_diff(at) - 1;
    let first = Some(point(vertical, line, b1));
    if rest == 0 {
        return (first, None, gap);
    }
    let (b2, _) = nearest(rest, up);
    (first, Some(point(vertical, line, b2)), gap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::RAYS;

    /// `blockers` agrees with walking the ray on random occupancies.
    #[test]
    fn blockers_match_ray_walk() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut occ = Occupancy::default();
            let mut board = [false; 90];
            for (s, b) in board.iter_mut().enumerate() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed % 3 == 0 {
                    *b = true;
                    occ.set(s as u8);
                }
            }
            for s in 0..90u8 {
                for (d, ray) in RAYS[s as usize].iter().enumerate() {
                    let (vertical, line, _, _) = ray_line(s, d);
                    let got = blockers(occ.line(vertical, line), s, d);
                    let ray = ray.as_slice();
                    let mut hits = ray.iter().copied().filter(|&t| board[t as usize]);
                    let first = hits.next();
                    let second = hits.next();
                    let gap = ray.iter().take_while(|&&t| !board[t as usize]).count() as u8;
                    assert_eq!(got, (first, second, gap), "square {s} direction {d}");
                }
            }
        }
    }
}
