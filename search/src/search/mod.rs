//! One search thread: iterative deepening with aspiration windows, a
//! principal-variation search and a quiescence search.
//!
//! Every thread of a Lazy SMP search runs this same code on its own copy of
//! the position, sharing only the transposition table, the stop flag and
//! the node counters ([`Shared`]). The main thread (id 0) also owns the
//! clock and the info reports.
//!
//! This module holds the thread's state ([`Worker`]), iterative deepening,
//! the aspiration windows, the root and what every node does on entry and
//! around a move. Below the root:
//! - `evaluator`: the static evaluation, classical or a network, with its
//!   incremental state along the current line;
//! - `pvs`: the main search, as numbered steps;
//! - `pruning`: its selectivity (reverse futility, null move, late-move
//!   and futility pruning, static-exchange pruning, the singular-extension
//!   test, late move reductions), their margins and the per-game search
//!   settings;
//! - `qsearch`: the quiescence search;
//! - `stack`: the per-ply search stack and the principal-variation table;
//! - `rules`: game ends by rule, scored for the search.

mod evaluator;
mod pruning;
mod pvs;
mod qsearch;
mod rules;
mod stack;

pub(crate) use rules::terminal_score;

use crate::correction::CorrectionHistory;
use crate::history::{ContinuationHistory, CounterMoves, History, PieceTo};
use crate::movepick::OrderHints;
use crate::params::{self, Param};
use crate::skill::Line;
use crate::timeman::TimeBounds;
use crate::tt::TranspositionTable;
use crate::{Bound, Limits, Score, SearchInfo, MATE, MATE_BOUND, MAX_PLY};
use evaluator::Evaluator;
use movegen::{Color, Game, Move, Position};
use nnue::Network;
use pruning::Reductions;
use rules::DRAW;
use stack::{PvTable, Stack};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Larger than any score.
pub(crate) const INF: i32 = MATE + 1;
/// Depth cap of iterative deepening.
pub(crate) const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set to end the search (by `stop`, the clock, a node limit, or the
    /// main thread finishing).
    pub stop: &'a AtomicBool,
    /// True while pondering or in `go infinite`: don't finish on our own.
    pub waiting: &'a AtomicBool,
    /// When the clock started (`go`, or `ponderhit`).
    pub clock_start: &'a Mutex<Instant>,
    /// When `go` was received (for reports).
    pub go_time: Instant,
    /// Published node counts, one per thread.
    pub nodes: &'a [AtomicU64],
    pub limits: &'a Limits,
    pub time: Option<TimeBounds>,
    /// Lines searched.
    pub multipv: usize,
    /// Lines reported (the user's MultiPV): fewer than searched when a
    /// weakened level searches more candidates than the GUI asked for.
    pub report_multipv: usize,
}

