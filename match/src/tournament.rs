//! The schedule (pairings, colours, openings), the worker threads that
//! play games in parallel, and the main thread's bookkeeping: progress,
//! PGN, statistics and the SPRT stop.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use movegen::Color;

use crate::cli::{MatchConfig, Tournament};
use crate::game::{play_game, Fault, GameRecord, GameSettings};
use crate::openings::{self, Opening, Rng};
use crate::pgn::{self, PgnHeader};
use crate::player::Player;
use crate::referee::Outcome;
use crate::stats::{Score, Sprt, SprtResult};

/// One scheduled game.
#[derive(Clone)]
struct Job {
    /// 1-based game number.
    number: u32,
    /// Index into the encounter list.
    encounter: usize,
    /// Engines playing first and second.
    red: usize,
    black: usize,
    /// Opening group within the encounter (games sharing an opening).
    group: u32,
    opening: Arc<Opening>,
}

/// A finished game sent to the main thread.
struct Done {
    job: Job,
    rec: GameRecord,
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
    /// Games per end reason (`checkmate`, `adjudication-draw`, `crash`, …).
    pub reasons: HashMap<String, u32>,
    /// SPRT verdict, if one was reached.
    pub sprt: Option<SprtResult>,
    /// Mean referee overhead per move, microseconds.
    pub overhead_us: f64,
    /// Whether the match stopped early because an engine failed and
    /// `-recover` was not given.
    pub aborted: bool,
}

