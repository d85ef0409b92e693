//! The `jiang` engine: protocol front-ends and commands over the rules core.
//!
//! Module map:
//! - [`detect`]: chooses the protocol from the first line and runs the loop.
//! - [`protocol`]: what the front-ends share: the `Protocol` trait, the
//!   split command line, the engine's name, move/PV/bestmove text, clocks.
//! - [`uci`], [`ucci`], [`xboard`]: the three protocols, each a thin
//!   translator between text and the search [`search::Engine`].
//! - [`session`]: state every protocol shares (position, options, engine).
//! - [`options`]: the option table, its text in each protocol, the typed
//!   settings and the resign/draw rule.
//! - [`commands`]: perft/divide, `d`, `eval`, `result` (the protocols'
//!   `bench` is [`session::Session::bench`] over [`search::bench()`]).
//! - [`io`]: the stdin reader thread and the locked stdout writer.
//! - [`wdl`]: the win/draw/loss model behind `UCI_ShowWDL`.
//! - [`cli`]: the command line (`jiang perft …`, `jiang bench …`,
//!   `--version`, `help COMMAND`) and its small argument parser.
//!
//! - [`datagen`]: `jiang datagen` (its file format is the [`data`] crate's).
//! - [`tune`]: `jiang tune`, the command line of the Texel tuner (the
//!   [`::tune`] crate).
//! - [`spsa`]: `jiang spsa`, SPSA over games of the search's parameters
//!   (the algorithm is [`::tune::spsa`]).
//! - [`train`]: `jiang train`, the command line of the network trainer
//!   (the [`::train`] crate).
//!
//! `jiang match …` is the [`jiang_match`] crate.

pub mod cli;
pub mod commands;
pub mod datagen;
pub mod detect;
pub mod io;
pub mod options;
pub mod protocol;
pub mod session;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod ucci;
pub mod uci;
pub mod wdl;
pub mod xboard;
