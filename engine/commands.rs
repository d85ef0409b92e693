//! Commands every protocol shares: perft/divide, the board picture (`d`),
//! `eval` and the game-result query (`result`); docs/PROTOCOL.md
//! §6 and §7 give the output of `result` and perft.
//!
//! Each returns text (or writes to a writer) so that the protocol decides
//! where it goes; none of them touches protocol state.

use std::fmt::Write as _;
use std::time::Instant;

use movegen::{divide_parallel, move_text, PerftOptions, Position, Ranks, Square, Variant};

/// Deepest perft the protocols accept (depth 9 from the start position
/// already takes hours; the limit keeps a typo from pinning the CPUs).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Result of a divide run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Leaf count under each root move, as text in the requested ranks.
    pub moves: Vec<(String, u64)>,
    /// Sum of all counts.
    pub total: u64,
    /// Wall time, milliseconds.
    pub elapsed_ms: u128,
}

/// Run divide (perft split by root move) on `threads` threads.
pub fn divide(pos: &Position, depth: u32, threads: usize, ranks: Ranks) -> Divide {
    let start = Instant::now();
    let list = if depth == 0 {
        Vec::new()
    } else {
        divide_parallel(pos, depth, threads, PerftOptions::default())
    };
    let total = if depth == 0 {
        1
    } else {
        list.iter().map(|&(_, n)| n).sum()
    };
    Divide {
        moves: list
            .into_iter()
            .map(|(m, n)| (move_text(m, ranks), n))
            .collect(),
        total,
        elapsed_ms: start.elapsed().as_millis(),
    }
}

/// Divide output in the Stockfish-family form perft tools parse:
/// `<move>: <count>` per root move, a blank line, `Nodes searched: <N>`.
pub fn divide_lines(d: &Divide) -> Vec<String> {
    let mut v: Vec<String> = d.moves.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    v.push(String::new());
    v.push(format!("Nodes searched: {}", d.total));
    v
}

/// The squares of the pieces giving check to the side to move.
pub fn checkers(pos: &Position) -> Vec<Square> {
    let us = pos.side_to_move();
    pos.attackers(pos.general(us), !us).into_iter().collect()
}

/// Board picture, FEN, key and checkers (the `d` command).
pub fn display(pos: &Position, ranks: Ranks) -> Vec<String> {
    let sep = "   +---+---+---+---+---+---+---+---+---+".to_string();
    let mut v = vec![String::new(), sep.clone()];
    for rank in (0..10u8).rev() {
        let label = match ranks {
            Ranks::ZeroBased => rank,
            Ranks::OneBased => rank + 1,
        };
        let mut row = format!("{label:>2} |");
        for file in 0..9u8 {
            let c = Square::from_coords(file, rank)
                .and_then(|s| pos.piece_at(s))
                .map_or(' ', |p| p.fen_char());
            let _ = write!(row, " {c} |");
        }
        v.push(row);
        v.push(sep.clone());
    }
    v.push("     a   b   c   d   e   f   g   h   i".into());
    v.push(String::new());
    v.push(format!("Variant: {}", pos.variant().name()));
    v.push(format!("Fen: {}", pos.to_fen()));
    v.push(format!("Key: {:016X}", pos.key()));
    let ch: Vec<String> = checkers(pos)
        .iter()
        .map(|&s| movegen::notation::square_text(s, ranks))
        .collect();
    v.push(format!("Checkers: {}", ch.join(" ")));
    v
}

/// Static evaluation with its breakdown (the `eval` command), and the
/// network's evaluation when `net` is loaded for the game (with whether
/// the search uses it).
pub fn eval_lines(pos: &Position, net: Option<(&search::Network, bool)>) -> Vec<String> {
    let mut v: Vec<String> = search::eval_trace(pos)
        .lines()
        .map(str::to_string)
        .collect();
    if let Some((net, used)) = net {
        let pieces = nnue::piece_count(pos);
        v.push(format!(
            "NNUE evaluation: {} cp (side to move), {:?}, bucket {} of {}, {}",
            net.evaluate_position(pos),
            net,
            nnue::bucket(pieces, net.buckets()) + 1,
            net.buckets(),
            if used {
                "used by the search"
            } else {
                "not used (Use NNUE is off)"
            }
        ));
    }
    v
}

/// `result … reason …` (the text after `info string`).
pub fn result_text(pos: &Position) -> String {
    pos.judge().to_string()
}

/// Parse a variant name and, for Janggi, an optional setup name into a
/// start position (`jiang perft --variant janggi --setup bnnb-nbbn`).
pub fn start_position(variant: Variant, setup: Option<&str>) -> Result<Position, String> {
    match setup {
        None => Ok(Position::startpos(variant)),
        Some(_) if !variant.is_janggi() => Err("only Janggi variants have setups".into()),
        Some(name) => movegen::setups::janggi_setup(name, variant).ok_or_else(|| {
            format!(
                "unknown Janggi setup '{name}' (expected one of {})",
                movegen::setups::janggi_setup_names().join(", ")
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_sums_and_prints() {
        let pos = Position::startpos(Variant::Xiangqi);
        let d = divide(&pos, 2, 1, Ranks::ZeroBased);
        assert_eq!(d.total, 1920);
        assert_eq!(d.moves.len(), 44);
        let lines = divide_lines(&d);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("Nodes searched: 1920")
        );
        assert_eq!(lines[lines.len() - 2], "");
    }

    #[test]
    fn judges_mate_and_running_game() {
        let start = Position::startpos(Variant::Xiangqi);
        assert_eq!(result_text(&start), "result * reason none");
        // Two chariots and a horse mate the black general.
        let mated = Position::from_fen("4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b", Variant::Xiangqi);
        assert!(mated.is_ok());
        if let Ok(p) = mated {
            assert_eq!(result_text(&p), "result 1-0 reason checkmate");
        }
        // No move and not in check: stalemate, a loss in Xiangqi.
        let stale = Position::from_fen("5k3/9/5P3/9/9/9/9/9/9/4K4 b", Variant::Xiangqi);
        assert!(stale.is_ok());
        if let Ok(p) = stale {
            assert_eq!(result_text(&p), "result 1-0 reason stalemate");
        }
    }

    #[test]
    fn janggi_double_pass_counts() {
        let mut p = Position::startpos(Variant::Janggi);
        for _ in 0..2 {
            let pass = p.parse_move("0000", Ranks::ZeroBased);
            assert!(pass.is_ok());
            if let Ok(m) = pass {
                p.make_move(m);
            }
        }
        // Equal material: Han's 1.5 points decide.
        assert_eq!(result_text(&p), "result 0-1 reason double-pass");
    }
}
