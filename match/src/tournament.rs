//! The schedule (pairings, colours, openings) and the worker threads that
//! play games in parallel; the main thread's bookkeeping (progress, PGN,
//! statistics, the SPRT stop, the final report) is the `report` module.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use movegen::{Color, GameResult};

use crate::config::{MatchConfig, Tournament};
use crate::ending::{Ending, Fault};
use crate::game::{play_game, GameRecord, GameSettings};
use crate::layout::{self, Fingerprint, GamePlace, MatchLayout};
use crate::openings::{self, Opening, Rng};
use crate::player::{Player, PlayerError, PonderStats};
use crate::report::{self, Progress};
use crate::stats::{Score, SprtResult};

/// One scheduled game.
#[derive(Clone)]
pub(crate) struct Job {
    /// Game number in the whole match, from 1 (PGN `Round`).
    pub(crate) number: u32,
    /// Index into the encounter list.
    pub(crate) encounter: usize,
    /// Engine playing first.
    pub(crate) red: usize,
    /// Engine playing second.
    pub(crate) black: usize,
    /// Opening group within the encounter (games sharing an opening).
    pub(crate) group: u32,
    opening: Arc<Opening>,
}

/// A finished game sent to the main thread.
pub(crate) struct Done {
    pub(crate) job: Job,
    pub(crate) rec: GameRecord,
}

/// What the whole run produced (for tests and the exit code).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games finished.
    pub games: u32,
    /// Score of each encounter from its first engine's view.
    pub encounters: Vec<((usize, usize), Score)>,
    /// Faults per engine and kind.
    pub faults: HashMap<(usize, Fault), u32>,
    /// Games per ending (checkmate, `-draw` adjudication, crash, …).
    pub reasons: HashMap<Ending, u32>,
    /// SPRT verdict, if one was reached.
    pub sprt: Option<SprtResult>,
    /// Mean referee overhead per move, microseconds (`None` where it was
    /// not measured: a merge of PGN files).
    pub overhead_us: Option<f64>,
    /// Whether the match stopped early because an engine failed and
    /// `-recover` was not given.
    pub aborted: bool,
    /// All games' ponder searches (all zero without pondering, and in a
    /// merge of PGN files, which do not record them).
    pub ponder: PonderStats,
}

