//! `jiang datagen`: self-play training positions at a fixed node budget,
//! written in the format of the `data` crate (`jiang-data`; the layout is
//! in its documentation; the options in `docs/TRAINING.md`).
//!
//! ```text
//! jiang datagen --out FILE [--variant V] [--games N] [--nodes N] [--threads N]
//!               [--seed S] [--randomplies N] [--shard I/N]
//!               [--win-score CP] [--win-plies N] [--max-plies N]
//!               [--eval-file NET | --classical]
//! jiang datagen --stats FILE...
//! ```
//!
//! The search evaluates as the engine's default options do: with the
//! game's embedded network when it has one (`Use NNUE` is on by
//! default), classically otherwise. `--eval-file` plays with a network
//! file instead, `--classical` without a network. The header records
//! which network played (its checksum), so the games of later networks
//! are told from those of earlier ones and a resumed run continues with
//! the same evaluation.
//!
//! Games are numbered from 0. Game `k` depends on `(seed, k)` and the
//! settings only ([`game::game_seed`]): its random opening (a random
//! Janggi setup, random quiet plies, `jiang match`'s generator) and a
//! fresh search per game. So the file is the same for any number of
//! threads: each thread plays whole games, and the writer puts them in
//! game order. `--shard I/N` plays the games `k` with `k % N == I`; the
//! shards' files concatenated hold the same games as one unsharded run.
//!
//! Resuming: rerun the same command. The file's header must match the
//! arguments; its records are read, anything after the last complete game
//! (a game cut off by a kill) is dropped, and play continues with the
//! shard's next game. `--games` may be raised to extend a finished run.

mod game;

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, IsTerminal, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use data::{DataErrorKind, Header, Reader, Recipe, Record, Summary};
use jiang_match::shard::Shard;
use movegen::Variant;
use nnue::Network;
use search::Engine;

use crate::cli::args::{ArgError, Args, Opt};
use crate::cli::tools::VARIANTS;
use crate::options::Settings;

pub use game::{game_seed, play, stored_score};

/// Options of `jiang datagen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenArgs {
    /// The rule set played.
    pub variant: Variant,
    /// Games in the whole run (all shards together).
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u32,
    /// Games played at once (one search thread each).
    pub threads: usize,
    /// The seed of the run.
    pub seed: u64,
    /// Random quiet plies of each opening.
    pub random_plies: u16,
    /// This shard's index and the number of shards.
    pub shard: (u32, u32),
    /// Win adjudication: the score bound in centipawns.
    pub win_score: u16,
    /// Win adjudication: plies in a row beyond the bound (0: off).
    pub win_plies: u8,
    /// Positions searched per game before the move cap ends it (0: none).
    pub max_plies: u16,
    /// The evaluation of the search.
    pub eval: DatagenEval,
    /// The output file.
    pub out: String,
    /// Print a progress line on stderr.
    pub progress: bool,
}

/// The evaluation `jiang datagen` searches with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatagenEval {
    /// The hand-written evaluation.
    Classical,
    /// The game's embedded network (classical when it has none).
    Embedded,
    /// The network in this file.
    File(String),
}

impl DatagenEval {
    /// The evaluation of the engine's default options.
    pub fn default_for_engine() -> DatagenEval {
        match Settings::default().use_nnue {
            true => DatagenEval::Embedded,
            false => DatagenEval::Classical,
        }
    }

    /// The network to search `variant` with (`None`: classical). A file
    /// that cannot be read or is not a network of the game is an error.
    pub fn network(&self, variant: Variant) -> Result<Option<Arc<Network>>, String> {
        let game = variant.game();
        match self {
            DatagenEval::Classical => Ok(None),
            DatagenEval::Embedded => Ok(Network::embedded(game)),
            DatagenEval::File(path) => {
                let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
                Network::from_bytes_for(&bytes, game)
                    .map(|n| Some(Arc::new(n)))
                    .map_err(|e| format!("{path}: {e}"))
            }
        }
    }
}

