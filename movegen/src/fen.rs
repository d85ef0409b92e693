//! FEN parsing and writing.
//!
//! Accepted: horse `N` or `H`, elephant `B` or `E`, side `w`/`r` (first
//! player) or `b`, an empty holdings suffix `[]` (Fairy-Stockfish writes it
//! for some variants), and missing trailing fields (defaults `- - 0 1`).
//! Rejected, with a [`FenError`] naming the field and the reason: anything
//! that makes the position unplayable.

use std::fmt;

use crate::attacks::generals_facing;
use crate::geometry::PALACE;
use crate::variant::{with_rules, GameRules};
use crate::{Color, Piece, PieceKind, Position, Square, Variant};

/// Xiangqi start position.
pub const XIANGQI_START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// Janggi start position as Fairy-Stockfish writes it.
pub const JANGGI_START: &str =
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// A FEN field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Field 1: piece placement.
    Board,
    /// Field 2: side to move.
    Side,
    /// Fields 3–4: castling and en passant (always `-`).
    Unused,
    /// Field 5: halfmove clock (plies since the last capture).
    Halfmove,
    /// Field 6: full-move number.
    Fullmove,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Side => "side to move",
            FenField::Unused => "castling/en passant",
            FenField::Halfmove => "halfmove clock",
            FenField::Fullmove => "fullmove number",
        })
    }
}

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board does not have 10 rows.
    RowCount(usize),
    /// A row does not describe exactly 9 points (row 1 is the top row).
    RowWidth {
        /// 1-based row number from the top (Black's side).
        row: usize,
        /// Points the row described.
        width: usize,
    },
    /// A character that is no piece letter or digit.
    UnknownPiece(char),
    /// A side other than `w`, `r` or `b`.
    BadSide(String),
    /// A counter that is not a number, or a text where `-` was expected.
    BadField(FenField, String),
    /// More fields than a FEN has.
    ExtraField(String),
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more than one general.
    ExtraGeneral(Color),
    /// A general stands outside its palace.
    GeneralOutsidePalace(Color, Square),
    /// More pieces of a kind than the game gives a side.
    TooMany(Color, PieceKind),
    /// The side that is not to move is in check (it could be captured).
    OpponentInCheck,
    /// Xiangqi: the generals face each other on an open file.
    GeneralsFacing,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "first player (red/cho)",
        Color::Black => "second player (black/han)",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "FEN board: empty"),
            RowCount(n) => write!(f, "FEN board: {n} rows, expected 10"),
            RowWidth { row, width } => {
                write!(f, "FEN board: row {row} has {width} points, expected 9")
            }
            UnknownPiece(c) => write!(f, "FEN board: unknown piece letter '{c}'"),
            BadSide(s) => write!(f, "FEN side to move: '{s}', expected w, r or b"),
            BadField(field, s) => write!(f, "FEN {field}: '{s}' is not valid"),
            ExtraField(s) => write!(f, "FEN: unexpected extra field '{s}'"),
            MissingGeneral(c) => write!(f, "FEN board: the {} has no general", side_name(*c)),
            ExtraGeneral(c) => {
                write!(
                    f,
                    "FEN board: the {} has more than one general",
                    side_name(*c)
                )
            }
            GeneralOutsidePalace(c, s) => write!(
                f,
                "FEN board: the {} general on {s} is outside its palace",
                side_name(*c)
            ),
            TooMany(c, k) => write!(
                f,
                "FEN board: the {} has more than {} {k:?} pieces",
                side_name(*c),
                k.max_count()
            ),
            OpponentInCheck => write!(f, "FEN side to move: the side not to move is in check"),
            GeneralsFacing => write!(f, "FEN board: the generals face each other"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parse a FEN for a variant.
    pub fn from_fen(fen: &str, variant: Variant) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let board = board.strip_suffix("[]").unwrap_or(board);
        let mut pos = Position::empty(variant);
        parse_board(&mut pos, board)?;

        let side = match fields.next() {
            None => Color::Red,
            Some("w" | "W" | "r" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        // Optional "- -", then counters.
        let rest: Vec<&str> = fields.collect();
        let mut i = 0;
        while i < rest.len() && i < 2 && rest[i].parse::<i64>().is_err() {
            if rest[i] != "-" {
                return Err(FenError::BadField(FenField::Unused, rest[i].to_string()));
            }
            i += 1;
        }
        let mut counter = |field: FenField, default: u16| -> Result<u16, FenError> {
            match rest.get(i) {
                None => Ok(default),
                Some(s) => {
                    i += 1;
                    s.parse::<u16>()
                        .map_err(|_| FenError::BadField(field, s.to_string()))
                }
            }
        };
        let halfmove = counter(FenField::Halfmove, 0)?;
        let fullmove = counter(FenField::Fullmove, 1)?;
        if let Some(extra) = rest.get(i) {
            return Err(if i < 2 && extra.parse::<u16>().is_err() {
                FenError::BadField(FenField::Unused, extra.to_string())
            } else {
                FenError::ExtraField(extra.to_string())
            });
        }

        validate(&pos, side)?;
        pos.finish_setup(side, halfmove, fullmove);
        Ok(pos)
    }

    /// A position from a board given point by point (index = `Square`
    /// index), with the side to move, the halfmove clock and the full-move
    /// number: what a FEN says, without the text. Checked as
    /// [`Position::from_fen`] checks a FEN (the same [`FenError`]s for the
    /// board and side to move), so binary position formats (training data)
    /// need no text round trip.
    pub fn from_board(
        board: &[Option<Piece>; 90],
        side: Color,
        rule_plies: u16,
        fullmove: u16,
        variant: Variant,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty(variant);
        for (sq, p) in Square::all().zip(board) {
            if let Some(p) = *p {
                if !pos.put(p, sq) {
                    return Err(if p.kind() == PieceKind::General {
                        FenError::ExtraGeneral(p.color())
                    } else {
                        FenError::TooMany(p.color(), p.kind())
                    });
                }
            }
        }
        validate(&pos, side)?;
        pos.finish_setup(side, rule_plies, fullmove);
        Ok(pos)
    }

    /// Write the position as FEN (`N`/`B` letters, `w`/`b` side).
    pub fn to_fen(&self) -> String {
        self.to_fen_with(false)
    }

    /// Write the position as FEN; `xboard_letters` uses `H`/`E` for horse
    /// and elephant, as XBoard expects.
    pub fn to_fen_with(&self, xboard_letters: bool) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).unwrap_or(Square(0));
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let mut c = p.fen_char();
                        if xboard_letters {
                            c = match c {
                                'N' => 'H',
                                'n' => 'h',
                                'B' => 'E',
                                'b' => 'e',
                                other => other,
                            };
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move().fen_char());
        s.push_str(&format!(" - - {} {}", self.rule_plies(), self.fullmove()));
        s
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 10 {
        return Err(FenError::RowCount(rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                // Accept "10" style runs as well as single digits.
                let mut n = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                }
                if n == 0 {
                    return Err(FenError::UnknownPiece('0'));
                }
                file += n;
            } else {
                let kind = PieceKind::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                if file < 9 {
                    let sq = Square::from_coords(file as u8, rank).unwrap_or(Square(0));
                    if !pos.put(Piece::new(color, kind), sq) {
                        return Err(if kind == PieceKind::General {
                            FenError::ExtraGeneral(color)
                        } else {
                            FenError::TooMany(color, kind)
                        });
                    }
                }
                file += 1;
            }
            if file > 9 {
                break;
            }
        }
        if file != 9 {
            return Err(FenError::RowWidth {
                row: i + 1,
                width: file,
            });
        }
    }
    Ok(())
}

