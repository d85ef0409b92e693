//! Perft: count the leaf nodes of the legal move tree, with bulk counting at
//! the last ply; single-threaded and parallel (rayon, with the `parallel`
//! feature) versions, and divide.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::{Move, Position};

/// Options of a perft run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftOptions {
    /// Apply the Janggi game-end cut-off (no moves after a double pass or an
    /// accepted bikjang), as Fairy-Stockfish does. On by default.
    pub game_end: bool,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions { game_end: true }
    }
}

fn moves(pos: &Position, opts: PerftOptions) -> crate::MoveList {
    if opts.game_end {
        pos.legal_moves()
    } else {
        pos.legal_moves_ignoring_game_end()
    }
}

/// Leaf count of the move tree to `depth` plies.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_with(pos, depth, PerftOptions::default())
}

/// [`perft`] with options.
pub fn perft_with(pos: &mut Position, depth: u32, opts: PerftOptions) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = moves(pos, opts);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in &list {
        pos.make_move(m);
        n += perft_with(pos, depth - 1, opts);
        pos.unmake_move();
    }
    n
}

/// Leaf counts below each root move (depth ≥ 1).
pub fn divide(pos: &mut Position, depth: u32, opts: PerftOptions) -> Vec<(Move, u64)> {
    let list = moves(pos, opts);
    list.iter()
        .map(|&m| {
            pos.make_move(m);
            let n = perft_with(pos, depth.saturating_sub(1), opts);
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

/// [`divide`] on `threads` threads (rayon), splitting the tree two plies
/// deep so that the work balances even with few root moves.
#[cfg(feature = "parallel")]
pub fn divide_parallel(
    pos: &Position,
    depth: u32,
    threads: usize,
    opts: PerftOptions,
) -> Vec<(Move, u64)> {
    let threads = threads.max(1);
    let run = || {
        let roots = moves(pos, opts);
        roots
            .par_iter()
            .map(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                let n = if depth <= 2 {
                    perft_with(&mut p, depth.saturating_sub(1), opts)
                } else {
                    let replies = moves(&p, opts);
                    replies
                        .par_iter()
                        .map(|&r| {
                            let mut q = p.clone();
                            q.make_move(r);
                            perft_with(&mut q, depth - 2, opts)
                        })
                        .sum()
                };
                (m, n)
            })
            .collect::<Vec<_>>()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => {
            let mut p = pos.clone();
            divide(&mut p, depth, opts)
        }
    }
}

/// Parallel perft total.
#[cfg(feature = "parallel")]
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize, opts: PerftOptions) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide_parallel(pos, depth, threads, opts)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}
