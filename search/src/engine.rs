//! The protocol-free engine: options, the search threads and their result.
//!
//! `go` starts a background "main search" thread and returns at once. That
//! thread runs the Lazy SMP search: it spawns the helper threads (scoped,
//! so they cannot outlive the search), searches itself as thread 0 (which
//! owns the clock and the info reports), then stops the helpers, picks the
//! best result over all threads and calls `on_done`. The per-thread search
//! state (history tables) lives in [`Worker`]s that move into the search
//! thread and come back when it is joined, so they persist over a game.

use crate::search::{terminal_score, Completed, Shared, Worker, INF};
use crate::skill::Skill;
use crate::timeman;
use crate::tt::TranspositionTable;
use crate::{BestMove, Limits, Score, SearchInfo};
use movegen::{ByGame, Game, Move, Position};
use nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

// The limits and defaults of the engine's settings. The protocol layer's
// option table (`engine/options/`) announces exactly these, so a value
// a GUI is offered is a value the search accepts. The ranges cover what
// Pikafish and Fairy-Stockfish advertise, so a GUI set up for either never
// sends a value we must refuse.

/// Search threads when nothing else is set.
pub const DEFAULT_THREADS: usize = 1;
/// Largest `Threads` value (Pikafish's maximum; Fairy-Stockfish has 512).
pub const MAX_THREADS: usize = 1024;
/// Hash size in MiB when nothing else is set.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash` value in MiB: 32 TiB on 64-bit targets, as Pikafish (and
/// Stockfish) offer; 2 GiB where the address space is 32 bits. A size the
/// machine cannot provide is refused by [`Engine::try_set_hash_mb`].
pub const MAX_HASH_MB: usize = if usize::BITS >= 64 { 1 << 25 } else { 2048 };
/// Principal variations when nothing else is set.
pub const DEFAULT_MULTIPV: usize = 1;
/// Largest `MultiPV` value (Fairy-Stockfish's maximum; Pikafish has 128).
/// Above the number of legal moves it simply reports every move.
pub const MAX_MULTIPV: usize = 500;
/// Move overhead in milliseconds when nothing else is set.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// Largest move overhead in milliseconds (both peers' maximum).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Stack size of search threads: the recursion is at most `MAX_PLY` deep
/// with a move list per frame.
const STACK_SIZE: usize = 32 << 20;

/// Signals shared between the engine object and its running search.
struct Control {
    /// Makes every thread unwind: set by [`Engine::stop`], the clock, a
    /// node limit, or the main thread finishing.
    stop: AtomicBool,
    /// Set only by [`Engine::stop`]: a ponder or infinite search that has
    /// already stopped searching (a node limit, a weakened level's
    /// budget) still waits for this or `ponderhit` before it answers.
    stop_asked: AtomicBool,
    /// Pondering or `go infinite`: the search must not end on its own.
    waiting: AtomicBool,
    /// When the clock started (the `go`, or the `ponderhit`).
    clock_start: Mutex<Instant>,
}

impl Control {
    fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            stop_asked: AtomicBool::new(false),
            waiting: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }

    fn set_clock_start(&self, t: Instant) {
        match self.clock_start.lock() {
            Ok(mut g) => *g = t,
            Err(p) => *p.into_inner() = t,
        }
    }
}

/// What the search thread hands back when it ends.
struct Finished {
    workers: Vec<Worker>,
    nodes: u64,
}

/// A hash size the machine could not provide ([`Engine::try_set_hash_mb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The size asked for, MiB.
    pub requested_mb: usize,
    /// The size the table has now, MiB.
    pub kept_mb: usize,
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate {} MiB of hash; keeping {} MiB",
            self.requested_mb, self.kept_mb
        )
    }
}

impl std::error::Error for HashError {}

/// A hash-table entry as [`Engine::probe_hash`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEntry {
    /// The stored move, when legal in the probed position.
    pub best: Option<Move>,
    /// The stored score.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: crate::Bound,
    /// Remaining depth the score was searched with.
    pub depth: i32,
}

