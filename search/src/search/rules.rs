//! How the rules end a game inside the search: mate and stalemate,
//! repetition verdicts, the move limit, the Janggi shuttle rule, passes,
//! bikjang and counting, each scored from the side to move's view.

use crate::MATE;
use movegen::{
    cycle_verdict, janggi_points, move_limit_count, shuttle_violation, CycleVerdict,
    JanggiFallback, Move, PieceKind, Position,
};

/// Score of a draw.
pub(super) const DRAW: i32 = 0;
/// A decided game that is not a mate (Janggi counting): beyond any
/// evaluation, below mate scores.
const DECIDED: i32 = 20_000;

/// The score of a game already ended by rule at this node, before any
/// move: a shuttle violation (Janggi modern), a judged repetition or the
/// move limit.
#[inline]
pub(super) fn rule_end_score(pos: &Position, ply: usize) -> Option<i32> {
    // The shuttle rule comes first: the fifth shuttle move loses even
    // when it also repeats the position.
    if pos.variant().has_shuttle_rule() && shuttle_violation(pos) {
        return Some(DECIDED - ply as i32);
    }
    if let Some(v) = repetition_score(pos, ply) {
        return Some(v);
    }
    move_limit_score(pos, ply)
}

/// Janggi: the score of passing now if the pass is legal and ends the game
/// (a second pass in a row, or a pass accepting bikjang), from the side to
/// move's view; `None` otherwise.
pub(super) fn game_ending_pass_score(pos: &mut Position, ply: usize) -> Option<i32> {
    let us = pos.side_to_move();
    if pos.count(us, PieceKind::General) != 1 {
        return None;
    }
    let after_pass = pos.state().last_move.is_some_and(|m| m.is_pass());
    if !(after_pass || bikjang_stands(pos)) {
        return None;
    }
    let pass = Move::pass(pos.general(us));
    if !pos.is_legal(pass) {
        return None;
    }
    pos.make_move(pass);
    let v = if pos.janggi_game_ended() {
        Some(-terminal_score(pos, ply + 1))
    } else {
        None
    };
    pos.unmake_move();
    v
}

/// Whether Janggi bikjang stands for the side to move (a rule set with
/// bikjang, the generals facing each other on an open file).
#[inline]
pub(super) fn bikjang_stands(pos: &Position) -> bool {
    pos.variant().has_bikjang() && pos.generals_facing()
}

/// The verdict on a repetition of the current position, if it repeats.
///
/// This is the one place where search judges repetitions. A repetition
/// inside the reversible window (since the last capture, and not across a
/// null move of the search) is judged by the rules core's
/// [`movegen::cycle_verdict`]: perpetual check (and in Xiangqi perpetual
/// chase) loses, otherwise a draw (or Janggi counting where the rule set
/// says so). Wins and losses score as decided games, below mate scores.
///
/// When the earlier occurrence is on the search path (at or after the
/// root), the cycle is judged at once: the side that chose to repeat could
/// repeat again. When it lies in the game history before the root, the game
/// would only end at the rule set's occurrence count (third, or fourth in
/// `janggimodern`), so the verdict waits until the position has occurred
/// that often; until then the opponent could still vary.
///
/// These scores depend on the path, not only on the position; they are
/// never stored for the repeating node itself, but they do reach the
/// transposition table through the scores of its ancestors, as in every
/// engine that scores repetitions in search. The error is small because a
/// different path to a stored ancestor rarely changes the verdict.
fn repetition_score(pos: &Position, ply: usize) -> Option<i32> {
    let n = pos.history_len();
    let root = n.saturating_sub(ply);
    let needed = usize::from(pos.variant().repetition_count()).saturating_sub(1);
    for (earlier, back) in pos.repetitions().enumerate() {
        if n - back >= root || earlier + 1 >= needed {
            return Some(match cycle_verdict(pos, back) {
                CycleVerdict::Draw => DRAW,
                CycleVerdict::SideToMoveWins => DECIDED - ply as i32,
                CycleVerdict::SideToMoveLoses => -DECIDED + ply as i32,
            });
        }
    }
    None
}

/// The score when the game ends by the move limit (plies without capture,
/// counted as the rules count them), unless the side to move is in check
/// (it may be mated).
fn move_limit_score(pos: &Position, ply: usize) -> Option<i32> {
    let limit = pos.variant().move_limit_plies();
    // The rule count never exceeds the plain counter: test that first.
    if pos.rule_plies() < limit || pos.in_check() || move_limit_count(pos) < limit {
        return None;
    }
    // No legal move at the limit still loses (rare: test it only here).
    if pos.legal_moves().is_empty() {
        return Some(terminal_score(pos, ply));
    }
    Some(match pos.variant().janggi_fallback() {
        Some(JanggiFallback::Counting) => counting_score(pos, ply),
        _ => DRAW,
    })
}

/// Score of a position without legal moves, from the side to move's view.
pub(crate) fn terminal_score(pos: &Position, ply: usize) -> i32 {
    if pos.variant().is_janggi() && pos.janggi_game_ended() {
        return match pos.variant().janggi_fallback() {
            Some(JanggiFallback::Counting) => counting_score(pos, ply),
            _ => DRAW,
        };
    }
    // Checkmate, or (also a loss in both games) no move at all.
    -MATE + ply as i32
}

/// Janggi counting (points from the rules core; Han's 1.5 makes ties
/// impossible) as a decided result for the side to move.
fn counting_score(pos: &Position, ply: usize) -> i32 {
    let us = pos.side_to_move();
    if janggi_points(pos, us) > janggi_points(pos, !us) {
        DECIDED - ply as i32
    } else {
        -DECIDED + ply as i32
    }
}
