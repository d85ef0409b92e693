//! # search — the Jiang engine's brain
//!
//! A protocol-free [`Engine`]: the protocol front-ends turn text into
//! [`Engine::go`] / [`Engine::stop`] calls and the `on_info` / `on_done`
//! callbacks back into text. Inside: iterative deepening with aspiration
//! windows over a principal-variation search (PVS) with quiescence, a
//! lockless transposition table shared by Lazy SMP threads, time
//! management, and two evaluations per game: the network of crate `nnue`
//! (both games have one embedded; the engine plays it when given it,
//! [`Engine::set_network`]) and the classical evaluation, whose terms
//! all live in [`eval::params`].
//!
//! Module map:
//! - [`engine`]: the `Engine` object, the search threads and their results.
//! - `search`: one thread's iterative deepening, aspiration windows and
//!   root; below it `search::pvs` (the main search as numbered steps),
//!   `search::pruning` (selectivity, its named margins and the per-game
//!   search settings),
//!   `search::qsearch`, `search::stack` (the per-ply search stack and PV
//!   table) and `search::rules` (game ends by rule, scored for the search).
//! - `movepick`: move ordering (TT move, captures by MVV/LVA, killers,
//!   countermove, history).
//! - `history`: the history and countermove tables the ordering learns.
//! - `tt`: the lockless transposition table.
//! - `correction`: correction history of the static evaluation.
//! - `timeman`: soft and hard time bounds.
//! - [`eval`]: the classical evaluation and its parameters (fitted by the
//!   Texel tuner, crate `jiang-tune`); the network (crate `nnue`) replaces
//!   the evaluation for a game when the engine is given one
//!   ([`Engine::set_network`]).
//! - [`params`]: every search constant a tuner may move (margins,
//!   reductions, aspiration, history, time use), one table per game;
//!   constants in a normal build, run-time values with feature `tune`.
//! - [`skill`]: playing below full strength (`Skill Level`, `UCI_Elo`).
//! - [`bench`]: the fixed-position benchmark.

pub mod bench;
mod correction;
pub mod engine;
pub mod eval;
mod history;
mod movepick;
pub mod params;
mod search;
pub mod skill;
mod timeman;
mod tt;

pub use bench::{bench, bench_with_networks, BenchResult};
pub use engine::{
    Engine, HashEntry, HashError, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_MULTIPV,
    DEFAULT_THREADS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS,
};
pub use eval::{eval_trace, evaluate};
pub use nnue::{LoadError, Network};
pub use skill::Skill;

use movegen::Move;

/// Largest score magnitude; a mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 32_000;
/// Scores beyond this (in magnitude) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search can reach (also bounds mate distances).
pub(crate) const MAX_PLY: usize = 128;

/// A search score as reported to the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in `n` moves: `n > 0` the side to move mates, `n < 0` it is
    /// mated.
    Mate(i32),
}

impl Score {
    /// Convert an internal score (centipawns or `±(MATE - plies)`).
    pub(crate) fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One progress report of the search (one UCI `info` line).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// 1-based index of the line in MultiPV mode.
    pub multipv: u32,
    /// Score of the line.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play; `None` when the position has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
}

/// What bounds a search. Every limit is optional; a search with none runs
/// until `stop` or the maximum depth. With `infinite` or `ponder` it never
/// ends on its own: it waits for `stop` (or `ponderhit`, after which the
/// clock limits apply) even when the maximum depth is reached.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move, milliseconds.
    pub movetime_ms: Option<u64>,
    /// Remaining clock time per side, indexed by `Color::index()`.
    pub time_ms: [Option<u64>; 2],
    /// Increment per side, indexed by `Color::index()`.
    pub inc_ms: [Option<u64>; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `stop` or `ponderhit`; after `ponderhit` the
    /// clock limits apply.
    pub ponder: bool,
    /// Look for a mate in this many moves and stop when one is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}
