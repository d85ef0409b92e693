//! `jiang spsa`: tune the search's parameters (`search::params`) by SPSA
//! over games between two copies of this engine, the algorithm being
//! [`::tune::spsa`] and the games the match crate's ([`jiang_match`]).
//!
//! ```text
//! jiang spsa --state FILE [--variant V] [--params FILE] [--iterations N]
//!            [--batch P] [--nodes N | --tc T] [--openings FILE|random]
//!            [--seed S] [--shard I/N] [--concurrency C] [--trajectory FILE]
//! jiang spsa --merge STATE...
//! jiang spsa --print-params [--variant V]
//! ```
//!
//! Each iteration perturbs every parameter at once and plays `--batch`
//! game pairs `θ+` against `θ-`, each pair one opening with both colours;
//! the engines are this program, started as UCI engines and given the
//! perturbed values (rounded) by `setoption`, so it must be a tuning build
//! (`--features tune`). The state file is rewritten after every
//! iteration; running the same command again resumes (options that
//! define the run may be left out then, and must agree where given). The
//! trajectory — the values after every iteration — goes to a CSV file.
//!
//! Shards (`--shard I/N`) are independent SPSA chains of one definition,
//! each with its own perturbations and its own share of the openings
//! (pair `k` of shard `I` plays opening `k·N + I`); `--merge` prints the
//! mean of their parameters, weighted by the game pairs each played. One
//! trajectory cannot be split without the shards talking to each other
//! after every iteration; averaging chains that each converge is the
//! design that needs no communication.

use std::io::Write;
use std::path::{Path, PathBuf};

use ::tune::spsa::{self, Outcome, SpsaParam, State, Trial};
use jiang_match::config::{EngineConfig, OpeningsConfig, Proto, TimeControl};
use jiang_match::ending::Fault;
use jiang_match::engine_proc::Launch;
use jiang_match::game::{play_game, GameSettings};
use jiang_match::openings::{self, Opening, Rng};
use jiang_match::player::Player;
use jiang_match::shard::Shard;
use movegen::{Color, GameResult, Variant};
use search::params::{self, TUNABLES};

use crate::cli::args::{ArgError, Args, Opt};
use crate::cli::tools::VARIANTS;

/// What `jiang spsa` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum SpsaCommand {
    /// Run (or resume) a tuning run.
    Run(RunArgs),
    /// Print the merged parameters of these state files.
    Merge(Vec<PathBuf>),
    /// Print the default parameter list of a game.
    PrintParams(Variant),
}

/// The options of a run; `None` where not given (a new run takes the
/// default, a resumed one the state's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunArgs {
    /// The state file.
    pub state: PathBuf,
    /// The variant played.
    pub variant: Option<Variant>,
    /// A parameter list (Fishtest's format) instead of the whole table.
    pub params: Option<PathBuf>,
    /// Iterations of the run.
    pub iterations: Option<u64>,
    /// Game pairs per iteration.
    pub batch: Option<u64>,
    /// Time control: `nodes=N` or `tc=T`, as kept in the state.
    pub limit: Option<String>,
    /// Openings file, or `random`.
    pub openings: Option<String>,
    /// Seed of the perturbations.
    pub seed: Option<u64>,
    /// This run's shard.
    pub shard: Option<Shard>,
    /// Game pairs played at once (within an iteration).
    pub concurrency: usize,
    /// The trajectory CSV (default: the state file with `.csv` added).
    pub trajectory: Option<PathBuf>,
}

const OPTIONS: &[Opt] = &[
    Opt::value("--state"),
    Opt::value("--variant"),
    Opt::value("--params"),
    Opt::value("--iterations"),
    Opt::value("--batch"),
    Opt::value("--nodes"),
    Opt::value("--tc"),
    Opt::value("--openings"),
    Opt::value("--seed"),
    Opt::value("--shard"),
    Opt::value("--concurrency"),
    Opt::value("--trajectory"),
    Opt::switch("--merge"),
    Opt::switch("--print-params"),
];

