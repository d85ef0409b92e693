//! The optimisation: the sparse forward and backward pass over a chunk of
//! positions, data parallelism over the chunks of a batch, AdamW with
//! clipping, and the learning-rate schedule.
//!
//! The first layer dominates the cost: each position adds ~30 rows of
//! `W1` per perspective (the accumulators) and, going back, adds the
//! accumulator's gradient into the same ~60 rows. Both touch only the
//! active features' rows; everything else is `O(H)` per position.

use rayon::prelude::*;

use movegen::SQUARES;
use nnue::{bucket, InputSet, INPUTS};

use crate::dataset::{sigmoid, Sample, MAX_ACTIVE};
use crate::network::{screlu, Network, Shape, SCALE, W1_MAX, W2_MAX};

/// Positions per chunk: the unit of work of a thread and of the fixed
/// reduction order (so a run does not depend on the thread count).
pub const CHUNK: usize = 1024;

/// Learning-rate schedules, as a function of the fraction of the run done.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// The same rate throughout.
    Constant,
    /// Multiply by `gamma` every `every` epochs.
    Step {
        /// Epochs between drops.
        every: usize,
        /// The factor of each drop.
        gamma: f32,
    },
    /// Cosine from the rate down to `final_ratio` × the rate at the end.
    Cosine {
        /// The last rate over the first.
        final_ratio: f32,
    },
}

impl Schedule {
    /// The rate at `epoch` (0-based, fractional within the epoch) of a
    /// run of `epochs`, for base rate `lr`.
    pub fn rate(self, lr: f32, epoch: f64, epochs: usize) -> f32 {
        match self {
            Schedule::Constant => lr,
            Schedule::Step { every, gamma } => {
                lr * gamma.powi((epoch as usize / every.max(1)) as i32)
            }
            Schedule::Cosine { final_ratio } => {
                let t = (epoch / epochs.max(1) as f64).clamp(0.0, 1.0);
                let c = 0.5 * (1.0 + (std::f64::consts::PI * t).cos());
                lr * (final_ratio + (1.0 - final_ratio) * c as f32)
            }
        }
    }
}

/// The hyper-parameters of the optimisation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hyper {
    /// Weight of the game result in the target (λ).
    pub lambda: f32,
    /// The sigmoid's scale in centipawns (K).
    pub k: f32,
    /// Base learning rate.
    pub lr: f32,
    /// Decoupled weight decay (AdamW), per step, times the rate.
    pub weight_decay: f32,
    /// Positions per batch.
    pub batch: usize,
    /// The schedule of the rate.
    pub schedule: Schedule,
    /// Train a factor per piece (colour relative to the perspective and
    /// kind) shared by its 90 points alongside each point's own weights
    /// (see [`FACTORS`]) and, for the general-bucketed inputs, a plain
    /// row per plain feature shared by its 6 buckets (see
    /// [`factor_rows`]).
    pub factorise: bool,
}

impl Default for Hyper {
    fn default() -> Hyper {
        Hyper {
            lambda: 0.5,
            k: 400.0,
            lr: 0.001,
            weight_decay: 0.0,
            batch: 16384,
            schedule: Schedule::Cosine { final_ratio: 0.05 },
            factorise: true,
        }
    }
}

/// Scratch of one chunk's pass: the two accumulators and their gradients.
struct Scratch {
    acc: Vec<f32>,
    grad: Vec<f32>,
}

/// Add the gradient of `Σ (σ(out·SCALE/K) − target)²` over `samples`,
/// times `scale`, into `grad` (laid out as the network's parameters);
/// the sum of the squared errors (not scaled).
pub fn gradient(
    net: &Network,
    samples: &[Sample],
    hyper: &Hyper,
    scale: f32,
    grad: &mut [f32],
) -> f64 {
    let mut scratch = Scratch {
        acc: vec![0.0; 2 * net.shape.hidden],
        grad: vec![0.0; 2 * net.shape.hidden],
    };
    samples
        .iter()
        .map(|s| backward(net, s, hyper, scale, grad, &mut scratch))
        .sum()
}

