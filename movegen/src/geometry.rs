//! Board geometry as `const` tables, computed at compile time.
//!
//! Squares are stored as raw `u8` indices (`rank * 9 + file`) inside the
//! tables to keep them small; the generator wraps them back into
//! [`Square`](crate::Square). Tables that depend on the side (palaces,
//! river, soldier direction) are indexed by colour first.

use crate::Square;

/// Orthogonal directions as (file delta, rank delta): north (towards Black),
/// south, east (towards file i), west.
pub(crate) const ORTHO: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn sq(file: i8, rank: i8) -> Option<u8> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        Some((rank * 9 + file) as u8)
    } else {
        None
    }
}

pub(crate) const fn file_of(s: usize) -> i8 {
    (s % 9) as i8
}

pub(crate) const fn rank_of(s: usize) -> i8 {
    (s / 9) as i8
}

/// Whether (file, rank) lies in the palace of `color` (0 Red, 1 Black).
pub(crate) const fn in_palace(color: usize, file: i8, rank: i8) -> bool {
    let r0 = if color == 0 { 0 } else { 7 };
    file >= 3 && file <= 5 && rank >= r0 && rank <= r0 + 2
}

/// Whether (file, rank) is in either palace.
const fn in_any_palace(file: i8, rank: i8) -> bool {
    in_palace(0, file, rank) || in_palace(1, file, rank)
}

/// Whether a palace point lies on the palace diagonals (corners and centre).
const fn on_palace_diagonal(file: i8, rank: i8) -> bool {
    if !in_any_palace(file, rank) {
        return false;
    }
    let r = if rank >= 7 { rank - 7 } else { rank };
    let f = file - 3;
    (f == 1 && r == 1) || ((f == 0 || f == 2) && (r == 0 || r == 2))
}

/// Whether a one-point diagonal step between two palace points follows a
/// drawn palace line (corner <-> centre, in the same palace).
const fn palace_diagonal_step(f0: i8, r0: i8, f1: i8, r1: i8) -> bool {
    on_palace_diagonal(f0, r0)
        && on_palace_diagonal(f1, r1)
        && ((f0 == 4) != (f1 == 4))
        && ((in_palace(0, f0, r0) && in_palace(0, f1, r1))
            || (in_palace(1, f0, r0) && in_palace(1, f1, r1)))
}

/// A short list of squares with its length, as used by every table here.
#[derive(Clone, Copy)]
pub(crate) struct Targets<const N: usize> {
    pub(crate) sq: [u8; N],
    pub(crate) len: u8,
}

impl<const N: usize> Targets<N> {
    const EMPTY: Self = Targets { sq: [0; N], len: 0 };

    const fn push(mut self, s: u8) -> Self {
        self.sq[self.len as usize] = s;
        self.len += 1;
        self
    }

    /// The squares as a slice.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.sq[..self.len as usize]
    }
}

/// A leaper step with up to two blocking points: the blockers must be empty.
/// Public, read-only, through [`crate::leaps`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leap {
    /// For a move table: the destination; for an attacker table: the origin.
    pub(crate) sq: u8,
    /// First blocking point (the horse's leg, the elephant's first step).
    pub(crate) b1: u8,
    /// Second blocking point (elephant only; equals `b1` for horses and
    /// Xiangqi elephants so one test covers both).
    pub(crate) b2: u8,
}

impl Leap {
    /// The destination of the leap.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(self.sq)
    }

    /// The first point passed over, which must be empty: the horse's leg,
    /// the elephant's orthogonal step (its eye in Xiangqi).
    #[inline]
    pub const fn first_block(self) -> Square {
        Square::from_index_unchecked(self.b1)
    }

    /// The second point passed over, which must be empty: the Janggi
    /// elephant's diagonal step; the same as [`Leap::first_block`] for
    /// horses and Xiangqi elephants.
    #[inline]
    pub const fn second_block(self) -> Square {
        Square::from_index_unchecked(self.b2)
    }
}

/// Up to eight leaps.
#[derive(Clone, Copy)]
pub(crate) struct Leaps {
    pub(crate) list: [Leap; 8],
    pub(crate) len: u8,
}

impl Leaps {
    const EMPTY: Self = Leaps {
        list: [Leap {
            sq: 0,
            b1: 0,
            b2: 0,
        }; 8],
        len: 0,
    };

    const fn push(mut self, sq: u8, b1: u8, b2: u8) -> Self {
        self.list[self.len as usize] = Leap { sq, b1, b2 };
        self.len += 1;
        self
    }

    /// The leaps as a slice.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Leap] {
        &self.list[..self.len as usize]
    }
}

