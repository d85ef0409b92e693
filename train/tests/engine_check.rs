//! The engine against the trainer (docs/NNUE.md): a tiny network trained on
//! committed data is written by the trainer, loaded with the engine's
//! loader (`nnue::Network::from_bytes_for`), and the engine's integer
//! evaluation (a full refresh, and the incremental accumulator stack the
//! search uses) is compared with the trainer's float forward pass on the
//! data's positions and on positions of random games, for each game.
//!
//! Two bounds, position by position:
//!
//! 1. **Arithmetic** — against the trainer's forward pass on the file's
//!    own weights (`quant::dequantise`, each integer over its scale). Both
//!    sides sum the same numbers; the engine truncates twice toward zero:
//!    `s / QA` (under one unit of `1/(QA·QB)` of output, 400/16320 ≈
//!    0.025 cp) and `cp` (under 1 cp); the float pass rounds in f32 (a few
//!    hundredths of a centipawn at these sizes). So |engine − float| <
//!    1.025 cp plus f32 rounding; the test allows [`ARITHMETIC`] = 1.1
//!    cp. Any disagreement on the inputs (a perspective, the board flip, a
//!    piece kind, the bucket, the halves of `W2`) moves evaluations by far
//!    more: the test evaluates the trainer's pass from the wrong side as
//!    a built-in mutant and requires it to fail the bound.
//! 2. **Quantisation** — against the trained float weights: bound 1 plus
//!    the weights' rounding, each weight off by at most half a step. An
//!    accumulator sums `pieces + 1` rounded terms, so it is off by at most
//!    ε = (pieces + 1) / (2·QA); an activation `clamp(a, 0, 1)²` (slope at
//!    most 2) by 2ε; a `W2` weight by 1/(2·QB); `b2` by 1/(2·QA·QB). Over
//!    the bucket's 2H output weights `w` with the quantised network's
//!    activations `a'`:
//!    |Δcp| ≤ 400·(Σ 2ε·|w| + Σ a'/(2·QB) + 1/(2·QA·QB)) + [`ARITHMETIC`].
//!    The mean error must also stay small next to the evaluations.

use std::path::{Path, PathBuf};

use movegen::{Color, Piece, Position, SplitMix64, Variant};
use nnue::{AccumulatorStack, InputSet, QA, QB};
use train::dataset::{LoadOptions, Sample, MAX_ACTIVE};
use train::network::screlu;
use train::quant::{dequantise, read_network};
use train::run::{train_epoch, write_network};
use train::trainer::{Hyper, Trainer};
use train::{Game, Network, Shape};

/// Bound 1 in centipawns (see the module's documentation).
const ARITHMETIC: f32 = 1.1;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A network of `game` trained for a few epochs on `file`: small, but
/// with weights of the sizes training gives (the random start's would not
/// show the rounding of trained ones).
fn trained(file: &Path, game: Game, inputs: InputSet) -> Network {
    let opts = LoadOptions {
        holdout: 0,
        keep_noisy: true,
    };
    let set = train::load(&[file.to_path_buf()], opts).expect("the committed data");
    assert_eq!(set.game, game);
    let hyper = Hyper {
        batch: 512,
        lr: 0.005,
        ..Default::default()
    };
    let shape = Shape {
        inputs,
        hidden: 32,
        buckets: 2,
    };
    let mut t = Trainer::new(Network::random(game, shape, 2), hyper);
    for epoch in 0..4 {
        train_epoch(&mut t, &set.train, 1, epoch, 4);
    }
    t.net
}

/// Positions of the data file, as the engine's positions.
fn data_positions(file: &Path) -> Vec<Position> {
    let reader = data::Reader::new(std::fs::File::open(file).expect("data"));
    reader
        .map(|r| {
            let r = r.expect("a record");
            r.to_position().expect("a record is a position")
        })
        .collect()
}

/// Bound 2 of a board (see the module's documentation), in centipawns.
fn rounding_bound(float: &Network, deq: &Network, board: &[Option<Piece>; 90], stm: Color) -> f32 {
    let s = Sample::new(board, stm, 0, 0.5);
    let h = float.shape.hidden;
    let mut acc = vec![0.0f32; 2 * h];
    let mut bufs = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let (f_stm, f_other) = s.active(float.shape.inputs, &mut bufs.0, &mut bufs.1);
    let (acc_stm, acc_other) = acc.split_at_mut(h);
    deq.accumulate(f_stm, acc_stm);
    deq.accumulate(f_other, acc_other);
    let b = nnue::bucket(usize::from(s.count), float.shape.buckets);
    let w = &float.w2()[b * 2 * h..][..2 * h];
    let eps = (f32::from(s.count) + 1.0) / (2.0 * QA as f32);
    let terms: f32 = acc
        .iter()
        .zip(w)
        .map(|(a, w)| 2.0 * eps * w.abs() + screlu(*a) / (2.0 * QB as f32))
        .sum();
    train::network::SCALE * (terms + 1.0 / (2.0 * (QA * QB) as f32)) + ARITHMETIC
}

/// What the comparison saw.
#[derive(Default)]
struct Tally {
    positions: usize,
    /// Largest |engine − float| on the file's weights.
    arithmetic: f32,
    /// Sum and largest |engine − float| on the trained weights.
    sum: f32,
    worst: f32,
    /// Sum of |float|, for the scale of the evaluations.
    magnitude: f32,
    /// Positions where the mutant (the trainer's pass from the wrong
    /// side) broke bound 1.
    mutant_caught: usize,
}

