//! The command line: `jiang` with no arguments runs the protocol loop;
//! `perft`, `bench`, `match`, `datagen`, `tune`, `spsa` and `train` are tools; `--version`, `--help`
//! and `help COMMAND` answer as users of command-line programs expect.
//!
//! ```text
//! jiang                                   protocol loop (UCI, UCCI or XBoard)
//! jiang perft N [--fen F] [--variant V] [--setup CHO-HAN] [--threads T] [--divide]
//! jiang bench [depth] [threads] [hash]
//! jiang match …                           engine matches (cutechess-cli syntax)
//! jiang datagen --out FILE [--games N] …  self-play training positions
//! jiang datagen --stats FILE…             summarise training-position files
//! jiang tune [--variant V] … FILES…       fit the evaluation to games or positions
//! jiang spsa --state FILE …               tune the search's parameters by games (SPSA)
//! jiang train --out FILE … FILES…         train a network (NNUE) on training positions
//! jiang help [COMMAND] | --help | --version
//! ```
//!
//! Arguments are read by our own small parser ([`args`]); `jiang match`
//! keeps the match crate's parser, which follows cutechess-cli.

pub mod args;
pub mod help;
pub mod tools;

use std::fmt;

pub use args::ArgError;
pub use tools::{parse_perft, PerftArgs};

use crate::io::{self, Out};

/// Why a command failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    /// The arguments of `command` are wrong; its usage is printed too.
    Args {
        /// The command whose arguments were wrong.
        command: &'static str,
        /// What was wrong.
        error: ArgError,
    },
    /// No such command (also for `jiang help NAME`).
    UnknownCommand(String),
    /// The arguments were understood but the work failed (an unreadable
    /// file, no usable games).
    Failed(String),
}

impl CliError {
    /// The process exit code: 2 for a usage mistake, 1 for a failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Args { .. } | CliError::UnknownCommand(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Args { command, error } => write!(f, "{command}: {error}"),
            CliError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            CliError::Failed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CliError {}

/// Wrap an argument error of `command`.
fn args_error(command: &'static str) -> impl Fn(ArgError) -> CliError {
    move |error| CliError::Args { command, error }
}

/// The version line of `jiang --version` (the name the protocols announce).
pub fn version() -> &'static str {
    crate::protocol::ENGINE_NAME
}

/// Run the command line; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        let (tx, rx) = io::spawn_stdin();
        crate::detect::run(&rx, &tx, Out::stdout());
        return 0;
    };
    // `jiang match` reports its own errors and exit codes.
    if cmd == "match" {
        return jiang_match::main(&args[1..]);
    }
    match run(cmd, &args[1..]) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("jiang: {e}");
            match &e {
                CliError::Args { command, .. } => {
                    if let Some(text) = help::command(command) {
                        eprintln!("{text}");
                    }
                }
                CliError::UnknownCommand(_) => eprintln!("{}", help::OVERVIEW),
                CliError::Failed(_) => {}
            }
            e.exit_code()
        }
    }
}

/// One command other than `match`.
fn run(cmd: &str, rest: &[String]) -> Result<(), CliError> {
    let wants_help = |rest: &[String]| rest.iter().any(|a| a == "--help" || a == "-h");
    match cmd {
        "-V" | "--version" | "version" => {
            println!("{}", version());
            Ok(())
        }
        "-h" | "--help" | "-help" => show_help(None),
        "help" => show_help(rest.first().map(String::as_str)),
        "perft" | "bench" | "datagen" | "tune" | "spsa" | "train" if wants_help(rest) => {
            show_help(Some(cmd))
        }
        "perft" => tools::perft(rest),
        "bench" => tools::bench(rest),
        "datagen" => {
            let a = crate::datagen::parse_args(rest).map_err(args_error("datagen"))?;
            crate::datagen::run(&a).map_err(CliError::Failed)
        }
        "tune" => {
            let a = crate::tune::parse_args(rest).map_err(args_error("tune"))?;
            crate::tune::run(&a).map_err(CliError::Failed)
        }
        "spsa" => {
            let a = crate::spsa::parse_args(rest).map_err(args_error("spsa"))?;
            crate::spsa::run(&a).map_err(CliError::Failed)
        }
        "train" => {
            let a = crate::train::parse_args(rest).map_err(args_error("train"))?;
            crate::train::run(&a).map_err(CliError::Failed)
        }
        _ => Err(CliError::UnknownCommand(cmd.to_string())),
    }
}

/// `jiang help [COMMAND]`.
fn show_help(command: Option<&str>) -> Result<(), CliError> {
    let text = match command {
        None => help::OVERVIEW,
        Some(c) => help::command(c).ok_or_else(|| CliError::UnknownCommand(c.to_string()))?,
    };
    println!("{} — Xiangqi and Janggi engine\n\n{text}", version());
    Ok(())
}