fn encounters(cfg: &MatchConfig) -> Vec<(usize, usize)> {
    let n = cfg.engines.len();
    match cfg.tournament {
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

fn schedule(cfg: &MatchConfig, book: &[Opening]) -> Vec<Job> {
    let pairs = encounters(cfg);
    let mut jobs = Vec::new();
    let mut number = 0;
    let mut cache: HashMap<u32, Arc<Opening>> = HashMap::new();
    let mut opening_for = |group: u32| -> Arc<Opening> {
        cache
            .entry(group)
            .or_insert_with(|| {
                Arc::new(if book.is_empty() {
                    let mut rng = Rng::new(
                        cfg.seed
                            .wrapping_mul(0x2545_F491)
                            .wrapping_add(u64::from(group)),
                    );
                    openings::random_opening(cfg.variant, cfg.random_plies, &mut rng)
                } else {
                    book[group as usize % book.len()].clone()
                })
            })
            .clone()
    };
    for r in 0..cfg.rounds {
        for (e, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..cfg.games {
                let k = r * cfg.games + g;
                let group = k / cfg.repeat;
                let (red, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
                number += 1;
                jobs.push(Job {
                    number,
                    encounter: e,
                    red,
                    black,
                    group,
                    opening: opening_for(group),
                });
            }
        }
    }
    jobs
}

/// Start a game's engines from the worker's cache, play, and retire
/// engines that failed.
fn run_job(
    cfg: &MatchConfig,
    cache: &mut HashMap<usize, Player>,
    job: &Job,
    settings: &GameSettings,
) -> GameRecord {
    for (idx, side) in [(job.red, Color::Red), (job.black, Color::Black)] {
        // An engine that died while idle between games is replaced, not
        // blamed: it did nothing wrong in this game yet.
        if cache.get_mut(&idx).is_some_and(|e| e.is_dead()) {
            if let Some(e) = cache.remove(&idx) {
                e.kill();
            }
        }
        if let std::collections::hash_map::Entry::Vacant(v) = cache.entry(idx) {
            match Player::start(&cfg.engines[idx], cfg.variant, cfg.debug) {
                Ok(e) => {
                    v.insert(e);
                }
                Err(err) => {
                    return GameRecord {
                        start: job.opening.start.clone(),
                        moves: job.opening.moves.clone(),
                        book_plies: job.opening.moves.len(),
                        move_info: Vec::new(),
                        outcome: Outcome::win_for(side.flip()),
                        termination: Fault::StartFailure.termination(),
                        reason: format!("{} failed to start: {err}", cfg.engines[idx].name),
                        reason_code: "start-failure".to_string(),
                        fault: Some((side, Fault::StartFailure)),
                        overhead_us: (0, 0),
                    };
                }
            }
        }
    }
    let mut red = cache.remove(&job.red);
    let mut black = cache.remove(&job.black);
    let rec = match (red.as_mut(), black.as_mut()) {
        (Some(r), Some(b)) => play_game([r, b], &job.opening, settings),
        _ => unreachable_record(job),
    };
    for (idx, side, eng) in [(job.red, Color::Red, red), (job.black, Color::Black, black)] {
        let Some(mut e) = eng else { continue };
        let faulted = rec
            .fault
            .is_some_and(|(c, f)| c == side && f.needs_restart());
        if faulted || e.is_dead() {
            // A process that hung or crashed is not trusted again: kill it;
            // the next game starts a fresh one.
            e.kill();
        } else {
            cache.insert(idx, e);
        }
    }
    rec
}

/// Both engines were just inserted into the cache, so this is only reached
/// if that invariant breaks; report it as a start failure, not a panic.
fn unreachable_record(job: &Job) -> GameRecord {
    GameRecord {
        start: job.opening.start.clone(),
        moves: job.opening.moves.clone(),
        book_plies: job.opening.moves.len(),
        move_info: Vec::new(),
        outcome: Outcome::Draw,
        termination: "emergency",
        reason: "internal error: engine missing".to_string(),
        reason_code: "internal".to_string(),
        fault: None,
        overhead_us: (0, 0),
    }
}

fn fmt_elo(s: &Score) -> String {
    match s.elo() {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!("{:.2} +/- {:.2}", e.elo, e.error)
        }
        Some(e) if e.elo.is_finite() => format!("{:.2} +/- inf", e.elo),
        Some(e) => (if e.elo > 0.0 { "+inf" } else { "-inf" }).to_string(),
        None => "-".to_string(),
    }
}

/// Run the whole match. Returns the summary, or an error message for a
/// setup problem (bad openings file, unwritable PGN).
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    let book = openings::load(&cfg.openings, cfg.variant, cfg.seed).map_err(|e| e.to_string())?;
    let pairs = encounters(cfg);
    let jobs = schedule(cfg, &book);
    let total = jobs.len();
    let mut pgn_out = match &cfg.pgnout {
        Some(p) => Some(BufWriter::new(
            File::options()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => None,
    };
    let sprt = match cfg.sprt {
        Some(s) if cfg.engines.len() == 2 => Some(Sprt::new(s.elo0, s.elo1, s.alpha, s.beta)),
        Some(_) => {
            eprintln!("warning: -sprt needs exactly two engines; ignored");
            None
        }
        None => None,
    };
    let settings = GameSettings {
        draw: cfg.draw,
        resign: cfg.resign,
        maxmoves: cfg.maxmoves,
        hang_ms: cfg.hang_ms,
        margins_ms: [0, 0],
    };
    let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Done>();
    let workers = cfg.concurrency.min(total.max(1));
    let mut handles = Vec::new();
    for w in 0..workers {
        let queue = Arc::clone(&queue);
        let stop = Arc::clone(&stop);
        let tx = tx.clone();
        let cfg = cfg.clone();
        let settings = settings.clone();
        let h = thread::Builder::new()
            .name(format!("match-worker-{w}"))
            .spawn(move || {
                let mut cache: HashMap<usize, Player> = HashMap::new();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
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
                    let rec = run_job(&cfg, &mut cache, &job, &s);
                    if tx.send(Done { job, rec }).is_err() {
                        break;
                    }
                }
                for (_, e) in cache.drain() {
                    e.quit();
                }
            })
            .map_err(|e| format!("cannot start worker thread: {e}"))?;
        handles.push(h);
    }
    drop(tx);

    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let mut summary = Summary {
        encounters: pairs.iter().map(|&p| (p, Score::default())).collect(),
        ..Summary::default()
    };
    // Half-points of the encounter's first engine per opening group, until
    // the pair of games is complete.
    let mut open_pairs: HashMap<(usize, u32), (u8, u8)> = HashMap::new();
    let mut overhead = (0u64, 0u64);
    let date = pgn::today();
    let event = format!("jiang match ({})", cfg.variant);
    for done in rx {
        let Done { job, rec } = done;
        summary.games += 1;
        *summary.reasons.entry(rec.reason_code.clone()).or_insert(0) += 1;
        overhead.0 += rec.overhead_us.0;
        overhead.1 += rec.overhead_us.1;
        let (a, b) = pairs[job.encounter];
        // Points of engine `a` in this game, in half-points.
        let red_half = match rec.outcome {
            Outcome::FirstWins => 2,
            Outcome::Draw => 1,
            Outcome::SecondWins => 0,
        };
        let a_half = if job.red == a { red_half } else { 2 - red_half };
        let score = &mut summary.encounters[job.encounter].1;
        score.add_game(a_half);
        if cfg.repeat == 2 {
            let slot = open_pairs
                .entry((job.encounter, job.group))
                .or_insert((0, 0));
            slot.0 += a_half;
            slot.1 += 1;
            if slot.1 == 2 {
                let pts = slot.0;
                open_pairs.remove(&(job.encounter, job.group));
                score.add_pair(pts);
            }
        }
        if let Some((side, f)) = rec.fault {
            let idx = if side == Color::Red {
                job.red
            } else {
                job.black
            };
            *summary.faults.entry((idx, f)).or_insert(0) += 1;
            if !cfg.recover && matches!(f, Fault::Crash | Fault::Hang | Fault::StartFailure) {
                eprintln!(
                    "Stopping: {} ({}); use -recover to restart failed engines and go on",
                    names[idx], f
                );
                summary.aborted = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            job.number,
            names[job.red],
            names[job.black],
            rec.outcome.pgn(),
            rec.reason
        );
        let s = summary.encounters[job.encounter].1;
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}/{}",
            names[a],
            names[b],
            s.wins,
            s.losses,
            s.draws,
            s.fraction(),
            summary.games,
            total
        );
        if cfg.rating_interval > 0 && summary.games % cfg.rating_interval == 0 {
            println!(
                "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                fmt_elo(&s),
                100.0 * s.los(),
                100.0 * s.draw_ratio()
            );
        }
        if let Some(w) = pgn_out.as_mut() {
            let tc_tag = cfg.engines[job.red].tc.pgn_tag();
            let h = PgnHeader {
                event: &event,
                date: &date,
                round: job.number,
                red: names[job.red],
                black: names[job.black],
                time_control: &tc_tag,
                notation: cfg.notation,
            };
            if w.write_all(pgn::write_game(&h, &rec).as_bytes())
                .and_then(|()| w.flush())
                .is_err()
            {
                eprintln!("warning: cannot write the PGN file");
            }
        }
        if let Some(t) = sprt {
            let (llr, verdict) = t.decide(&summary.encounters[0].1);
            if verdict != SprtResult::Continue && summary.sprt.is_none() {
                println!(
                    "SPRT: llr {llr:.2} ({:.1}%), lbound {:.2}, ubound {:.2} - {} was accepted",
                    100.0 * llr / t.upper,
                    t.lower,
                    t.upper,
                    if verdict == SprtResult::H1 {
                        "H1"
                    } else {
                        "H0"
                    }
                );
                summary.sprt = Some(verdict);
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    summary.overhead_us = if overhead.1 > 0 {
        overhead.0 as f64 / overhead.1 as f64
    } else {
        0.0
    };
    report(cfg, &summary, sprt);
    Ok(summary)
}

fn report(cfg: &MatchConfig, s: &Summary, sprt: Option<Sprt>) {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    println!();
    for &((a, b), sc) in &s.encounters {
        if sc.games() == 0 {
            continue;
        }
        println!("Results of {} vs {} ({}):", names[a], names[b], cfg.variant);
        println!(
            "Elo: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
            fmt_elo(&sc),
            100.0 * sc.los(),
            100.0 * sc.draw_ratio()
        );
        println!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
            sc.games(),
            sc.wins,
            sc.losses,
            sc.draws,
            sc.points(),
            100.0 * sc.fraction()
        );
        if sc.penta.iter().sum::<u32>() > 0 {
            println!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}]",
                sc.penta[0], sc.penta[1], sc.penta[2], sc.penta[3], sc.penta[4]
            );
        }
        if let (Some(t), 0) = (
            sprt,
            s.encounters.iter().position(|e| e.0 == (a, b)).unwrap_or(1),
        ) {
            let (llr, v) = t.decide(&sc);
            println!(
                "SPRT ({:.1}, {:.1}): LLR {:.2} [{:.2}, {:.2}] {}",
                t.elo0,
                t.elo1,
                llr,
                t.lower,
                t.upper,
                match v {
                    SprtResult::H1 => "H1 accepted",
                    SprtResult::H0 => "H0 accepted",
                    SprtResult::Continue => "no decision yet",
                }
            );
        }
    }
    if cfg.engines.len() > 2 {
        let mut totals: Vec<(usize, Score)> = (0..cfg.engines.len())
            .map(|i| (i, Score::default()))
            .collect();
        for &((a, b), sc) in &s.encounters {
            let t = &mut totals[a].1;
            t.wins += sc.wins;
            t.draws += sc.draws;
            t.losses += sc.losses;
            let t = &mut totals[b].1;
            t.wins += sc.losses;
            t.draws += sc.draws;
            t.losses += sc.wins;
        }
        totals.sort_by(|x, y| y.1.points().total_cmp(&x.1.points()));
        println!("Rank Name                          Elo      +/-  Games  Score  Draw");
        for (rank, (i, sc)) in totals.iter().enumerate() {
            let (elo, err) = sc.elo().map_or((0.0, 0.0), |e| (e.elo, e.error));
            println!(
                "{:>4} {:<26} {:>7.1} {:>8.1} {:>6} {:>5.1}% {:>4.1}%",
                rank + 1,
                names[*i],
                elo,
                err,
                sc.games(),
                100.0 * sc.fraction(),
                100.0 * sc.draw_ratio()
            );
        }
    }
    let mut reasons: Vec<_> = s.reasons.iter().collect();
    reasons.sort();
    let list: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("Game ends: {}", list.join(", "));
    let total_faults: u32 = s.faults.values().sum();
    println!("Faults: {total_faults}");
    let mut keys: Vec<_> = s.faults.iter().collect();
    keys.sort_by_key(|((i, f), _)| (*i, Fault::ALL.iter().position(|x| x == f)));
    for ((i, f), n) in keys {
        println!("  {}: {} x {}", names[*i], n, f);
    }
    println!("Referee overhead per move: {:.0} us", s.overhead_us);
    if s.aborted {
        println!("Match stopped early after an engine failure.");
    }
}
