//! One search thread: iterative deepening with aspiration windows, a
//! principal-variation search and a quiescence search.
//!
//! Every thread of a Lazy SMP search runs this same code on its own copy of
//! the position, sharing only the transposition table, the stop flag and
//! the node counters ([`Shared`]). The main thread (id 0) also owns the
//! clock and the info reports.

use crate::eval::{evaluate_with_psq, psq, psq_delta, psq_only};
use crate::history::{CounterMoves, History};
use crate::movepick::{capture_victim, order_value, MovePicker, Ordering};
use crate::timeman::TimeBounds;
use crate::tt::{TranspositionTable, TtBound, TtEntry};
use crate::{Bound, Limits, Score, SearchInfo, MATE, MATE_BOUND, MAX_PLY};
use movegen::{
    cycle_verdict, janggi_points, move_limit_count, shuttle_violation, Color, CycleVerdict,
    JanggiFallback, Move, MoveList, PieceKind, Position,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Larger than any score.
pub(crate) const INF: i32 = MATE + 1;
/// Score of a draw.
const DRAW: i32 = 0;
/// A decided game that is not a mate (Janggi counting): beyond any
/// evaluation, below mate scores.
const DECIDED: i32 = 20_000;
/// How far outside the window the material-only score must be for the
/// quiescence search to skip the full evaluation.
const LAZY_MARGIN: i32 = 300;
/// The draft of quiescence results in the transposition table: every
/// entry is deep enough for the quiescence search.
const QSEARCH_DEPTH: i32 = 0;
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
    pub multipv: usize,
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
}

/// Per-ply data.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    killers: [Option<Move>; 2],
}