impl DatagenArgs {
    /// The header of the file these arguments write when the search uses
    /// the network whose checksum is `network` (0: classical).
    pub fn header(&self, network: u32) -> Header {
        Header::new(
            self.variant,
            Recipe {
                seed: self.seed,
                nodes: self.nodes,
                random_plies: self.random_plies,
                shard_index: self.shard.0,
                shard_count: self.shard.1,
                win_score: self.win_score,
                win_plies: self.win_plies,
                max_plies: self.max_plies,
                network,
            },
        )
    }
}

/// What `jiang datagen` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatagenCommand {
    /// Play games into a file.
    Generate(DatagenArgs),
    /// Summarise files.
    Stats(Vec<String>),
}

const OPTIONS: &[Opt] = &[
    Opt::value("--out"),
    Opt::value("--variant"),
    Opt::value("--games"),
    Opt::value("--nodes"),
    Opt::value("--threads"),
    Opt::value("--seed"),
    Opt::value("--randomplies"),
    Opt::value("--shard"),
    Opt::value("--win-score"),
    Opt::value("--win-plies"),
    Opt::value("--max-plies"),
    Opt::value("--eval-file"),
    Opt::switch("--classical"),
    Opt::switch("--stats"),
    Opt::switch("--quiet"),
];

/// Defaults, as the help text states them.
pub const DEFAULT_GAMES: u64 = 100;
/// Nodes per move.
pub const DEFAULT_NODES: u32 = 5000;
/// Random plies of an opening.
pub const DEFAULT_RANDOM_PLIES: u16 = 8;
/// Win adjudication bound, centipawns.
pub const DEFAULT_WIN_SCORE: u16 = 1000;
/// Win adjudication run, plies.
pub const DEFAULT_WIN_PLIES: u8 = 6;
/// Move cap, searched positions per game.
pub const DEFAULT_MAX_PLIES: u16 = 400;

/// `I/N` with `I < N`, read as `jiang match -shard` reads it.
fn parse_shard(v: &str) -> Result<(u32, u32), ArgError> {
    let s = Shard::parse(v).map_err(|_| ArgError::BadValue {
        what: "--shard".into(),
        value: v.into(),
        expected: "I/N with 0 <= I < N, e.g. 3/8".into(),
    })?;
    Ok((s.index(), s.count()))
}

/// Parse the arguments after `datagen`.
pub fn parse_args(args: &[String]) -> Result<DatagenCommand, ArgError> {
    let a = Args::parse(args, OPTIONS)?;
    if a.flag("--stats") {
        if a.positional().is_empty() {
            return Err(ArgError::Missing("data file after --stats"));
        }
        if a.value("--out").is_some() {
            return Err(ArgError::Conflict("--stats", "--out"));
        }
        return Ok(DatagenCommand::Stats(a.positional().to_vec()));
    }
    a.at_most(0)?;
    let out = a.value("--out").ok_or(ArgError::Missing("--out FILE"))?;
    let eval = match (a.value("--eval-file"), a.flag("--classical")) {
        (Some(_), true) => return Err(ArgError::Conflict("--eval-file", "--classical")),
        (Some(path), false) => DatagenEval::File(path.to_string()),
        (None, true) => DatagenEval::Classical,
        (None, false) => DatagenEval::default_for_engine(),
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let positive = "a positive number";
    Ok(DatagenCommand::Generate(DatagenArgs {
        variant: a
            .parsed::<Variant>("--variant", VARIANTS, |_| true)?
            .unwrap_or(Variant::Xiangqi),
        games: a
            .parsed("--games", positive, |&n: &u64| n > 0)?
            .unwrap_or(DEFAULT_GAMES),
        nodes: a
            .parsed("--nodes", positive, |&n: &u32| n > 0)?
            .unwrap_or(DEFAULT_NODES),
        threads: a
            .parsed("--threads", "a number from 1 to 1024", |n: &usize| {
                (1..=1024).contains(n)
            })?
            .unwrap_or(cores),
        seed: a.parsed("--seed", "a number", |_: &u64| true)?.unwrap_or(1),
        random_plies: a
            .parsed("--randomplies", "a number from 0 to 200", |&n: &u16| {
                n <= 200
            })?
            .unwrap_or(DEFAULT_RANDOM_PLIES),
        shard: a.value("--shard").map_or(Ok((0, 1)), parse_shard)?,
        win_score: a
            .parsed("--win-score", "a number from 1 to 30000", |&n: &u16| {
                (1..=30_000).contains(&n)
            })?
            .unwrap_or(DEFAULT_WIN_SCORE),
        win_plies: a
            .parsed("--win-plies", "a number from 0 to 255", |_: &u8| true)?
            .unwrap_or(DEFAULT_WIN_PLIES),
        max_plies: a
            .parsed("--max-plies", "a number from 0 to 65535", |_: &u16| true)?
            .unwrap_or(DEFAULT_MAX_PLIES),
        eval,
        out: out.to_string(),
        progress: !a.flag("--quiet"),
    }))
}

/// Run `jiang datagen`.
pub fn run(cmd: &DatagenCommand) -> Result<(), String> {
    match cmd {
        DatagenCommand::Stats(files) => {
            print!("{}", stats(files)?);
            Ok(())
        }
        DatagenCommand::Generate(a) => generate(a).map(|_| ()),
    }
}

/// The summary of `files`, as `--stats` prints it.
pub fn stats(files: &[String]) -> Result<String, String> {
    let mut summary = Summary::new();
    for f in files {
        let file = File::open(f).map_err(|e| format!("{f}: {e}"))?;
        for r in Reader::new(BufReader::new(file)) {
            summary.add(&r.map_err(|e| format!("{f}: {e}"))?);
        }
    }
    Ok(summary.to_string())
}

/// What a run did: games played and positions written by this run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Games played (those ended by their opening included).
    pub games: u64,
    /// Positions written.
    pub positions: u64,
}

