//! The referee's view of the rules: is the game over, and how.
//!
//! The full judgement (perpetual check and chase, Janggi counting and the
//! rest) belongs to the rules core. Until its judgement module is available
//! this file applies a deliberately small subset — no legal move loses,
//! Janggi double pass / accepted bikjang, plain repetition, the move limit
//! and bare generals — so matches can run; [`judge`] is the single place to
//! switch over.

use movegen::{Color, JanggiFallback, PieceKind, Position};

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
/// PROTOCOL.md's `result` reasons).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub reason: String,
}

/// Janggi material points, in tenths (Han's 1.5 bonus makes ties
/// impossible).
pub fn janggi_points_tenths(pos: &Position, c: Color) -> u32 {
    let per = |k: PieceKind| match k {
        PieceKind::Chariot => 130,
        PieceKind::Cannon => 70,
        PieceKind::Horse => 50,
        PieceKind::Elephant | PieceKind::Advisor => 30,
        PieceKind::Soldier => 20,
        PieceKind::General => 0,
    };
    let kinds = [
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Advisor,
        PieceKind::Soldier,
    ];
    let sum: u32 = kinds.iter().map(|&k| per(k) * pos.count(c, k) as u32).sum();
    sum + if c == Color::Black { 15 } else { 0 }
}

/// Janggi counting: the side with more points wins.
pub fn janggi_counting(pos: &Position) -> Outcome {
    if janggi_points_tenths(pos, Color::Red) > janggi_points_tenths(pos, Color::Black) {
        Outcome::FirstWins
    } else {
        Outcome::SecondWins
    }
}

/// How a Janggi game ends "without a winner on the board" under the
/// position's rule set (counting or a draw).
fn janggi_fallback(pos: &Position, reason: &str) -> Verdict {
    let outcome = match pos.variant().janggi_fallback() {
        Some(JanggiFallback::Counting) => janggi_counting(pos),
        _ => Outcome::Draw,
    };
    let reason = if outcome == Outcome::Draw {
        reason.to_string()
    } else {
        "counting".to_string()
    };
    Verdict { outcome, reason }
}

/// The game's verdict after the last move, or `None` while it goes on.
pub fn judge(pos: &Position) -> Option<Verdict> {
    fallback_judge(pos)
}

/// The interim subset of the rules (see the module docs).
fn fallback_judge(pos: &Position) -> Option<Verdict> {
    let us = pos.side_to_move();
    if pos.variant().is_janggi() && pos.janggi_game_ended() {
        let states = pos.states();
        let n = states.len();
        let double_pass = n >= 3 && states[n - 2].last_move.is_some_and(|m| m.is_pass());
        let reason = if double_pass {
            "double-pass"
        } else {
            "bikjang"
        };
        return Some(janggi_fallback(pos, reason));
    }
    if pos.legal_moves().is_empty() {
        let reason = if pos.in_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return Some(Verdict {
            outcome: Outcome::win_for(us.flip()),
            reason: reason.to_string(),
        });
    }
    // Repetition: the same position (same side to move) since the last
    // capture, counted over the history.
    let states = pos.states();
    let key = pos.key();
    let window = (pos.rule_plies() as usize).min(states.len() - 1);
    let seen = states[states.len() - 1 - window..]
        .iter()
        .filter(|s| s.key == key)
        .count();
    if seen >= pos.variant().repetition_count() as usize {
        return Some(if pos.variant().is_janggi() {
            janggi_fallback(pos, "repetition")
        } else {
            Verdict {
                outcome: Outcome::Draw,
                reason: "repetition".to_string(),
            }
        });
    }
    if pos.rule_plies() >= pos.variant().move_limit_plies() {
        return Some(if pos.variant().is_janggi() {
            janggi_fallback(pos, "move-limit")
        } else {
            Verdict {
                outcome: Outcome::Draw,
                reason: "move-limit".to_string(),
            }
        });
    }
    if !pos.variant().is_janggi() {
        let attackers = [
            PieceKind::Chariot,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ];
        let bare = [Color::Red, Color::Black]
            .iter()
            .all(|&c| attackers.iter().all(|&k| pos.count(c, k) == 0));
        if bare {
            return Some(Verdict {
                outcome: Outcome::Draw,
                reason: "insufficient-material".to_string(),
            });
        }
    }
    None
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
    fn bikjang_counting() {
        let mut p =
            Position::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1", Variant::Janggi).unwrap();
        let m = p.parse_move("e10e10", Ranks::OneBased).unwrap();
        p.make_move(m);
        let v = judge(&p).unwrap();
        assert_eq!(v.outcome, Outcome::SecondWins);
        assert_eq!(
            janggi_points_tenths(&Position::startpos(Variant::Janggi), Color::Black),
            735
        );
    }
}
