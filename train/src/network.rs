//! The float network the trainer optimises (docs/NNUE.md, "Layers"):
//! one flat parameter vector, so that Adam, clipping and checkpoints
//! treat every weight alike, with typed views of its four blocks. The
//! layout of the blocks is the file's (`W1` feature-major, `W2`
//! bucket-major), so quantising is a weight-by-weight rounding.

use movegen::{Color, Piece, SplitMix64};
use nnue::{bucket, InputSet, QA, QB};

use crate::dataset::{Sample, MAX_ACTIVE};
use crate::Game;

/// The evaluation in centipawns is the output times this (`nnue::SCALE`,
/// as a float).
pub const SCALE: f32 = nnue::SCALE as f32;
/// Largest |W1|, |b1| that quantise into an i16.
pub const W1_MAX: f32 = 32767.0 / QA as f32;
/// Largest |W2| that quantises into an i16.
pub const W2_MAX: f32 = 32767.0 / QB as f32;

/// The sizes of a network: its input set, hidden units per perspective
/// and output buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The input set (docs/NNUE.md, Inputs).
    pub inputs: InputSet,
    /// Hidden units per perspective (`H`).
    pub hidden: usize,
    /// Output buckets (`B`).
    pub buckets: usize,
}

impl Shape {
    /// The default shape: the plain inputs, `nnue::DEFAULT_HIDDEN` ×
    /// `nnue::DEFAULT_BUCKETS`.
    pub const DEFAULT: Shape = Shape {
        inputs: InputSet::Plain,
        hidden: nnue::DEFAULT_HIDDEN,
        buckets: nnue::DEFAULT_BUCKETS,
    };

    /// Whether the file format accepts this shape (`nnue::HIDDEN_RANGE`
    /// in steps of `nnue::HIDDEN_STEP`, `nnue::BUCKET_RANGE`).
    pub fn is_valid(self) -> bool {
        self.arch().sizes_ok()
    }

    /// The engine's name for this shape.
    pub fn arch(self) -> nnue::Arch {
        nnue::Arch {
            inputs: self.inputs,
            hidden: self.hidden,
            buckets: self.buckets,
        }
    }

    /// The shape of an engine's architecture.
    pub fn of_arch(arch: nnue::Arch) -> Shape {
        Shape {
            inputs: arch.inputs,
            hidden: arch.hidden,
            buckets: arch.buckets,
        }
    }

    /// Where `b1` starts in the parameter vector (`W1` is first, one row
    /// of `H` per input).
    pub fn b1_at(self) -> usize {
        self.inputs.inputs() * self.hidden
    }

    /// Where `W2` starts.
    pub fn w2_at(self) -> usize {
        self.b1_at() + self.hidden
    }

    /// Where `b2` starts.
    pub fn b2_at(self) -> usize {
        self.w2_at() + 2 * self.hidden * self.buckets
    }

    /// The number of parameters.
    pub fn len(self) -> usize {
        self.b2_at() + self.buckets
    }

    /// Whether there are no parameters (never, for a valid shape).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// A network with float weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The game it evaluates.
    pub game: Game,
    /// Its sizes.
    pub shape: Shape,
    /// `W1` (feature-major, `H` per feature), `b1`, `W2` (bucket-major,
    /// `2H` per bucket: side to move's half, then the other's) and `b2`,
    /// one after the other.
    pub params: Vec<f32>,
}

/// `clamp(x, 0, 1)²`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `Σ screlu(acc[i]) · w[i]`, summed in eight lanes so that the compiler
/// vectorises it (a float sum in one running total must keep its order
/// and stays scalar); the lanes are added in a fixed order, so the result
/// does not depend on the machine.
#[inline]
pub fn dot_screlu(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let a8 = acc.chunks_exact(8);
    let w8 = w.chunks_exact(8);
    let rest: f32 = a8
        .remainder()
        .iter()
        .zip(w8.remainder())
        .map(|(a, w)| screlu(*a) * w)
        .sum();
    for (a, w) in a8.zip(w8) {
        for i in 0..8 {
            lanes[i] += screlu(a[i]) * w[i];
        }
    }
    lanes.iter().sum::<f32>() + rest
}

