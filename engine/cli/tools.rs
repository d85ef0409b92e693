//! `jiang perft` and `jiang bench`: their arguments and their runs.

use std::time::Instant;

use movegen::{ByGame, PerftOptions, Position, Ranks, Variant};
use search::Network;

use super::args::{ArgError, Args, Opt};
use super::{args_error, CliError};
use crate::commands;
use crate::options::Settings;

/// Options of `jiang perft`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Start FEN (default: the variant's start).
    pub fen: Option<String>,
    /// Rule set.
    pub variant: Variant,
    /// Janggi setup name.
    pub setup: Option<String>,
    /// Worker threads (default: all cores).
    pub threads: usize,
    /// Print the count under each root move.
    pub divide: bool,
    /// Rank convention of the divide output.
    pub ranks: Ranks,
}

const PERFT_OPTIONS: &[Opt] = &[
    Opt::value("--fen"),
    Opt::value("--variant"),
    Opt::value("--setup"),
    Opt::value("--threads"),
    Opt::switch("--divide"),
    Opt::value("--ranks"),
];

/// The rule-set names `--variant` accepts, for messages.
pub const VARIANTS: &str = "xiangqi, janggi, janggitraditional, janggimodern or janggicasual";

/// Parse `jiang perft` arguments.
pub fn parse_perft(args: &[String]) -> Result<PerftArgs, ArgError> {
    let a = Args::parse(args, PERFT_OPTIONS)?;
    a.at_most(1)?;
    let max = commands::MAX_PERFT_DEPTH;
    let depth = a
        .positional_parsed(0, "depth", &format!("a number from 1 to {max}"), |d| {
            (1..=max).contains(d)
        })?
        .ok_or(ArgError::Missing("depth"))?;
    let fen = a.value("--fen").map(str::to_string);
    let setup = a.value("--setup").map(str::to_string);
    if fen.is_some() && setup.is_some() {
        return Err(ArgError::Conflict("--fen", "--setup"));
    }
    let ranks = match a.value("--ranks") {
        None | Some("0" | "0-9") => Ranks::ZeroBased,
        Some("1" | "1-10") => Ranks::OneBased,
        Some(v) => {
            return Err(ArgError::BadValue {
                what: "--ranks".into(),
                value: v.into(),
                expected: "0 or 1".into(),
            })
        }
    };
    Ok(PerftArgs {
        depth,
        fen,
        variant: a
            .parsed::<Variant>("--variant", VARIANTS, |_| true)?
            .unwrap_or(Variant::Xiangqi),
        setup,
        threads: a
            .parsed("--threads", "a positive number", |&t: &usize| t >= 1)?
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        divide: a.flag("--divide"),
        ranks,
    })
}

/// The start position of a perft run; a bad FEN or setup is an argument
/// error, reported with the option that gave it.
fn perft_position(a: &PerftArgs) -> Result<Position, ArgError> {
    match &a.fen {
        Some(f) => Position::from_fen(f, a.variant).map_err(|e| ArgError::Invalid {
            what: "--fen",
            reason: e.to_string(),
        }),
        None => commands::start_position(a.variant, a.setup.as_deref()).map_err(|reason| {
            ArgError::Invalid {
                what: "--setup",
                reason,
            }
        }),
    }
}

/// `jiang perft`.
pub fn perft(args: &[String]) -> Result<(), CliError> {
    let a = parse_perft(args).map_err(args_error("perft"))?;
    let pos = perft_position(&a).map_err(args_error("perft"))?;
    let start = Instant::now();
    let total = if a.divide {
        let d = commands::divide(&pos, a.depth, a.threads, a.ranks);
        for l in commands::divide_lines(&d) {
            println!("{l}");
        }
        d.total
    } else {
        let n = movegen::perft_parallel(&pos, a.depth, a.threads, PerftOptions::default());
        println!("Nodes searched: {n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    eprintln!(
        "time {:.3} s, {:.1} Mnps, {} threads",
        secs,
        nps / 1e6,
        a.threads
    );
    Ok(())
}

/// Arguments of `jiang bench`: depth, threads, hash MiB.
type BenchArgs = (Option<u32>, usize, usize);

/// Parse `jiang bench [depth] [threads] [hash]`. Out-of-range numbers are
/// clamped, as the protocols' `bench` does.
fn parse_bench(args: &[String]) -> Result<BenchArgs, ArgError> {
    let a = Args::parse(args, &[])?;
    a.at_most(3)?;
    let num = |i, what| a.positional_parsed::<u64>(i, what, "a whole number", |_| true);
    let depth = num(0, "depth")?.map(|d| d.clamp(1, u64::from(search::bench::MAX_DEPTH)) as u32);
    let threads = num(1, "threads")?
        .unwrap_or(search::DEFAULT_THREADS as u64)
        .clamp(1, search::MAX_THREADS as u64) as usize;
    let hash = num(2, "hash")?
        .unwrap_or(search::DEFAULT_HASH_MB as u64)
        .clamp(1, search::MAX_HASH_MB as u64) as usize;
    Ok((depth, threads, hash))
}

/// `jiang bench`: the engine as its default options set it up, so with
/// the embedded networks when `Use NNUE` is on by default (the protocols'
/// `bench` with no option changed gives the same count).
pub fn bench(args: &[String]) -> Result<(), CliError> {
    let (depth, threads, hash) = parse_bench(args).map_err(args_error("bench"))?;
    let networks = if Settings::default().use_nnue {
        ByGame::from_fn(Network::embedded)
    } else {
        ByGame::default()
    };
    let mut out = std::io::stdout();
    search::bench_with_networks(depth, threads, hash, networks, &mut out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn perft_args() {
        let a = parse_perft(&s(&[
            "3",
            "--variant",
            "janggi",
            "--setup",
            "bnnb-nbbn",
            "--threads=2",
            "--divide",
        ]));
        let a = a.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (a.depth, a.variant, a.threads, a.divide),
            (3, Variant::Janggi, 2, true)
        );
        assert_eq!(a.setup.as_deref(), Some("bnnb-nbbn"));
        assert_eq!(parse_perft(&s(&[])), Err(ArgError::Missing("depth")));
        assert!(parse_perft(&s(&["x"])).is_err());
        assert!(parse_perft(&s(&["3", "4"])).is_err());
        assert!(parse_perft(&s(&["3", "--threads", "0"])).is_err());
        assert!(parse_perft(&s(&["3", "--bogus"])).is_err());
        assert!(parse_perft(&s(&["3", "--fen"])).is_err());
        assert!(parse_perft(&s(&["3", "--ranks", "2"])).is_err());
        assert_eq!(
            parse_perft(&s(&["3", "--fen", "9/9", "--setup", "nbbn-nbbn"])),
            Err(ArgError::Conflict("--fen", "--setup"))
        );
    }

    #[test]
    fn bench_args() {
        assert_eq!(
            parse_bench(&s(&[])),
            Ok((None, search::DEFAULT_THREADS, search::DEFAULT_HASH_MB))
        );
        assert_eq!(parse_bench(&s(&["0", "2", "64"])), Ok((Some(1), 2, 64)));
        assert_eq!(
            parse_bench(&s(&["99"])).map(|b| b.0),
            Ok(Some(search::bench::MAX_DEPTH))
        );
        assert!(parse_bench(&s(&["x"])).is_err());
        assert!(parse_bench(&s(&["1", "2", "3", "4"])).is_err());
        assert!(parse_bench(&s(&["--depth", "3"])).is_err());
    }
}