/// One thread's search state. History tables persist between searches of
/// a game; the rest is reset by each `go`.
pub(crate) struct Worker {
    pub id: usize,
    history: History,
    counters: CounterMoves,
    lmr: Box<[[u8; 64]; 64]>,
    frames: Box<[Frame; MAX_PLY + 2]>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Material and piece squares (Red's view) of the position at each ply.
    psq: Box<[[i32; 2]; MAX_PLY + 2]>,
    pub nodes: u64,
    seldepth: usize,
    pub root_moves: Vec<RootMove>,
    pv_idx: usize,
    pub completed: Completed,
    pub stopped: bool,
    /// Null moves are off below this ply (during a verification search).
    nmp_min_ply: usize,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, v) in row.iter_mut().enumerate().skip(1) {
                // Reductions grow with the log of depth and move number.
                *v = (0.7 + (d as f64).ln() * (m as f64).ln() / 2.3) as u8;
            }
        }
        Worker {
            id,
            history: History::new(),
            counters: CounterMoves::new(),
            lmr,
            frames: Box::new(
                [Frame {
                    static_eval: 0,
                    killers: [None; 2],
                }; MAX_PLY + 2],
            ),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            psq: Box::new([[0; 2]; MAX_PLY + 2]),
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            pv_idx: 0,
            completed: Completed::default(),
            stopped: false,
            nmp_min_ply: 0,
        }
    }

    /// Forget everything learnt in this game.
    pub fn clear(&mut self) {
        self.history.clear();
        self.counters.clear();
    }

    /// Prepare for a new search of `pos` over `root` moves.
    pub fn prepare(&mut self, root: &[Move]) {
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
        for f in self.frames.iter_mut() {
            f.killers = [None; 2];
        }
        self.history.age();
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
            // Helpers search the same depths as the main thread: with the
            // shared TT they still spread over different subtrees (measured
            // faster here than Stockfish-8-style depth skipping).
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
            self.completed = Completed {
                depth,
                score: best.score,
                pv: best.pv.clone(),
            };
            if let Some(f) = on_info.as_deref_mut() {
                for i in 0..multipv {
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
                if self.should_stop_after_iteration(sh, depth, stable) {
                    break;
                }
            }
            // Odd helpers skip the even depths from 6 on: with the first
            // thread to finish a depth limit ending the search, one thread
            // running ahead on the shared TT reaches it sooner.
            let skip = self.id % 2 == 1 && depth >= 5 && depth % 2 == 1;
            depth = (depth + 1 + i32::from(skip)).min(max_depth.max(depth + 1));
        }
    }

    /// Whether the main thread should not start another iteration.
    fn should_stop_after_iteration(&self, sh: &Shared, depth: i32, stable: u32) -> bool {
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
            let scale = match stable {
                0 => 1.4,
                1 => 1.1,
                2 | 3 => 0.9,
                _ => 0.7,
            };
            let elapsed = sh.clock_elapsed_ms() as f64;
            if elapsed > tb.soft as f64 * scale * 0.65 {
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
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = 25;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
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
            delta += delta / 2 + 5;
            if delta > 1_000 {
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
        self.pv_len[0] = 0;
        self.psq[0] = psq(pos);
        self.frames[0].static_eval = if pos.in_check() {
            -INF
        } else {
            self.eval(pos, 0)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.nodes += 1;
            self.make(pos, sh, m, 0);
            let ext = i32::from(pos.in_check());
            let nd = depth - 1 + ext;
            let mut score;
            if i == self.pv_idx {
                score = -self.search::<true>(pos, sh, -beta, -alpha, nd, 1, false);
            } else {
                // Late root moves get a light reduction when quiet.
                let quiet = pos.state().captured.is_none() && !pos.in_check();
                let r = if depth >= 3 && quiet && i >= self.pv_idx + 4 {
                    1
                } else {
                    0
                };
                score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search::<true>(pos, sh, -beta, -alpha, nd, 1, false);
                }
            }
            pos.unmake_move();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                let n = self.pv_len[1];
                rm.pv.extend(self.pv[1][..n].iter().flatten());
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

    // ----- helpers ----------------------------------------------------------

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

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let n = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        self.pv[ply][0] = Some(m);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        let bonus = (depth * depth * 16).min(1600);
        let hist = self.history.side_mut(pos.side_to_move());
        hist.update(m, bonus);
        for &q in tried {
            if q != m {
                hist.update(q, -bonus);
            }
        }
        let k = &mut self.frames[ply].killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(prev) = pos.state().last_move {
            if let Some(p) = pos.piece_at(prev.to()) {
                self.counters.set(p, prev, m);
            }
        }
    }

    // ----- main search ------------------------------------------------------

    /// Principal-variation search. `PV` nodes have an open window.
    ///
    /// Steps are numbered as in the code below.
    #[allow(clippy::too_many_arguments)]
    fn search<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // 1. Leaf: quiescence.
        if depth <= 0 {
            return self.qsearch::<PV>(pos, sh, alpha, beta, ply);
        }
        self.pv_len[ply] = 0;
        self.tick(sh);
        if self.stopped {
            return 0;
        }
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        let in_check = pos.in_check();

        // 2. Game ends by rule (repetition, Janggi-modern shuttling, the
        // move limit) and the ply cap.
        // The shuttle rule comes first: the fifth shuttle move loses even
        // when it also repeats the position.
        if pos.variant().has_shuttle_rule() && shuttle_violation(pos) {
            return DECIDED - ply as i32;
        }
        if let Some(v) = repetition_score(pos, ply) {
            return v;
        }
        if let Some(v) = move_limit_score(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.eval(pos, ply) };
        }

        // 3. Mate-distance pruning: no line from here can beat a mate
        // already found closer to the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // 4. Transposition table.
        let key = pos.hash_key();
        let tte = sh.tt.probe(key, ply);
        let tt_move = tte.and_then(|e| e.mv).filter(|&m| pos.is_legal(m));
        if !PV {
            if let Some(v) = tte.and_then(|e| e.cutoff(depth, alpha, beta)) {
                return v;
            }
        }

        // 4b. Internal iterative reduction: a node expected to matter but
        // without a hash move is searched one ply shallower first; the next
        // iteration finds it again with a move to try first.
        let depth = if tt_move.is_none() && depth >= 4 && (PV || cut_node) {
            depth - 1
        } else {
            depth
        };

        // 5. Static evaluation and whether it improves on two plies ago.
        let eval = if in_check {
            -INF
        } else if let Some(e) = tte {
            e.eval
        } else {
            self.eval(pos, ply)
        };
        self.frames[ply].static_eval = eval;
        // Grandchildren start with fresh killers; children keep those of
        // their cousins.
        self.frames[ply + 2].killers = [None; 2];
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].static_eval;
        let janggi = pos.variant().is_janggi();
        // Janggi bikjang binds like a check: the side to move must break it
        // or pass (which accepts it and ends the game), so neither a null
        // move nor standing on the static evaluation is available.
        let forced = in_check || bikjang_stands(pos);

        let mut moves: Option<MoveList> = None;
        if !PV && !forced && beta.abs() < MATE_BOUND {
            // 6. Reverse futility: far above beta at low depth, a quiet
            // move will not bring it back down.
            let margin = 90 * depth - if improving { 60 } else { 0 };
            if depth <= 7 && eval - margin >= beta {
                return eval;
            }

            // 7. Null move: give the opponent a free move; if we still
            // beat beta the node would fail high anyway. Guarded against
            // zugzwang by requiring a piece besides soldiers and the
            // defenders, and in Janggi by having a move besides the pass
            // (where the pass is the only move, a null move is no test).
            let prev_null = pos.state().last_move.is_none() && pos.history_len() > 0;
            if depth >= 3
                && eval >= beta
                && !prev_null
                && ply >= self.nmp_min_ply
                && has_major(pos, pos.side_to_move())
            {
                let ok = if janggi {
                    let list = pos.legal_moves();
                    let ok = list.len() > 1;
                    moves = Some(list);
                    ok
                } else {
                    true
                };
                if ok {
                    let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                    self.psq[ply + 1] = self.psq[ply];
                    pos.make_null();
                    let v = -self.search::<false>(
                        pos,
                        sh,
                        -beta,
                        -beta + 1,
                        depth - r,
                        ply + 1,
                        !cut_node,
                    );
                    pos.unmake_null();
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        let v = if v >= MATE_BOUND { beta } else { v };
                        // Verify deep cut-offs with a reduced normal search
                        // in which null moves are off for a few plies.
                        if depth < 12 || self.nmp_min_ply > 0 {
                            return v;
                        }
                        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                        let w =
                            self.search::<false>(pos, sh, beta - 1, beta, depth - r, ply, false);
                        self.nmp_min_ply = 0;
                        if w >= beta {
                            return v;
                        }
                    }
                }
            }
        }

        // 8. Move ordering: the hash move is tried before any other move
        // is generated.
        let us = pos.side_to_move();
        let counter = pos
            .state()
            .last_move
            .and_then(|pm| pos.piece_at(pm.to()).and_then(|p| self.counters.get(p, pm)));
        let mut picker = match &moves {
            Some(list) => {
                let ord = Ordering {
                    history: self.history.side(us),
                    killers: self.frames[ply].killers,
                    counter,
                };
                MovePicker::all(pos, list, tt_move, &ord)
            }
            None => MovePicker::main(tt_move),
        };

        // 9. The move loop.
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut count = 0;
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
        loop {
            let ord = Ordering {
                history: self.history.side(us),
                killers: self.frames[ply].killers,
                counter,
            };
            let Some((m, ord_score)) = picker.next(pos, &ord) else {
                break;
            };
            let capture = capture_victim(pos, m);
            let quiet = capture.is_none();
            count += 1;

            // 9a. Pruning of late quiet moves at shallow depth, once a
            // non-losing line exists.
            // Both conditions, once true, stay true for the rest of the
            // node, so the picker drops the remaining quiet non-checks.
            if !PV
                && !forced
                && quiet
                && best > -MATE_BOUND
                && Some(m) != tt_move
                && ((depth <= 8 && count > lmp_limit)
                    || (depth <= 6 && eval + 120 + 100 * depth <= alpha))
                && !pos.gives_check(m)
            {
                picker.quiet_checks_only(pos);
                continue;
            }

            self.make(pos, sh, m, ply);
            let gives_check = pos.in_check();
            // 9b. Check extension.
            let ext = i32::from(gives_check && ply < 2 * MAX_DEPTH as usize / 3);
            let nd = depth - 1 + ext;

            // 9c. Late move reductions, then PVS.
            let mut score;
            if count == 1 {
                score = -self.search::<PV>(pos, sh, -beta, -alpha, nd, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= 3 && count > 1 + usize::from(PV) as i32 && (quiet || count > 6) {
                    r = i32::from(self.lmr[depth.min(63) as usize][(count as usize).min(63)]);
                    r += i32::from(!PV) + i32::from(!improving) + i32::from(cut_node);
                    r -= i32::from(gives_check);
                    if quiet {
                        r -= (ord_score / 6_000).clamp(-2, 2);
                        if Some(m) == self.frames[ply].killers[0]
                            || Some(m) == self.frames[ply].killers[1]
                        {
                            r -= 1;
                        }
                    } else {
                        r -= 1;
                    }
                    r = (r - 1).clamp(0, nd - 1);
                }
                score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd, ply + 1, !cut_node);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(pos, sh, -beta, -alpha, nd, ply + 1, false);
                }
            }
            pos.unmake_move();
            if self.stopped {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, m, ply, depth, &quiets);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && Some(m) != best_move {
                let _ = quiets.try_push(m);
            }
        }
        // 8. No moves at all: mated (a stalemate loses too) or the Janggi
        // game ended by passes.
        if !picker.any {
            return terminal_score(pos, ply);
        }
        // Every move may have been pruned (only possible with a non-losing
        // line found, so `best` is set unless nothing was searched).
        if best == -INF {
            return alpha;
        }

        // 10. Store. Scores that came from a repetition below are
        // path-dependent; like most engines we accept that small error
        // (repetition nodes themselves are never stored).
        let entry = TtEntry {
            mv: best_move,
            score: best,
            eval: if in_check { 0 } else { eval },
            depth,
            bound: TtBound::of(best, old_alpha, beta, true),
        };
        sh.tt.store(key, ply, entry);
        best
    }

    #[inline]
    /// Play `m` at `ply`, keeping the incremental material and piece
    /// squares of the child.
    fn make(&mut self, pos: &mut Position, sh: &Shared, m: Move, ply: usize) {
        sh.tt.prefetch(pos.key_after(m));
        let d = psq_delta(pos, m);
        self.psq[ply + 1] = [self.psq[ply][0] + d[0], self.psq[ply][1] + d[1]];
        pos.make_move(m);
    }

    /// Static evaluation at `ply` from the incremental material.
    #[inline]
    fn eval(&self, pos: &Position, ply: usize) -> i32 {
        debug_assert_eq!(self.psq[ply], psq(pos));
        evaluate_with_psq(pos, self.psq[ply])
    }

    // ----- quiescence -------------------------------------------------------

    /// Quiescence: captures only (all evasions when in check), standing
    /// pat on the static evaluation otherwise.
    fn qsearch<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.tick(sh);
        if self.stopped {
            return 0;
        }
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.eval(pos, ply) };
        }
        if pos.variant().is_janggi()
            && pos.state().last_move.is_some_and(|m| m.is_pass())
            && pos.janggi_game_ended()
        {
            return terminal_score(pos, ply);
        }

        let key = pos.hash_key();
        let tte = sh.tt.probe(key, ply);
        if !PV {
            if let Some(v) = tte.and_then(|e| e.cutoff(QSEARCH_DEPTH, alpha, beta)) {
                return v;
            }
        }

        let mut best;
        let eval;
        let mut evasions = None;
        // In check, or under bikjang (see `search`), every legal move is
        // searched and there is no standing pat.
        let forced = in_check || bikjang_stands(pos);
        if forced {
            eval = 0;
            best = -INF;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return terminal_score(pos, ply);
            }
            evasions = Some(moves);
        } else {
            eval = match tte {
                Some(e) => e.eval,
                None => {
                    // Lazy evaluation: when material and piece squares
                    // alone are far outside the window, mobility and king
                    // safety will not bring the score back inside it.
                    let quick = psq_only(pos, self.psq[ply]);
                    if quick - LAZY_MARGIN >= beta || quick + LAZY_MARGIN <= alpha {
                        quick
                    } else {
                        self.eval(pos, ply)
                    }
                }
            };
            best = eval;
            // Janggi: where a pass would end the game (after the opponent's
            // pass, or accepting bikjang), that result is always available
            // to the side to move, so it bounds the node from below. The
            // main search tries the pass as a move; here it would otherwise
            // be beyond the horizon.
            if pos.variant().is_janggi() {
                if let Some(v) = game_ending_pass_score(pos, ply) {
                    best = best.max(v);
                }
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        // The hash move is checked only now that standing pat did not
        // settle the node, and only if it is a move this node searches.
        let tt_move = tte
            .and_then(|e| e.mv)
            .filter(|&m| (forced || capture_victim(pos, m).is_some()) && pos.is_legal(m));
        let mut picker = match &evasions {
            Some(list) => {
                let ord = Ordering {
                    history: self.history.side(pos.side_to_move()),
                    killers: [None; 2],
                    counter: None,
                };
                MovePicker::all(pos, list, tt_move, &ord)
            }
            None => {
                let mut p = MovePicker::main(None);
                p.load_captures(pos, tt_move);
                p
            }
        };
        let material = if pos.variant().is_janggi() {
            &crate::eval::params::JANGGI.material
        } else {
            &crate::eval::params::XIANGQI.material
        };
        let mut best_move = None;
        let old_alpha = alpha;
        while let Some((m, _)) = picker.next_listed() {
            // Delta pruning: even winning this piece for free cannot
            // raise alpha.
            if !forced {
                if let Some(v) = capture_victim(pos, m) {
                    if v != PieceKind::General && eval + material[v.index()][1] + 150 <= alpha {
                        continue;
                    }
                    // Skip captures that lose material to a defended
                    // victim at a glance: a heavy piece taking a guarded
                    // light one, when we are not behind.
                    let a = pos.piece_at(m.from()).map_or(0, |p| order_value(p.kind()));
                    if a > order_value(v) + 2
                        && eval + material[v.index()][1] < alpha + 50
                        && !pos.attackers(m.to(), !pos.side_to_move()).is_empty()
                    {
                        continue;
                    }
                }
            }
            self.make(pos, sh, m, ply);
            let score = -self.qsearch::<PV>(pos, sh, -beta, -alpha, ply + 1);
            pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let entry = TtEntry {
            mv: best_move,
            score: best,
            eval: if forced { 0 } else { eval },
            depth: QSEARCH_DEPTH,
            bound: TtBound::of(best, old_alpha, beta, PV),
        };
        sh.tt.store(key, ply, entry);
        best
    }
}

/// Janggi: the score of passing now if the pass is legal and ends the game
/// (a second pass in a row, or a pass accepting bikjang), from the side to
/// move's view; `None` otherwise.
fn game_ending_pass_score(pos: &mut Position, ply: usize) -> Option<i32> {
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
fn bikjang_stands(pos: &Position) -> bool {
    pos.variant().has_bikjang() && pos.generals_facing()
}

/// Whether `c` has a chariot, horse or cannon (null-move zugzwang guard).
fn has_major(pos: &Position, c: Color) -> bool {
    pos.count(c, PieceKind::Chariot)
        + pos.count(c, PieceKind::Horse)
        + pos.count(c, PieceKind::Cannon)
        > 0
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
pub(crate) fn repetition_score(pos: &Position, ply: usize) -> Option<i32> {
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