/// Iterations of a new run without `--iterations`.
const DEFAULT_ITERATIONS: u64 = 1_000;
/// Nodes per move of a new run without `--nodes` or `--tc`.
const DEFAULT_NODES: u64 = 5_000;
/// Deadline of a move at fixed nodes, before the engine counts as hung.
const HANG_MS: u64 = 60_000;

/// Parse the arguments after `spsa`.
pub fn parse_args(args: &[String]) -> Result<SpsaCommand, ArgError> {
    let a = Args::parse(args, OPTIONS)?;
    let variant = a.parsed::<Variant>("--variant", VARIANTS, |_| true)?;
    if a.flag("--merge") {
        if a.positional().is_empty() {
            return Err(ArgError::Missing("state files to merge"));
        }
        return Ok(SpsaCommand::Merge(
            a.positional().iter().map(PathBuf::from).collect(),
        ));
    }
    a.at_most(0)?;
    if a.flag("--print-params") {
        return Ok(SpsaCommand::PrintParams(
            variant.unwrap_or(Variant::Xiangqi),
        ));
    }
    let positive = |name| a.parsed(name, "a positive number", |&n: &u64| n > 0);
    let limit = match (a.value("--nodes"), a.value("--tc")) {
        (Some(_), Some(_)) => return Err(ArgError::Conflict("--nodes", "--tc")),
        (Some(_), None) => positive("--nodes")?.map(|n| format!("nodes={n}")),
        (None, Some(t)) => {
            jiang_match::cli::parse_tc(t)
                .ok()
                .flatten()
                .ok_or_else(|| ArgError::BadValue {
                    what: "--tc".into(),
                    value: t.into(),
                    expected: "a clock such as 10+0.1 (seconds)".into(),
                })?;
            Some(format!("tc={t}"))
        }
        (None, None) => None,
    };
    let shard = a.parsed::<Shard>("--shard", "I/N with 0 <= I < N", |_| true)?;
    Ok(SpsaCommand::Run(RunArgs {
        state: a
            .value("--state")
            .map(PathBuf::from)
            .ok_or(ArgError::Missing("--state FILE"))?,
        variant,
        params: a.value("--params").map(PathBuf::from),
        iterations: positive("--iterations")?,
        batch: positive("--batch")?,
        limit,
        openings: a.value("--openings").map(str::to_string),
        seed: a.parsed("--seed", "a whole number", |_: &u64| true)?,
        shard,
        concurrency: a
            .parsed("--concurrency", "a positive number", |&n: &usize| n > 0)?
            .unwrap_or(1),
        trajectory: a.value("--trajectory").map(PathBuf::from),
    }))
}

/// Run the command.
pub fn run(cmd: &SpsaCommand) -> Result<(), String> {
    match cmd {
        SpsaCommand::PrintParams(v) => say(spsa::format_params(&default_params(*v)).trim_end()),
        SpsaCommand::Merge(files) => merge(files),
        SpsaCommand::Run(a) => tune_run(a),
    }
}

/// Every row of the parameter table with `variant`'s defaults.
fn default_params(variant: Variant) -> Vec<SpsaParam> {
    TUNABLES
        .iter()
        .map(|t| SpsaParam {
            name: t.name.to_string(),
            start: f64::from(*t.default.get(variant.game())),
            min: f64::from(t.min),
            max: f64::from(t.max),
            c_end: t.c_end,
            r_end: t.r_end,
        })
        .collect()
}

/// A parameter list from a file: every name must be a row of the table,
/// its range inside the row's (the engine refuses other values).
fn read_params(path: &Path) -> Result<Vec<SpsaParam>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let list = spsa::parse_params(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for p in &list {
        let t = params::find(&p.name)
            .ok_or_else(|| format!("{}: no search parameter '{}'", path.display(), p.name))?
            .row();
        if p.min < f64::from(t.min) || p.max > f64::from(t.max) {
            return Err(format!(
                "{}: {} must stay within {}..{}",
                path.display(),
                p.name,
                t.min,
                t.max
            ));
        }
    }
    Ok(list)
}