/// One position's forward and backward pass; its squared error.
#[inline]
fn backward(
    net: &Network,
    s: &Sample,
    hyper: &Hyper,
    scale: f32,
    grad: &mut [f32],
    sc: &mut Scratch,
) -> f64 {
    let shape = net.shape;
    let h = shape.hidden;
    let (mut buf_s, mut buf_o) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let (stm, other) = s.active(shape.inputs, &mut buf_s, &mut buf_o);
    // 1. Accumulators: b1 plus the active rows of W1.
    let (acc_s, acc_o) = sc.acc.split_at_mut(h);
    net.accumulate(stm, acc_s);
    net.accumulate(other, acc_o);
    // 2. Output, prediction and the error's derivative at the output.
    let b = bucket(usize::from(s.count), shape.buckets);
    let out = net.output(acc_s, acc_o, b);
    let p = sigmoid(out * SCALE / hyper.k);
    let e = p - s.target(hyper.lambda, hyper.k);
    let g = 2.0 * e * p * (1.0 - p) * SCALE / hyper.k * scale;
    // 3. Output layer: W2 (the activations) and b2.
    let (head, tail) = grad.split_at_mut(shape.w2_at());
    let (g_w1, g_b1) = head.split_at_mut(shape.b1_at());
    let (g_w2, g_b2) = tail.split_at_mut(2 * h * shape.buckets);
    g_b2[b] += g;
    let w2 = &net.w2()[b * 2 * h..][..2 * h];
    let g_w2 = &mut g_w2[b * 2 * h..][..2 * h];
    for (((acc, w), gw), d) in sc
        .acc
        .chunks_exact(h)
        .zip(w2.chunks_exact(h))
        .zip(g_w2.chunks_exact_mut(h))
        .zip(sc.grad.chunks_exact_mut(h))
    {
        // Plain zips of equal slices, so that the loop vectorises.
        for (((a, w), gw), d) in acc.iter().zip(w).zip(gw.iter_mut()).zip(d.iter_mut()) {
            *gw += g * screlu(*a);
            // SCReLU's derivative: 2x inside (0, 1), 0 outside.
            let live = if *a > 0.0 && *a < 1.0 { 2.0 * a } else { 0.0 };
            *d = g * w * live;
        }
    }
    let (d_s, d_o) = sc.grad.split_at(h);
    // 4. Feature transformer: b1 and the active rows of W1 (the scatter).
    for ((gb, ds), dn) in g_b1.iter_mut().zip(d_s.iter()).zip(d_o.iter()) {
        *gb += ds + dn;
    }
    for (feats, d) in [(stm, d_s), (other, d_o)] {
        for &f in feats {
            let row = &mut g_w1[usize::from(f) * h..][..h];
            for (r, x) in row.iter_mut().zip(d) {
                *r += x;
            }
        }
    }
    f64::from(e * e)
}

