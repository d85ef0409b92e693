//! # nnue — Jiang's efficiently updatable neural network
//!
//! The one implementation of the contract in `docs/NNUE.md`: the network
//! file format with its checks ([`Network::from_bytes`],
//! [`Network::to_bytes`], [`Network::from_weights`]), the input features
//! ([`feature_index`], [`active_features`], [`other_perspective`]), the
//! output bucket ([`bucket`], [`piece_count`]), the accumulators updated
//! move by move ([`Accumulator`], [`AccumulatorStack`]) and the integer
//! evaluation ([`Network::evaluate`]). The trainer (crate `jiang-train`)
//! computes its inputs and writes its files with this crate and adds only
//! the float training, so the two cannot drift apart.
//!
//! Module map:
//! - [`network`]: the weights, the file format and the output layer;
//! - [`accumulator`]: the feature transformer's output per perspective,
//!   refreshed from a position or updated by a move, and the stack the
//!   search pushes and pops with its moves;
//! - [`inputs`]: the input sets a file may declare (plain, or bucketed
//!   by the own general's palace point) and a perspective's [`View`];
//! - [`embedded`](mod@embedded): the networks built into the binary, one
//!   per game (`nnue/nets/`);
//! - [`simd`]: the inner loops in AVX2, SSE2 or NEON, chosen at run time
//!   (the crate's only `unsafe` code), or in plain Rust; every path gives
//!   the same integers.

pub mod accumulator;
pub mod embedded;
pub mod inputs;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, Delta};
pub use embedded::embedded;
pub use inputs::{InputSet, View, GENERAL_BUCKETS};
pub use network::{LoadError, Network};
pub use simd::Isa;

use movegen::{ByGame, Color, Game, Piece, PieceKind, Position, Square};

/// Plain inputs per perspective: 2 sides × 7 kinds × 90 points (the
/// general-bucketed set has [`GENERAL_BUCKETS`] times as many,
/// [`InputSet::inputs`]).
pub const INPUTS: usize = 2 * 7 * 90;
/// Accumulator quantisation: `W1`, `b1` and the accumulator are the float
/// values times `QA`; the activation clamps to `0..=QA`.
pub const QA: i32 = 255;
/// Output-weight quantisation: `W2` is the float value times `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// The newest file format version: 2 has the input-set field; 1, without
/// it, is read as the plain set (`docs/NNUE.md`, File format).
pub const VERSION: u32 = 2;
/// The format version of a plain network's file: 1, so that the plain
/// networks (and every checksum that names one) stay as they were.
pub const VERSION_PLAIN: u32 = 1;
/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"JNNU";
/// Hidden sizes a file may have: a multiple of [`HIDDEN_STEP`] in this
/// range.
pub const HIDDEN_RANGE: std::ops::RangeInclusive<usize> = 8..=2048;
/// Hidden sizes are multiples of this (the chunk the arithmetic works in).
pub const HIDDEN_STEP: usize = 8;
/// Output bucket counts a file may have.
pub const BUCKET_RANGE: std::ops::RangeInclusive<usize> = 1..=16;
/// The hidden size when nothing else is said (the trainer's default).
pub const DEFAULT_HIDDEN: usize = 256;
/// The bucket count when nothing else is said (the trainer's default).
pub const DEFAULT_BUCKETS: usize = 8;

/// The input index of `piece` on `sq` seen from `perspective`
/// (`docs/NNUE.md`, Inputs): `(side * 7 + kind) * 90 + point`, with
/// `side` 0 for the perspective's own pieces, `kind` 0 (general) to 6
/// (soldier), and `point` the square as seen from the perspective's side
/// (ranks flipped for Black/Han). Always below [`INPUTS`]. The engine's
/// accumulators and the trainer (crate `jiang-train`) both call this: it
/// is the one definition of the inputs.
#[inline(always)]
pub const fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = (piece.color().index() != perspective.index()) as usize;
    let kind = piece.kind().index() - 1;
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (side * 7 + kind) * 90 + point
}