/// The new state of `a`, or the saved one it resumes (checked against
/// the options given).
fn open_state(a: &RunArgs) -> Result<State, String> {
    if a.state.exists() {
        let st = State::load(&a.state).map_err(|e| e.to_string())?;
        check_resume(a, &st)?;
        say(format_args!(
            "Resuming {} at iteration {} of {}",
            a.state.display(),
            st.iteration(),
            st.pairs / st.batch
        ))?;
        return Ok(st);
    }
    let variant = a.variant.unwrap_or(Variant::Xiangqi);
    let list = match &a.params {
        Some(p) => read_params(p)?,
        None => default_params(variant),
    };
    let batch = a.batch.unwrap_or(1);
    let pairs = a
        .iterations
        .unwrap_or(DEFAULT_ITERATIONS)
        .checked_mul(batch)
        .ok_or("--iterations times --batch is too large")?;
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let mut st = State::new(
        list,
        pairs,
        batch,
        a.seed.unwrap_or(1),
        (shard.index(), shard.count()),
    )?;
    st.settings = vec![
        ("variant".into(), variant.name().to_string()),
        (
            "limit".into(),
            a.limit
                .clone()
                .unwrap_or_else(|| format!("nodes={DEFAULT_NODES}")),
        ),
        (
            "openings".into(),
            openings_setting(a.openings.as_deref(), variant)?,
        ),
    ];
    Ok(st)
}

/// The openings as the state keeps them: `random`, or the file's
/// absolute path, so that a run resumes from any directory.
fn openings_setting(given: Option<&str>, variant: Variant) -> Result<String, String> {
    let file = match given {
        Some("random") => return Ok("random".into()),
        Some(f) => f.to_string(),
        None => format!("bench/openings/{}.epd", game_file(variant)),
    };
    let path = std::fs::canonicalize(&file).map_err(|e| format!("openings {file}: {e}"))?;
    Ok(path.display().to_string())
}

/// The openings file name of a variant's game.
fn game_file(v: Variant) -> &'static str {
    if v.is_janggi() {
        "janggi"
    } else {
        "xiangqi"
    }
}

/// A resumed run plays as it started: every option given must agree
/// with the state.
fn check_resume(a: &RunArgs, st: &State) -> Result<(), String> {
    let differs = |what: &str| {
        Err(format!(
            "{}: {what} differs from the saved run's; leave it out to resume, or use another --state",
            a.state.display()
        ))
    };
    let given = [
        (
            "--variant",
            a.variant.map(|v| v.name().to_string()),
            "variant",
        ),
        ("--nodes/--tc", a.limit.clone(), "limit"),
        (
            "--openings",
            match &a.openings {
                Some(o) => Some(openings_setting(Some(o), Variant::Xiangqi)?),
                None => None,
            },
            "openings",
        ),
    ];
    for (what, value, key) in given {
        if value.is_some_and(|v| Some(v.as_str()) != st.setting(key)) {
            return differs(what);
        }
    }
    if a.batch.is_some_and(|b| b != st.batch) {
        return differs("--batch");
    }
    if a.iterations
        .is_some_and(|n| n.checked_mul(st.batch) != Some(st.pairs))
    {
        return differs("--iterations");
    }
    if a.seed.is_some_and(|s| s != st.seed) {
        return differs("--seed");
    }
    if a.shard.is_some_and(|s| (s.index(), s.count()) != st.shard) {
        return differs("--shard");
    }
    if let Some(p) = &a.params {
        if read_params(p)? != st.params {
            return differs("--params");
        }
    }
    Ok(())
}