/// The mean squared error of `net` on `samples`, computed in chunks in
/// parallel and summed in chunk order.
pub fn loss(net: &Network, samples: &[Sample], hyper: &Hyper) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|c| {
            let mut acc = vec![0.0f32; 2 * net.shape.hidden];
            c.iter()
                .map(|s| {
                    let p = sigmoid(net.forward_with(s, &mut acc) * SCALE / hyper.k);
                    f64::from((p - s.target(hyper.lambda, hyper.k)).powi(2))
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// Adam's decay of its first moments.
const B1: f32 = 0.9;
/// Adam's decay of its second moments.
const B2: f32 = 0.999;
/// Adam's guard against division by zero.
const EPS: f32 = 1e-8;

/// Adam's moments `m`, `v` moved by gradient `g`.
#[inline]
fn adam_moments(m: &mut f32, v: &mut f32, g: f32) {
    *m = B1 * *m + (1.0 - B1) * g;
    *v = B2 * *v + (1.0 - B2) * g * g;
}

/// Piece factors of the first layer: one per (side, kind), the rows of
/// the 90 plain features `side * 7 + kind` of docs/NNUE.md's inputs (in
/// every general bucket).
///
/// Each feature's effective row is its own weights plus its factors:
/// `W1[f] = W[f] + P[f / 90]` for the plain inputs, and
/// `W1[b][f] = W[b][f] + F[f] + P[f / 90]` for the general-bucketed ones,
/// where `F[f]` is the plain row of plain feature `f` shared by its 6
/// buckets. The network keeps the effective rows (so the forward pass,
/// the loss and the file need nothing else); a factor's gradient is the
/// sum of the gradients of the rows it is part of, Adam moves the factor
/// by its own step and that step is added to all those rows. A piece seen
/// on one point teaches every point what it is worth, and a piece seen
/// with the general on one palace point teaches every bucket, which the
/// data cannot teach each row alone: the network learns material first,
/// then the points, then what the general's place changes.
pub const FACTORS: usize = nnue::INPUTS / SQUARES;

/// Factor rows of a network of `inputs`: the [`FACTORS`] piece factors,
/// then for the general-bucketed inputs one plain row per plain feature.
pub fn factor_rows(inputs: InputSet) -> usize {
    match inputs {
        InputSet::Plain => FACTORS,
        InputSet::GeneralBuckets => FACTORS + INPUTS,
    }
}

/// A network with its optimiser state and gradient buffers.
pub struct Trainer {
    /// The network being trained.
    pub net: Network,
    /// Adam's first moments.
    pub m: Vec<f32>,
    /// Adam's second moments.
    pub v: Vec<f32>,
    /// Adam's first moments of the factors ([`factor_rows`] × `H`: the
    /// piece factors, then the plain rows).
    pub fm: Vec<f32>,
    /// Adam's second moments of the factors.
    pub fv: Vec<f32>,
    /// Optimiser steps taken.
    pub step: u64,
    /// The hyper-parameters.
    pub hyper: Hyper,
    /// One gradient buffer per chunk of a batch.
    chunk_grads: Vec<Vec<f32>>,
    /// Their sum.
    total: Vec<f32>,
}

/// Parameters per block of the parallel reduction and update: big
/// enough to amortise a task, small enough to spread over the threads.
const BLOCK: usize = 1 << 14;

impl Trainer {
    /// A trainer of `net` with fresh optimiser state.
    pub fn new(net: Network, hyper: Hyper) -> Trainer {
        let n = net.shape.len();
        let chunks = hyper.batch.div_ceil(CHUNK).max(1);
        let factors = factor_rows(net.shape.inputs) * net.shape.hidden;
        Trainer {
            m: vec![0.0; n],
            v: vec![0.0; n],
            fm: vec![0.0; factors],
            fv: vec![0.0; factors],
            step: 0,
            hyper,
            chunk_grads: (0..chunks).map(|_| vec![0.0; n]).collect(),
            total: vec![0.0; n],
            net,
        }
    }

    /// One optimiser step on `batch` at learning rate `lr`; the batch's
    /// mean squared error before the step.
    pub fn step(&mut self, batch: &[Sample], lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        let scale = 1.0 / batch.len() as f32;
        let chunks = batch.len().div_ceil(CHUNK);
        if self.chunk_grads.len() < chunks {
            let n = self.net.shape.len();
            self.chunk_grads.resize_with(chunks, || vec![0.0; n]);
        }
        // 1. Each chunk's gradient into its own buffer, in parallel.
        let net = &self.net;
        let hyper = &self.hyper;
        let losses: Vec<f64> = self.chunk_grads[..chunks]
            .par_iter_mut()
            .zip(batch.par_chunks(CHUNK))
            .map(|(g, c)| {
                g.fill(0.0);
                gradient(net, c, hyper, scale, g)
            })
            .collect();
        // 2. Their sum in chunk order, in parallel over parameter blocks.
        let grads = &self.chunk_grads[..chunks];
        self.total
            .par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(i, t)| {
                t.copy_from_slice(&grads[0][i * BLOCK..][..t.len()]);
                for g in &grads[1..] {
                    for (x, y) in t.iter_mut().zip(&g[i * BLOCK..]) {
                        *x += y;
                    }
                }
            });
        // 3. AdamW, then clipping into the quantisable ranges.
        self.step += 1;
        self.adam(lr);
        losses.iter().sum::<f64>() / batch.len() as f64
    }

    /// AdamW on the summed gradient.
    fn adam(&mut self, lr: f32) {
        let t = self.step as i32;
        let c1 = 1.0 / (1.0 - B1.powi(t));
        let c2 = 1.0 / (1.0 - B2.powi(t));
        let wd = self.hyper.weight_decay;
        let shape = self.net.shape;
        let w2_at = shape.w2_at();
        let b2_at = shape.b2_at();
        let h = shape.hidden;
        // The factors' steps (zero when not factorising). No weight
        // decay: a factor itself is not stored, only its effect on the
        // rows.
        let bucketed = shape.inputs != InputSet::Plain;
        let mut factor_step = vec![0.0f32; factor_rows(shape.inputs) * h];
        if self.hyper.factorise {
            let (piece, plain) = factor_step.split_at_mut(FACTORS * h);
            // The gradient of the plain row of feature f: the sum of its
            // buckets' rows' (for the plain inputs, its one row).
            let mut plain_grad = self.total[..INPUTS * h].to_vec();
            for bucket in self.total[INPUTS * h..shape.b1_at()].chunks_exact(INPUTS * h) {
                for (s, g) in plain_grad.iter_mut().zip(bucket) {
                    *s += g;
                }
            }
            // A piece factor's gradient: the sum of its 90 plain rows'.
            for (k, fs) in piece.chunks_exact_mut(h).enumerate() {
                for row in plain_grad[k * SQUARES * h..][..SQUARES * h].chunks_exact(h) {
                    for (s, g) in fs.iter_mut().zip(row) {
                        *s += g;
                    }
                }
            }
            if bucketed {
                plain.copy_from_slice(&plain_grad);
            }
            for ((s, m), v) in factor_step.iter_mut().zip(&mut self.fm).zip(&mut self.fv) {
                adam_moments(m, v, *s);
                *s = -lr * (*m * c1) / ((*v * c2).sqrt() + EPS);
            }
        }
        let factor_step = &factor_step;
        let b1_at = shape.b1_at();
        self.net
            .params
            .par_chunks_mut(BLOCK)
            .zip(self.m.par_chunks_mut(BLOCK))
            .zip(self.v.par_chunks_mut(BLOCK))
            .zip(self.total.par_chunks(BLOCK))
            .enumerate()
            .for_each(|(i, (((p, m), v), g))| {
                for (j, (((p, m), v), g)) in p.iter_mut().zip(m).zip(v).zip(g).enumerate() {
                    adam_moments(m, v, *g);
                    let upd = (*m * c1) / ((*v * c2).sqrt() + EPS);
                    *p -= lr * (upd + wd * *p);
                    let at = i * BLOCK + j;
                    if at < b1_at {
                        // Row `at / h` is plain feature `at / h % 1260`
                        // of its bucket.
                        let (plain, unit) = (at / h % INPUTS, at % h);
                        *p += factor_step[plain / SQUARES * h + unit];
                        if bucketed {
                            *p += factor_step[(FACTORS + plain) * h + unit];
                        }
                    }
                    let limit = if at < w2_at {
                        W1_MAX
                    } else if at < b2_at {
                        W2_MAX
                    } else {
                        f32::INFINITY
                    };
                    *p = p.clamp(-limit, limit);
                }
            });
    }

    /// The shape of the network.
    pub fn shape(&self) -> Shape {
        self.net.shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Color, Piece, PieceKind};

    /// The weights before and after one step (rate 0.01) on one position:
    /// the generals on e1 and e10, a red chariot on e5, Red to move.
    fn one_step(inputs: InputSet, factorise: bool) -> (Vec<f32>, Vec<f32>) {
        let mut board = [None; 90];
        board[4] = Some(Piece::new(Color::Red, PieceKind::General));
        board[85] = Some(Piece::new(Color::Black, PieceKind::General));
        board[40] = Some(Piece::new(Color::Red, PieceKind::Chariot));
        let sample = Sample::new(&board, Color::Red, 900, 1.0);
        let hyper = Hyper {
            factorise,
            ..Hyper::default()
        };
        let net = Network::random(crate::Game::Xiangqi, shape(inputs), 3);
        let before = net.params.clone();
        let mut t = Trainer::new(net, hyper);
        t.step(&[sample], 0.01);
        (before, t.net.params)
    }

    fn shape(inputs: InputSet) -> Shape {
        Shape {
            inputs,
            hidden: 16,
            buckets: 1,
        }
    }

    /// How row `row` (starting at that parameter) moved.
    fn moved(before: &[f32], after: &[f32], row: usize) -> Vec<f32> {
        (row..row + 16).map(|i| after[i] - before[i]).collect()
    }

    /// A red chariot's row on a point where there is none moves only by
    /// the factor's step, so it moves when factorising and stays
    /// otherwise; a cannon's row (no cannon anywhere, so no gradient for
    /// its factor) stays either way.
    #[test]
    fn factor_steps_reach_every_point_of_the_piece() {
        // Features (side 0, kind 4) and (side 0, kind 5) at point 0,
        // where nothing stands.
        let chariot_row = 4 * 90 * 16;
        let cannon_row = 5 * 90 * 16;
        for factorise in [true, false] {
            let (before, after) = one_step(InputSet::Plain, factorise);
            let moves = |row| moved(&before, &after, row).iter().any(|d| *d != 0.0);
            assert_eq!(moves(chariot_row), factorise);
            assert!(!moves(cannon_row));
        }
    }

    /// The general-bucketed inputs (the red general on e1: bucket 1).
    /// With factorising, the chariot's row of the same point in another
    /// bucket (0) moves by the plain row's and the piece factor's steps,
    /// the chariot's row of another point in bucket 0 by the piece
    /// factor's alone; without, neither moves.
    #[test]
    fn plain_rows_reach_every_bucket() {
        let row = |bucket: usize, plain: usize| (bucket * INPUTS + plain) * 16;
        let (seen, same_point, other_point) =
            (row(1, 4 * 90 + 40), row(0, 4 * 90 + 40), row(0, 4 * 90));
        for factorise in [true, false] {
            let (before, after) = one_step(InputSet::GeneralBuckets, factorise);
            let delta = |r| moved(&before, &after, r);
            let moves = |r| delta(r).iter().any(|d| *d != 0.0);
            assert!(moves(seen));
            assert_eq!(moves(same_point), factorise);
            assert_eq!(moves(other_point), factorise);
            if factorise {
                assert_ne!(delta(same_point), delta(other_point));
            }
        }
    }

    #[test]
    fn schedules() {
        let c = Schedule::Cosine { final_ratio: 0.1 };
        assert!((c.rate(1.0, 0.0, 10) - 1.0).abs() < 1e-6);
        assert!((c.rate(1.0, 10.0, 10) - 0.1).abs() < 1e-6);
        assert!((c.rate(1.0, 5.0, 10) - 0.55).abs() < 1e-6);
        let s = Schedule::Step {
            every: 2,
            gamma: 0.5,
        };
        assert_eq!(s.rate(1.0, 1.9, 10), 1.0);
        assert_eq!(s.rate(1.0, 2.0, 10), 0.5);
        assert_eq!(s.rate(1.0, 5.0, 10), 0.25);
        assert_eq!(Schedule::Constant.rate(0.3, 7.0, 10), 0.3);
    }
}