impl Tally {
    /// Compare one position's engine evaluation `int` with the trainer.
    fn check(&mut self, float: &Network, deq: &Network, pos: &Position, int: i32) {
        let (board, stm) = (pos.board(), pos.side_to_move());
        let int = int as f32;
        let exact = deq.forward_float(board, stm);
        assert!(
            (exact - int).abs() < ARITHMETIC,
            "file's weights: float {exact}, engine {int}: {}",
            pos.to_fen()
        );
        self.arithmetic = self.arithmetic.max((exact - int).abs());
        let f = float.forward_float(board, stm);
        let d = (f - int).abs();
        let bound = rounding_bound(float, deq, board, stm);
        assert!(
            d <= bound,
            "trained weights: float {f}, engine {int}, bound {bound}: {}",
            pos.to_fen()
        );
        self.sum += d;
        self.worst = self.worst.max(d);
        self.magnitude += f.abs();
        self.positions += 1;
        let mutant = deq.forward_float(board, !stm);
        if (mutant - int).abs() >= ARITHMETIC {
            self.mutant_caught += 1;
        }
    }
}

/// The whole check for one game: train, write, load with the engine's
/// loader, compare on the data and on random games of `variant`.
fn engine_follows_trainer(file: &str, variant: Variant, inputs: InputSet) {
    let game = variant.game();
    let float = trained(&data(file), game, inputs);
    let dir = std::env::temp_dir().join(format!(
        "jiang-engine-check-{}-{}-{}",
        std::process::id(),
        nnue::game_name(game),
        inputs.name()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("net.jnn");
    write_network(&path, &float).expect("written");
    // The engine's loader, as `EvalFile` uses it.
    let bytes = std::fs::read(&path).expect("read back");
    let net = nnue::Network::from_bytes_for(&bytes, game).expect("the engine loads it");
    assert_eq!(net.inputs(), inputs, "the file declares its input set");
    let other_game = match game {
        Game::Xiangqi => Game::Janggi,
        Game::Janggi => Game::Xiangqi,
    };
    assert!(nnue::Network::from_bytes_for(&bytes, other_game).is_err());
    assert_eq!(read_network(&path, game).ok().as_ref(), Some(&net));
    let _ = std::fs::remove_dir_all(&dir);
    let deq = dequantise(&net);

    let mut tally = Tally::default();
    // 1. The data's positions, by full refresh.
    for pos in data_positions(&data(file)) {
        tally.check(&float, &deq, &pos, net.evaluate_position(&pos));
    }
    let from_data = tally.positions;
    // 2. Random games, through the incremental accumulator stack (which
    //    must equal the refresh exactly).
    let mut rng = SplitMix64::new(7);
    let mut stack = AccumulatorStack::new(&net, 128);
    for _ in 0..20 {
        let mut pos = Position::startpos(variant);
        stack.reset(&net, &pos);
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // A general's move one time in four when there is one, so that
            // general-bucketed networks see their buckets and mirror sides
            // change (and the stack refresh that perspective).
            let general = pos.general(pos.side_to_move());
            let steps: Vec<_> = moves.iter().filter(|m| m.from() == general).collect();
            let m = match steps.first() {
                Some(_) if rng.next_u64() % 4 == 0 => {
                    *steps[(rng.next_u64() % steps.len() as u64) as usize]
                }
                _ => moves[(rng.next_u64() % moves.len() as u64) as usize],
            };
            stack.push_move(&pos, m);
            pos.make_move(m);
            let int = stack.evaluate(&net, &pos);
            assert_eq!(int, net.evaluate_position(&pos), "{}", pos.to_fen());
            tally.check(&float, &deq, &pos, int);
        }
    }
    let n = tally.positions as f32;
    let (mean, typical) = (tally.sum / n, tally.magnitude / n);
    eprintln!(
        "{}: {} positions ({from_data} from the data): file's weights max |Δ| {:.3} cp; \
         trained weights mean |Δ| {mean:.2} cp, max {:.1} cp, mean |eval| {typical:.1} cp; \
         mutant caught on {}",
        nnue::game_name(game),
        tally.positions,
        tally.arithmetic,
        tally.worst,
        tally.mutant_caught
    );
    assert!(from_data > 1000 && tally.positions > from_data + 1000);
    assert!(mean < 0.03 * typical + 2.0, "mean error {mean} cp");
    // The check has teeth: from the wrong side the trainer's pass breaks
    // bound 1 on most positions (symmetric ones agree by nature).
    assert!(
        tally.mutant_caught * 10 > tally.positions * 9,
        "the wrong side was caught on {} of {}",
        tally.mutant_caught,
        tally.positions
    );
}

#[test]
fn the_engine_evaluates_the_trainers_janggi_network() {
    engine_follows_trainer(JANGGI_DATA, Variant::Janggi, InputSet::Plain);
}

#[test]
fn the_engine_evaluates_the_trainers_xiangqi_network() {
    engine_follows_trainer(XIANGQI_DATA, Variant::Xiangqi, InputSet::Plain);
}

#[test]
fn the_engine_evaluates_the_trainers_general_bucketed_janggi_network() {
    engine_follows_trainer(JANGGI_DATA, Variant::Janggi, InputSet::GeneralBuckets);
}

#[test]
fn the_engine_evaluates_the_trainers_general_bucketed_xiangqi_network() {
    engine_follows_trainer(XIANGQI_DATA, Variant::Xiangqi, InputSet::GeneralBuckets);
}

/// The committed Janggi data (its origin in `tests/data/README.md`).
const JANGGI_DATA: &str = "janggi-20g-2000n-seed5.bin";

/// The committed Xiangqi data (its origin in `tests/data/README.md`).
const XIANGQI_DATA: &str = "xiangqi-20g-1000n-seed7.bin";