/// What the games of a run need, read from its state.
struct Games {
    variant: Variant,
    tc: TimeControl,
    book: Vec<Opening>,
    exe: PathBuf,
    settings: GameSettings,
}

impl Games {
    fn of(st: &State) -> Result<Games, String> {
        let setting = |k: &str| {
            st.setting(k)
                .ok_or(format!("the state has no '{k}' setting"))
        };
        let variant: Variant = setting("variant")?
            .parse()
            .map_err(|_| "the state's variant is unknown".to_string())?;
        let limit = setting("limit")?;
        let tc = match limit.split_once('=') {
            Some(("nodes", n)) => TimeControl {
                nodes: Some(n.parse().map_err(|_| format!("bad limit '{limit}'"))?),
                ..TimeControl::default()
            },
            Some(("tc", t)) => TimeControl {
                clock: jiang_match::cli::parse_tc(t).ok().flatten(),
                ..TimeControl::default()
            },
            _ => return Err(format!("bad limit '{limit}'")),
        };
        if tc.is_unlimited() {
            return Err(format!("bad limit '{limit}'"));
        }
        let file = setting("openings")?;
        let book = if file == "random" {
            Vec::new()
        } else {
            let cfg = OpeningsConfig {
                file: Some(PathBuf::from(file)),
                ..OpeningsConfig::default()
            };
            openings::load(&cfg, variant, 0).map_err(|e| e.to_string())?
        };
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        // Adjudication as jiang match has it by default: none; the rules
        // end every game. A clock's moves are timed with no extra margin.
        let settings = GameSettings {
            draw: None,
            resign: None,
            maxmoves: None,
            hang_ms: HANG_MS,
            margins_ms: [0, 0],
        };
        Ok(Games {
            variant,
            tc,
            book,
            exe,
            settings,
        })
    }

    /// The opening of game pair `k` of the chain (sequential through the
    /// book, shards interleaved; a seeded random one without a book).
    fn opening(&self, st: &State, k: u64) -> Opening {
        let n = k * u64::from(st.shard.1) + u64::from(st.shard.0);
        if self.book.is_empty() {
            openings::random_opening(self.variant, 6, &mut Rng::new(st.seed ^ n))
        } else {
            self.book[(n % self.book.len() as u64) as usize].clone()
        }
    }

    /// The engine playing `values` (one per parameter of `st`, rounded).
    fn engine(&self, st: &State, name: &str, values: &[f64]) -> EngineConfig {
        let game = self.variant.game();
        let mut options = vec![("Threads".to_string(), "1".to_string())];
        for (p, v) in st.params.iter().zip(values) {
            // Names were checked against the table when the run began.
            if let Some(param) = params::find(&p.name) {
                options.push((
                    params::option_name(param, game),
                    (v.round() as i64).to_string(),
                ));
            }
        }
        EngineConfig {
            name: name.to_string(),
            launch: Launch {
                program: self.exe.display().to_string(),
                args: Vec::new(),
                dir: None,
            },
            proto: Proto::Uci,
            options,
            tc: self.tc,
            ..EngineConfig::default()
        }
    }

    /// One game pair from `opening`: `θ+` first as Red, then as Black.
    /// The outcome from `θ+`'s side; an engine fault other than a loss on
    /// time stops the run (it says nothing about the parameters; the
    /// engines' processes end when their players are dropped).
    fn pair(
        &self,
        plus: &EngineConfig,
        minus: &EngineConfig,
        opening: &Opening,
    ) -> Result<Outcome, String> {
        let start = |cfg: &EngineConfig| {
            Player::start(cfg, self.variant, false).map_err(|e| format!("{}: {e}", cfg.name))
        };
        let (mut p, mut m) = (start(plus)?, start(minus)?);
        let mut out = Outcome::default();
        for plus_colour in [Color::Red, Color::Black] {
            let players = if plus_colour == Color::Red {
                [&mut p, &mut m]
            } else {
                [&mut m, &mut p]
            };
            let rec = play_game(players, opening, &self.settings);
            if let Some((_, f)) = rec.fault() {
                if f != Fault::TimeForfeit {
                    return Err(format!("a game ended by a fault: {}", rec.reason));
                }
            }
            match rec.result {
                GameResult::Draw | GameResult::Ongoing => out.draws += 1,
                r if r == GameResult::win_for(plus_colour) => out.wins += 1,
                _ => out.losses += 1,
            }
        }
        p.quit();
        m.quit();
        Ok(out)
    }
}

