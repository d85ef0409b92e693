//! # train — Jiang's network trainer, on the CPU
//!
//! Trains the network of `docs/NNUE.md` (1260 piece-square inputs per
//! perspective, or 6 × 1260 bucketed by the own general's palace point →
//! `H` hidden units, shared → SCReLU → `B` output buckets by material)
//! from `jiang datagen` files, and writes the quantised file the engine
//! loads. `jiang train` is its command line.
//!
//! What the crate owns: the training, nothing of the network's contract.
//! The inputs (`nnue::feature_index`, `nnue::other_perspective` and
//! `nnue::View`), the
//! output bucket (`nnue::bucket`), the quantisation constants and the
//! file format (`nnue::Network::to_bytes`, read back by
//! `nnue::Network::from_bytes_for`) come from the engine's crate
//! `jiang-nnue`, so the trainer cannot drift from the engine.
//!
//! - [`dataset`]: records turned once into compact samples (u16 plain
//!   feature indices of the side to move, computed with `nnue`; the other
//!   side's follow by `nnue::other_perspective`, and both sides' bucketed
//!   indices by `nnue::View` from the two generals' points);
//! - [`network`]: the float network, its forward pass and clipping;
//! - [`trainer`]: the sparse forward/backward pass, rayon data
//!   parallelism with a fixed reduction order, AdamW and the schedule;
//! - [`quant`]: float weights rounded into the engine's integers (an
//!   `nnue::Network`) and back, and network files read with the engine's
//!   reader;
//! - [`checkpoint`]: float weights and optimiser state, to resume;
//! - [`run`](mod@run): a whole run from files to network files.
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
//! network within quantisation error; `tests/engine_check.rs` checks it
//! on many positions of both games. In short:
//!
//! ```
//! use train::trainer::{Hyper, Trainer};
//! use train::{Game, LoadOptions, Network, Shape};
//!
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/janggi-20g-2000n-seed5.bin");
//! let opts = LoadOptions { holdout: 0, keep_noisy: false };
//! let set = train::load(&[file.into()], opts).expect("the committed data");
//! let shape = Shape { hidden: 16, buckets: 2, ..Shape::DEFAULT };
//! let hyper = Hyper { batch: 512, ..Default::default() };
//! let mut t = Trainer::new(Network::random(Game::Janggi, shape, 1), hyper);
//! train::run::train_epoch(&mut t, &set.train, 1, 0, 1);
//! let engine_net = train::quant::quantise(&t.net).expect("a valid shape");
//! let bytes = engine_net.to_bytes(); // the file the engine loads
//! let loaded = nnue::Network::from_bytes_for(&bytes, Game::Janggi).expect("valid");
//! let pos = movegen::Position::startpos(movegen::Variant::Janggi);
//! let float = t.net.forward_float(pos.board(), pos.side_to_move());
//! let int = loaded.evaluate_position(&pos);
//! assert!((float - int as f32).abs() < 20.0);
//! ```

pub mod checkpoint;
pub mod dataset;
pub mod network;
pub mod quant;
pub mod run;
pub mod trainer;

use std::fmt;
use std::path::PathBuf;

pub use dataset::{load, Dataset, LoadOptions, Sample};
/// The game a network evaluates (the Janggi rule sets share one network).
pub use movegen::Game;
pub use network::{Network, Shape};
pub use run::{run, EpochReport, TrainConfig};
pub use trainer::{Hyper, Schedule, Trainer};

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
    /// A network file the engine would refuse (the engine's reason).
    Network(PathBuf, nnue::LoadError),
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
                nnue::game_name(first.0),
                then.1.display(),
                nnue::game_name(then.0)
            ),
            TrainError::NoPositions => write!(f, "no training positions in the files"),
            TrainError::Shape(h, b) => write!(
                f,
                "hidden size {h} or bucket count {b} not allowed ({}..={} in steps of {}; {}..={})",
                nnue::HIDDEN_RANGE.start(),
                nnue::HIDDEN_RANGE.end(),
                nnue::HIDDEN_STEP,
                nnue::BUCKET_RANGE.start(),
                nnue::BUCKET_RANGE.end()
            ),
            TrainError::Checkpoint(p, why) => {
                write!(f, "{}: cannot resume: {why}", p.display())
            }
            TrainError::Network(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for TrainError {}