/// The active input indices of a board (`Position::board`, or a training
/// record's board) from one perspective, in point order: one per piece.
pub fn active_features(
    board: &[Option<Piece>; 90],
    perspective: Color,
) -> impl Iterator<Item = usize> + '_ {
    Square::all()
        .zip(board)
        .filter_map(move |(s, p)| p.map(|p| feature_index(perspective, p, s)))
}

/// The index of feature `feature` of one perspective as the other
/// perspective sees it: the same piece on the same point, side swapped
/// and board flipped. Both perspectives' inputs of a position follow from
/// one perspective's, which lets the trainer store one list per position.
/// `feature` must be below [`INPUTS`] (an index from [`feature_index`]).
#[inline(always)]
pub fn other_perspective(feature: usize) -> usize {
    usize::from(OTHER_PERSPECTIVE[feature])
}

/// [`other_perspective`] as a table, built at compile time from
/// [`feature_index`] alone: entry `feature_index(Red, p, s)` holds
/// `feature_index(Black, p, s)`. Red's indices cover every input, and
/// swapping sides and flipping the board twice is the identity, so the
/// same table maps Black's indices back to Red's.
static OTHER_PERSPECTIVE: [u16; INPUTS] = {
    let mut t = [0u16; INPUTS];
    let mut point = 0;
    while point < 90 {
        if let Some(sq) = Square::new(point) {
            let mut k = 0;
            while k < PieceKind::ALL.len() {
                let mut c = 0;
                while c < Color::BOTH.len() {
                    let p = Piece::new(Color::BOTH[c], PieceKind::ALL[k]);
                    t[feature_index(Color::Red, p, sq)] = feature_index(Color::Black, p, sq) as u16;
                    c += 1;
                }
                k += 1;
            }
        }
        point += 1;
    }
    t
};

/// The file's game code of each game.
const GAME_CODES: ByGame<u32> = ByGame::new(0, 1);

/// The file's game code: 0 Xiangqi, 1 Janggi.
pub const fn game_code(game: Game) -> u32 {
    *GAME_CODES.get(game)
}

/// The game of a file's game code.
pub const fn game_from_code(code: u32) -> Option<Game> {
    let mut i = 0;
    while i < Game::ALL.len() {
        if *GAME_CODES.get(Game::ALL[i]) == code {
            return Some(Game::ALL[i]);
        }
        i += 1;
    }
    None
}

/// The game's name in messages.
pub const fn game_name(game: Game) -> &'static str {
    match game {
        Game::Xiangqi => "xiangqi",
        Game::Janggi => "janggi",
    }
}

/// The output bucket for a board with `pieces` pieces (generals
/// included) and `buckets` buckets: `min(B - 1, (pieces - 2) * B / 31)`.
#[inline(always)]
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets.saturating_sub(1))
}

/// Pieces on the board, generals included.
#[inline(always)]
pub fn piece_count(pos: &Position) -> usize {
    let mut n = 0;
    for c in Color::BOTH {
        for k in PieceKind::ALL {
            n += pos.count(c, k);
        }
    }
    n
}

/// FNV-1a, 32 bits: the file's checksum and the architecture hash.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The architecture of a network: its input set and sizes, what the
/// header's hash names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    /// The input set.
    pub inputs: InputSet,
    /// Hidden units per perspective (`H`).
    pub hidden: usize,
    /// Output buckets (`B`).
    pub buckets: usize,
}

impl Arch {
    /// A plain network of these sizes.
    pub const fn plain(hidden: usize, buckets: usize) -> Arch {
        Arch {
            inputs: InputSet::Plain,
            hidden,
            buckets,
        }
    }

    /// Whether the file format allows these sizes (`H` a multiple of
    /// [`HIDDEN_STEP`] in [`HIDDEN_RANGE`], `B` in [`BUCKET_RANGE`]).
    pub fn sizes_ok(self) -> bool {
        HIDDEN_RANGE.contains(&self.hidden)
            && self.hidden % HIDDEN_STEP == 0
            && BUCKET_RANGE.contains(&self.buckets)
    }

