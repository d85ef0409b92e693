//! A whole run: read the files, train epoch by epoch (shuffled from the
//! seed), validate, checkpoint, and write the quantised networks.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::checkpoint::{self, Progress};
use crate::dataset::{self, LoadOptions, Sample};
use crate::network::{Network, Shape};
use crate::quant::quantise;
use crate::trainer::{loss, Hyper, Trainer};
use crate::TrainError;
use movegen::SplitMix64;

/// Everything a run needs.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// `jiang datagen` files, all of one game.
    pub files: Vec<PathBuf>,
    /// The final quantised network.
    pub out: PathBuf,
    /// The quantised network of the epoch with the lowest validation loss.
    pub best: PathBuf,
    /// The checkpoint written after every epoch.
    pub checkpoint: PathBuf,
    /// Continue from the checkpoint.
    pub resume: bool,
    /// Network sizes.
    pub shape: Shape,
    /// Epochs (passes over the training positions).
    pub epochs: usize,
    /// Optimisation settings.
    pub hyper: Hyper,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Every N-th game to validation (0: none).
    pub holdout: usize,
    /// Keep noisy positions (in check, capture, mate score).
    pub keep_noisy: bool,
    /// Worker threads (0: rayon's default, all cores).
    pub threads: usize,
}

impl TrainConfig {
    /// A configuration with the defaults: [`Shape::DEFAULT`], 10 epochs, seed 1,
    /// holdout 10, best and checkpoint files next to `out`.
    pub fn new(files: Vec<PathBuf>, out: PathBuf) -> TrainConfig {
        TrainConfig {
            files,
            best: sibling(&out, "-best"),
            checkpoint: sibling(&out, ".ckpt"),
            out,
            resume: false,
            shape: Shape::DEFAULT,
            epochs: 10,
            hyper: Hyper::default(),
            seed: 1,
            holdout: 10,
            keep_noisy: false,
            threads: 0,
        }
    }
}

/// `dir/name.jnn` with `suffix`: `-best` goes before the extension
/// (`name-best.jnn`), anything else after the whole name.
pub fn sibling(out: &Path, suffix: &str) -> PathBuf {
    if suffix.starts_with('-') {
        let stem = out
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let ext = out
            .extension()
            .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
        out.with_file_name(format!("{stem}{suffix}{ext}"))
    } else {
        let mut s = out.as_os_str().to_owned();
        s.push(suffix);
        PathBuf::from(s)
    }
}

/// What an epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Of how many.
    pub epochs: usize,
    /// The learning rate at the epoch's start.
    pub lr: f32,
    /// Mean training loss over the epoch's batches.
    pub train_loss: f64,
    /// Validation loss after the epoch (`None`: no validation set).
    pub valid_loss: Option<f64>,
    /// Training positions per second.
    pub positions_per_s: f64,
    /// Seconds of the epoch (training and validation).
    pub seconds: f64,
    /// Whether it is the best validation loss so far.
    pub best: bool,
}

/// What the data were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataReport {
    /// Games read.
    pub games: usize,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub valid: usize,
    /// Positions skipped as noisy.
    pub skipped: usize,
}

/// Messages of a run, for a command line to print.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// The data are loaded.
    Data(crate::Game, DataReport),
    /// Resumed after this many epochs.
    Resumed(u64),
    /// An epoch ended.
    Epoch(EpochReport),
}

/// The positions of epoch `epoch` (0-based) in training order: a shuffle
/// that depends on the seed and the epoch only, so a resumed run sees
/// what an uninterrupted one would.
fn epoch_order(n: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ epoch as u64);
    rng.shuffle(&mut order);
    order
}