/// The iteration's game pairs, `concurrency` at a time.
fn play_iteration(g: &Games, st: &State, t: &Trial, concurrency: usize) -> Result<Outcome, String> {
    let plus = g.engine(st, "spsa-plus", &t.plus);
    let minus = g.engine(st, "spsa-minus", &t.minus);
    let ks: Vec<u64> = (st.done..st.done + st.batch).collect();
    let mut total = Outcome::default();
    for chunk in ks.chunks(concurrency) {
        let results: Vec<Result<Outcome, String>> = std::thread::scope(|s| {
            let hs: Vec<_> = chunk
                .iter()
                .map(|&k| {
                    let (plus, minus) = (&plus, &minus);
                    s.spawn(move || g.pair(plus, minus, &g.opening(st, k)))
                })
                .collect();
            hs.into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a game thread failed".into()))
                })
                .collect()
        });
        for r in results {
            total.add(r?);
        }
    }
    Ok(total)
}

/// The trajectory file's header line.
fn csv_header(st: &State) -> String {
    let names: Vec<&str> = st.params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,pairs,wins,draws,losses,{}", names.join(","))
}

/// Open the trajectory for appending: a new run starts it with its
/// header; a resumed one keeps only the rows of the iterations the state
/// has (a row written just before an interruption, whose state was not
/// saved, is played again).
fn open_trajectory(path: &Path, st: &State) -> Result<std::fs::File, String> {
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut keep = vec![csv_header(st)];
    if st.done > 0 {
        if let Ok(text) = std::fs::read_to_string(path) {
            keep.extend(
                text.lines()
                    .skip(1)
                    .filter(|l| {
                        l.split(',')
                            .next()
                            .and_then(|i| i.parse::<u64>().ok())
                            .is_some_and(|i| i < st.iteration())
                    })
                    .map(str::to_string),
            );
        }
    }
    std::fs::write(path, keep.join("\n") + "\n").map_err(io)?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io)
}

/// `jiang spsa --state …`: play iterations until the run is complete.
fn tune_run(a: &RunArgs) -> Result<(), String> {
    if !params::RUNTIME {
        return Err(
            "jiang spsa sets the search's parameters by options, which only a \
                    tuning build has: cargo build --release --features tune"
                .into(),
        );
    }
    let mut st = open_state(a)?;
    let games = Games::of(&st)?;
    let traj_path = a.trajectory.clone().unwrap_or_else(|| {
        let mut p = a.state.as_os_str().to_owned();
        p.push(".csv");
        PathBuf::from(p)
    });
    let mut traj = open_trajectory(&traj_path, &st)?;
    // Save at once, so that a run stopped in its first iteration resumes
    // with the same definition.
    st.save(&a.state).map_err(|e| e.to_string())?;
    let iterations = st.pairs / st.batch;
    while !st.finished() {
        let t = st.trial();
        let o = play_iteration(&games, &st, &t, a.concurrency)?;
        st.update(&t, o);
        let values: Vec<String> = st.theta.iter().map(|v| format!("{v:.3}")).collect();
        writeln!(
            traj,
            "{},{},{},{},{},{}",
            t.iteration,
            st.done,
            o.wins,
            o.draws,
            o.losses,
            values.join(",")
        )
        .map_err(|e| format!("{}: {e}", traj_path.display()))?;
        st.save(&a.state).map_err(|e| e.to_string())?;
        let tot = st.total;
        say(format_args!(
            "iteration {}/{}: plus +{} ={} -{}; all games +{} ={} -{}",
            t.iteration + 1,
            iterations,
            o.wins,
            o.draws,
            o.losses,
            tot.wins,
            tot.draws,
            tot.losses
        ))?;
    }
    say(format_args!(
        "Done: {} iterations, {} game pairs.",
        iterations, st.done
    ))?;
    print_result(&st)
}

