//! The referee's view of the rules: is the game over, and how.
//!
//! Judgement itself is the rules core's ([`movegen::Position::judge`]:
//! mate, stalemate, perpetual check and chase, repetition, move limit,
//! material, Janggi bikjang / double pass / counting / shuttle); its
//! [`Verdict`] is used as it is. This file adds Janggi counting for the
//! referee's own move cap.

use movegen::{janggi_points, Color, GameResult, Position, Verdict};

/// Janggi counting: the side with more points wins (Han's 1.5 bonus
/// makes ties impossible).
pub fn janggi_counting(pos: &Position) -> GameResult {
    if janggi_points(pos, Color::Red) > janggi_points(pos, Color::Black) {
        GameResult::RedWins
    } else {
        GameResult::BlackWins
    }
}

/// The rules core's verdict after the last move, or `None` while the game
/// goes on.
pub fn judge(pos: &Position) -> Option<Verdict> {
    let v = pos.judge();
    v.is_over().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Ranks, Reason, Variant};

    #[test]
    fn mate_and_stalemate_lose() {
        let mut p =
            Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", Variant::Xiangqi).unwrap();
        let m = p.parse_move("a1d1", Ranks::OneBased).unwrap();
        p.make_move(m);
        let v = judge(&p).unwrap();
        assert_eq!(
            (v.result, v.reason),
            (GameResult::RedWins, Reason::Checkmate)
        );
        let p = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Variant::Xiangqi).unwrap();
        assert_eq!(judge(&p).unwrap().result, GameResult::RedWins);
        assert_eq!(judge(&Position::startpos(Variant::Xiangqi)), None);
    }

    #[test]
    fn bikjang_and_counting() {
        let mut p =
            Position::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1", Variant::Janggi).unwrap();
        let m = p.parse_move("e10e10", Ranks::OneBased).unwrap();
        p.make_move(m);
        let v = judge(&p).unwrap();
        assert_eq!(v.result, GameResult::BlackWins);
        assert_eq!(
            janggi_counting(&Position::startpos(Variant::Janggi)),
            GameResult::BlackWins
        );
    }
}
