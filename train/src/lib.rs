//! # train — Jiang's network trainer, on the CPU
//!
//! Trains the network of `docs/NNUE.md` (1260 piece-square inputs per
//! perspective → `H` hidden units, shared → SCReLU → `B` output buckets
//! by material) from `jiang datagen` files, and writes the quantised
//! file the engine loads. `jiang train` is its command line.
//!
//! What the crate owns:
//! - [`features`]: the inputs (one table for the feature index, shared
//!   with nothing else in the trainer);
//! - [`dataset`]: records turned once into compact samples (u16 feature
//!   indices of the side to move; the other side's follow by a table);
//! - [`network`]: the float network, its forward pass and clipping;
//! - [`trainer`]: the sparse forward/backward pass, rayon data
//!   parallelism with a fixed reduction order, AdamW and the schedule;
//! - [`quant`]: the file format, its reader and the engine's integer
//!   evaluation (the reference the engine's inference is checked
//!   against);
//! - [`checkpoint`]: float weights and optimiser state, to resume;
//! - [`run`]: a whole run from files to network files.
//!
//! ## Determinism
//!
//! A run is a function of its data, options and `--seed`, whatever the
//! number of threads: a batch is cut into fixed chunks of
//! [`trainer::CHUNK`] positions, each chunk's gradient goes to its own
//! buffer, and the buffers are summed in chunk order. Threads only
//! decide which chunk is computed where.

//!
//! ## Checking the engine against the trainer
//!
//! The engine's integer evaluation must equal the trainer's float
//! network within quantisation error. [`Network::forward_float`] is the
//! float side, [`QuantNetwork::to_bytes`] the file the engine loads and
//! [`QuantNetwork::evaluate`] the integer formula of the document:
//!
//! ```
//! use train::trainer::{Hyper, Trainer};
//! use train::{Game, LoadOptions, Network, QuantNetwork, Shape};
//!
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/janggi-20g-2000n-seed5.bin");
//! let opts = LoadOptions { holdout: 0, keep_noisy: false };
//! let set = train::load(&[file.into()], opts).expect("the committed data");
//! let shape = Shape { hidden: 16, buckets: 2 };
//! let hyper = Hyper { batch: 512, ..Default::default() };
//! let mut t = Trainer::new(Network::random(Game::Janggi, shape, 1), hyper);
//! train::run::train_epoch(&mut t, &set.train, 1, 0, 1);
//! let bytes = QuantNetwork::from_float(&t.net).to_bytes(); // the engine's file
//! let q = QuantNetwork::from_bytes(&bytes).expect("valid");
//! let pos = movegen::Position::startpos(movegen::Variant::Janggi);
//! let float = t.net.forward_float(pos.board(), pos.side_to_move());
//! let int = q.evaluate(pos.board(), pos.side_to_move());
//! assert!((float - int as f32).abs() < 20.0);
//! ```

pub mod checkpoint;
pub mod dataset;
pub mod features;
pub mod network;
pub mod quant;
mod rng;
pub mod run;
pub mod trainer;

use std::fmt;
use std::path::PathBuf;

use movegen::Variant;

pub use dataset::{load, Dataset, LoadOptions, Sample};
pub use network::{Network, Shape};
pub use quant::{FormatError, QuantNetwork};
pub use run::{run, EpochReport, TrainConfig};
pub use trainer::{Hyper, Schedule, Trainer};

/// The game a network evaluates: the Janggi rule sets share one network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Xiangqi (file code 0).
    Xiangqi,
    /// Janggi, every rule set (file code 1).
    Janggi,
}

impl Game {
    /// The game of a rule set.
    pub fn of(v: Variant) -> Game {
        if v.is_janggi() {
            Game::Janggi
        } else {
            Game::Xiangqi
        }
    }

    /// The code in a network file.
    pub fn code(self) -> u32 {
        match self {
            Game::Xiangqi => 0,
            Game::Janggi => 1,
        }
    }

    /// The game of a file code.
    pub fn from_code(c: u32) -> Option<Game> {
        match c {
            0 => Some(Game::Xiangqi),
            1 => Some(Game::Janggi),
            _ => None,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Game::Xiangqi => "xiangqi",
            Game::Janggi => "janggi",
        })
    }
}

/// Why a run failed.
#[derive(Debug)]
pub enum TrainError {
    /// A file could not be read or written.
    Io(PathBuf, String),
    /// A data file is damaged.
    Data(PathBuf, data::DataError),
    /// The data files hold positions of both games.
    MixedGames {
        /// The first game met, and its file.
        first: (Game, PathBuf),
        /// The other game, and its file.
        then: (Game, PathBuf),
    },
    /// No training position (empty files, or all held out or noisy).
    NoPositions,
    /// A hidden size or bucket count the file format does not allow.
    Shape(usize, usize),
    /// A checkpoint that cannot be resumed.
    Checkpoint(PathBuf, String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TrainError::Data(p, e) => write!(f, "{}: {e}", p.display()),
            TrainError::MixedGames { first, then } => write!(
                f,
                "one network per game: {} holds {} positions but {} holds {}",
                first.1.display(),
                first.0,
                then.1.display(),
                then.0
            ),
            TrainError::NoPositions => write!(f, "no training positions in the files"),
            TrainError::Shape(h, b) => write!(
                f,
                "hidden size {h} or bucket count {b} not allowed (8..=2048 in steps of 8; 1..=16)"
            ),
            TrainError::Checkpoint(p, why) => {
                write!(f, "{}: cannot resume: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for TrainError {}