/// Orthogonal rays: for each square and direction the points in order.
pub(crate) const RAYS: [[Targets<9>; 4]; 90] = {
    let mut t = [[Targets::<9>::EMPTY; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let mut f = file_of(s) + df;
            let mut r = rank_of(s) + dr;
            while let Some(x) = sq(f, r) {
                t[s][d] = t[s][d].push(x);
                f += df;
                r += dr;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Janggi palace-diagonal rays from each square (up to 4 rays of up to 2
/// points each): a corner has one ray through the centre to the opposite
/// corner; the centre has four rays of one point.
pub(crate) const DIAG_RAYS: [[Targets<2>; 4]; 90] = {
    let mut t = [[Targets::<2>::EMPTY; 4]; 90];
    let diags: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = (file_of(s), rank_of(s));
        if on_palace_diagonal(f0, r0) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = diags[d];
                let (mut pf, mut pr) = (f0, r0);
                let (mut f, mut r) = (f0 + df, r0 + dr);
                while let Some(x) = sq(f, r) {
                    if !palace_diagonal_step(pf, pr, f, r) {
                        break;
                    }
                    t[s][d] = t[s][d].push(x);
                    pf = f;
                    pr = r;
                    f += df;
                    r += dr;
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
};

/// Horse moves: destination and leg.
pub(crate) const HORSE: [Leaps; 90] = {
    let mut t = [Leaps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            // Leg one step orthogonally, then one diagonal step outward.
            if let Some(leg) = sq(f + df, r + dr) {
                let mut side = -1;
                while side <= 1 {
                    let (pf, pr) = (dr * side, df * side); // perpendicular
                    if let Some(to) = sq(f + 2 * df + pf, r + 2 * dr + pr) {
                        t[s] = t[s].push(to, leg, leg);
                    }
                    side += 2;
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Horses attacking a square: origin and the leg that must be empty.
pub(crate) const HORSE_ATTACKERS: [Leaps; 90] = {
    let mut t = [Leaps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        let moves = HORSE[s];
        while i < moves.len as usize {
            let m = moves.list[i];
            // Horse at `m.sq` reaches `s`; its leg is the point next to it
            // towards `s` along the long side of the jump.
            let (hf, hr) = (file_of(m.sq as usize), rank_of(m.sq as usize));
            let (df, dr) = (file_of(s) - hf, rank_of(s) - hr);
            let leg = if df == 2 || df == -2 {
                sq(hf + df / 2, hr)
            } else {
                sq(hf, hr + dr / 2)
            };
            if let Some(leg) = leg {
                t[s] = t[s].push(m.sq, leg, leg);
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Xiangqi elephant moves per colour: destination and eye, own side only.
pub(crate) const ELEPHANT_X: [[Leaps; 90]; 2] = {
    let mut t = [[Leaps::EMPTY; 90]; 2];
    let diags: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            let mut d = 0;
            while d < 4 {
                let (df, dr) = diags[d];
                if let (Some(eye), Some(to)) = (sq(f + df, r + dr), sq(f + 2 * df, r + 2 * dr)) {
                    let tr = r + 2 * dr;
                    let own = if c == 0 { tr <= 4 } else { tr >= 5 };
                    if own {
                        t[c][s] = t[c][s].push(to, eye, eye);
                    }
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Janggi elephant moves: one orthogonal step, then two diagonal steps
/// outward; both intermediate points must be empty.
pub(crate) const ELEPHANT_J: [Leaps; 90] = {
    let mut t = [Leaps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (file_of(s), rank_of(s));
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let mut side = -1;
            while side <= 1 {
                let (pf, pr) = (dr * side, df * side);
                if let (Some(b1), Some(b2), Some(to)) = (
                    sq(f + df, r + dr),
                    sq(f + 2 * df + pf, r + 2 * dr + pr),
                    sq(f + 3 * df + 2 * pf, r + 3 * dr + 2 * pr),
                ) {
                    t[s] = t[s].push(to, b1, b2);
                }
                side += 2;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Janggi elephants attacking a square: origin and both blocking points.
pub(crate) const ELEPHANT_J_ATTACKERS: [Leaps; 90] = {
    let mut t = [Leaps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let moves = ELEPHANT_J[from];
        let mut i = 0;
        while i < moves.len as usize {
            let m = moves.list[i];
            let to = m.sq as usize;
            t[to] = t[to].push(from as u8, m.b1, m.b2);
            i += 1;
        }
        from += 1;
    }
    t
};

/// One step in each of `dirs` that stays inside the mover's own palace,
/// per colour and point.
const fn palace_steps(dirs: [(i8, i8); 4]) -> [[Targets<4>; 90]; 2] {
    let mut t = [[Targets::<4>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                if in_palace(c, f + df, r + dr) {
                    if let Some(x) = sq(f + df, r + dr) {
                        t[c][s] = t[c][s].push(x);
                    }
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// Xiangqi general steps per colour: orthogonal, inside its palace.
pub(crate) const GENERAL_X: [[Targets<4>; 90]; 2] = palace_steps(ORTHO);

/// Xiangqi advisor steps per colour: diagonal, inside its palace.
pub(crate) const ADVISOR_X: [[Targets<4>; 90]; 2] =
    palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// Janggi general and guard steps per colour: one point along any palace
/// line, inside its own palace.
pub(crate) const PALACE_STEP_J: [[Targets<8>; 90]; 2] = {
    let mut t = [[Targets::<8>::EMPTY; 90]; 2];
    let all: [(i8, i8); 8] = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            let mut d = 0;
            while d < 8 {
                let (df, dr) = all[d];
                let (nf, nr) = (f + df, r + dr);
                let diagonal = df != 0 && dr != 0;
                if in_palace(c, nf, nr) && (!diagonal || palace_diagonal_step(f, r, nf, nr)) {
                    if let Some(x) = sq(nf, nr) {
                        t[c][s] = t[c][s].push(x);
                    }
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Xiangqi soldier steps per colour: forward; sideways once across the river.
pub(crate) const SOLDIER_X: [[Targets<3>; 90]; 2] = {
    let mut t = [[Targets::<3>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            if let Some(x) = sq(f, r + fwd) {
                t[c][s] = t[c][s].push(x);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if let Some(x) = sq(f - 1, r) {
                    t[c][s] = t[c][s].push(x);
                }
                if let Some(x) = sq(f + 1, r) {
                    t[c][s] = t[c][s].push(x);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Janggi soldier steps per colour: forward or sideways; inside the enemy
/// palace also diagonally forward along a palace line.
pub(crate) const SOLDIER_J: [[Targets<5>; 90]; 2] = {
    let mut t = [[Targets::<5>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = (file_of(s), rank_of(s));
            if let Some(x) = sq(f, r + fwd) {
                t[c][s] = t[c][s].push(x);
            }
            if let Some(x) = sq(f - 1, r) {
                t[c][s] = t[c][s].push(x);
            }
            if let Some(x) = sq(f + 1, r) {
                t[c][s] = t[c][s].push(x);
            }
            let mut side = -1;
            while side <= 1 {
                let (nf, nr) = (f + side, r + fwd);
                if in_palace(1 - c, nf, nr) && palace_diagonal_step(f, r, nf, nr) {
                    if let Some(x) = sq(nf, nr) {
                        t[c][s] = t[c][s].push(x);
                    }
                }
                side += 2;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Invert a per-colour step table: for each target, the origins.
const fn invert<const N: usize>(table: &[[Targets<N>; 90]; 2]) -> [[Targets<5>; 90]; 2] {
    let mut t = [[Targets::<5>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let m = table[c][from];
            let mut i = 0;
            while i < m.len as usize {
                let to = m.sq[i] as usize;
                t[c][to] = t[c][to].push(from as u8);
                i += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

/// Squares from which a Xiangqi soldier of each colour attacks a square.
pub(crate) const SOLDIER_X_ATTACKERS: [[Targets<5>; 90]; 2] = invert(&SOLDIER_X);
/// Squares from which a Janggi soldier of each colour attacks a square.
pub(crate) const SOLDIER_J_ATTACKERS: [[Targets<5>; 90]; 2] = invert(&SOLDIER_J);

/// Which points of a [`Leaps`] list to collect into a mask.
#[derive(Clone, Copy)]
enum LeapPart {
    /// The origin / destination.
    Square,
    /// Both blocking points.
    Blockers,
}

/// The points of a leap list as a mask.
const fn leaps_mask(l: Leaps, part: LeapPart) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < l.len as usize {
        let e = l.list[i];
        m |= match part {
            LeapPart::Square => 1u128 << e.sq,
            LeapPart::Blockers => (1u128 << e.b1) | (1u128 << e.b2),
        };
        i += 1;
    }
    m
}

/// The points of a target list as a mask.
const fn targets_mask<const N: usize>(t: Targets<N>) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < t.len as usize {
        m |= 1u128 << t.sq[i];
        i += 1;
    }
    m
}

/// Per general point: the horse legs and the horse origins that matter to
/// it (`[legs, origins]`), and for Janggi the elephant blocking points and
/// origins. Lets the targeted check test skip the leap tables for the many
/// moves that touch none of these points.
pub(crate) const LEAP_MASKS: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        t[s][0] = leaps_mask(HORSE_ATTACKERS[s], LeapPart::Blockers);
        t[s][1] = leaps_mask(HORSE_ATTACKERS[s], LeapPart::Square);
        t[s][2] = leaps_mask(ELEPHANT_J_ATTACKERS[s], LeapPart::Blockers);
        t[s][3] = leaps_mask(ELEPHANT_J_ATTACKERS[s], LeapPart::Square);
        s += 1;
    }
    t
};

/// Janggi palace diagonals through each general point, as a mask.
pub(crate) const DIAG_MASK: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            t[s] |= targets_mask(DIAG_RAYS[s][d]);
            d += 1;
        }
        s += 1;
    }
    t
};

/// Points whose occupancy can decide whether a general on the indexed
/// point is attacked, per game (0 Xiangqi, 1 Janggi): its lines (file,
/// rank, Janggi palace diagonals), the horse legs next to it and, in Janggi,
/// the elephant paths towards it. A move that leaves none of these points
/// cannot uncover an attack on that general.
pub(crate) const CHECK_FROM: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let [horse_legs, _, elephant_blocks, _] = LEAP_MASKS[s];
        t[0][s] = lines_mask(s, false) | horse_legs;
        t[1][s] = lines_mask(s, true) | horse_legs | elephant_blocks;
        s += 1;
    }
    t
};

/// Points from which a piece landing there may attack a general on the
/// indexed point, per game: its lines (chariots, cannons, cannon screens,
/// the flying general) and every point from which a horse, a soldier of
/// either colour or (Janggi) an elephant could reach it.
pub(crate) const CHECK_TO: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let [_, horses, _, elephants] = LEAP_MASKS[s];
        t[0][s] = lines_mask(s, false)
            | horses
            | targets_mask(SOLDIER_X_ATTACKERS[0][s])
            | targets_mask(SOLDIER_X_ATTACKERS[1][s]);
        t[1][s] = lines_mask(s, true)
            | horses
            | targets_mask(SOLDIER_J_ATTACKERS[0][s])
            | targets_mask(SOLDIER_J_ATTACKERS[1][s])
            | elephants;
        s += 1;
    }
    t
};

const fn lines_mask(s: usize, palace_diagonals: bool) -> u128 {
    let mut m = 0u128;
    let mut d = 0;
    while d < 4 {
        m |= targets_mask(RAYS[s][d]);
        if palace_diagonals {
            m |= targets_mask(DIAG_RAYS[s][d]);
        }
        d += 1;
    }
    m
}

/// Whether a square is inside the palace of `color`.
pub(crate) const PALACE: [[bool; 90]; 2] = {
    let mut t = [[false; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][s] = in_palace(c, file_of(s), rank_of(s));
            s += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: u8) -> String {
        format!("{}{}", (b'a' + s % 9) as char, s / 9)
    }

    #[test]
    fn horse_from_corner() {
        let mut v: Vec<String> = HORSE[1].as_slice().iter().map(|l| name(l.sq)).collect();
        v.sort();
        assert_eq!(v, ["a2", "c2", "d1"]);
    }

    #[test]
    fn palace_diagonals() {
        // d0 corner: ray through e1 to f2.
        let d0 = 3usize;
        let rays: Vec<Vec<String>> = DIAG_RAYS[d0]
            .iter()
            .filter(|r| r.len > 0)
            .map(|r| r.as_slice().iter().map(|&s| name(s)).collect())
            .collect();
        assert_eq!(rays, vec![vec!["e1".to_string(), "f2".to_string()]]);
        // e0 is not on a diagonal.
        assert!(DIAG_RAYS[4].iter().all(|r| r.len == 0));
        // centre e8 has four one-point rays.
        assert_eq!(
            DIAG_RAYS[8 * 9 + 4].iter().filter(|r| r.len == 1).count(),
            4
        );
    }

    #[test]
    fn attacker_tables_invert_moves() {
        for from in 0..90u8 {
            for m in HORSE[from as usize].as_slice() {
                assert!(HORSE_ATTACKERS[m.sq as usize]
                    .as_slice()
                    .iter()
                    .any(|a| a.sq == from && a.b1 == m.b1));
            }
        }
    }

    #[test]
    fn janggi_soldier_palace_diagonal() {
        // Red soldier on d7 (in Black's palace corner) may step to e8.
        let d7 = 7 * 9 + 3;
        let v: Vec<String> = SOLDIER_J[0][d7]
            .as_slice()
            .iter()
            .map(|&s| name(s))
            .collect();
        assert!(v.contains(&"e8".to_string()), "{v:?}");
        // But not from d6 (outside the palace).
        let d6 = 6 * 9 + 3;
        assert_eq!(SOLDIER_J[0][d6].len, 3);
    }
}