/// A Xiangqi/Janggi search engine with its options and hash table.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    overhead_ms: u64,
    /// The playing strength; full unless [`Engine::set_skill`] weakens it.
    skill: Skill,
    workers: Vec<Worker>,
    control: Arc<Control>,
    handle: Option<JoinHandle<Finished>>,
    last_nodes: u64,
    /// The network each game is evaluated with; a game without one uses
    /// the classical evaluation.
    networks: ByGame<Option<Arc<Network>>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with the default settings ([`DEFAULT_HASH_MB`],
    /// [`DEFAULT_THREADS`], [`DEFAULT_MULTIPV`], [`DEFAULT_MOVE_OVERHEAD_MS`]).
    pub fn new() -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            multipv: DEFAULT_MULTIPV,
            overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            skill: Skill::FULL,
            workers: (0..DEFAULT_THREADS).map(Worker::new).collect(),
            control: Arc::new(Control::new()),
            handle: None,
            last_nodes: 0,
            networks: ByGame::default(),
        }
    }

    /// Resize the hash table (clears it), clamped to `1..=MAX_HASH_MB`
    /// MiB. When the memory cannot be had, the table keeps its old size;
    /// [`Engine::try_set_hash_mb`] says so.
    pub fn set_hash_mb(&mut self, mb: usize) {
        // The error is the caller's to see through `try_set_hash_mb`; here
        // the documented outcome (old size kept) is all there is to do.
        let _ = self.try_set_hash_mb(mb);
    }

    /// Resize the hash table (clears it), clamped to `1..=MAX_HASH_MB`
    /// MiB. If the allocation fails the old table (and size) stays.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), HashError> {
        self.halt();
        let mb = mb.clamp(1, MAX_HASH_MB);
        if mb == self.hash_mb {
            return Ok(());
        }
        // Drop the old table first so both never coexist in memory; a
        // one-MiB stand-in keeps the engine usable meanwhile.
        let old = self.hash_mb;
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mb) {
            Some(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
                Ok(())
            }
            None => {
                // The old size was allocated before, so it can be again
                // (unless memory ran out meanwhile: then one MiB stays).
                if let Some(tt) = TranspositionTable::try_new(old) {
                    self.tt = Arc::new(tt);
                } else {
                    self.hash_mb = 1;
                }
                Err(HashError {
                    requested_mb: mb,
                    kept_mb: self.hash_mb,
                })
            }
        }
    }

    /// Number of search threads, clamped to `1..=MAX_THREADS`.
    pub fn set_threads(&mut self, n: usize) {
        self.halt();
        self.threads = n.clamp(1, MAX_THREADS);
        self.workers.truncate(self.threads);
        while self.workers.len() < self.threads {
            self.workers.push(Worker::new(self.workers.len()));
        }
    }

    /// Number of principal variations to report, clamped to
    /// `1..=MAX_MULTIPV`.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.clamp(1, MAX_MULTIPV);
    }

    /// Play at `skill` from the next search on ([`Skill::FULL`]: full
    /// strength, the search untouched). See [`crate::skill`].
    pub fn set_skill(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// The playing strength.
    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// Time kept in reserve for each move (communication delays), at most
    /// [`MAX_MOVE_OVERHEAD_MS`].
    pub fn set_move_overhead_ms(&mut self, ms: u64) {
        self.overhead_ms = ms.min(MAX_MOVE_OVERHEAD_MS);
    }

    /// Evaluate `game`'s positions with `net` (`None`: the classical
    /// evaluation). A change clears the hash table, whose entries hold
    /// static evaluations of the other kind.
    pub fn set_network(&mut self, game: Game, net: Option<Arc<Network>>) {
        self.halt();
        let slot = &mut self.networks[game];
        let same = match (&*slot, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            *slot = net;
            self.tt.clear();
        }
    }

    /// The network `game`'s positions are evaluated with, if any.
    pub fn network(&self, game: Game) -> Option<&Arc<Network>> {
        self.networks[game].as_ref()
    }

    /// Empty the hash table.
    pub fn clear_hash(&mut self) {
        self.halt();
        self.tt.clear();
    }

    /// Forget everything about the previous game (hash and histories).
    pub fn new_game(&mut self) {
        self.halt();
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Hash size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Nodes searched by the last finished search (all threads).
    pub fn last_search_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Search `pos` under `limits` and wait for the result, for callers
    /// that need no progress reports (data generation, benchmarks). `None`
    /// only if the search ended without reporting.
    pub fn search_to_end(&mut self, pos: &Position, limits: Limits) -> Option<BestMove> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.go(
            pos,
            limits,
            Box::new(|_| {}),
            Box::new(move |b| {
                // The receiver waits below; a failed send cannot happen.
                let _ = tx.send(b);
            }),
        );
        self.wait();
        rx.recv().ok()
    }

    /// Starts searching on background thread(s) and returns at once.
    /// `pos` carries the game history (for repetition). `on_info` is called
    /// after each iteration (and for aspiration fails in long searches);
    /// `on_done` exactly once at the end, on the search thread.
    pub fn go(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_info: Box<dyn FnMut(&SearchInfo) + Send>,
        on_done: Box<dyn FnOnce(BestMove) + Send>,
    ) {
        self.halt();
        let control = Arc::new(Control::new());
        control
            .waiting
            .store(limits.infinite || limits.ponder, Relaxed);
        self.control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let mut workers = std::mem::take(&mut self.workers);
        while workers.len() < self.threads {
            workers.push(Worker::new(workers.len()));
        }
        let job = Job {
            network: self.networks[pos.variant().game()].clone(),
            pos: pos.clone(),
            limits,
            multipv: self.multipv,
            overhead_ms: self.overhead_ms,
            skill: self.skill,
            go_time: Instant::now(),
        };
        let spawned = std::thread::Builder::new()
            .name("jiang-search".into())
            .stack_size(STACK_SIZE)
            .spawn(move || run_search(job, &tt, &control, workers, on_info, on_done));
        match spawned {
            Ok(h) => self.handle = Some(h),
            // Without a thread there is no search; nothing more can be
            // done than leave the engine usable (workers are recreated).
            Err(_) => self.workers = vec![Worker::new(0)],
        }
    }

    /// Ask the running search to stop (returns at once).
    pub fn stop(&self) {
        self.control.stop_asked.store(true, Relaxed);
        self.control.stop.store(true, Relaxed);
    }

    /// The opponent played the expected move: switch from pondering to a
    /// normal timed search whose clock starts now.
    pub fn ponderhit(&self) {
        self.control.set_clock_start(Instant::now());
        self.control.waiting.store(false, Relaxed);
    }

    /// Block until the running search has finished and `on_done` ran.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            match h.join() {
                Ok(f) => {
                    self.workers = f.workers;
                    self.last_nodes = f.nodes;
                }
                Err(_) => self.workers = Vec::new(),
            }
            while self.workers.len() < self.threads {
                self.workers.push(Worker::new(self.workers.len()));
            }
        }
    }

    /// End any running search (a setter or `go` during a search would
    /// otherwise wait forever on an infinite one).
    fn halt(&mut self) {
        if self.handle.is_some() {
            self.stop();
            self.wait();
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// What the hash table holds for `pos` (UCCI `probe`): the stored
    /// move if it is legal there, the score with its bound and the draft.
    /// Safe during a search (the table is lock-free).
    pub fn probe_hash(&self, pos: &Position) -> Option<HashEntry> {
        let e = self.tt.probe(pos.hash_key(), 0)?;
        Some(HashEntry {
            best: e.mv.filter(|&m| pos.is_legal(m)),
            score: Score::from_internal(e.score),
            bound: match e.bound {
                crate::tt::TtBound::Exact => crate::Bound::Exact,
                crate::tt::TtBound::Lower => crate::Bound::Lower,
                crate::tt::TtBound::Upper => crate::Bound::Upper,
            },
            depth: e.depth,
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The inputs of one search.
struct Job {
    pos: Position,
    /// The network for the position's game, if the search uses one.
    network: Option<Arc<Network>>,
    limits: Limits,
    multipv: usize,
    overhead_ms: u64,
    skill: Skill,
    go_time: Instant,
}

/// Body of the main search thread.
fn run_search(
    job: Job,
    tt: &TranspositionTable,
    control: &Control,
    workers: Vec<Worker>,
    on_info: Box<dyn FnMut(&SearchInfo) + Send>,
    on_done: Box<dyn FnOnce(BestMove) + Send>,
) -> Finished {
    // `on_done` must run exactly once, even if the search itself panicked
    // (a bug): then the first legal move is played.
    let fallback = job.pos.legal_moves().first().copied();
    let run = std::panic::AssertUnwindSafe(|| search_job(job, tt, control, workers, on_info));
    match std::panic::catch_unwind(run) {
        Ok((best, finished)) => {
            on_done(best);
            finished
        }
        Err(_) => {
            control.stop.store(true, Relaxed);
            on_done(BestMove {
                best: fallback,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
            });
            Finished {
                workers: Vec::new(),
                nodes: 0,
            }
        }
    }
}

/// The search itself: returns the result instead of reporting it.
fn search_job(
    job: Job,
    tt: &TranspositionTable,
    control: &Control,
    mut workers: Vec<Worker>,
    mut on_info: Box<dyn FnMut(&SearchInfo) + Send>,
) -> (BestMove, Finished) {
    let Job {
        mut pos,
        mut limits,
        multipv,
        overhead_ms,
        skill,
        go_time,
        network,
    } = job;
    // A weakened level searches its candidates within its node budget
    // (and any tighter limit the GUI set); the user still sees as many
    // lines as asked for.
    let weakened = !skill.is_full();
    let search_multipv = if weakened {
        let budget = skill.node_budget();
        limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
        multipv.max(skill.candidates())
    } else {
        multipv
    };
    tt.new_search();
    control.set_clock_start(go_time);

    // Root moves: the legal moves, restricted to `searchmoves` if given,
    // the hash move first.
    let legal = pos.legal_moves();
    let mut root: Vec<Move> = if limits.searchmoves.is_empty() {
        legal.to_vec()
    } else {
        legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect()
    };
    if root.is_empty() {
        root = legal.to_vec();
    }
    if let Some(m) = tt.probe(pos.hash_key(), 0).and_then(|e| e.mv) {
        if let Some(i) = root.iter().position(|&r| r == m) {
            root[..=i].rotate_right(1);
        }
    }

    if root.is_empty() {
        let score = terminal_score(&pos, 0);
        wait_for_release(control, &limits);
        let best = BestMove {
            best: None,
            ponder: None,
            score: Score::from_internal(score),
            depth: 0,
        };
        return (best, Finished { workers, nodes: 0 });
    }

    let nodes: Vec<AtomicU64> = (0..workers.len()).map(|_| AtomicU64::new(0)).collect();
    let time = timeman::bounds(
        &limits,
        pos.variant().game(),
        pos.side_to_move(),
        overhead_ms,
    );
    let shared = Shared {
        tt,
        stop: &control.stop,
        waiting: &control.waiting,
        clock_start: &control.clock_start,
        go_time,
        nodes: &nodes,
        limits: &limits,
        time,
        multipv: search_multipv,
        report_multipv: multipv,
    };
    for w in &mut workers {
        w.prepare(pos.variant().game(), &root);
        w.set_network(network.as_ref());
    }

    let (main, helpers) = workers.split_at_mut(1);
    std::thread::scope(|s| {
        for h in helpers.iter_mut() {
            let mut p = pos.clone();
            let sh = &shared;
            let spawned = std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, move || h.iterate(&mut p, sh, None));
            // A helper that cannot start only costs strength.
            drop(spawned);
        }
        main[0].iterate(&mut pos, &shared, Some(&mut *on_info));
        // Infinite and ponder searches end only on `stop` / `ponderhit`.
        wait_for_release(control, &limits);
        control.stop.store(true, Relaxed);
    });

    for (w, n) in workers.iter().zip(&nodes) {
        n.store(w.nodes, Relaxed);
    }
    let total = shared.total_nodes();
    let mut best = pick_best(&workers, search_multipv, limits.depth.is_some());
    let mut drawn = false;
    if weakened && best.lines.len() > 1 {
        let scores: Vec<i32> = best.lines.iter().map(|l| l.score).collect();
        let i = skill.choose(&scores, pos.hash_key());
        if i > 0 {
            best.score = best.lines[i].score;
            best.pv = best.lines[i].pv.clone();
            drawn = true;
        }
    }
    let best_move = best
        .pv
        .first()
        .copied()
        .or_else(|| workers[0].root_moves.first().map(|r| r.mv));
    let mut ponder = best.pv.get(1).copied();
    if ponder.is_none() {
        if let Some(m) = best_move {
            pos.make_move(m);
            ponder = tt
                .probe(pos.hash_key(), 0)
                .and_then(|e| e.mv)
                .filter(|&r| pos.is_legal(r));
            pos.unmake_move();
        }
    }
    let score = if best.depth > 0 { best.score } else { 0 };
    if drawn {
        // The GUI's last line is the one played: its pv starts with the
        // `bestmove`, and its second move is the ponder move.
        let mut pv = best.pv.clone();
        if pv.len() < 2 {
            pv.extend(ponder);
        }
        let ms = go_time.elapsed().as_millis() as u64;
        on_info(&SearchInfo {
            depth: best.depth.max(1) as u32,
            seldepth: best.depth.max(1) as u32,
            multipv: 1,
            score: Score::from_internal(score.clamp(-INF + 1, INF - 1)),
            bound: crate::Bound::Exact,
            nodes: total,
            nps: total * 1000 / ms.max(1),
            hashfull: tt.hashfull(),
            time_ms: ms,
            pv,
        });
    }
    let result = BestMove {
        best: best_move,
        ponder,
        score: Score::from_internal(score.clamp(-INF + 1, INF - 1)),
        depth: best.depth.max(0) as u32,
    };
    (
        result,
        Finished {
            workers,
            nodes: total,
        },
    )
}

/// In `go infinite` or `go ponder`, block until `stop` or `ponderhit`.
fn wait_for_release(control: &Control, limits: &Limits) {
    if !(limits.infinite || limits.ponder) {
        return;
    }
    // Not `stop`: a node limit sets that too, and a ponder search that has
    // used its nodes must still wait for the GUI's word (UCI forbids a
    // `bestmove` before `ponderhit` or `stop`).
    while control.waiting.load(Relaxed) && !control.stop_asked.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The result to play: the main thread's, unless a helper completed a
/// deeper iteration with a score at least as good (or any when the main
/// thread completed none). Under a depth limit the deepest iteration wins
/// (a helper that reached the limit first ended the search). With MultiPV
/// the main thread's order stands.
fn pick_best(workers: &[Worker], multipv: usize, depth_limited: bool) -> Completed {
    let mut best = workers[0].completed.clone();
    if multipv > 1 {
        return best;
    }
    for w in &workers[1..] {
        let c = &w.completed;
        let better = c.depth > best.depth && (depth_limited || c.score >= best.score);
        if c.depth > 0 && (best.depth == 0 || better) {
            best = c.clone();
        }
    }
    best
}