fn validate(pos: &Position, side: Color) -> Result<(), FenError> {
    for c in Color::BOTH {
        if pos.count(c, PieceKind::General) == 0 {
            return Err(FenError::MissingGeneral(c));
        }
        let g = pos.general(c);
        if !PALACE[c.index()][g.index()] {
            return Err(FenError::GeneralOutsidePalace(c, g));
        }
    }
    let (kr, kb) = (
        pos.general(Color::Red).raw(),
        pos.general(Color::Black).raw(),
    );
    let facing = generals_facing(pos, kr, kb);
    let flying_general = with_rules!(pos.variant().game(), R => R::FLYING_GENERAL);
    if flying_general && facing {
        return Err(FenError::GeneralsFacing);
    }
    // A side in check may pass to accept bikjang (docs/RULES.md §2.2); the
    // position after that pass has the side not to move in check, and the
    // game is over. Such a position is accepted, as Fairy-Stockfish does,
    // so that it can be analysed and judged.
    let bikjang_accepted = !flying_general && pos.variant().has_bikjang() && facing;
    if !bikjang_accepted && pos.general_attacked(!side) {
        return Err(FenError::OpponentInCheck);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_start() {
        for v in [Variant::Xiangqi, Variant::Janggi] {
            let p = Position::from_fen(v.start_fen(), v).unwrap();
            assert_eq!(p.to_fen(), v.start_fen());
        }
    }

    #[test]
    fn from_board_matches_the_fen() {
        let fen = "1bna1ab2/4k1r2/4c1R2/1p1p3pp/3c1N3/P1p6/2P3P1P/2NCC4/4K4/2BA1AB2 b - - 7 19";
        let p = Position::from_fen(fen, Variant::Janggi).unwrap();
        let q = Position::from_board(p.board(), Color::Black, 7, 19, Variant::Janggi).unwrap();
        assert_eq!(q.to_fen(), fen);
        assert_eq!(q.key(), p.key());
        let mut two = *p.board();
        two[0] = Some(Piece::new(Color::Red, PieceKind::General));
        assert!(Position::from_board(&two, Color::Black, 0, 1, Variant::Janggi).is_err());
    }

    #[test]
    fn aliases() {
        let a = Position::from_fen(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
            Variant::Xiangqi,
        )
        .unwrap();
        assert_eq!(a.to_fen(), XIANGQI_START);
        assert_eq!(
            a.to_fen_with(true),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
    }
}
