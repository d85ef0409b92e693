//! # data — training positions of Xiangqi and Janggi
//!
//! The file format `jiang datagen` writes and `jiang tune` (and a network
//! trainer) reads: self-play positions with the search's score, the
//! game's result and the game's number. This crate owns the format only
//! (encoding, a streaming [`Reader`] with typed errors, and a [`Summary`]
//! for `jiang datagen --stats`); it depends on the rules core alone, so a
//! trainer can read the data without the engine.
//!
//! ## The format (version 1), byte by byte
//!
//! A file is one or more *segments*; a segment is a 48-byte header
//! followed by 48-byte records. All integers are little-endian. Files
//! concatenate: `cat shard-*.bin > all.bin` is a valid file, because a
//! header can be told from a record at any 48-byte boundary (byte 11 of a
//! record is at most 3, byte 11 of a header is `0x1A`).
//!
//! Header:
//!
//! | bytes  | type | meaning |
//! |--------|------|---------|
//! | 0–11   | 12 B | magic `4A 49 41 4E 47 44 41 54 41 0D 0A 1A` (`JIANGDATA\r\n\x1a`) |
//! | 12–13  | u16  | format version: 1 |
//! | 14–15  | u16  | record size: 48 |
//! | 16     | u8   | variant: 0 `xiangqi`, 1 `janggi`, 2 `janggitraditional`, 3 `janggimodern`, 4 `janggicasual` |
//! | 17     | u8   | win adjudication: plies in a row (0: off) |
//! | 18–19  | u16  | random plies of the openings |
//! | 20–23  | u32  | nodes searched per move |
//! | 24–31  | u64  | seed |
//! | 32–35  | u32  | shard index I (0 ≤ I < N) |
//! | 36–39  | u32  | shard count N |
//! | 40–41  | u16  | win adjudication: centipawns |
//! | 42–43  | u16  | move cap in plies (0: none) |
//! | 44–47  | u32  | evaluation of the search: 0 classical, otherwise the network file's checksum (its last 4 bytes) |
//!
//! Bytes 17–47 record how the data was made ([`Recipe`]); readers need
//! only the variant. Files written before bytes 44–47 named the network
//! have zero there, which is what they mean: the classical evaluation.
//!
//! Record (one position):
//!
//! | bytes  | type | meaning |
//! |--------|------|---------|
//! | 0–11   | 96 bits | occupancy: bit `i` (byte `i / 8`, bit `i % 8`) is set when point `i` is occupied; point = rank × 9 + file, rank 0 the first player's back rank, file 0 the a-file; bits 90–95 zero |
//! | 12–27  | 32 × 4 bits | the pieces of the occupied points in point order, the first in the low half of byte 12: colour × 8 + kind (colour 0 first player Red/Cho, 1 second player Black/Han; kind 1 general, 2 advisor/guard, 3 elephant, 4 horse, 5 chariot, 6 cannon, 7 soldier); unused halves zero (at most 32 pieces) |
//! | 28     | u8   | flags: bit 0 side to move (0 first player, 1 second); bit 1 the side to move is in check; bit 2 the best move captures; bit 3 the score is a mate score; bit 4 last record of its game; bits 5–7 zero |
//! | 29     | u8   | game result, **first player's view**: 0 the second player won, 1 draw, 2 the first player won |
//! | 30–31  | u16  | halfmove clock: plies since the last capture (FEN field 5) |
//! | 32–33  | u16  | full-move number (FEN field 6) |
//! | 34–35  | i16  | search score, **side to move's view**, centipawns; a mate in `n` moves is `32000 − n`, being mated in `n` is `−(32000 − n)` (and bit 3 is set) |
//! | 36     | u8   | best move: from point |
//! | 37     | u8   | best move: to point (equal to from: a Janggi pass) |
//! | 38–39  | u16  | ply: moves played from the game's start position (random opening moves included) |
//! | 40–47  | u64  | game number |
//!
//! A record holds the whole position (board, side to move, both
//! counters: its FEN), not its history. A game's records are consecutive
//! and in the order played; every
//! position the search moved from is written (the random opening moves
//! are not), noisy ones included: readers filter by the flags (a tuner
//! of the static evaluation skips positions in check, with a capture as
//! best move, or with a mate score, and under bikjang rules those whose
//! generals face each other).
//!
//! ```
//! use data::{Reader, Record, Header, Recipe, Outcome, Flags};
//! use movegen::{Position, Variant, Move};
//! let pos = Position::startpos(Variant::Xiangqi);
//! let best = pos.legal_moves()[0];
//! let rec = Record::from_position(&pos, 25, best, Outcome::Draw, 7, Flags::LAST);
//! let mut bytes = Header::new(Variant::Xiangqi, Recipe::default()).encode().to_vec();
//! bytes.extend(rec.encode());
//! let back: Vec<Record> = Reader::new(&bytes[..]).collect::<Result<_, _>>().unwrap();
//! assert_eq!(back[0].to_position().unwrap().to_fen(), pos.to_fen());
//! ```

mod format;
mod read;
mod stats;

pub use format::{Flags, Header, Outcome, Recipe, Record, MAGIC, MATE_SCORE, RECORD_SIZE, VERSION};
pub use read::{DataError, DataErrorKind, Reader};
pub use stats::Summary;
