//! Encoding and decoding of headers and records (layout in the crate
//! documentation). Decoding checks every field, so garbage is an error
//! rather than a strange position.

use movegen::{Color, FenError, GameResult, Move, Piece, PieceKind, Position, Square, Variant};

use crate::read::DataErrorKind;

/// The first 12 bytes of every segment header. Byte 11 (`0x1A`) can never
/// be byte 11 of a record, whose occupancy bits 90–95 are zero.
pub const MAGIC: [u8; 12] = *b"JIANGDATA\r\n\x1a";
/// The format version this crate writes and reads.
pub const VERSION: u16 = 1;
/// Bytes in a header and in a record.
pub const RECORD_SIZE: usize = 48;
/// A mate in `n` moves is stored as `MATE_SCORE - n` (and its negation for
/// the side being mated).
pub const MATE_SCORE: i16 = 32_000;

/// How the data of a segment was made: the arguments of `jiang datagen`
/// that decide its content (stored in the header so that a resumed run
/// can check that it continues the same work).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recipe {
    /// The seed of the run.
    pub seed: u64,
    /// Nodes searched per move.
    pub nodes: u32,
    /// Random plies of each opening.
    pub random_plies: u16,
    /// This shard's index (0 ≤ index < count).
    pub shard_index: u32,
    /// The number of shards (1: unsharded).
    pub shard_count: u32,
    /// Win adjudication: the score bound in centipawns.
    pub win_score: u16,
    /// Win adjudication: plies in a row beyond the bound (0: off).
    pub win_plies: u8,
    /// Move cap in plies (0: none).
    pub max_plies: u16,
    /// The evaluation the search used: 0 the classical one, otherwise the
    /// checksum of the network file (its last four bytes, `jiang-nnue`).
    pub network: u32,
}

/// A segment header: the variant of its records and how they were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant of every record of the segment.
    pub variant: Variant,
    /// How the records were made.
    pub recipe: Recipe,
}

/// The variant's code in a header.
fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Xiangqi => 0,
        Variant::Janggi => 1,
        Variant::JanggiTraditional => 2,
        Variant::JanggiModern => 3,
        Variant::JanggiCasual => 4,
    }
}

fn variant_from_code(c: u8) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| variant_code(v) == c)
}

fn u16_at(b: &[u8; RECORD_SIZE], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8; RECORD_SIZE], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn u64_at(b: &[u8; RECORD_SIZE], i: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(x)
}

impl Header {
    /// A header for `variant` made by `recipe`.
    pub fn new(variant: Variant, recipe: Recipe) -> Header {
        Header { variant, recipe }
    }

    /// The 48 bytes of the header.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let r = &self.recipe;
        let mut b = [0u8; RECORD_SIZE];
        b[..12].copy_from_slice(&MAGIC);
        b[12..14].copy_from_slice(&VERSION.to_le_bytes());
        b[14..16].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
        b[16] = variant_code(self.variant);
        b[17] = r.win_plies;
        b[18..20].copy_from_slice(&r.random_plies.to_le_bytes());
        b[20..24].copy_from_slice(&r.nodes.to_le_bytes());
        b[24..32].copy_from_slice(&r.seed.to_le_bytes());
        b[32..36].copy_from_slice(&r.shard_index.to_le_bytes());
        b[36..40].copy_from_slice(&r.shard_count.to_le_bytes());
        b[40..42].copy_from_slice(&r.win_score.to_le_bytes());
        b[42..44].copy_from_slice(&r.max_plies.to_le_bytes());
        b[44..48].copy_from_slice(&r.network.to_le_bytes());
        b
    }

    /// Whether the block starts like a header (the magic).
    pub fn is_header(b: &[u8]) -> bool {
        b.len() >= MAGIC.len() && b[..MAGIC.len()] == MAGIC
    }

    /// Read a header, checking magic, version, record size and variant.
    pub fn decode(b: &[u8; RECORD_SIZE]) -> Result<Header, DataErrorKind> {
        if !Header::is_header(b) {
            return Err(DataErrorKind::NotDataFile);
        }
        let version = u16_at(b, 12);
        if version != VERSION {
            return Err(DataErrorKind::Version(version));
        }
        let size = u16_at(b, 14);
        if size as usize != RECORD_SIZE {
            return Err(DataErrorKind::RecordSize(size));
        }
        let variant = variant_from_code(b[16]).ok_or(DataErrorKind::Variant(b[16]))?;
        let recipe = Recipe {
            seed: u64_at(b, 24),
            nodes: u32_at(b, 20),
            random_plies: u16_at(b, 18),
            shard_index: u32_at(b, 32),
            shard_count: u32_at(b, 36),
            win_score: u16_at(b, 40),
            win_plies: b[17],
            max_plies: u16_at(b, 42),
            network: u32_at(b, 44),
        };
        Ok(Header { variant, recipe })
    }
}