/// The refusal to continue a file made otherwise.
fn other_settings(path: &str) -> String {
    format!(
        "{path}: made with other settings (or by several runs concatenated); to continue \
         it, give the arguments it was made with, else choose another --out"
    )
}

/// Where a resumed run continues: the file's length after its last
/// complete game and the number of that game.
fn resume_point(path: &str, header: &Header) -> Result<(u64, Option<u64>), String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = Reader::new(BufReader::new(file));
    let (mut keep, mut last) = (0u64, None);
    while let Some(r) = reader.next() {
        let r = match r {
            Ok(r) => r,
            // A write cut short by a kill: dropped with its game.
            Err(e) if matches!(e.kind, DataErrorKind::Truncated(_)) => break,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        if reader.header() != Some(header) {
            return Err(other_settings(path));
        }
        if r.is_last() {
            keep = reader.offset();
            last = Some(r.game);
        }
    }
    if reader.header() != Some(header) {
        return Err(other_settings(path));
    }
    Ok((keep.max(data::RECORD_SIZE as u64), last))
}

/// Open the output: a new file with its header, or an existing one cut
/// after its last complete game. Returns it, positioned at its end, and
/// the shard's first game still to play.
fn open_output(a: &DatagenArgs, header: &Header) -> Result<(File, u64), String> {
    let path = &a.out;
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if !exists {
        let mut f = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        f.write_all(&header.encode())
            .map_err(|e| format!("{path}: {e}"))?;
        return Ok((f, u64::from(a.shard.0)));
    }
    let (keep, last) = resume_point(path, header)?;
    let mut f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))?;
    f.set_len(keep).map_err(|e| format!("{path}: {e}"))?;
    f.seek(SeekFrom::End(0))
        .map_err(|e| format!("{path}: {e}"))?;
    let n = u64::from(a.shard.1);
    let next = last.map_or(u64::from(a.shard.0), |g| g + n);
    Ok((f, next))
}

/// The progress line: games, positions, speed, time left.
fn progress_line(done: u64, total: u64, positions: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let eta = if done == 0 {
        "?".to_string()
    } else {
        let left = (secs / done as f64 * (total - done) as f64) as u64;
        format!("{}:{:02}:{:02}", left / 3600, left / 60 % 60, left % 60)
    };
    format!(
        "games {done}/{total}  positions {positions}  {:.0} positions/s  ETA {eta}",
        positions as f64 / secs
    )
}

