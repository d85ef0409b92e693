//! The referee's view of the rules: is the game over, and how.
//!
//! Judgement itself is the rules core's ([`movegen::Position::judge`]:
//! mate, stalemate, perpetual check and chase, repetition, move limit,
//! material, Janggi bikjang / double pass / counting / shuttle). This file
//! only maps it to match outcomes and adds Janggi counting for the
//! referee's own move cap.

use movegen::{janggi_points, Color, GameResult, Position};

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first player (Red / Cho) won.
    FirstWins,
    /// The second player (Black / Han) won.
    SecondWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::FirstWins => "1-0",
            Outcome::SecondWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The outcome in which `c` wins.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::Red => Outcome::FirstWins,
            Color::Black => Outcome::SecondWins,
        }
    }
}

/// A finished game's result and the rule that ended it (kebab-case, as in
/// PROTOCOL.md's `result` reasons, or `adjudication-…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub reason: String,
}

/// Janggi counting: the side with more points wins (Han's 1.5 bonus
/// makes ties impossible).
pub fn janggi_counting(pos: &Position) -> Outcome {
    if janggi_points(pos, Color::Red) > janggi_points(pos, Color::Black) {
        Outcome::FirstWins
    } else {
        Outcome::SecondWins
    }
}

/// The game's verdict after the last move, or `None` while it goes on.
pub fn judge(pos: &Position) -> Option<Verdict> {
    let v = pos.judge();
    let outcome = match v.result {
        GameResult::Ongoing => return None,
        GameResult::RedWins => Outcome::FirstWins,
        GameResult::BlackWins => Outcome::SecondWins,
        GameResult::Draw => Outcome::Draw,
    };
    Some(Verdict {
        outcome,
        reason: v.reason.as_str().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Ranks, Variant};

    #[test]
    fn mate_and_stalemate_lose() {
        let mut p =
            Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", Variant::Xiangqi).unwrap();
        let m = p.parse_move("a1d1", Ranks::OneBased).unwrap();
        p.make_move(m);
        let v = judge(&p).unwrap();
        assert_eq!(
            (v.outcome, v.reason.as_str()),
            (Outcome::FirstWins, "checkmate")
        );
        let p = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Variant::Xiangqi).unwrap();
        assert_eq!(judge(&p).unwrap().outcome, Outcome::FirstWins);
        assert_eq!(judge(&Position::startpos(Variant::Xiangqi)), None);
    }

    #[test]
    fn bikjang_and_counting() {
        let mut p =
            Position::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1", Variant::Janggi).unwrap();
        let m = p.parse_move("e10e10", Ranks::OneBased).unwrap();
        p.make_move(m);
        let v = judge(&p).unwrap();
        assert_eq!(v.outcome, Outcome::SecondWins);
        assert_eq!(
            janggi_counting(&Position::startpos(Variant::Janggi)),
            Outcome::SecondWins
        );
    }
}
