//! The trainer's checks: analytic gradients against finite differences, a
//! planted target learned, and a whole run on the committed data (the
//! engine's evaluation of its files against the float network is in
//! `engine_check.rs`).

use std::path::{Path, PathBuf};

use data::{Flags, Header, Outcome, Recipe, Record};
use movegen::{Position, Variant};
use train::dataset::{sigmoid, LoadOptions, Sample};
use train::quant::read_network;
use train::run::Event;
use train::trainer::{gradient, loss, Hyper, Schedule, Trainer};
use train::{Game, Network, Shape, TrainConfig, TrainError};

const DATA: &str = "tests/data/janggi-20g-2000n-seed5.bin";

fn data_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA)
}

/// Every position of the committed file (noisy ones too), no holdout.
fn samples() -> Vec<Sample> {
    let set = train::load(
        &[data_path()],
        LoadOptions {
            holdout: 0,
            keep_noisy: true,
        },
    )
    .expect("the committed data file reads");
    assert_eq!(set.game, Game::Janggi);
    set.train
}

/// A fresh directory for a test's files.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jiang-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn tiny() -> Shape {
    Shape {
        hidden: 8,
        buckets: 2,
        ..Shape::DEFAULT
    }
}

#[test]
fn gradients_equal_finite_differences() {
    gradients_check(tiny());
}

#[test]
fn gradients_equal_finite_differences_general_buckets() {
    gradients_check(Shape {
        inputs: nnue::InputSet::GeneralBuckets,
        ..tiny()
    });
}

fn gradients_check(shape: Shape) {
    let all = samples();
    let batch: Vec<Sample> = all.iter().step_by(97).take(12).copied().collect();
    let hyper = Hyper {
        lambda: 0.3,
        k: 300.0,
        ..Default::default()
    };
    let mut net = Network::random(Game::Janggi, shape, 11);
    // Larger output weights so that every path carries a clear gradient.
    let w2 = net.shape.w2_at();
    for w in &mut net.params[w2..] {
        *w *= 8.0;
    }
    let n = batch.len() as f32;
    let mut grad = vec![0.0f32; net.shape.len()];
    gradient(&net, &batch, &hyper, 1.0 / n, &mut grad);
    let total = |net: &Network| loss(net, &batch, &hyper);
    // W1 rows of the first sample's features (its input indices under
    // the shape's input set), b1, W2 and b2.
    let mut bufs = ([0u16; 32], [0u16; 32]);
    let f0 = usize::from(batch[0].active(shape.inputs, &mut bufs.0, &mut bufs.1).0[3]);
    let mut checked = 0;
    let candidates = (f0 * 8..f0 * 8 + 8)
        .chain(net.shape.b1_at()..net.shape.len())
        .collect::<Vec<_>>();
    for i in candidates {
        let eps = 1e-3f32;
        let mut plus = net.clone();
        plus.params[i] += eps;
        let mut minus = net.clone();
        minus.params[i] -= eps;
        let numeric = (total(&plus) - total(&minus)) / f64::from(2.0 * eps);
        let analytic = f64::from(grad[i]);
        // f32 losses: the difference quotient carries ~1e-5 of rounding.
        let scale = numeric.abs().max(analytic.abs());
        if scale < 1e-5 {
            continue;
        }
        assert!(
            (numeric - analytic).abs() <= 2e-2 * scale + 1e-5,
            "parameter {i}: analytic {analytic}, numeric {numeric}"
        );
        checked += 1;
    }
    assert!(checked > 20, "only {checked} parameters had a gradient");
}

/// Material of the side to move minus the other's, in rough centipawns.
fn material(s: &Sample) -> f32 {
    const VALUES: [f32; 7] = [0.0, 300.0, 300.0, 500.0, 1300.0, 700.0, 200.0];
    s.stm()
        .iter()
        .map(|&f| {
            let f = usize::from(f);
            let v = VALUES[(f / 90) % 7];
            if f < 7 * 90 {
                v
            } else {
                -v
            }
        })
        .sum()
}

#[test]
fn a_planted_target_is_learned() {
    // Label each position by its material balance through the sigmoid:
    // a function the network can represent (linear in the features).
    let mut set = samples();
    for s in &mut set {
        s.score = material(s).clamp(-3000.0, 3000.0) as i16;
    }
    let hyper = Hyper {
        lambda: 0.0,
        lr: 0.01,
        batch: 256,
        schedule: Schedule::Constant,
        ..Default::default()
    };
    let shape = Shape {
        hidden: 32,
        buckets: 1,
        ..Shape::DEFAULT
    };
    // Learned on the positions it was given: a couple of thousand
    // positions leave most piece-square features unseen, so this checks
    // the optimisation, not generalisation (the run test checks that).
    let mut t = Trainer::new(Network::random(Game::Janggi, shape, 5), hyper);
    let start = loss(&t.net, &set, &hyper);
    for epoch in 0..20 {
        train::run::train_epoch(&mut t, &set, 9, epoch, 20);
    }
    let end = loss(&t.net, &set, &hyper);
    assert!(
        end < start * 0.05,
        "loss {start:.5} → {end:.5}: not learned"
    );
}

