//! `jiang match`: an engine-match runner and referee for Xiangqi and Janggi.
//!
//! A crate of its own so that the runner can be used without the engine:
//! it depends on the rules core (`movegen`) only. The `jiang` binary calls
//! [`main`] for `jiang match …`; a program of its own can do the same, or
//! build a [`config::MatchConfig`] and call [`tournament::run`].
//!
//! The command line follows cutechess-cli's syntax (see [`cli::USAGE`] and
//! this crate's `README.md`); every move is checked by our rules core
//! and every game ended by the referee. Layout:
//! - [`cli`]: command-line parsing into a [`config::MatchConfig`];
//! - [`engine_proc`]: child processes with a reader thread and deadlines;
//! - [`player`]: an engine in a match: UCI, UCCI and XBoard as the referee
//!   speaks them;
//! - [`referee`]: the rules core's verdicts; [`ending`]: why a game ended
//!   (rule, adjudication, resignation, [`ending::Fault`]);
//! - [`game`]: the game loop; `clock`: each side's clock;
//! - [`openings`], [`pgn`], [`stats`] (Elo, LOS, pentanomial, SPRT);
//! - [`tournament`]: pairings and concurrency; `report`: progress, PGN
//!   file, SPRT stop and the final report;
//! - [`shard`]: `-shard I/N`, one part of a match split over many runs;
//!   [`layout`]: the PGN tags that place a game in its match; [`merge`]:
//!   `-merge`, the report of the shards' PGN files together.

pub mod cli;
mod clock;
pub mod config;
pub mod ending;
pub mod engine_proc;
pub mod game;
pub mod layout;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod referee;
mod report;
pub mod shard;
pub mod stats;
pub mod tournament;

/// Entry point for `jiang match …`; `args` are the words after `match`.
/// Returns the process exit code: 0 after a completed match or merge, 1
/// when it could not run, stopped on an engine failure or could not merge
/// the files, 2 for a bad command line.
pub fn main(args: &[String]) -> i32 {
    if args
        .iter()
        .any(|a| a == "-help" || a == "--help" || a == "-h")
    {
        println!("{}", cli::USAGE);
        return 0;
    }
    if cli::is_merge(args) {
        return merge_main(args);
    }
    let cfg = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("jiang match: {e}");
            return 2;
        }
    };
    match tournament::run(&cfg) {
        Ok(s) if s.aborted => 1,
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiang match: {e}");
            1
        }
    }
}

/// `jiang match -merge …`.
fn merge_main(args: &[String]) -> i32 {
    let m = match cli::parse_merge(args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("jiang match: {e}");
            return 2;
        }
    };
    match merge::run(&m) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiang match -merge: {e}");
            1
        }
    }
}
