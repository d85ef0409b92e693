//! One self-play game of `jiang datagen`: a random opening from the
//! game's own seed, then the search at a fixed node budget for both
//! sides until the rules, the win adjudication or the move cap end it.

use data::{Flags, Outcome, Record, MATE_SCORE};
use jiang_match::openings::{random_opening, Rng};
use jiang_match::referee;
use movegen::{Color, GameResult, JanggiFallback, Move, Position};
use search::{Engine, Limits, Score};

use super::DatagenArgs;

/// The seed of game `game` of a run seeded `seed`: the opening and so
/// the whole game depend on these two numbers only.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D).wrapping_add(game)
}

/// The search's score as stored: centipawns, or `±(MATE_SCORE - n)` for
/// a mate in `n` moves.
pub fn stored_score(s: Score) -> i16 {
    let cp_limit = i32::from(MATE_SCORE) - 1000;
    match s {
        Score::Cp(v) => v.clamp(-cp_limit, cp_limit) as i16,
        Score::Mate(n) => {
            let v = i32::from(MATE_SCORE) - n.unsigned_abs().min(999) as i32;
            if n > 0 {
                v as i16
            } else {
                -v as i16
            }
        }
    }
}

/// Search `pos` with a node limit; the move and score, `None` when the
/// search had no move.
fn search(engine: &mut Engine, pos: &Position, nodes: u64) -> Option<(Move, Score)> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let b = engine.search_to_end(pos, limits)?;
    Some((b.best?, b.score))
}

/// Consecutive plies in which the search saw one side winning.
#[derive(Default)]
struct WinRun {
    leader: Option<Color>,
    plies: u32,
}

impl WinRun {
    /// Count a ply whose score, from the first player's view, is
    /// `first_view`; the winner once the run is long enough.
    fn update(&mut self, a: &DatagenArgs, first_view: i32) -> Option<Color> {
        if a.win_plies == 0 || first_view.unsigned_abs() < u32::from(a.win_score) {
            *self = WinRun::default();
            return None;
        }
        let leader = if first_view > 0 {
            Color::Red
        } else {
            Color::Black
        };
        if self.leader == Some(leader) {
            self.plies += 1;
        } else {
            *self = WinRun {
                leader: Some(leader),
                plies: 1,
            };
        }
        (self.plies >= u32::from(a.win_plies)).then_some(leader)
    }
}

/// The result when the move cap ends a game: Janggi counting where the
/// rule set counts, as `jiang match -maxmoves` does; a draw otherwise.
fn move_cap_result(pos: &Position) -> GameResult {
    match pos.variant().janggi_fallback() {
        Some(JanggiFallback::Counting) => referee::janggi_counting(pos),
        _ => GameResult::Draw,
    }
}

/// Play game `game` with `engine`; its records in the order played (none
/// when the opening already ended the game). Fails only when the search
/// finds no move in a position the rules say is not over.
pub fn play(engine: &mut Engine, a: &DatagenArgs, game: u64) -> Result<Vec<Record>, String> {
    let mut rng = Rng::new(game_seed(a.seed, game));
    let opening = random_opening(a.variant, usize::from(a.random_plies), &mut rng);
    let mut pos = opening.start.clone();
    for &m in &opening.moves {
        pos.make_move(m);
    }
    engine.new_game();
    let mut records = Vec::new();
    let mut run = WinRun::default();
    let result = loop {
        if let Some(v) = referee::judge(&pos) {
            break v.result;
        }
        if a.max_plies > 0 && records.len() >= usize::from(a.max_plies) {
            break move_cap_result(&pos);
        }
        let Some((best, score)) = search(engine, &pos, u64::from(a.nodes)) else {
            return Err(format!(
                "game {game}: the search found no move in {}",
                pos.to_fen()
            ));
        };
        let score = stored_score(score);
        records.push(Record::from_position(
            &pos,
            score,
            best,
            Outcome::Draw,
            game,
            Flags::NONE,
        ));
        let first_view = match pos.side_to_move() {
            Color::Red => i32::from(score),
            Color::Black => -i32::from(score),
        };
        pos.make_move(best);
        if let Some(winner) = run.update(a, first_view) {
            break GameResult::win_for(winner);
        }
    };
    let outcome = Outcome::from_result(result).unwrap_or(Outcome::Draw);
    for r in &mut records {
        r.outcome = outcome;
    }
    if let Some(last) = records.last_mut() {
        last.flags |= Flags::LAST;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_stored_with_mates_apart() {
        assert_eq!(stored_score(Score::Cp(57)), 57);
        assert_eq!(stored_score(Score::Cp(-40_000)), -31_000);
        assert_eq!(stored_score(Score::Mate(3)), 31_997);
        assert_eq!(stored_score(Score::Mate(-2)), -31_998);
        assert_eq!(stored_score(Score::Mate(0)), -32_000);
    }
}
