//! Correction history: what the search has learnt, during this game, about
//! the static evaluation's errors.
//!
//! After a node is searched, the difference between its search score and
//! its static evaluation is recorded under two keys of the position: the
//! soldiers' placement (both colours) and the material on the board. The
//! next static evaluation of a position sharing those keys is moved by the
//! recorded differences before the pruning margins read it. A
//! hand-written evaluation misjudges some soldier structures and material
//! balances the same way again and again; the search sees it and
//! compensates.
//!
//! The keys are computed here from the piece lists (at most ten soldiers
//! and fourteen kinds' counts), so the position needs no extra hash.

use movegen::{Color, PieceKind, Position};

/// Entries per side in each table (a power of two).
const SIZE: usize = 1 << 14;
/// Most an entry can reach in magnitude; updates approach it with gravity.
const LIMIT: i32 = 1_024;
/// Largest single update.
const MAX_UPDATE: i32 = LIMIT / 4;
/// An entry of `LIMIT` moves the evaluation by `LIMIT / GRAIN` centipawns.
const GRAIN: i32 = 16;
/// An update is the score's difference times the depth over this.
const DEPTH_DIVISOR: i32 = 8;

/// The two keys of a position that its correction is read and written
/// under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CorrectionKeys {
    soldiers: usize,
    material: usize,
}

/// A 64-bit mix (splitmix64's finaliser): distinct inputs spread over
/// every bit, so the low bits index the tables evenly.
#[inline]
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl CorrectionKeys {
    /// The keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let mut soldiers = 0u64;
        let mut material = 0u64;
        for c in Color::BOTH {
            for &s in pos.pieces(c, PieceKind::Soldier) {
                soldiers = soldiers.wrapping_add(mix((c.index() * 90 + s.index() + 1) as u64));
            }
            for k in PieceKind::ALL {
                // Three bits per kind and colour: counts are at most five.
                let shift = 3 * (c.index() * 8 + k.index());
                material |= (pos.count(c, k) as u64) << shift;
            }
        }
        CorrectionKeys {
            soldiers: (mix(soldiers) as usize) & (SIZE - 1),
            material: (mix(material) as usize) & (SIZE - 1),
        }
    }
}

/// The correction tables of both sides.
pub(crate) struct CorrectionHistory {
    soldiers: Box<[[i16; SIZE]; 2]>,
    material: Box<[[i16; SIZE]; 2]>,
}

/// Move `entry` toward the sign of `update` with gravity, so it never
/// leaves `-LIMIT..=LIMIT` and old lessons fade.
#[inline]
fn nudge(entry: &mut i16, update: i32) {
    let v = i32::from(*entry);
    *entry = (v + update - v * update.abs() / LIMIT) as i16;
}

impl CorrectionHistory {
    /// Empty tables.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            soldiers: Box::new([[0; SIZE]; 2]),
            material: Box::new([[0; SIZE]; 2]),
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for t in self.soldiers.iter_mut().chain(self.material.iter_mut()) {
            t.fill(0);
        }
    }

    /// The correction, in centipawns, to add to the static evaluation of
    /// a position with `keys` and `side` to move.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let s = side.index();
        (i32::from(self.soldiers[s][keys.soldiers]) + i32::from(self.material[s][keys.material]))
            / GRAIN
    }

    /// A node with `keys` and `side` to move, searched to `depth`, scored
    /// `diff` centipawns above its (corrected) static evaluation.
    #[inline]
    pub fn update(&mut self, side: Color, keys: CorrectionKeys, diff: i32, depth: i32) {
        let s = side.index();
        let u = (diff * depth / DEPTH_DIVISOR).clamp(-MAX_UPDATE, MAX_UPDATE);
        nudge(&mut self.soldiers[s][keys.soldiers], u);
        nudge(&mut self.material[s][keys.material], u);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    #[test]
    fn corrections_follow_the_errors_and_stay_bounded() {
        let pos = Position::startpos(Variant::Xiangqi);
        let keys = CorrectionKeys::of(&pos);
        let mut ch = CorrectionHistory::new();
        assert_eq!(ch.correction(Color::Red, keys), 0);
        for _ in 0..1_000 {
            ch.update(Color::Red, keys, 500, 20);
        }
        let c = ch.correction(Color::Red, keys);
        assert!((1..=2 * LIMIT / GRAIN).contains(&c), "{c}");
        // The other side's table is untouched.
        assert_eq!(ch.correction(Color::Black, keys), 0);
        for _ in 0..1_000 {
            ch.update(Color::Red, keys, -500, 20);
        }
        let c = ch.correction(Color::Red, keys);
        assert!((-2 * LIMIT / GRAIN..0).contains(&c), "{c}");
        ch.clear();
        assert_eq!(ch.correction(Color::Red, keys), 0);
    }

    #[test]
    fn keys_tell_soldier_structures_and_material_apart() {
        let a = Position::startpos(Variant::Xiangqi);
        let mut b = a.clone();
        // A soldier's move changes the soldier key, not the material key.
        let m = b
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| b.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::Soldier))
            .expect("a soldier move at the start");
        b.make_move(m);
        let (ka, kb) = (CorrectionKeys::of(&a), CorrectionKeys::of(&b));
        assert_ne!(ka.soldiers, kb.soldiers);
        assert_eq!(ka.material, kb.material);
    }
}