/// A game's result from the first player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The second player (Black / Han) won.
    SecondWins = 0,
    /// Drawn.
    Draw = 1,
    /// The first player (Red / Cho) won.
    FirstWins = 2,
}

impl Outcome {
    /// The outcome of a finished game; `None` for [`GameResult::Ongoing`].
    pub fn from_result(r: GameResult) -> Option<Outcome> {
        match r {
            GameResult::RedWins => Some(Outcome::FirstWins),
            GameResult::BlackWins => Some(Outcome::SecondWins),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Ongoing => None,
        }
    }

    /// The same as the rules core's result.
    pub fn result(self) -> GameResult {
        match self {
            Outcome::FirstWins => GameResult::RedWins,
            Outcome::SecondWins => GameResult::BlackWins,
            Outcome::Draw => GameResult::Draw,
        }
    }

    /// The score of side `c`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, c: Color) -> f64 {
        let first = f64::from(self as u8) / 2.0;
        match c {
            Color::Red => first,
            Color::Black => 1.0 - first,
        }
    }

    fn from_code(c: u8) -> Option<Outcome> {
        match c {
            0 => Some(Outcome::SecondWins),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::FirstWins),
            _ => None,
        }
    }
}

/// The flag bits of a record other than the side to move (bit 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(u8);

impl Flags {
    /// No flag.
    pub const NONE: Flags = Flags(0);
    /// The side to move is in check.
    pub const IN_CHECK: Flags = Flags(1 << 1);
    /// The best move captures a piece.
    pub const CAPTURE: Flags = Flags(1 << 2);
    /// The score is a mate score.
    pub const MATE: Flags = Flags(1 << 3);
    /// The last record of its game.
    pub const LAST: Flags = Flags(1 << 4);
    /// Every flag bit (bits 1–4).
    const ALL: u8 = 0b1_1110;

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any flag of `other` is set.
    pub const fn intersects(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }

