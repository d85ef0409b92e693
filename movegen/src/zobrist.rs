//! Zobrist keys, generated at compile time from a fixed seed so that every
//! run (and every build) hashes positions identically.

use crate::{Color, Piece, SplitMix64, Square};

const SEED: u64 = 0x4a69_616e_6720_7871; // "Jiang xq"

/// Piece-square keys, indexed by [`Piece::index`] then square.
const PIECE_KEYS: [[u64; 90]; 16] = {
    let mut t = [[0u64; 90]; 16];
    let mut rng = SplitMix64::new(SEED);
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            let (next, v) = rng.step();
            rng = next;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key toggled when Black (second player) is to move.
const SIDE_KEY: u64 = SplitMix64::new(SEED ^ 0x5eed).step().1;

/// Key added to [`crate::Position::hash_key`] right after a Janggi pass,
/// when a second pass would end the game.
const PASS_KEY: u64 = SplitMix64::new(SEED ^ 0x9a55).step().1;

/// Key of a piece on a square.
#[inline]
pub(crate) fn piece(p: Piece, s: Square) -> u64 {
    PIECE_KEYS[p.index()][s.index()]
}

/// Key for the side to move.
#[inline]
pub(crate) fn side(c: Color) -> u64 {
    match c {
        Color::Red => 0,
        Color::Black => SIDE_KEY,
    }
}

/// Key toggled by every move.
#[inline]
pub(crate) fn side_toggle() -> u64 {
    SIDE_KEY
}

/// Key marking "the move just played was a pass".
#[inline]
pub(crate) fn after_pass() -> u64 {
    PASS_KEY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(SIDE_KEY);
        all.push(PASS_KEY);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 16 * 90 + 2);
    }
}
