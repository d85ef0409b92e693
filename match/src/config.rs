//! What a match is asked to do: engines (command, protocol, options, time
//! control), openings, adjudication, statistics and output settings. The
//! command line ([`crate::cli`]) fills it in; a program using this crate
//! can build it directly.

use std::path::PathBuf;

use movegen::{Ranks, Variant};

use crate::engine_proc::Launch;
use crate::shard::Shard;

/// Engine protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Proto {
    /// UCI (Pikafish style, or Fairy-Stockfish style with `UCI_Variant`).
    #[default]
    Uci,
    /// UCCI (ElephantEye style).
    Ucci,
    /// XBoard / CECP protocol 2.
    Xboard,
}

/// A clock: `moves` per period (none: whole game), base and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Moves per period (`40` in `40/60+0.5`).
    pub moves: Option<u32>,
    /// Time per period in milliseconds.
    pub base_ms: u64,
    /// Increment per move in milliseconds.
    pub inc_ms: u64,
}

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Game clock (`tc=`).
    pub clock: Option<Clock>,
    /// Fixed time per move in milliseconds (`st=`).
    pub movetime_ms: Option<u64>,
    /// Node limit per move (`nodes=`).
    pub nodes: Option<u64>,
    /// Depth limit per move (`depth=`).
    pub depth: Option<u32>,
}

impl TimeControl {
    /// Whether no limit at all was given.
    pub fn is_unlimited(&self) -> bool {
        self.clock.is_none()
            && self.movetime_ms.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }

    /// PGN `TimeControl` tag value.
    pub fn pgn_tag(&self) -> String {
        if let Some(c) = self.clock {
            let base = fmt_secs(c.base_ms);
            let mut s = match c.moves {
                Some(m) => format!("{m}/{base}"),
                None => base,
            };
            if c.inc_ms > 0 {
                s.push('+');
                s.push_str(&fmt_secs(c.inc_ms));
            }
            s
        } else if let Some(st) = self.movetime_ms {
            format!("{}/move", fmt_secs(st))
        } else {
            "-".to_string()
        }
    }
}

fn fmt_secs(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

/// One engine definition.
#[derive(Clone, Debug, Default)]
pub struct EngineConfig {
    /// Display name (PGN, reports).
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Protocol.
    pub proto: Proto,
    /// Options to set, in order, as `(name, value)`.
    pub options: Vec<(String, String)>,
    /// Rank convention override (`ranks=0|1`); otherwise chosen by protocol.
    pub ranks: Option<Ranks>,
    /// XBoard: send FENs with `H`/`E` letters (`fen=xboard`) or `N`/`B`.
    pub xboard_letters: Option<bool>,
    /// Its time control.
    pub tc: TimeControl,
    /// Extra milliseconds allowed past the clock before a loss on time.
    pub margin_ms: u64,
    /// Think on the opponent's time (`ponder`, or `-pondering` for all):
    /// UCI/UCCI engines get `go ponder` on their predicted reply, XBoard
    /// engines `hard` (they ponder on their own).
    pub ponder: bool,
}

/// Openings file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OpeningFormat {
    /// One FEN (EPD) per line, optionally followed by `moves …`.
    #[default]
    Epd,
    /// PGN games: the `FEN` tag and the moves.
    Pgn,
}

/// Order in which openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OpeningOrder {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// `-openings` settings.
#[derive(Clone, Debug, Default)]
pub struct OpeningsConfig {
    /// File to read (random openings when `None`).
    pub file: Option<PathBuf>,
    /// Its format.
    pub format: OpeningFormat,
    /// Use order.
    pub order: OpeningOrder,
    /// Keep at most this many plies of each opening line.
    pub plies: Option<usize>,
    /// Index (1-based) of the first opening to use.
    pub start: usize,
}

/// `-sprt` settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// `-draw` adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// First full move at which it may apply.
    pub movenumber: u32,
    /// Consecutive moves (per side) with |score| ≤ `score`.
    pub movecount: u32,
    /// Centipawn bound.
    pub score: i32,
}

/// `-resign` adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive moves with a score ≤ −`score`.
    pub movecount: u32,
    /// Centipawn bound.
    pub score: i32,
    /// Also require the winner's scores to agree (≥ `score`).
    pub twosided: bool,
}

/// Pairing scheme for three or more engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tournament {
    /// Everyone plays everyone.
    #[default]
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

/// `jiang match -merge FILE.pgn... [-sprt …]`: report on the games of
/// PGN files that `jiang match` wrote (the shards of one match).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeConfig {
    /// The PGN files, in order.
    pub files: Vec<PathBuf>,
    /// The SPRT to report (else the one the games record).
    pub sprt: Option<SprtConfig>,
}

/// Everything `jiang match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Variant (rule set) played.
    pub variant: Variant,
    /// The engines.
    pub engines: Vec<EngineConfig>,
    /// Games per encounter per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// How many consecutive games share an opening (colours alternate).
    pub repeat: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningsConfig,
    /// Random plies of a generated opening.
    pub random_plies: usize,
    /// PGN output file.
    pub pgnout: Option<PathBuf>,
    /// SPRT settings.
    pub sprt: Option<SprtConfig>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Draw (or Janggi counting) after this many full moves.
    pub maxmoves: Option<u32>,
    /// Random seed.
    pub seed: u64,
    /// Restart crashed engines and continue (else stop the match).
    pub recover: bool,
    /// Pairing scheme.
    pub tournament: Tournament,
    /// Print engine traffic on stderr.
    pub debug: bool,
    /// Deadline for moves without a clock (depth/nodes/none), ms.
    pub hang_ms: u64,
    /// Print the statistics every this many games (0: only at the end).
    pub rating_interval: u32,
    /// PGN move notation.
    pub notation: crate::pgn::Notation,
    /// The part of the match this run plays (`-shard I/N`; default the
    /// whole match).
    pub shard: Shard,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            variant: Variant::Xiangqi,
            engines: Vec::new(),
            games: 1,
            rounds: 1,
            repeat: 1,
            concurrency: 1,
            openings: OpeningsConfig::default(),
            random_plies: 6,
            pgnout: None,
            sprt: None,
            draw: None,
            resign: None,
            maxmoves: None,
            seed: 0,
            recover: false,
            tournament: Tournament::RoundRobin,
            debug: false,
            hang_ms: 60_000,
            rating_interval: 10,
            notation: crate::pgn::Notation::Iccs,
            shard: Shard::WHOLE,
        }
    }
}
