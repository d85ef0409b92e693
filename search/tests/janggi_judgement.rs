//! Janggi judgement: positions from games Jiang lost to fairy-stockfish at
//! 10s+0.1s, where both the result and a deep search of the other engine
//! say the side to move is losing (`search/tests/data/janggi_judgement.tsv`;
//! its origin is in `search/tests/data/README.md`).
//!
//! Before the Janggi evaluation was fitted (docs/RESULTS.md, "Janggi
//! evaluation fits"), Jiang's depth-8 search scored 9 of
//! the 40 as better than +0.5 for the losing side: it valued the pieces as
//! Xiangqi-like guesses (elephants and guards high, chariots and horses in
//! the endgame low), so it walked into endgames it thought it was winning.
//! A shallow search must now agree with the verdict on nearly all of them.

mod search_common;

use movegen::{Position, Variant};
use search::{Limits, Score};
use search_common::search_with;

const DATA: &str = include_str!("data/janggi_judgement.tsv");

/// Search depth of each position.
const DEPTH: u32 = 6;
/// A score above this (centipawns, side to move) calls a lost position won.
const WRONG_ABOVE: i32 = 50;
/// How many of the positions may still be misjudged.
const MAX_WRONG: usize = 4;

#[test]
fn lost_janggi_positions_are_not_scored_as_won() {
    let mut wrong = Vec::new();
    let mut total = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fen = line.split('\t').next().unwrap_or_default();
        let pos = Position::from_fen(fen, Variant::Janggi).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let b = search_with(
            &pos,
            Limits {
                depth: Some(DEPTH),
                ..Limits::default()
            },
        );
        total += 1;
        let won = match b.score {
            Score::Cp(v) => v > WRONG_ABOVE,
            Score::Mate(n) => n > 0,
        };
        if won {
            wrong.push(format!("{:?} {fen}", b.score));
        }
    }
    assert_eq!(total, 40, "the data file has 40 positions");
    assert!(
        wrong.len() <= MAX_WRONG,
        "{} of {total} lost positions scored as won:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