/// The pairs of engines that meet: everyone against everyone, or the
/// first engine against each of the others.
pub(crate) fn encounters(cfg: &MatchConfig) -> Vec<(usize, usize)> {
    let n = cfg.engines.len();
    match cfg.tournament {
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// The opening of one opening group: the book's, in turn, or a random one
/// seeded by the group.
fn opening_for(cfg: &MatchConfig, book: &[Opening], group: u32) -> Opening {
    if book.is_empty() {
        let seed = cfg
            .seed
            .wrapping_mul(0x2545_F491)
            .wrapping_add(u64::from(group));
        openings::random_opening(cfg.variant, cfg.random_plies, &mut Rng::new(seed))
    } else {
        book[group as usize % book.len()].clone()
    }
}

/// A warning when the schedule uses the book's openings more than once
/// while every engine plays without a clock (`nodes=` or `depth=`): a
/// deterministic engine then replays the same games, which add no
/// information but count in the Elo error bar and the SPRT as if they did.
fn replay_warning(cfg: &MatchConfig, book_len: usize) -> Option<String> {
    let clockless = cfg
        .engines
        .iter()
        .all(|e| e.tc.clock.is_none() && e.tc.movetime_ms.is_none() && !e.tc.is_unlimited());
    let per_round = encounters(cfg).len() as u64 * u64::from(cfg.games);
    let groups = (u64::from(cfg.rounds) * per_round).div_ceil(u64::from(cfg.repeat.max(1)));
    (clockless && book_len > 0 && groups > book_len as u64).then(|| {
        format!(
            "warning: {groups} opening groups from a book of {book_len} openings without a clock: \
             repeated openings replay the same games (use a larger book, fewer rounds, or \
             generated openings: no -openings, -randomplies N)"
        )
    })
}

/// Every game of the match in order: rounds, encounters, games; colours
/// alternate, `-repeat` consecutive games share an opening. Returns the
/// games of this run's `-shard` (game `k` from 0 is the job numbered
/// `k + 1`) and the whole match's layout, whose `MatchId` hashes every game
/// of the schedule, so that all shards of one match agree on it.
fn schedule(cfg: &MatchConfig, book: &[Opening]) -> (Vec<Job>, MatchLayout) {
    let pairs = encounters(cfg);
    let mut jobs = Vec::new();
    let mut number = 0;
    let mut cache: HashMap<u32, Arc<Opening>> = HashMap::new();
    let mut fp = Fingerprint::default();
    layout::write_definition(cfg, &mut fp);
    for r in 0..cfg.rounds {
        for (e, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..cfg.games {
                let k = r * cfg.games + g;
                let group = k / cfg.repeat;
                let (red, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
                number += 1;
                let opening = cache
                    .entry(group)
                    .or_insert_with(|| Arc::new(opening_for(cfg, book, group)));
                let place = GamePlace {
                    round: number,
                    group,
                    white: red,
                    black,
                };
                layout::write_game(&mut fp, &place, opening);
                if !cfg.shard.plays(u64::from(number - 1)) {
                    continue;
                }
                jobs.push(Job {
                    number,
                    encounter: e,
                    red,
                    black,
                    group,
                    opening: Arc::clone(opening),
                });
            }
        }
    }
    (jobs, MatchLayout::new(cfg, fp.finish(), number))
}

/// Engine `idx` from the worker's cache, or a fresh one. An engine that
/// died while idle between games is replaced, not blamed: it did nothing
/// wrong in this game yet.
fn take_or_start(
    cfg: &MatchConfig,
    cache: &mut HashMap<usize, Player>,
    idx: usize,
) -> Result<Player, PlayerError> {
    if let Entry::Occupied(mut cached) = cache.entry(idx) {
        if !cached.get_mut().is_dead() {
            return Ok(cached.remove());
        }
        cached.remove().kill();
    }
    Player::start(&cfg.engines[idx], cfg.variant, cfg.debug)
}

/// The record of a game lost by an engine that could not start.
fn start_failure(cfg: &MatchConfig, job: &Job, side: Color, err: &PlayerError) -> GameRecord {
    let idx = if side == Color::Red {
        job.red
    } else {
        job.black
    };
    GameRecord::unplayed(
        &job.opening,
        GameResult::win_for(side.flip()),
        Ending::Fault(Fault::StartFailure),
        format!("{} failed to start: {err}", cfg.engines[idx].name),
    )
}

/// Give an engine back to the cache after a game, or end it if it failed.
fn retire_or_keep(cache: &mut HashMap<usize, Player>, idx: usize, mut p: Player, faulted: bool) {
    if faulted || p.is_dead() {
        // A process that hung or crashed is not trusted again: kill it;
        // the next game starts a fresh one.
        p.kill();
    } else {
        cache.insert(idx, p);
    }
}

/// Start a game's engines (from the worker's cache when they are there),
/// play, and retire engines that failed.
fn run_job(
    cfg: &MatchConfig,
    cache: &mut HashMap<usize, Player>,
    job: &Job,
    settings: &GameSettings,
) -> GameRecord {
    let mut red = match take_or_start(cfg, cache, job.red) {
        Ok(p) => p,
        Err(err) => return start_failure(cfg, job, Color::Red, &err),
    };
    let mut black = match take_or_start(cfg, cache, job.black) {
        Ok(p) => p,
        Err(err) => {
            cache.insert(job.red, red);
            return start_failure(cfg, job, Color::Black, &err);
        }
    };
    let rec = play_game([&mut red, &mut black], &job.opening, settings);
    let at_fault = |side: Color| {
        rec.fault()
            .is_some_and(|(c, f)| c == side && f.needs_restart())
    };
    retire_or_keep(cache, job.red, red, at_fault(Color::Red));
    retire_or_keep(cache, job.black, black, at_fault(Color::Black));
    rec
}

/// A worker: take jobs from the queue and send back finished games until
/// the queue is empty, `stop` is set or the main thread hangs up.
fn work(
    cfg: &MatchConfig,
    settings: &GameSettings,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: &Sender<Done>,
) {
    let mut cache: HashMap<usize, Player> = HashMap::new();
    while !stop.load(Ordering::Relaxed) {
        let job = match queue.lock() {
            Ok(mut q) => q.pop_front(),
            Err(_) => None,
        };
        let Some(job) = job else { break };
        let mut s = settings.clone();
        s.margins_ms = [
            cfg.engines[job.red].margin_ms,
            cfg.engines[job.black].margin_ms,
        ];
        let rec = run_job(cfg, &mut cache, &job, &s);
        if tx.send(Done { job, rec }).is_err() {
            break;
        }
    }
    for (_, p) in cache.drain() {
        p.quit();
    }
}

/// The worker threads (`-concurrency`, at most one per game) and the
/// channel their games arrive on.
fn start_workers(
    cfg: &MatchConfig,
    jobs: Vec<Job>,
    stop: &Arc<AtomicBool>,
) -> Result<(Vec<JoinHandle<()>>, Receiver<Done>), String> {
    let settings = GameSettings {
        draw: cfg.draw,
        resign: cfg.resign,
        maxmoves: cfg.maxmoves,
        hang_ms: cfg.hang_ms,
        margins_ms: [0, 0],
    };
    let workers = cfg.concurrency.min(jobs.len().max(1));
    let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
    let (tx, rx) = mpsc::channel::<Done>();
    let mut handles = Vec::new();
    for w in 0..workers {
        let (queue, stop, tx) = (Arc::clone(&queue), Arc::clone(stop), tx.clone());
        let (cfg, settings) = (cfg.clone(), settings.clone());
        let h = thread::Builder::new()
            .name(format!("match-worker-{w}"))
            .spawn(move || work(&cfg, &settings, &queue, &stop, &tx))
            .map_err(|e| format!("cannot start worker thread: {e}"))?;
        handles.push(h);
    }
    Ok((handles, rx))
}

/// Run the whole match. Returns the summary, or an error message for a
/// setup problem (bad openings file, unwritable PGN).
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    let book = openings::load(&cfg.openings, cfg.variant, cfg.seed).map_err(|e| e.to_string())?;
    let (jobs, layout) = schedule(cfg, &book);
    if let Some(w) = replay_warning(cfg, book.len()) {
        eprintln!("{w}");
    }
    if !cfg.shard.is_whole() {
        println!(
            "Shard {}: {} of the match's {} games (MatchId {:016x})",
            cfg.shard,
            jobs.len(),
            layout.games,
            layout.id
        );
    }
    let mut progress = Progress::new(cfg, jobs.len(), layout)?;
    let stop = Arc::new(AtomicBool::new(false));
    let (handles, rx) = start_workers(cfg, jobs, &stop)?;
    for done in rx {
        if progress.add(&done) {
            stop.store(true, Ordering::Relaxed);
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let summary = progress.finish();
    report::final_report(cfg, &summary);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(words: &str) -> MatchConfig {
        let args: Vec<String> = words.split_whitespace().map(String::from).collect();
        crate::cli::parse(&args).expect("valid command line")
    }

    /// Fixed-node games from a book warn once the openings run out, and
    /// not before; a clock or generated openings never warn.
    #[test]
    fn replayed_openings_warn_without_a_clock() {
        let base = "-engine cmd=a -engine cmd=b -games 2 -repeat";
        let nodes = config(&format!("{base} -rounds 100 -each nodes=1000"));
        assert!(
            replay_warning(&nodes, 100).is_none(),
            "100 pairs, 100 openings"
        );
        let w = replay_warning(&nodes, 99).expect("100 pairs, 99 openings");
        assert!(
            w.contains("100 opening groups") && w.contains("99 openings"),
            "{w}"
        );
        let depth = config(&format!("{base} -rounds 100 -each depth=8"));
        assert!(replay_warning(&depth, 10).is_some());
        let clock = config(&format!("{base} -rounds 100 -each tc=10+0.1"));
        assert!(replay_warning(&clock, 10).is_none());
        assert!(replay_warning(&nodes, 0).is_none(), "generated openings");
    }
}