    /// The bits (bit 0 always clear).
    pub const fn bits(self) -> u8 {
        self.0
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, o: Flags) -> Flags {
        Flags(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for Flags {
    fn bitor_assign(&mut self, o: Flags) {
        self.0 |= o.0;
    }
}

/// One training position: the position itself (losslessly: board, side to
/// move, counters), the search's score and best move, the game's result
/// and number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The variant (from the segment header; not stored in the record).
    pub variant: Variant,
    /// The board, point by point (index = [`Square::index`]).
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub side_to_move: Color,
    /// Plies since the last capture.
    pub rule_plies: u16,
    /// The full-move number.
    pub fullmove: u16,
    /// The search score, side to move's view, centipawns (mates as
    /// `±(MATE_SCORE - n)`).
    pub score: i16,
    /// The move the search chose.
    pub best: Move,
    /// The game's result.
    pub outcome: Outcome,
    /// Moves played from the game's start position.
    pub ply: u16,
    /// The game's number.
    pub game: u64,
    /// In check, capture, mate score, last of its game.
    pub flags: Flags,
}

impl Record {
    /// The record of `pos` (its board, side to move and counters; `ply`
    /// is its history length), searched to `score` with best move `best`,
    /// in game `game` that ended `outcome`. The in-check, capture and mate
    /// flags are worked out here; `extra` adds others ([`Flags::LAST`]).
    pub fn from_position(
        pos: &Position,
        score: i16,
        best: Move,
        outcome: Outcome,
        game: u64,
        extra: Flags,
    ) -> Record {
        let mut flags = extra;
        if pos.in_check() {
            flags |= Flags::IN_CHECK;
        }
        if !best.is_pass() && pos.piece_at(best.to()).is_some() {
            flags |= Flags::CAPTURE;
        }
        if score.unsigned_abs() > (MATE_SCORE - 1000) as u16 {
            flags |= Flags::MATE;
        }
        Record {
            variant: pos.variant(),
            board: *pos.board(),
            side_to_move: pos.side_to_move(),
            rule_plies: pos.rule_plies(),
            fullmove: pos.fullmove(),
            score,
            best,
            outcome,
            ply: u16::try_from(pos.history_len()).unwrap_or(u16::MAX),
            game,
            flags,
        }
    }

    /// The position (without history), checked as a FEN would be.
    pub fn to_position(&self) -> Result<Position, FenError> {
        Position::from_board(
            &self.board,
            self.side_to_move,
            self.rule_plies,
            self.fullmove,
            self.variant,
        )
    }

    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub fn result_for_side_to_move(&self) -> f64 {
        self.outcome.score_for(self.side_to_move)
    }

    /// Whether this is the last record of its game.
    pub fn is_last(&self) -> bool {
        self.flags.contains(Flags::LAST)
    }

    /// The 48 bytes of the record. A board with more than 32 pieces (not
    /// a position of either game) keeps its first 32.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        let mut n = 0usize;
        for (i, p) in self.board.iter().enumerate() {
            let Some(p) = p else { continue };
            if n == 32 {
                break;
            }
            b[i / 8] |= 1 << (i % 8);
            b[12 + n / 2] |= (p.index() as u8) << (4 * (n % 2));
            n += 1;
        }
        b[28] = self.flags.bits() | self.side_to_move.index() as u8;
        b[29] = self.outcome as u8;
        b[30..32].copy_from_slice(&self.rule_plies.to_le_bytes());
        b[32..34].copy_from_slice(&self.fullmove.to_le_bytes());
        b[34..36].copy_from_slice(&self.score.to_le_bytes());
        b[36] = self.best.from().raw();
        b[37] = self.best.to().raw();
        b[38..40].copy_from_slice(&self.ply.to_le_bytes());
        b[40..48].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// Read a record of a segment of `variant`, checking every field
    /// (not the position's legality: [`Record::to_position`] does that).
    pub fn decode(b: &[u8; RECORD_SIZE], variant: Variant) -> Result<Record, DataErrorKind> {
        let bad = |why| Err(DataErrorKind::BadRecord(why));
        if b[11] & !0b11 != 0 {
            return bad("occupancy bits 90-95 are set");
        }
        let mut board = [None; 90];
        let mut n = 0usize;
        for (i, point) in board.iter_mut().enumerate() {
            if b[i / 8] & (1 << (i % 8)) == 0 {
                continue;
            }
            if n == 32 {
                return bad("more than 32 pieces");
            }
            let code = (b[12 + n / 2] >> (4 * (n % 2))) & 0xf;
            *point = Some(piece_from_code(code).ok_or(DataErrorKind::BadRecord("bad piece code"))?);
            n += 1;
        }
        let unused_nonzero = (n..32).any(|j| (b[12 + j / 2] >> (4 * (j % 2))) & 0xf != 0);
        if unused_nonzero {
            return bad("unused piece codes are not zero");
        }
        if b[28] & !(Flags::ALL | 1) != 0 {
            return bad("unknown flag bits");
        }
        let side_to_move = if b[28] & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let outcome = Outcome::from_code(b[29]).ok_or(DataErrorKind::BadRecord("bad result"))?;
        let (Some(from), Some(to)) = (Square::new(b[36]), Square::new(b[37])) else {
            return bad("best move off the board");
        };
        Ok(Record {
            variant,
            board,
            side_to_move,
            rule_plies: u16_at(b, 30),
            fullmove: u16_at(b, 32),
            score: i16::from_le_bytes([b[34], b[35]]),
            best: Move::new(from, to),
            outcome,
            ply: u16_at(b, 38),
            game: u64_at(b, 40),
            flags: Flags(b[28] & Flags::ALL),
        })
    }
}

/// The piece of a 4-bit code (colour × 8 + kind).
fn piece_from_code(code: u8) -> Option<Piece> {
    let color = if code & 8 == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let kind = PieceKind::ALL.get(usize::from(code & 7).checked_sub(1)?)?;
    let p = Piece::new(color, *kind);
    (p.index() == usize::from(code)).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(piece_from_code(p.index() as u8), Some(p));
            }
        }
        assert_eq!(piece_from_code(0), None);
        assert_eq!(piece_from_code(8), None);
    }

    #[test]
    fn header_round_trip() {
        let h = Header::new(
            Variant::JanggiModern,
            Recipe {
                seed: u64::MAX - 3,
                nodes: 5000,
                random_plies: 8,
                shard_index: 3,
                shard_count: 7,
                win_score: 1000,
                win_plies: 6,
                max_plies: 400,
                network: 0xdead_beef,
            },
        );
        let b = h.encode();
        assert_eq!(b[11], 0x1a);
        assert_eq!(Header::decode(&b), Ok(h));
    }
}