fn config(dir: &Path, threads: usize) -> TrainConfig {
    let mut cfg = TrainConfig::new(vec![data_path()], dir.join("net.jnn"));
    cfg.shape = Shape {
        hidden: 16,
        buckets: 2,
        ..Shape::DEFAULT
    };
    cfg.epochs = 3;
    cfg.holdout = 5;
    cfg.threads = threads;
    cfg.hyper.batch = 1500;
    cfg.hyper.lr = 0.005;
    cfg.hyper.schedule = Schedule::Constant;
    cfg
}

#[test]
fn a_run_on_the_committed_data_is_deterministic_and_resumable() {
    let dir = scratch("run");
    let mut epochs = Vec::new();
    let net = train::run(&config(&dir, 1), |e| {
        if let Event::Epoch(r) = e {
            epochs.push(r);
        }
    })
    .expect("a run");
    assert_eq!(epochs.len(), 3);
    let first = epochs[0].valid_loss.expect("validation");
    let last = epochs[2].valid_loss.expect("validation");
    assert!(last.is_finite() && last < first, "{first} → {last}");
    let one = std::fs::read(dir.join("net.jnn")).expect("the network");
    for f in ["net.jnn", "net-best.jnn"] {
        let read = read_network(&dir.join(f), Game::Janggi);
        assert!(read.is_ok(), "{f}: {read:?}");
    }
    // Two threads: the same bytes (the reduction order is fixed).
    let dir2 = scratch("run2");
    let net2 = train::run(&config(&dir2, 2), |_| {}).expect("a run");
    assert_eq!(net, net2);
    assert_eq!(std::fs::read(dir2.join("net.jnn")).expect("network"), one);
    // Stop after 2 epochs, resume to 3: the same network again (the
    // schedule is constant here: a cosine one depends on the run's length).
    let dir3 = scratch("run3");
    let mut cfg = config(&dir3, 2);
    cfg.epochs = 2;
    train::run(&cfg, |_| {}).expect("two epochs");
    cfg.epochs = 3;
    cfg.resume = true;
    let mut resumed_at = None;
    let net3 = train::run(&cfg, |e| {
        if let Event::Resumed(n) = e {
            resumed_at = Some(n);
        }
    })
    .expect("resumed");
    assert_eq!(resumed_at, Some(2));
    assert_eq!(net3, net);
    for d in [dir, dir2, dir3] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn mixed_games_and_bad_files_are_refused() {
    let dir = scratch("mixed");
    let xq = dir.join("xiangqi.bin");
    let pos = Position::startpos(Variant::Xiangqi);
    let mut bytes = Header::new(Variant::Xiangqi, Recipe::default())
        .encode()
        .to_vec();
    let best = pos.legal_moves()[0];
    bytes.extend(Record::from_position(&pos, 10, best, Outcome::Draw, 0, Flags::LAST).encode());
    std::fs::write(&xq, &bytes).expect("written");
    let opts = LoadOptions {
        holdout: 0,
        keep_noisy: false,
    };
    let err = train::load(&[data_path(), xq.clone()], opts).err();
    assert!(
        matches!(err, Some(TrainError::MixedGames { .. })),
        "{err:?}"
    );
    let msg = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("janggi") && msg.contains("xiangqi"), "{msg}");
    // A truncated file: a data error that names the file.
    std::fs::write(&xq, &bytes[..70]).expect("written");
    let err = train::load(std::slice::from_ref(&xq), opts).err();
    assert!(matches!(err, Some(TrainError::Data(..))), "{err:?}");
    let missing = train::load(&[dir.join("none.bin")], opts).err();
    assert!(matches!(missing, Some(TrainError::Io(..))));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn targets_blend_result_and_score() {
    let pos = Position::startpos(Variant::Janggi);
    let s = Sample::new(pos.board(), pos.side_to_move(), 400, 0.0);
    let t = s.target(0.25, 400.0);
    assert!((t - 0.75 * sigmoid(1.0)).abs() < 1e-6);
    // 32 pieces: the last bucket.
    assert_eq!(nnue::bucket(usize::from(s.count), 8), 7);
}