impl Shared<'_> {
    /// Nodes searched by all threads (as last published).
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }

    fn clock_elapsed_ms(&self) -> u64 {
        let start = match self.clock_start.lock() {
            Ok(g) => *g,
            Err(p) => *p.into_inner(),
        };
        start.elapsed().as_millis() as u64
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// Result of the last completed iteration of a thread.
#[derive(Clone, Debug, Default)]
pub(crate) struct Completed {
    pub depth: i32,
    pub score: i32,
    pub pv: Vec<Move>,
    /// With MultiPV, every line of the iteration, best first (empty
    /// otherwise): the candidates of a weakened level's draw.
    pub lines: Vec<Line>,
}

/// One thread's search state. History tables persist between searches of
/// a game; the rest is reset by each `go`.
pub(crate) struct Worker {
    pub id: usize,
    history: History,
    /// Quiet moves' history after the moves one and two plies back.
    cont: ContinuationHistory,
    /// Whether this search's game uses `cont` (`GameSearch`).
    cont_on: bool,
    counters: CounterMoves,
    /// What the search learnt about the static evaluation's errors.
    correction: CorrectionHistory,
    reductions: Reductions,
    stack: Stack,
    pv: PvTable,
    pub nodes: u64,
    seldepth: usize,
    pub root_moves: Vec<RootMove>,
    pv_idx: usize,
    pub completed: Completed,
    pub stopped: bool,
    /// Null moves are off below this ply (during a verification search).
    nmp_min_ply: usize,
    /// The network, when the search evaluates with one; `None`: the
    /// classical evaluation.
    /// The static evaluation and its incremental state along the line.
    evaluator: Evaluator,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            history: History::new(),
            cont: ContinuationHistory::new(),
            cont_on: false,
            counters: CounterMoves::new(),
            correction: CorrectionHistory::new(),
            reductions: Reductions::new(Game::Xiangqi),
            stack: Stack::new(),
            pv: PvTable::new(),
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            pv_idx: 0,
            completed: Completed::default(),
            stopped: false,
            nmp_min_ply: 0,
            evaluator: Evaluator::classical(),
        }
    }

    /// Forget everything learnt in this game.
    pub fn clear(&mut self) {
        self.history.clear();
        self.cont.clear();
        self.counters.clear();
        self.correction.clear();
    }

    /// Evaluate with `net` from now on (`None`: the classical
    /// evaluation). The accumulators are kept when the size still fits.
    pub fn set_network(&mut self, net: Option<&Arc<Network>>) {
        self.evaluator.set_network(net);
    }

    /// Prepare for a new search of a position of `game` over `root` moves.
    pub fn prepare(&mut self, game: Game, root: &[Move]) {
        self.reductions.prepare(game);
        self.cont_on = pruning::game_search_of(game).continuation_history;
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.completed = Completed::default();
        self.root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        self.stack.clear_killers();
        self.history.age();
        self.cont.age();
    }

    // ----- iterative deepening ----------------------------------------

    /// Iterative deepening until the limits, the clock or `stop` end it.
    /// `on_info` is only given to the main thread.
    pub fn iterate(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut on_info: Option<&mut dyn FnMut(&SearchInfo)>,
    ) {
        // A depth limit binds every thread, and the first to complete that
        // depth ends the search (with one line; with MultiPV only the main
        // thread's lines count, so helpers keep filling the TT instead).
        // In `go infinite`/`go ponder` a helper never ends the wait.
        let helper_may_end = sh.multipv == 1 && !(sh.limits.infinite || sh.limits.ponder);
        let max_depth = match sh.limits.depth {
            Some(d) if self.id == 0 || helper_may_end => (d as i32).clamp(1, MAX_DEPTH),
            _ => MAX_DEPTH,
        };
        let multipv = sh.multipv.clamp(1, self.root_moves.len().max(1));
        let mut last_best: Option<Move> = None;
        let mut stable = 0;
        let mut depth = 1;
        while depth <= max_depth {
            // Helpers walk the main thread's depths, except that odd helpers
            // skip the even depths from 6 on (the step at the loop's end).
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(pos, sh, depth, &mut on_info);
                if self.stopped {
                    break;
                }
                // Lines up to this one are final for this depth.
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            let best = &self.root_moves[0];
            let lines = if multipv > 1 {
                self.root_moves[..multipv]
                    .iter()
                    .filter(|r| r.score > -INF)
                    .map(|r| Line {
                        score: r.score,
                        pv: r.pv.clone(),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            self.completed = Completed {
                depth,
                score: best.score,
                pv: best.pv.clone(),
                lines,
            };
            if let Some(f) = on_info.as_deref_mut() {
                for i in 0..multipv.min(sh.report_multipv) {
                    let info = self.info(sh, depth, i, Bound::Exact);
                    f(&info);
                }
            }
            if self.id != 0 && depth >= max_depth && helper_may_end {
                sh.stop.store(true, Relaxed);
                break;
            }
            if self.id == 0 {
                if last_best == Some(best.mv) {
                    stable += 1;
                } else {
                    stable = 0;
                }
                last_best = Some(best.mv);
                if self.should_stop_after_iteration(sh, pos.variant().game(), depth, stable) {
                    break;
                }
            }
            // Odd helpers skip the even depths from 6 on (5 → 7 → 9 …): with
            // the first thread to finish a depth limit ending the search, a
            // thread running ahead on the shared TT reaches it sooner, and
            // threads at different depths spread over different subtrees.
            let skip = self.id % 2 == 1 && depth >= 5 && depth % 2 == 1;
            depth = (depth + 1 + i32::from(skip)).min(max_depth.max(depth + 1));
        }
    }

    /// Whether the main thread should not start another iteration.
    fn should_stop_after_iteration(
        &self,
        sh: &Shared,
        game: Game,
        depth: i32,
        stable: u32,
    ) -> bool {
        let score = self.root_moves[0].score;
        if let Some(n) = sh.limits.mate {
            if score >= MATE_BOUND && (MATE - score + 1) / 2 <= n as i32 {
                return true;
            }
        }
        if sh.waiting.load(Relaxed) {
            return false;
        }
        if let (Some(tb), None) = (sh.time, sh.limits.movetime_ms) {
            // A single legal reply needs no thought.
            if self.root_moves.len() == 1 && depth >= 4 {
                return true;
            }
            // A mate found well inside the depth will not change.
            if score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 4 {
                return true;
            }
            // Spend less when the best move is stable, more when it has
            // just changed; the next iteration costs a few times this one,
            // so don't start it past about half of the target.
            let scale = params::fraction(
                match stable {
                    0 => Param::TmStability0,
                    1 => Param::TmStability1,
                    2 | 3 => Param::TmStability2,
                    _ => Param::TmStability4,
                },
                game,
                1000.0,
            );
            let share = params::fraction(Param::TmIterationShare, game, 1000.0);
            let elapsed = sh.clock_elapsed_ms() as f64;
            if elapsed > tb.soft as f64 * scale * share {
                return true;
            }
        }
        false
    }

    fn aspiration(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        depth: i32,
        on_info: &mut Option<&mut dyn FnMut(&SearchInfo)>,
    ) {
        let game = pos.variant().game();
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = params::get(Param::AspirationDelta, game);
        let min_depth = params::get(Param::AspirationMinDepth, game);
        let (mut alpha, mut beta) = if depth >= min_depth && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root(pos, sh, alpha, beta, depth);
            if self.stopped {
                return;
            }
            // Keep the lines searched so far in order.
            self.root_moves[self.pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                self.report_bound(sh, depth, Bound::Upper, on_info);
            } else if score >= beta {
                beta = (score + delta).min(INF);
                self.report_bound(sh, depth, Bound::Lower, on_info);
            } else {
                return;
            }
            delta += delta / 2 + params::get(Param::AspirationGrowth, game);
            if delta > params::get(Param::AspirationMaxDelta, game) {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn report_bound(
        &self,
        sh: &Shared,
        depth: i32,
        bound: Bound,
        on_info: &mut Option<&mut dyn FnMut(&SearchInfo)>,
    ) {
        // Bound lines only after a while, as Stockfish does, to keep the
        // output of fast searches short.
        if self.pv_idx >= sh.report_multipv {
            return;
        }
        if let Some(f) = on_info.as_deref_mut() {
            if sh.go_time.elapsed().as_millis() > 2_000 {
                f(&self.info(sh, depth, self.pv_idx, bound));
            }
        }
    }

    pub fn info(&self, sh: &Shared, depth: i32, idx: usize, bound: Bound) -> SearchInfo {
        let rm = &self.root_moves[idx];
        let nodes = sh.total_nodes().max(self.nodes);
        let ms = sh.go_time.elapsed().as_millis() as u64;
        let score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: idx as u32 + 1,
            score: Score::from_internal(score.clamp(-MATE, MATE)),
            bound,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: sh.tt.hashfull(),
            time_ms: ms,
            pv: rm.pv.clone(),
        }
    }

    // ----- root -----------------------------------------------------------

    fn root(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv.clear(0);
        self.stack.start();
        self.evaluator.start(pos);
        self.stack.at_mut(0).static_eval = if pos.in_check() {
            -INF
        } else {
            self.eval(pos, 0)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.nodes += 1;
            self.make(pos, sh, m);
            let ext = i32::from(pos.in_check());
            let nd = depth - 1 + ext;
            let mut score;
            if i == self.pv_idx {
                score = -self.search::<true>(pos, sh, -beta, -alpha, nd, false);
            } else {
                // Late root moves get a light reduction when quiet.
                let quiet = pos.state().captured.is_none() && !pos.in_check();
                let game = pos.variant().game();
                let min_index = params::get(Param::RootLmrMinIndex, game) as usize;
                let r = if depth >= params::get(Param::RootLmrMinDepth, game)
                    && quiet
                    && i >= self.pv_idx + min_index
                {
                    1
                } else {
                    0
                };
                score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd - r, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd, true);
                }
                if score > alpha && score < beta {
                    score = -self.search::<true>(pos, sh, -beta, -alpha, nd, false);
                }
            }
            self.unmake(pos);
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend(self.pv.line(1));
            } else {
                // Searched with a null window only: its true score is
                // unknown; sort it after the lines with real scores.
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    // ----- every node --------------------------------------------------------

    /// What every node does first: start without a line, count the node
    /// and note the selective depth. False when the search must stop.
    #[inline]
    fn enter_node<const PV: bool>(&mut self, sh: &Shared, ply: usize) -> bool {
        self.pv.clear(ply);
        self.tick(sh);
        if self.stopped {
            return false;
        }
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        true
    }

    /// At the ply cap the search ends: the static evaluation (a draw in
    /// check, where it is meaningless). `None` below the cap.
    #[inline]
    fn ply_cap_score(&mut self, pos: &Position, ply: usize, in_check: bool) -> Option<i32> {
        if ply < MAX_PLY - 2 {
            return None;
        }
        Some(if in_check { DRAW } else { self.eval(pos, ply) })
    }

    /// Count a node and, every 1024 nodes, publish the count and check the
    /// stop conditions.
    #[inline]
    fn tick(&mut self, sh: &Shared) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll(sh);
        }
    }

    fn poll(&mut self, sh: &Shared) {
        sh.nodes[self.id].store(self.nodes, Relaxed);
        if self.id == 0 {
            if let Some(n) = sh.limits.nodes {
                if sh.total_nodes() >= n {
                    sh.stop.store(true, Relaxed);
                }
            }
            if let Some(tb) = sh.time {
                if !sh.waiting.load(Relaxed) && sh.clock_elapsed_ms() >= tb.hard {
                    sh.stop.store(true, Relaxed);
                }
            }
        }
        if sh.stop.load(Relaxed) {
            self.stopped = true;
        }
    }

    /// The ordering tables for `side` at the node of `ply` with these
    /// killers and countermove.
    #[inline]
    fn ordering(
        &self,
        side: Color,
        ply: usize,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> OrderHints<'_> {
        OrderHints {
            history: self.history.side(side),
            cont: self
                .continuations(ply)
                .map(|p| p.map(|pt| self.cont.after(pt))),
            killers,
            counter,
        }
    }

    /// The moves one and two plies before the node of `ply` on the current
    /// path (`None` before the root, or for a null move or a pass; none at
    /// all in a game whose search does not use the continuation history).
    #[inline]
    fn continuations(&self, ply: usize) -> [Option<PieceTo>; 2] {
        if !self.cont_on {
            return [None; 2];
        }
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.stack.at(p).played);
        [back(1), back(2)]
    }

    // ----- moves ------------------------------------------------------------

    /// Play `m` and push the child on the stack and the evaluator (the
    /// incremental material and piece squares, or what the move changes in
    /// the network's accumulators).
    #[inline]
    fn make(&mut self, pos: &mut Position, sh: &Shared, m: Move) {
        sh.tt.prefetch(pos.key_after(m));
        self.evaluator.push_move(pos, m, self.stack.ply());
        let ply = self.stack.ply();
        self.stack.at_mut(ply).played = PieceTo::of(pos, m);
        self.stack.push();
        pos.make_move(m);
        self.evaluator.debug_check(pos, self.stack.ply());
    }

    /// Take back the last move of [`Worker::make`].
    #[inline]
    fn unmake(&mut self, pos: &mut Position) {
        pos.unmake_move();
        self.stack.pop();
        self.evaluator.pop();
        self.evaluator.debug_check(pos, self.stack.ply());
    }

    /// Pass the move to the opponent (a null move); the material stays.
    #[inline]
    fn make_null(&mut self, pos: &mut Position) {
        self.evaluator.push_null(self.stack.ply());
        let ply = self.stack.ply();
        self.stack.at_mut(ply).played = None;
        self.stack.push();
        pos.make_null();
        self.evaluator.debug_check(pos, self.stack.ply());
    }

    /// Take back [`Worker::make_null`].
    #[inline]
    fn unmake_null(&mut self, pos: &mut Position) {
        pos.unmake_null();
        self.stack.pop();
        self.evaluator.pop();
        self.evaluator.debug_check(pos, self.stack.ply());
    }

    /// Static evaluation at `ply`: the network's when there is one, else
    /// the classical one from the incremental material.
    #[inline]
    fn eval(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluator.evaluate(pos, ply)
    }
}
