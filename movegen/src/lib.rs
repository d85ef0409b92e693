//! # movegen — the rules of Xiangqi and Janggi
//!
//! Board representation (a 90-point mailbox with per-side piece lists),
//! legal move generation, make/unmake with a state stack, Zobrist hashing,
//! FEN, move text, perft and static exchange evaluation for both games.
//! No search, no protocol: a GUI, a referee or a trainer can use this crate
//! alone.
//!
//! ```
//! use movegen::{perft, Position, Variant};
//! let mut pos = Position::startpos(Variant::Xiangqi);
//! assert_eq!(perft(&mut pos, 3), 79_666);
//! ```

mod attacks;
mod by_game;
mod chase;
pub mod fen;
mod generate;
mod geometry;
pub mod judge;
pub mod leaps;
pub mod notation;
mod occupancy;
pub mod perft;
mod play;
mod position;
mod rng;
mod see;
pub mod setups;
mod types;
mod variant;
mod zobrist;

pub use by_game::ByGame;
pub use fen::{FenError, FenField};
pub use judge::{
    chased_by_last_move, cycle_verdict, janggi_points, last_move_is_kill, move_limit_count,
    shuttle_violation, CycleVerdict, GameResult, Reason, Verdict,
};
pub use notation::{move_text, parse_move_text, MoveError, MoveText, Ranks};
pub use occupancy::{Direction, LineScan};
pub use perft::{divide, perft, perft_with, PerftOptions};
#[cfg(feature = "parallel")]
pub use perft::{divide_parallel, perft_parallel};
pub use play::IllegalMove;
pub use position::{Position, State};
pub use rng::SplitMix64;
pub use see::SeeValues;
pub use types::{
    Color, Move, MoveList, Piece, PieceKind, Square, FILES, MAX_MOVES, RANKS, SQUARES,
};
pub use variant::{Game, JanggiFallback, UnknownVariant, Variant};
