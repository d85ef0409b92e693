//! # spsa — simultaneous perturbation stochastic approximation
//!
//! The algorithm of `jiang spsa`, without games: schedules, perturbations,
//! the update and the state file, so that it can be tested on a planted
//! optimum (the tests below) and resumed after an interruption. The games
//! that measure each perturbation are played by the command
//! (`engine/spsa.rs`).
//!
//! One iteration: every parameter is perturbed at once, `θ± = θ ± c_k·Δ`
//! with a random sign `Δ_i = ±1` per parameter (Rademacher), a batch of
//! game pairs is played `θ+` against `θ-` (each pair one opening, both
//! colours), and with `R` = the wins less the losses of `θ+`,
//! `θ_i += a_k·R / (c_k·Δ_i)`, clamped to the parameter's range.
//!
//! Schedules follow Fishtest's convention. Each parameter has `c_end`
//! (its perturbation at the last game pair) and `r_end` (its learning
//! rate there, `a_end = r_end·c_end²`). With `N` game pairs in the run
//! and `k` counting pairs from 1: `c_k = c_end·(N/k)^γ` and
//! `a_k = a_end·((A + N)/(A + k))^α`, with `α = 0.602`, `γ = 0.101` and
//! `A = N/10`. A batch of `B` pairs shares one perturbation and is
//! counted as `B` pairs (its `k` is that of its first pair).
//!
//! Reproducible: the perturbation of iteration `j` is drawn from a
//! generator seeded by the run's seed, its shard and `j` alone, so a run
//! resumed from its state file continues exactly as if uninterrupted
//! (with games that are themselves deterministic, e.g. at fixed nodes).
//!
//! The state file is text, one `key value…` line each, written to a
//! temporary file and renamed over the old one, so an interruption leaves
//! either the old or the new state; reading it checks every line and
//! answers a malformed file with a [`StateError`].

use std::fmt;
use std::path::{Path, PathBuf};

use movegen::SplitMix64;

/// Exponent of the learning-rate schedule (Spall's recommendation).
pub const ALPHA: f64 = 0.602;
/// Exponent of the perturbation schedule.
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a share of the run's game pairs.
pub const A_RATIO: f64 = 0.1;

/// The first line of a state file, with its format version.
const MAGIC: &str = "jiang-spsa-state 1";

/// One parameter as SPSA sees it: a real number in a range.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// Its name (the search's parameter name for `jiang spsa`).
    pub name: String,
    /// Where the run started.
    pub start: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Perturbation at the last game pair.
    pub c_end: f64,
    /// Learning rate at the last game pair.
    pub r_end: f64,
}

impl SpsaParam {
    /// Check that the range holds the start and the settings are usable.
    pub fn check(&self) -> Result<(), String> {
        let finite = [self.start, self.min, self.max, self.c_end, self.r_end]
            .iter()
            .all(|v| v.is_finite());
        if !finite {
            return Err(format!("{}: every number must be finite", self.name));
        }
        if !(self.min <= self.start && self.start <= self.max) {
            return Err(format!(
                "{}: start {} is outside {}..{}",
                self.name, self.start, self.min, self.max
            ));
        }
        if self.c_end <= 0.0 || self.r_end <= 0.0 {
            return Err(format!("{}: c_end and r_end must be positive", self.name));
        }
        if self.name.is_empty() || self.name.contains(char::is_whitespace) {
            return Err(format!("bad parameter name '{}'", self.name));
        }
        Ok(())
    }
}

