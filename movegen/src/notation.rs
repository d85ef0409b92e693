//! Move text: ICCS coordinates with ranks 0–9 (`h2e2`) or 1–10 (`h3e3`,
//! `a10a9`), and the Janggi pass (`e1e1`/`e2e2`, `0000`, `@@@@`).
//!
//! Parsing has two stages with two error kinds: text that is not a move at
//! all ([`MoveError::Syntax`]) and a well-formed move that is not legal in
//! the position ([`MoveError::Illegal`]).

use std::fmt;

use crate::{Move, Position, Square};

/// How ranks are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Ranks {
    /// Ranks 0–9 (ICCS: UCCI, XBoard, Pikafish-style UCI).
    #[default]
    ZeroBased,
    /// Ranks 1–10 (Fairy-Stockfish UCI).
    OneBased,
}

/// A move read from text before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// From one point to another (equal points: a pass in UCI form).
    Normal(Square, Square),
    /// `0000` or `@@@@`: a pass.
    Pass,
}

/// Why move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in coordinate notation.
    Syntax(String),
    /// A move, but not a legal one here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "not a move: '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move here: '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Read a square like `h2` (or `a10` with one-based ranks) from the start
/// of `s`; returns it and the number of bytes used.
fn parse_square(s: &[u8], ranks: Ranks) -> Option<(Square, usize)> {
    let file = s.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let d1 = *s.get(1)?;
    if !d1.is_ascii_digit() {
        return None;
    }
    let (mut value, mut used) = (u32::from(d1 - b'0'), 2);
    if ranks == Ranks::OneBased && d1 == b'1' && s.get(2) == Some(&b'0') {
        value = 10;
        used = 3;
    }
    let rank = match ranks {
        Ranks::ZeroBased => value,
        Ranks::OneBased => value.checked_sub(1)?,
    };
    Square::from_coords(file - b'a', u8::try_from(rank).ok()?).map(|sq| (sq, used))
}

/// Parse move text without a position.
pub fn parse_move_text(text: &str, ranks: Ranks) -> Result<MoveText, MoveError> {
    let t = text.trim();
    if t == "0000" || t == "@@@@" || t.eq_ignore_ascii_case("pass") {
        return Ok(MoveText::Pass);
    }
    let b = t.as_bytes();
    let syntax = || MoveError::Syntax(t.to_string());
    let (from, n1) = parse_square(b, ranks).ok_or_else(syntax)?;
    let (to, n2) = parse_square(&b[n1..], ranks).ok_or_else(syntax)?;
    if n1 + n2 != b.len() {
        return Err(syntax());
    }
    Ok(MoveText::Normal(from, to))
}

/// Write a square.
pub fn square_text(s: Square, ranks: Ranks) -> String {
    let rank = match ranks {
        Ranks::ZeroBased => s.rank(),
        Ranks::OneBased => s.rank() + 1,
    };
    format!("{}{}", char::from(b'a' + s.file()), rank)
}

/// Write a move (a pass as the general's square twice).
pub fn move_text(m: Move, ranks: Ranks) -> String {
    let mut s = square_text(m.from(), ranks);
    s.push_str(&square_text(m.to(), ranks));
    s
}

impl Position {
    /// Parse move text and check it is legal here.
    pub fn parse_move(&self, text: &str, ranks: Ranks) -> Result<Move, MoveError> {
        let m = match parse_move_text(text, ranks)? {
            MoveText::Pass => {
                if !self.variant().is_janggi() {
                    return Err(MoveError::Illegal(text.trim().to_string()));
                }
                Move::pass(self.general(self.side_to_move()))
            }
            MoveText::Normal(f, t) => Move::new(f, t),
        };
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(text.trim().to_string()))
        }
    }

    /// Play a list of moves given as text; on the first bad one the
    /// position is left unchanged and the error says which move failed.
    pub fn play_text_moves<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
        ranks: Ranks,
    ) -> Result<(), (usize, MoveError)> {
        let mut done = 0usize;
        for (i, t) in moves.into_iter().enumerate() {
            match self.parse_move(t, ranks) {
                Ok(m) => {
                    self.make_move(m);
                    done += 1;
                }
                Err(e) => {
                    for _ in 0..done {
                        self.unmake_move();
                    }
                    return Err((i, e));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn both_rank_styles() {
        let p = Position::startpos(Variant::Xiangqi);
        let a = p.parse_move("h2e2", Ranks::ZeroBased).unwrap();
        let b = p.parse_move("h3e3", Ranks::OneBased).unwrap();
        assert_eq!(a, b);
        assert_eq!(move_text(a, Ranks::OneBased), "h3e3");
        assert_eq!(move_text(a, Ranks::ZeroBased), "h2e2");
        let c = p.parse_move("a10a9", Ranks::OneBased);
        assert!(matches!(c, Err(MoveError::Illegal(_))), "{c:?}");
        assert!(matches!(
            p.parse_move("a10a9", Ranks::ZeroBased),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            p.parse_move("h2e", Ranks::ZeroBased),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            p.parse_move("z2e2", Ranks::ZeroBased),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            p.parse_move("h2e3", Ranks::ZeroBased),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.parse_move("", Ranks::ZeroBased),
            Err(MoveError::Syntax(_))
        ));
    }

    #[test]
    fn janggi_pass_forms() {
        let p = Position::startpos(Variant::Janggi);
        let pass = p.parse_move("e2e2", Ranks::OneBased).unwrap();
        assert!(pass.is_pass());
        assert_eq!(p.parse_move("0000", Ranks::OneBased).unwrap(), pass);
        assert_eq!(p.parse_move("@@@@", Ranks::ZeroBased).unwrap(), pass);
        assert_eq!(p.parse_move("e1e1", Ranks::ZeroBased).unwrap(), pass);
        let x = Position::startpos(Variant::Xiangqi);
        assert!(matches!(
            x.parse_move("0000", Ranks::ZeroBased),
            Err(MoveError::Illegal(_))
        ));
    }
}