impl Network {
    /// A network of `shape` with small random weights from `seed`: `W1`
    /// uniform in ±1/√32 · ½ (so an accumulator of some 32 features
    /// starts inside the activation's live range), `W2` uniform in
    /// ±1/√(2H), biases zero.
    pub fn random(game: Game, shape: Shape, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed ^ 0x6a69_616e_672d_6e6e);
        let mut params = vec![0.0f32; shape.len()];
        let r1 = 0.5 / (MAX_ACTIVE as f32).sqrt();
        for w in &mut params[..shape.b1_at()] {
            *w = rng.uniform(-r1, r1);
        }
        for w in &mut params[shape.b1_at()..shape.w2_at()] {
            *w = 0.1;
        }
        let r2 = 1.0 / ((2 * shape.hidden) as f32).sqrt();
        for w in &mut params[shape.w2_at()..shape.b2_at()] {
            *w = rng.uniform(-r2, r2);
        }
        Network {
            game,
            shape,
            params,
        }
    }

    /// `W1`.
    pub fn w1(&self) -> &[f32] {
        &self.params[..self.shape.b1_at()]
    }

    /// `b1`.
    pub fn b1(&self) -> &[f32] {
        &self.params[self.shape.b1_at()..self.shape.w2_at()]
    }

    /// `W2`.
    pub fn w2(&self) -> &[f32] {
        &self.params[self.shape.w2_at()..self.shape.b2_at()]
    }

    /// `b2`.
    pub fn b2(&self) -> &[f32] {
        &self.params[self.shape.b2_at()..]
    }

    /// The accumulator of a perspective: `b1 + Σ W1[f]`.
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.shape.hidden;
        acc.copy_from_slice(self.b1());
        let w1 = self.w1();
        let row = |f: u16| &w1[usize::from(f) * h..][..h];
        // Two rows per pass: half the loads and stores of the accumulator.
        let pairs = features.chunks_exact(2);
        if let [f] = pairs.remainder() {
            for (a, w) in acc.iter_mut().zip(row(*f)) {
                *a += w;
            }
        }
        for pair in pairs {
            for ((a, x), y) in acc.iter_mut().zip(row(pair[0])).zip(row(pair[1])) {
                *a += x + y;
            }
        }
    }

    /// The output (before `SCALE`) of the accumulators of the side to
    /// move and of the other side, in bucket `b`.
    pub fn output(&self, acc_stm: &[f32], acc_other: &[f32], b: usize) -> f32 {
        let h = self.shape.hidden;
        let w2 = &self.w2()[b * 2 * h..][..2 * h];
        let (ws, wo) = w2.split_at(h);
        self.b2()[b] + dot_screlu(acc_stm, ws) + dot_screlu(acc_other, wo)
    }

    /// The float output of a sample (before `SCALE`).
    pub fn forward_sample(&self, s: &Sample) -> f32 {
        self.forward_with(s, &mut vec![0.0f32; 2 * self.shape.hidden])
    }

    /// [`Network::forward_sample`] with the caller's room for the two
    /// accumulators (`2H` floats), for loops over many samples.
    pub fn forward_with(&self, s: &Sample, acc: &mut [f32]) -> f32 {
        let h = self.shape.hidden;
        let (mut buf_s, mut buf_o) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let (stm, other) = s.active(self.shape.inputs, &mut buf_s, &mut buf_o);
        let (a_stm, a_other) = acc.split_at_mut(h);
        self.accumulate(stm, a_stm);
        self.accumulate(other, a_other);
        let b = bucket(usize::from(s.count), self.shape.buckets);
        self.output(a_stm, &a_other[..h], b)
    }

    /// The float evaluation in centipawns, side to move's view, of a
    /// board with `stm` to move: what the engine's integer evaluation
    /// approximates.
    pub fn forward_float(&self, board: &[Option<Piece>; 90], stm: Color) -> f32 {
        self.forward_sample(&Sample::new(board, stm, 0, 0.5)) * SCALE
    }

    /// Clamp every weight into the range that quantises into an i16.
    pub fn clip(&mut self) {
        clip(self.shape, &mut self.params);
    }
}

/// Clamp `params` of `shape` into the quantisable ranges.
pub fn clip(shape: Shape, params: &mut [f32]) {
    let (first, second) = params.split_at_mut(shape.w2_at());
    for w in first {
        *w = w.clamp(-W1_MAX, W1_MAX);
    }
    let (w2, _) = second.split_at_mut(2 * shape.hidden * shape.buckets);
    for w in w2 {
        *w = w.clamp(-W2_MAX, W2_MAX);
    }
}