/// Read a parameter list in Fishtest's format: one parameter a line,
/// `name, start, min, max, c_end, r_end`; blank lines and `#` comments
/// are skipped.
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, String> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", n + 1);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(at(format!(
                "expected 'name, start, min, max, c_end, r_end', got '{line}'"
            )));
        }
        let num = |i: usize| {
            fields[i]
                .parse::<f64>()
                .map_err(|_| at(format!("'{}' is not a number", fields[i])))
        };
        let p = SpsaParam {
            name: fields[0].to_string(),
            start: num(1)?,
            min: num(2)?,
            max: num(3)?,
            c_end: num(4)?,
            r_end: num(5)?,
        };
        p.check().map_err(at)?;
        if out.iter().any(|q| q.name == p.name) {
            return Err(at(format!("{} is listed twice", p.name)));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err("no parameters".into());
    }
    Ok(out)
}

/// Write parameters in the format [`parse_params`] reads.
pub fn format_params(params: &[SpsaParam]) -> String {
    let mut s = String::from("# name, start, min, max, c_end, r_end\n");
    for p in params {
        s.push_str(&format!(
            "{}, {}, {}, {}, {}, {}\n",
            p.name, p.start, p.min, p.max, p.c_end, p.r_end
        ));
    }
    s
}

/// The perturbation of one iteration and the values it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// Iteration number, from 0.
    pub iteration: u64,
    /// The sign of each parameter's perturbation.
    pub delta: Vec<i8>,
    /// The perturbation size `c_k` of each parameter.
    pub c: Vec<f64>,
    /// `θ + c_k·Δ`, clamped to the ranges.
    pub plus: Vec<f64>,
    /// `θ - c_k·Δ`, clamped to the ranges.
    pub minus: Vec<f64>,
}

/// The outcome of one iteration's games from `θ+`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games `θ+` won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games `θ+` lost.
    pub losses: u64,
}

impl Outcome {
    /// `R`: wins less losses.
    pub fn score(&self) -> f64 {
        self.wins as f64 - self.losses as f64
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Add another outcome.
    pub fn add(&mut self, o: Outcome) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

/// A whole SPSA run: its definition and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The parameters.
    pub params: Vec<SpsaParam>,
    /// Their current values, one per parameter.
    pub theta: Vec<f64>,
    /// Game pairs of the whole run (`N` of the schedules).
    pub pairs: u64,
    /// Game pairs per iteration (one perturbation each).
    pub batch: u64,
    /// Game pairs played so far.
    pub done: u64,
    /// Seed of the perturbations.
    pub seed: u64,
    /// This run's shard, from 0, and the number of shards (`I/N` as
    /// `jiang match -shard` writes it): each shard is its own chain with
    /// its own perturbations.
    pub shard: (u32, u32),
    /// All games so far, from `θ+`'s side.
    pub total: Outcome,
    /// Settings of the program that plays the games (variant, time
    /// control, …), kept so that a resumed run plays as it started.
    pub settings: Vec<(String, String)>,
}

/// Why a state file could not be used.
#[derive(Debug)]
pub enum StateError {
    /// It could not be read or written.
    Io(PathBuf, std::io::Error),
    /// It is not a state file, or a line is malformed (line number from 1).
    Format(PathBuf, usize, String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            StateError::Format(p, 0, e) => write!(f, "{}: {e}", p.display()),
            StateError::Format(p, n, e) => write!(f, "{}:{n}: {e}", p.display()),
        }
    }
}

impl std::error::Error for StateError {}

