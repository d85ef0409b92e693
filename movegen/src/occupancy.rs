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

/// A direction along a file or rank, as seen from Red (`Up` = towards
/// Black's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards higher ranks.
    Up = 0,
    /// Towards lower ranks.
    Down = 1,
    /// Towards higher files.
    Right = 2,
    /// Towards lower files.
    Left = 3,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Right,
        Direction::Left,
    ];
}

/// The first pieces met along a line from a point (see
/// [`crate::Position::scan_line`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineScan {
    /// The first occupied point.
    pub first: Option<crate::Square>,
    /// The second occupied point.
    pub second: Option<crate::Square>,
    /// Empty points before the first piece (to the edge if none).
    pub gap: u8,
    /// Empty points between the first and second piece (to the edge if
    /// there is no second; 0 if there is no first).
    pub gap2: u8,
}

/// Scan from `s` in direction `d` over the line's occupancy `mask`.
#[inline(always)]
pub(crate) fn scan(mask: u32, s: u8, d: usize) -> LineScan {
    let (vertical, line, at, up) = ray_line(s, d);
    let end = if vertical { 9 } else { 8 };
    let edge = |from: u8| if up { end - from } else { from };
    let rest = beyond(mask, at, up);
    let to_square = |i: u8| {
        Some(crate::Square::from_index_unchecked(point(
            vertical, line, i,
        )))
    };
    if rest == 0 {
        return LineScan {
            first: None,
            second: None,
            gap: edge(at),
            gap2: 0,
        };
    }
    let (b1, rest) = nearest(rest, up);
    let gap = b1.abs_diff(at) - 1;
    if rest == 0 {
        return LineScan {
            first: to_square(b1),
            second: None,
            gap,
            gap2: edge(b1),
        };
    }
    let (b2, _) = nearest(rest, up);
    LineScan {
        first: to_square(b1),
        second: to_square(b2),
        gap,
        gap2: b2.abs_diff(b1) - 1,
    }
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
                    let sc = scan(occ.line(vertical, line), s, d);
                    let gap2 = match first {
                        None => 0,
                        Some(f) => {
                            let i = ray.iter().position(|&t| t == f).unwrap_or(0);
                            ray[i + 1..]
                                .iter()
                                .take_while(|&&t| !board[t as usize])
                                .count() as u8
                        }
                    };
                    let sq = |o: Option<u8>| o.map(crate::Square::from_index_unchecked);
                    assert_eq!(
                        (sc.first, sc.second, sc.gap, sc.gap2),
                        (sq(first), sq(second), gap, gap2),
                        "scan: square {s} direction {d}"
                    );
                }
            }
        }
    }
}
