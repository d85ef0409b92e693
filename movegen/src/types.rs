//! Basic value types: squares, colours, piece kinds, pieces and moves.
//!
//! Every type here is a small `Copy` newtype or `#[repr(u8)]` enum so that
//! squares, pieces and moves cannot be confused with plain integers.

use std::fmt;
use std::num::{NonZeroU16, NonZeroU8};

/// Number of files (columns) on the board.
pub const FILES: u8 = 9;
/// Number of ranks (rows) on the board.
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const SQUARES: usize = 90;

/// One of the 90 points of the board.
///
/// Index = `rank * 9 + file`; file 0 is `a` (left as the first player sees
/// it), rank 0 is the first player's back rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(pub(crate) u8);

impl Square {
    /// Square from an index in `0..90`, `None` otherwise.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Square from a file (0..9) and rank (0..10), `None` if off the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// Square from an index the caller has already range-checked.
    ///
    /// Used by the const geometry tables; a debug assertion guards it.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    /// Index in `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Raw index as `u8`.
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// File 0..9 (`a`..`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10 from the first player's back rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The same point seen from the other side (rotated 180 degrees).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// Mirror left-right (file a <-> file i).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// Mirror top-bottom (rank 0 <-> rank 9), keeping the file.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    /// ICCS form with ranks 0–9, e.g. `h2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Side: the first player (Red in Xiangqi, Cho in Janggi) or the second
/// (Black / Han).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// First player: Red (Xiangqi) or Cho (Janggi); `w` in FEN, uppercase.
    Red = 0,
    /// Second player: Black (Xiangqi) or Han (Janggi); `b` in FEN, lowercase.
    Black = 1,
}

impl Color {
    /// Both colours, first player first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// FEN side letter.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// Kind of piece, shared by both games (Janggi's guard is the advisor kind).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum PieceKind {
    /// General / king (`K`).
    General = 1,
    /// Advisor (Xiangqi) or guard (Janggi) (`A`).
    Advisor = 2,
    /// Elephant (`B` or `E`).
    Elephant = 3,
    /// Horse (`N` or `H`).
    Horse = 4,
    /// Chariot (`R`).
    Chariot = 5,
    /// Cannon (`C`).
    Cannon = 6,
    /// Soldier (`P`).
    Soldier = 7,
}

impl PieceKind {
    /// All kinds in code order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index 1..=7 (0 is never used, so tables indexed by kind have 8 rows).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one side has at the start of either game.
    pub const fn max_count(self) -> u8 {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// Uppercase FEN letter (`K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Kind from a FEN letter of either case; accepts `H`/`E` aliases.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::General),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Chariot),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Soldier),
            _ => None,
        }
    }

    const fn from_index(i: u8) -> PieceKind {
        match i {
            1 => PieceKind::General,
            2 => PieceKind::Advisor,
            3 => PieceKind::Elephant,
            4 => PieceKind::Horse,
            5 => PieceKind::Chariot,
            6 => PieceKind::Cannon,
            _ => PieceKind::Soldier,
        }
    }
}

/// A coloured piece. `Option<Piece>` is one byte (0 = empty point).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// Piece of the given colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(((color as u8) << 3) | kind as u8) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    /// Colour of the piece.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Kind of the piece.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index(self.0.get() & 7)
    }

    /// Dense index in `0..16` (colour * 8 + kind), for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// FEN letter: uppercase for Red/Cho, lowercase for Black/Han.
    pub const fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// A move: from-square and to-square in 16 bits. A Janggi pass has
/// `from == to` (the general's square), as in UCI notation.
///
/// Layout: bit 15 always set (so the value is never zero and `Option<Move>`
/// stays 2 bytes), bit 14 clear, bits 7..14 `to`, bits 0..7 `from`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);
const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 1);

impl Move {
    const TAG: u16 = 0x8000;

    /// A normal move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        match NonZeroU16::new(Self::TAG | from.0 as u16 | ((to.0 as u16) << 7)) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// The Janggi pass of a general standing on `general`.
    #[inline]
    pub const fn pass(general: Square) -> Move {
        Move::new(general, general)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0.get() & 0x7f) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0.get() >> 7) & 0x7f) as u8)
    }

    /// Whether this is a (Janggi) pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from().0 == self.to().0
    }

    /// The 16-bit code (what a transposition table stores).
    #[inline]
    pub const fn code(self) -> u16 {
        self.0.get()
    }

    /// Decode a 16-bit code; `None` for codes no move has.
    ///
    /// A decoded move is well formed, not necessarily legal: check it with
    /// [`crate::Position::is_legal`] before playing it.
    #[inline]
    pub const fn from_code(code: u16) -> Option<Move> {
        if code & 0xc000 != Self::TAG {
            return None;
        }
        let from = (code & 0x7f) as u8;
        let to = ((code >> 7) & 0x7f) as u8;
        if from as usize >= SQUARES || to as usize >= SQUARES {
            return None;
        }
        match NonZeroU16::new(code) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    /// ICCS form with ranks 0–9 (`h2e2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Upper bound on the pseudo-legal moves of one side in either game.
///
/// Janggi: chariots 2×19, cannons 2×19, horses 2×8, elephants 2×8, guards
/// 2×8, general 8, soldiers 5 + 4×4, pass 1 = 154; Xiangqi's bound is 119.
pub const MAX_MOVES: usize = 160;

/// A list of moves on the stack.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_round_trip() {
        for f in 0..90u8 {
            for t in 0..90u8 {
                let m = Move::new(Square(f), Square(t));
                assert_eq!(m.from().raw(), f);
                assert_eq!(m.to().raw(), t);
                assert_eq!(Move::from_code(m.code()), Some(m));
            }
        }
        assert_eq!(Move::from_code(0), None);
        assert_eq!(Move::from_code(0x7fff), None);
    }

    #[test]
    fn piece_fields() {
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
            }
        }
    }

    #[test]
    fn square_geometry() {
        let s = Square::from_coords(7, 2).unwrap();
        assert_eq!(s.to_string(), "h2");
        assert_eq!(s.mirror().to_string(), "b2");
        assert_eq!(s.flip().to_string(), "b7");
        assert_eq!(s.flip_rank().to_string(), "h7");
    }
}