/// A 64-bit mix (splitmix64's finaliser), to derive independent seeds.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl State {
    /// A new run of `pairs` game pairs in batches of `batch`, starting at
    /// each parameter's start. Errors on an empty or inconsistent
    /// definition.
    pub fn new(
        params: Vec<SpsaParam>,
        pairs: u64,
        batch: u64,
        seed: u64,
        shard: (u32, u32),
    ) -> Result<State, String> {
        if params.is_empty() {
            return Err("no parameters".into());
        }
        for p in &params {
            p.check()?;
        }
        if pairs == 0 || batch == 0 {
            return Err("the run needs at least one game pair per iteration".into());
        }
        if shard.1 == 0 || shard.0 >= shard.1 {
            return Err(format!("bad shard {}/{}", shard.0, shard.1));
        }
        Ok(State {
            theta: params.iter().map(|p| p.start).collect(),
            params,
            pairs,
            batch,
            done: 0,
            seed,
            shard,
            total: Outcome::default(),
            settings: Vec::new(),
        })
    }

    /// Whether every game pair of the run has been played.
    pub fn finished(&self) -> bool {
        self.done >= self.pairs
    }

    /// Number of the next iteration, from 0.
    pub fn iteration(&self) -> u64 {
        self.done / self.batch
    }

    /// `c_k` of parameter `i` at game pair `k` (from 1).
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        let n = self.pairs as f64;
        self.params[i].c_end * (n / k.max(1) as f64).powf(GAMMA)
    }

    /// `a_k` of parameter `i` at game pair `k` (from 1).
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        let n = self.pairs as f64;
        let a = A_RATIO * n;
        let a_end = p.r_end * p.c_end * p.c_end;
        a_end * ((a + n) / (a + k.max(1) as f64)).powf(ALPHA)
    }

    /// The perturbation of the next iteration.
    pub fn trial(&self) -> Trial {
        let iteration = self.iteration();
        let seed = mix(self.seed ^ mix(u64::from(self.shard.0) ^ mix(iteration)));
        let mut rng = SplitMix64::new(seed);
        let k = self.done + 1;
        let mut t = Trial {
            iteration,
            delta: Vec::with_capacity(self.params.len()),
            c: Vec::with_capacity(self.params.len()),
            plus: Vec::with_capacity(self.params.len()),
            minus: Vec::with_capacity(self.params.len()),
        };
        for (i, p) in self.params.iter().enumerate() {
            let d: i8 = if rng.next_u64() >> 63 == 1 { 1 } else { -1 };
            let c = self.c_k(i, k);
            let step = c * f64::from(d);
            t.delta.push(d);
            t.c.push(c);
            t.plus.push((self.theta[i] + step).clamp(p.min, p.max));
            t.minus.push((self.theta[i] - step).clamp(p.min, p.max));
        }
        t
    }

    /// Take the outcome of `trial`'s games: move every parameter and count
    /// the batch's pairs as played.
    pub fn update(&mut self, trial: &Trial, outcome: Outcome) {
        let k = self.done + 1;
        let r = outcome.score();
        for (i, p) in self.params.iter().enumerate() {
            let a = self.a_k(i, k);
            let step = a * r / (trial.c[i] * f64::from(trial.delta[i]));
            self.theta[i] = (self.theta[i] + step).clamp(p.min, p.max);
        }
        self.done += self.batch;
        self.total.add(outcome);
    }

    /// The value of a program setting kept in the state.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The state as text (what [`State::save`] writes).
    pub fn to_text(&self) -> String {
        let mut s = format!("{MAGIC}\n");
        s.push_str(&format!("pairs {}\n", self.pairs));
        s.push_str(&format!("batch {}\n", self.batch));
        s.push_str(&format!("done {}\n", self.done));
        s.push_str(&format!("seed {}\n", self.seed));
        s.push_str(&format!("shard {}/{}\n", self.shard.0, self.shard.1));
        let t = self.total;
        s.push_str(&format!("games {} {} {}\n", t.wins, t.draws, t.losses));
        for (k, v) in &self.settings {
            s.push_str(&format!("setting {k} {v}\n"));
        }
        // `{}` of an f64 is the shortest text that reads back as the same
        // number, so a resumed run continues from exactly these values.
        for (p, theta) in self.params.iter().zip(&self.theta) {
            s.push_str(&format!(
                "param {} {} {} {} {} {} {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end, theta
            ));
        }
        s
    }

    /// Read a state from text; `path` names it in errors.
    pub fn from_text(text: &str, path: &Path) -> Result<State, StateError> {
        let err = |n: usize, e: String| StateError::Format(path.to_path_buf(), n, e);
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.trim() == MAGIC => {}
            _ => return Err(err(1, format!("not a state file (expected '{MAGIC}')"))),
        }
        let (mut pairs, mut batch, mut done, mut seed, mut shard, mut games) =
            (None, None, None, None, None, None);
        let mut params = Vec::new();
        let mut theta = Vec::new();
        let mut settings = Vec::new();
        for (i, line) in lines {
            let n = i + 1;
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&key, rest)) = words.split_first() else {
                continue;
            };
            let int = |w: &str| {
                w.parse::<u64>()
                    .map_err(|_| err(n, format!("{key}: '{w}' is not a whole number")))
            };
            let one = || match rest {
                [w] => int(w),
                _ => Err(err(n, format!("{key}: expected one number"))),
            };
            match key {
                "pairs" => pairs = Some(one()?),
                "batch" => batch = Some(one()?),
                "done" => done = Some(one()?),
                "seed" => seed = Some(one()?),
                "shard" => {
                    let parsed = match rest {
                        [w] => w.split_once('/').and_then(|(a, b)| {
                            let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
                            (a < b).then_some((a, b))
                        }),
                        _ => None,
                    };
                    shard = Some(parsed.ok_or_else(|| err(n, "shard: expected I/N".into()))?);
                }
                "games" => match rest {
                    [w, d, l] => {
                        games = Some(Outcome {
                            wins: int(w)?,
                            draws: int(d)?,
                            losses: int(l)?,
                        })
                    }
                    _ => return Err(err(n, "games: expected wins draws losses".into())),
                },
                "setting" => match rest {
                    [k, v @ ..] if !v.is_empty() => settings.push((k.to_string(), v.join(" "))),
                    _ => return Err(err(n, "setting: expected a key and a value".into())),
                },
                "param" => {
                    let [name, nums @ ..] = rest else {
                        return Err(err(n, "param: expected a name and 6 numbers".into()));
                    };
                    let nums: Vec<f64> = nums
                        .iter()
                        .map(|w| w.parse::<f64>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| err(n, format!("param {name}: bad number")))?;
                    let [start, min, max, c_end, r_end, th] = nums[..] else {
                        return Err(err(n, format!("param {name}: expected 6 numbers")));
                    };
                    let p = SpsaParam {
                        name: name.to_string(),
                        start,
                        min,
                        max,
                        c_end,
                        r_end,
                    };
                    p.check().map_err(|e| err(n, e))?;
                    if !(min..=max).contains(&th) {
                        return Err(err(
                            n,
                            format!("param {name}: value {th} outside its range"),
                        ));
                    }
                    params.push(p);
                    theta.push(th);
                }
                _ => return Err(err(n, format!("unknown key '{key}'"))),
            }
        }
        let need =
            |v: Option<u64>, what: &str| v.ok_or_else(|| err(0, format!("no '{what}' line")));
        let mut st = State::new(
            params,
            need(pairs, "pairs")?,
            need(batch, "batch")?,
            need(seed, "seed")?,
            shard.ok_or_else(|| err(0, "no 'shard' line".into()))?,
        )
        .map_err(|e| err(0, e))?;
        st.theta = theta;
        st.done = need(done, "done")?;
        st.total = games.ok_or_else(|| err(0, "no 'games' line".into()))?;
        st.settings = settings;
        if st.done > st.pairs {
            return Err(err(0, format!("done {} > pairs {}", st.done, st.pairs)));
        }
        Ok(st)
    }

    /// Read the state file at `path`.
    pub fn load(path: &Path) -> Result<State, StateError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| StateError::Io(path.to_path_buf(), e))?;
        State::from_text(&text, path)
    }

    /// Write the state to `path` atomically: to `path.tmp`, then renamed
    /// over `path` (a rename within a directory replaces it whole).
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let io = |e| StateError::Io(path.to_path_buf(), e);
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(io)?;
            f.write_all(self.to_text().as_bytes()).map_err(io)?;
            f.sync_all().map_err(io)?;
        }
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// The parameters of several shards' states (independent chains of one
/// definition) combined: each parameter's mean over the chains, weighted
/// by the game pairs each has played. Errors when the states do not
/// share their parameter names.
pub fn merge(states: &[State]) -> Result<Vec<(String, f64)>, String> {
    let first = states.first().ok_or("no states to merge")?;
    let names: Vec<&str> = first.params.iter().map(|p| p.name.as_str()).collect();
    for s in states {
        let these: Vec<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
        if these != names {
            return Err("the states tune different parameters".into());
        }
    }
    let weight: u64 = states.iter().map(|s| s.done).sum();
    Ok(names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let v = if weight == 0 {
                states.iter().map(|s| s.theta[i]).sum::<f64>() / states.len() as f64
            } else {
                states
                    .iter()
                    .map(|s| s.theta[i] * s.done as f64)
                    .sum::<f64>()
                    / weight as f64
            };
            (name.to_string(), v)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three parameters in `-100..100`, starting at 0, with a planted
    /// optimum: the simulated player's strength falls with the squared
    /// distance from `OPTIMUM` (one unit of logistic strength per 100 of
    /// distance per parameter).
    const OPTIMUM: [f64; 3] = [40.0, -30.0, 55.0];

    fn toy_params() -> Vec<SpsaParam> {
        (0..3)
            .map(|i| SpsaParam {
                name: format!("p{i}"),
                start: 0.0,
                min: -100.0,
                max: 100.0,
                c_end: 10.0,
                r_end: 0.0125,
            })
            .collect()
    }

    fn strength(theta: &[f64]) -> f64 {
        -theta
            .iter()
            .zip(OPTIMUM)
            .map(|(t, o)| ((t - o) / 100.0).powi(2))
            .sum::<f64>()
    }

    /// One game between `a` and `b` from `a`'s side (1 win, 0 draw, -1
    /// loss): a draw one time in three, else a win for `a` with the
    /// logistic probability of the strength difference.
    fn game(rng: &mut SplitMix64, a: &[f64], b: &[f64]) -> i8 {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < 1.0 / 3.0 {
            return 0;
        }
        let p = 1.0 / (1.0 + (strength(b) - strength(a)).exp());
        let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if v < p {
            1
        } else {
            -1
        }
    }

    fn run(seed: u64, pairs: u64) -> State {
        let mut st = State::new(toy_params(), pairs, 1, seed, (0, 1)).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        while !st.finished() {
            let t = st.trial();
            let mut o = Outcome::default();
            for _ in 0..2 {
                match game(&mut rng, &t.plus, &t.minus) {
                    1 => o.wins += 1,
                    -1 => o.losses += 1,
                    _ => o.draws += 1,
                }
            }
            st.update(&t, o);
        }
        st
    }

    #[test]
    fn spsa_finds_a_planted_optimum() {
        for seed in [1, 2, 3] {
            let st = run(seed, 20_000);
            for (i, (t, o)) in st.theta.iter().zip(OPTIMUM).enumerate() {
                assert!(
                    (t - o).abs() < 12.0,
                    "seed {seed}: p{i} = {t:.1}, optimum {o} ({:?})",
                    st.theta
                );
            }
            assert_eq!(st.total.games(), 40_000);
        }
    }

    #[test]
    fn schedules_end_at_c_end_and_r_end() {
        let st = State::new(toy_params(), 1_000, 1, 0, (0, 1)).unwrap();
        assert!((st.c_k(0, 1_000) - 10.0).abs() < 1e-9);
        assert!((st.a_k(0, 1_000) - 0.0125 * 100.0).abs() < 1e-9);
        assert!(st.c_k(0, 1) > st.c_k(0, 500) && st.a_k(0, 1) > st.a_k(0, 500));
    }

    #[test]
    fn a_run_is_reproducible_and_resumes_exactly() {
        assert_eq!(run(7, 500).theta, run(7, 500).theta);
        assert_ne!(run(7, 500).theta, run(8, 500).theta);
        // Perturbations depend on the seed, the shard and the iteration
        // only: a state read back from its text continues identically.
        let mut st = State::new(toy_params(), 10, 2, 9, (1, 3)).unwrap();
        let t = st.trial();
        st.update(
            &t,
            Outcome {
                wins: 1,
                draws: 0,
                losses: 1,
            },
        );
        st.settings.push(("variant".into(), "xiangqi".into()));
        let back = State::from_text(&st.to_text(), Path::new("x")).unwrap();
        assert_eq!(back, st);
        assert_eq!(back.trial(), st.trial());
        assert_ne!(st.trial().delta.len(), 0);
    }

    #[test]
    fn save_is_atomic_and_load_reads_it_back() {
        let dir = std::env::temp_dir().join(format!("jiang-spsa-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.state");
        let st = State::new(toy_params(), 10, 1, 3, (0, 1)).unwrap();
        st.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), st);
        assert!(!dir.join("run.state.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_state_files_are_errors() {
        let good = State::new(toy_params(), 10, 1, 3, (0, 1))
            .unwrap()
            .to_text();
        let p = Path::new("s");
        let bad = [
            String::new(),
            "hello\n".to_string(),
            good.replace("pairs 10", "pairs ten"),
            good.replace("pairs 10", "pairs"),
            good.replace("shard 0/1", "shard 1/1"),
            good.replace("shard 0/1", "shard 0/0"),
            good.replace("shard 0/1", "shard -1/1"),
            good.replace("done 0", "done 11"),
            good.replace("param p0 0 ", "param p0 500 "),
            good.replace("param p0 0 -100 100 10 0.0125 0", "param p0 0 -100 100 10"),
            good.replace(
                "param p0 0 -100 100 10 0.0125 0",
                "param p0 0 -100 100 10 0.0125 nan",
            ),
            good.replace("seed 3\n", ""),
            good.replace("games 0 0 0", "games 0 0"),
            format!("{good}frobnicate 1\n"),
            good.lines()
                .filter(|l| !l.starts_with("param"))
                .collect::<Vec<_>>()
                .join("\n"),
        ];
        for text in &bad {
            assert!(State::from_text(text, p).is_err(), "accepted:\n{text}");
        }
        assert!(State::load(Path::new("/nonexistent/dir/state")).is_err());
    }

    #[test]
    fn parameter_lists_round_trip_and_bad_ones_are_refused() {
        let ps = toy_params();
        assert_eq!(parse_params(&format_params(&ps)).unwrap(), ps);
        for bad in [
            "",
            "# nothing\n",
            "a, 1, 0, 2, 1\n",
            "a, 1, 0, 2, 1, x\n",
            "a, 5, 0, 2, 1, 0.002\n",
            "a, 1, 0, 2, 0, 0.002\n",
            "a, 1, 0, 2, 1, 0.002\na, 1, 0, 2, 1, 0.002\n",
            "a b, 1, 0, 2, 1, 0.002\n",
            "a, inf, 0, 2, 1, 0.002\n",
        ] {
            assert!(parse_params(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn merge_weights_the_chains_by_their_pairs() {
        let mut a = State::new(toy_params(), 10, 1, 1, (0, 2)).unwrap();
        let mut b = State::new(toy_params(), 10, 1, 1, (1, 2)).unwrap();
        a.theta = vec![10.0, 0.0, 0.0];
        a.done = 3;
        b.theta = vec![20.0, 0.0, 0.0];
        b.done = 1;
        let m = merge(&[a.clone(), b]).unwrap();
        assert_eq!(m[0], ("p0".to_string(), 12.5));
        let mut c = a.clone();
        c.params[0].name = "q".into();
        assert!(merge(&[a, c]).is_err());
        assert!(merge(&[]).is_err());
    }
}