/// Play the shard's games still missing from the file and write them in
/// game order.
pub fn generate(a: &DatagenArgs) -> Result<RunReport, String> {
    let net = a.eval.network(a.variant)?;
    let header = a.header(net.as_ref().map_or(0, |n| n.checksum()));
    let (file, first) = open_output(a, &header)?;
    let step = u64::from(a.shard.1);
    // The shard's games still to play are first, first + step, … below
    // a.games: the j-th is first + j * step.
    let total = a.games.saturating_sub(first).div_ceil(step);
    let mut out = BufWriter::new(file);
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Result<Vec<Record>, String>)>();
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut report = RunReport::default();
    let written: Result<(), String> = std::thread::scope(|s| {
        let workers = usize::try_from(total).map_or(a.threads, |t| a.threads.min(t.max(1)));
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, failed, net) = (&next, &failed, &net);
            s.spawn(move || {
                let mut engine = Engine::new();
                engine.set_threads(1);
                engine.set_network(a.variant.game(), net.clone());
                while !failed.load(Relaxed) {
                    let j = next.fetch_add(1, Relaxed);
                    if j >= total {
                        break;
                    }
                    let k = first + j * step;
                    if tx.send((j, play(&mut engine, a, k))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in order.
        let mut pending = std::collections::BTreeMap::new();
        let mut want = 0u64;
        let mut last_shown = Instant::now();
        let mut result = Ok(());
        for (j, game) in rx {
            pending.insert(j, game);
            while let Some(game) = pending.remove(&want) {
                let write = game.and_then(|records| {
                    let mut bytes = Vec::with_capacity(records.len() * data::RECORD_SIZE);
                    for r in &records {
                        bytes.extend_from_slice(&r.encode());
                    }
                    out.write_all(&bytes)
                        .and_then(|()| out.flush())
                        .map_err(|e| format!("{}: {e}", a.out))?;
                    Ok(records.len() as u64)
                });
                match write {
                    Ok(n) => report.positions += n,
                    Err(e) => {
                        failed.store(true, Relaxed);
                        result = Err(e);
                        break;
                    }
                }
                report.games += 1;
                want += 1;
            }
            if result.is_err() {
                break;
            }
            let every = if terminal { 1 } else { 10 };
            if a.progress && last_shown.elapsed() >= Duration::from_secs(every) {
                last_shown = Instant::now();
                let line = progress_line(report.games, total, report.positions, start.elapsed());
                match terminal {
                    true => eprint!("\r{line}   "),
                    false => eprintln!("{line}"),
                }
            }
        }
        result
    });
    if a.progress {
        let line = progress_line(report.games, total, report.positions, start.elapsed());
        eprintln!("{}{line}", if terminal { "\r" } else { "" });
    }
    written?;
    out.flush().map_err(|e| format!("{}: {e}", a.out))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn arguments() {
        let Ok(DatagenCommand::Generate(a)) = parse_args(&v(&[
            "--out",
            "x.bin",
            "--variant",
            "janggi",
            "--shard",
            "2/5",
            "--nodes",
            "300",
        ])) else {
            panic!("valid arguments")
        };
        assert_eq!(
            (a.variant, a.shard, a.nodes),
            (Variant::Janggi, (2, 5), 300)
        );
        assert_eq!(a.games, DEFAULT_GAMES);
        assert_eq!(
            parse_args(&v(&["--stats", "a.bin", "b.bin"])),
            Ok(DatagenCommand::Stats(v(&["a.bin", "b.bin"])))
        );
        for bad in [
            &["--games", "5"][..],
            &["--out", "x", "--shard", "5/5"],
            &["--out", "x", "--shard", "1"],
            &["--out", "x", "--nodes", "0"],
            &["--out", "x", "extra"],
            &["--stats"],
            &["--stats", "a", "--out", "x"],
        ] {
            assert!(parse_args(&v(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn progress_line_reads() {
        let l = progress_line(5, 20, 1000, Duration::from_secs(10));
        assert_eq!(
            l,
            "games 5/20  positions 1000  100 positions/s  ETA 0:00:30"
        );
    }
}