/// Train `trainer` for one epoch over `train` in the order of `seed` and
/// `epoch`; the mean loss of its batches and positions per second.
pub fn train_epoch(
    t: &mut Trainer,
    train: &[Sample],
    seed: u64,
    epoch: usize,
    epochs: usize,
) -> (f64, f64) {
    let start = Instant::now();
    let order = epoch_order(train.len(), seed, epoch);
    let batch_size = t.hyper.batch.max(1);
    let batches = train.len().div_ceil(batch_size);
    let mut batch: Vec<Sample> = Vec::with_capacity(batch_size);
    let mut sum = 0.0;
    for (i, idx) in order.chunks(batch_size).enumerate() {
        batch.clear();
        batch.extend(idx.iter().map(|&j| train[j as usize]));
        let progress = epoch as f64 + i as f64 / batches as f64;
        let lr = t.hyper.schedule.rate(t.hyper.lr, progress, epochs);
        sum += t.step(&batch, lr) * batch.len() as f64;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    (sum / train.len().max(1) as f64, train.len() as f64 / secs)
}

/// Write the quantised file of `net` (the engine's writer).
pub fn write_network(path: &Path, net: &Network) -> Result<(), TrainError> {
    let q = quantise(net).ok_or(TrainError::Shape(net.shape.hidden, net.shape.buckets))?;
    std::fs::write(path, q.to_bytes())
        .map_err(|e| TrainError::Io(path.to_path_buf(), e.to_string()))
}

/// A whole run; `report` hears of the data and of every epoch.
pub fn run(cfg: &TrainConfig, mut report: impl FnMut(Event) + Send) -> Result<Network, TrainError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| TrainError::Io(PathBuf::from("threads"), e.to_string()))?;
    pool.install(|| run_in_pool(cfg, &mut report))
}

/// Fail now, not after the first epoch, when a file cannot be written
/// where it is asked for (its directory is missing).
fn check_outputs(cfg: &TrainConfig) -> Result<(), TrainError> {
    for path in [&cfg.out, &cfg.best, &cfg.checkpoint] {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(TrainError::Io(
                path.clone(),
                format!("cannot write here: {} is not a directory", dir.display()),
            ));
        }
    }
    Ok(())
}

fn run_in_pool(
    cfg: &TrainConfig,
    report: &mut (impl FnMut(Event) + Send),
) -> Result<Network, TrainError> {
    if !cfg.shape.is_valid() {
        return Err(TrainError::Shape(cfg.shape.hidden, cfg.shape.buckets));
    }
    check_outputs(cfg)?;
    // 1. The data, converted once.
    let set = dataset::load(
        &cfg.files,
        LoadOptions {
            holdout: cfg.holdout,
            keep_noisy: cfg.keep_noisy,
        },
    )?;
    report(Event::Data(
        set.game,
        DataReport {
            games: set.games,
            train: set.train.len(),
            valid: set.valid.len(),
            skipped: set.skipped,
        },
    ));
    // 2. The network: fresh, or the checkpoint's.
    let net = Network::random(set.game, cfg.shape, cfg.seed);
    let mut t = Trainer::new(net, cfg.hyper);
    let mut progress = Progress {
        epochs: 0,
        best: f64::INFINITY,
    };
    if cfg.resume {
        progress = checkpoint::load(&cfg.checkpoint, &mut t)?;
        report(Event::Resumed(progress.epochs));
    }
    // 3. Epochs: train, validate, keep the best, checkpoint.
    for epoch in progress.epochs as usize..cfg.epochs {
        let start = Instant::now();
        let lr = cfg
            .hyper
            .schedule
            .rate(cfg.hyper.lr, epoch as f64, cfg.epochs);
        let (train_loss, pps) = train_epoch(&mut t, &set.train, cfg.seed, epoch, cfg.epochs);
        let valid_loss = (!set.valid.is_empty()).then(|| loss(&t.net, &set.valid, &cfg.hyper));
        let best = valid_loss.is_some_and(|v| v < progress.best);
        if let Some(v) = valid_loss.filter(|_| best) {
            progress.best = v;
            write_network(&cfg.best, &t.net)?;
        }
        progress.epochs = epoch as u64 + 1;
        checkpoint::save(&cfg.checkpoint, &t, progress)?;
        report(Event::Epoch(EpochReport {
            epoch: epoch + 1,
            epochs: cfg.epochs,
            lr,
            train_loss,
            valid_loss,
            positions_per_s: pps,
            seconds: start.elapsed().as_secs_f64(),
            best,
        }));
    }
    // 4. The final network.
    write_network(&cfg.out, &t.net)?;
    Ok(t.net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sibling_names() {
        let out = Path::new("/tmp/x/janggi.jnn");
        assert_eq!(sibling(out, "-best"), Path::new("/tmp/x/janggi-best.jnn"));
        assert_eq!(sibling(out, ".ckpt"), Path::new("/tmp/x/janggi.jnn.ckpt"));
        assert_eq!(sibling(Path::new("net"), "-best"), Path::new("net-best"));
    }

    #[test]
    fn shuffles_depend_on_seed_and_epoch_only() {
        assert_eq!(epoch_order(100, 3, 2), epoch_order(100, 3, 2));
        assert_ne!(epoch_order(100, 3, 2), epoch_order(100, 3, 1));
        assert_ne!(epoch_order(100, 3, 2), epoch_order(100, 4, 2));
    }
}