    /// The format version its file is written in: [`VERSION_PLAIN`] for
    /// the plain set, [`VERSION`] otherwise.
    pub const fn version(self) -> u32 {
        match self.inputs {
            InputSet::Plain => VERSION_PLAIN,
            InputSet::GeneralBuckets => VERSION,
        }
    }
}

/// The architecture string of a network, whose FNV-1a hash is in the file
/// header (`docs/NNUE.md`, File format). The plain set keeps version 1's
/// string, so its files did not change.
pub fn architecture(arch: Arch) -> String {
    let Arch {
        inputs,
        hidden,
        buckets,
    } = arch;
    let tail = format!("x{hidden}x2x{buckets} screlu qa{QA} qb{QB} s{SCALE}");
    match inputs {
        InputSet::Plain => format!("jiang-nnue-v1 {INPUTS}{tail}"),
        InputSet::GeneralBuckets => format!(
            "jiang-nnue-v2 general-buckets-mirrored {}{tail}",
            inputs.inputs()
        ),
    }
}

/// The architecture hash of the header.
pub fn architecture_hash(arch: Arch) -> u32 {
    fnv1a32(architecture(arch).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    #[test]
    fn feature_index_follows_the_contract() {
        let red_soldier = Piece::new(Color::Red, PieceKind::Soldier);
        let a0 = Square::from_coords(0, 0);
        let a9 = Square::from_coords(0, 9);
        assert!(a0.is_some() && a9.is_some());
        if let (Some(a0), Some(a9)) = (a0, a9) {
            // Own soldier (kind 6) on a0 from Red: (0*7+6)*90 + 0.
            assert_eq!(feature_index(Color::Red, red_soldier, a0), 540);
            // The same piece from Black: the other side (1), a0 seen as a9.
            assert_eq!(
                feature_index(Color::Black, red_soldier, a0),
                (7 + 6) * 90 + a9.index()
            );
            let black_general = Piece::new(Color::Black, PieceKind::General);
            assert_eq!(feature_index(Color::Black, black_general, a9), 0);
        }
        for s in Square::all() {
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for p in Color::BOTH {
                        assert!(feature_index(p, Piece::new(c, k), s) < INPUTS);
                    }
                }
            }
        }
    }

    #[test]
    fn the_other_perspective_swaps_side_and_flips_the_board() {
        for sq in Square::all() {
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    let p = Piece::new(c, k);
                    let red = feature_index(Color::Red, p, sq);
                    let black = feature_index(Color::Black, p, sq);
                    assert_eq!(other_perspective(red), black);
                    assert_eq!(other_perspective(black), red);
                }
            }
        }
    }

    #[test]
    fn start_position_looks_the_same_from_both_sides() {
        // Both games start symmetric, so both perspectives see the same
        // features.
        for v in [Variant::Xiangqi, Variant::Janggi] {
            let pos = Position::startpos(v);
            let mut red: Vec<usize> = active_features(pos.board(), Color::Red).collect();
            let mut black: Vec<usize> = active_features(pos.board(), Color::Black).collect();
            red.sort_unstable();
            black.sort_unstable();
            assert_eq!(red.len(), 32);
            if v == Variant::Xiangqi {
                assert_eq!(red, black);
            }
        }
    }

    #[test]
    fn buckets_cover_the_range() {
        assert_eq!(bucket(2, 8), 0);
        assert_eq!(bucket(32, 8), 7);
        assert_eq!(bucket(0, 8), 0);
        assert_eq!(bucket(40, 8), 7);
        assert_eq!(bucket(32, 1), 0);
        assert_eq!(bucket(17, 16), 7);
    }

    #[test]
    fn fnv_matches_the_reference_values() {
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(
            architecture(Arch::plain(256, 8)),
            "jiang-nnue-v1 1260x256x2x8 screlu qa255 qb64 s400"
        );
        assert_eq!(
            architecture(Arch {
                inputs: InputSet::GeneralBuckets,
                hidden: 256,
                buckets: 8
            }),
            "jiang-nnue-v2 general-buckets-mirrored 7560x256x2x8 screlu qa255 qb64 s400"
        );
    }
}
