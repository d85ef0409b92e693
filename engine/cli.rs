//! The command line: `jiang` with no arguments runs the protocol loop;
//! `perft`, `bench` and `match` are tools.
//!
//! ```text
//! jiang                                   protocol loop (UCI, UCCI or XBoard)
//! jiang perft N [--fen F] [--variant V] [--setup CHO-HAN] [--threads T] [--divide]
//! jiang bench [depth] [threads] [hash]
//! jiang match …                           engine matches (see `jiang match -help`)
//! jiang tune [--variant V] … GAMES.pgn…   fit the evaluation to games
//! jiang help
//! ```

use std::time::Instant;

use movegen::{PerftOptions, Position, Ranks, Variant};

use crate::commands;
use crate::io::{self, Out};

const USAGE: &str = "usage:
  jiang                      speak UCI, UCCI or XBoard on stdin (chosen by the first line)
  jiang perft N [--fen FEN] [--variant V] [--setup CHO-HAN] [--threads T] [--divide] [--ranks 0|1]
  jiang bench [depth] [threads] [hash]
  jiang match ...            engine matches (jiang match -help)
  jiang tune [--variant V] [--lambda L] [--passes N] [--every N] GAMES.pgn...
                             fit the evaluation to games (prints the parameters)
  jiang help
variants: xiangqi, janggi, janggitraditional, janggimodern, janggicasual
Janggi setups: CHO-HAN, each of nbbn, nbnb, bnbn, bnnb (e.g. nbbn-bnnb)";

/// Run the command line; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        let (tx, rx) = io::spawn_stdin();
        crate::detect::run(&rx, &tx, Out::stdout());
        return 0;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "perft" => perft(rest),
        "bench" => bench(rest),
        "match" => return jiang_match::main(rest),
        "tune" => crate::tune::run(rest),
        "help" | "-h" | "--help" | "-help" => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("unknown command '{cmd}'")),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("jiang: {e}\n{USAGE}");
            2
        }
    }
}

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

fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a String, String> {
    it.next().ok_or_else(|| format!("{flag} needs a value"))
}

/// Parse `jiang perft` arguments.
pub fn parse_perft(args: &[String]) -> Result<PerftArgs, String> {
    let mut depth = None;
    let mut a = PerftArgs {
        depth: 0,
        fen: None,
        variant: Variant::Xiangqi,
        setup: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        divide: false,
        ranks: Ranks::ZeroBased,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let val = |it: &mut std::slice::Iter<'_, String>| match &inline {
            Some(v) => Ok(v.clone()),
            None => value(it, flag).cloned(),
        };
        match flag {
            "--fen" => a.fen = Some(val(&mut it)?),
            "--variant" => a.variant = val(&mut it)?.parse().map_err(|e| format!("{e}"))?,
            "--setup" => a.setup = Some(val(&mut it)?),
            "--threads" => {
                let v = val(&mut it)?;
                a.threads = v
                    .parse()
                    .ok()
                    .filter(|&t| t >= 1)
                    .ok_or(format!("--threads: bad value '{v}'"))?;
            }
            "--ranks" => {
                a.ranks = match val(&mut it)?.as_str() {
                    "0" | "0-9" => Ranks::ZeroBased,
                    "1" | "1-10" => Ranks::OneBased,
                    v => return Err(format!("--ranks: bad value '{v}', expected 0 or 1")),
                }
            }
            "--divide" => a.divide = true,
            _ if depth.is_none() && !flag.starts_with('-') => {
                depth = Some(
                    flag.parse::<u32>()
                        .ok()
                        .filter(|d| (1..=commands::MAX_PERFT_DEPTH).contains(d))
                        .ok_or(format!("perft: bad depth '{flag}'"))?,
                );
            }
            _ => return Err(format!("perft: unknown argument '{arg}'")),
        }
    }
    a.depth = depth.ok_or("perft: missing depth")?;
    if a.fen.is_some() && a.setup.is_some() {
        return Err("perft: give --fen or --setup, not both".into());
    }
    Ok(a)
}

fn perft(args: &[String]) -> Result<(), String> {
    let a = parse_perft(args)?;
    let pos = match &a.fen {
        Some(f) => Position::from_fen(f, a.variant).map_err(|e| e.to_string())?,
        None => commands::start_position(a.variant, a.setup.as_deref())?,
    };
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

fn bench(args: &[String]) -> Result<(), String> {
    let num = |i: usize, what: &str| -> Result<Option<u64>, String> {
        args.get(i)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| format!("bench: bad {what} '{v}'"))
            })
            .transpose()
    };
    if args.len() > 3 {
        return Err("bench: too many arguments".into());
    }
    let depth = num(0, "depth")?.map(|d| d.clamp(1, 64) as u32);
    let threads = num(1, "threads")?
        .unwrap_or(1)
        .clamp(1, crate::options::MAX_THREADS) as usize;
    let hash = num(2, "hash")?
        .unwrap_or(16)
        .clamp(1, crate::options::MAX_HASH_MB) as usize;
    let mut out = std::io::stdout();
    search::bench(depth, threads, hash, &mut out);
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
        assert!(parse_perft(&s(&[])).is_err());
        assert!(parse_perft(&s(&["x"])).is_err());
        assert!(parse_perft(&s(&["3", "--threads", "0"])).is_err());
        assert!(parse_perft(&s(&["3", "--bogus"])).is_err());
        assert!(parse_perft(&s(&["3", "--fen"])).is_err());
    }
}