/// The values reached, as a parameter list (a start for another run).
fn print_result(st: &State) -> Result<(), String> {
    let tuned: Vec<SpsaParam> = st
        .params
        .iter()
        .zip(&st.theta)
        .map(|(p, &v)| SpsaParam {
            start: v.round().clamp(p.min, p.max),
            ..p.clone()
        })
        .collect();
    say(spsa::format_params(&tuned).trim_end())
}

/// A line on standard output; an error, not a panic, when it is closed
/// (the state is saved by then, so the run can be resumed).
fn say(text: impl std::fmt::Display) -> Result<(), String> {
    writeln!(std::io::stdout(), "{text}").map_err(|e| format!("standard output: {e}"))
}

/// `jiang spsa --merge`: the shards' chains averaged.
fn merge(files: &[PathBuf]) -> Result<(), String> {
    let states: Vec<State> = files
        .iter()
        .map(|f| State::load(f).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let merged = spsa::merge(&states)?;
    let pairs: u64 = states.iter().map(|s| s.done).sum();
    say(format_args!(
        "# {} chains, {} game pairs",
        states.len(),
        pairs
    ))?;
    say(format_args!("# name, mean, rounded"))?;
    for (name, v) in merged {
        say(format_args!("{name}, {v:.3}, {}", v.round()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn arguments() {
        let SpsaCommand::Run(r) = parse_args(&s(&[
            "--state",
            "x",
            "--nodes",
            "300",
            "--iterations",
            "20",
            "--shard",
            "1/4",
        ]))
        .unwrap() else {
            panic!("not a run");
        };
        assert_eq!(r.limit.as_deref(), Some("nodes=300"));
        assert_eq!(r.iterations, Some(20));
        assert_eq!(r.shard.map(|s| (s.index(), s.count())), Some((1, 4)));
        for bad in [
            &["--nodes", "300"][..],
            &["--state", "x", "--nodes", "0"],
            &["--state", "x", "--nodes", "1", "--tc", "1+0.1"],
            &["--state", "x", "--tc", "fast"],
            &["--state", "x", "--shard", "4/4"],
            &["--state", "x", "extra"],
            &["--merge"],
        ] {
            assert!(parse_args(&s(bad)).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_args(&s(&["--merge", "a", "b"])).unwrap(),
            SpsaCommand::Merge(vec!["a".into(), "b".into()])
        );
    }

    #[test]
    fn default_params_are_the_table() {
        let ps = default_params(Variant::Janggi);
        assert_eq!(ps.len(), TUNABLES.len());
        assert!(ps.iter().all(|p| p.check().is_ok()));
        // The printed list reads back, and as a file it passes the checks.
        let text = spsa::format_params(&ps);
        assert_eq!(spsa::parse_params(&text).unwrap(), ps);
    }

    #[test]
    fn parameter_files_must_name_table_rows_within_their_ranges() {
        let dir = std::env::temp_dir().join(format!("jiang-spsa-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("p.txt");
        for (text, ok) in [
            ("rfp_margin_per_ply, 90, 50, 150, 8, 0.002\n", true),
            ("rfp_margin_per_ply, 90, 0, 150, 8, 0.002\n", false),
            ("no_such_thing, 1, 0, 2, 1, 0.002\n", false),
        ] {
            std::fs::write(&f, text).unwrap();
            assert_eq!(read_params(&f).is_ok(), ok, "{text}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
