//! The integer evaluation against a float forward pass written straight
//! from `docs/NNUE.md`: with the network's own (dequantised) weights the
//! only differences are the two integer divisions, so they agree within
//! one centipawn and a bit.

mod common;

use common::random_positions;
use movegen::{Color, Game, Piece, PieceKind, Position, Square, Variant};
use nnue::{feature_index, Arch, InputSet, Network, INPUTS, QA, QB, SCALE};

/// The float network: `W1`, `b1` divided by `QA`, `W2` by `QB`, `b2` by
/// `QA·QB`, read back from the file bytes so that the reference does not
/// depend on the crate's internals.
struct Float {
    /// Whether the file declares the general-bucketed inputs.
    bucketed: bool,
    hidden: usize,
    buckets: usize,
    w1: Vec<f64>,
    b1: Vec<f64>,
    w2: Vec<f64>,
    b2: Vec<f64>,
}

fn le_i16(b: &[u8], at: usize) -> f64 {
    f64::from(i16::from_le_bytes([b[at], b[at + 1]]))
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Float {
    fn from_file(b: &[u8]) -> Float {
        let hidden = le_u32(b, 16) as usize;
        let buckets = le_u32(b, 20) as usize;
        // Version 2 has the input-set field (1: general buckets) at 24.
        let bucketed = le_u32(b, 4) == 2 && le_u32(b, 24) == 1;
        let inputs = if bucketed { 6 * INPUTS } else { INPUTS };
        let (qa, qb) = (f64::from(QA), f64::from(QB));
        let mut at = if le_u32(b, 4) == 2 { 28 } else { 24 };
        let mut read = |n: usize, q: f64| -> Vec<f64> {
            let v = (0..n).map(|i| le_i16(b, at + 2 * i) / q).collect();
            at += 2 * n;
            v
        };
        let w1 = read(inputs * hidden, qa);
        let b1 = read(hidden, qa);
        let w2 = read(buckets * 2 * hidden, qb);
        let b2 = (0..buckets)
            .map(|i| f64::from(le_u32(b, at + 4 * i) as i32) / (qa * qb))
            .collect();
        Float {
            bucketed,
            hidden,
            buckets,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// docs/NNUE.md's bucket and mirror of `persp`: its own general's
    /// point seen from its side, mirrored when right of the centre file;
    /// bucket `2 · rank + (file == e)`.
    fn bucket_and_mirror(pos: &Position, persp: Color) -> (usize, bool) {
        let g = Piece::new(persp, PieceKind::General);
        let Some(sq) = Square::all().find(|&s| pos.piece_at(s) == Some(g)) else {
            return (0, false);
        };
        let rank = match persp {
            Color::Red => sq.rank(),
            Color::Black => 9 - sq.rank(),
        } as usize;
        let mirror = sq.file() > 4;
        let file = if mirror { 8 - sq.file() } else { sq.file() };
        (2 * rank.min(2) + usize::from(file == 4), mirror)
    }

    fn accumulate(&self, pos: &Position, persp: Color) -> Vec<f64> {
        let (bucket, mirror) = if self.bucketed {
            Float::bucket_and_mirror(pos, persp)
        } else {
            (0, false)
        };
        let mut acc = self.b1.clone();
        for s in movegen::Square::all() {
            if let Some(p) = pos.piece_at(s) {
                let seen = if mirror { s.mirror() } else { s };
                let f = bucket * INPUTS + feature_index(persp, p, seen);
                for (a, w) in acc.iter_mut().zip(&self.w1[f * self.hidden..]) {
                    *a += w;
                }
            }
        }
        acc
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        let stm = pos.side_to_move();
        let us = self.accumulate(pos, stm);
        let them = self.accumulate(pos, !stm);
        let pieces = movegen::Square::all()
            .filter(|&s| pos.piece_at(s).is_some())
            .count();
        let b = ((pieces - 2) * self.buckets / 31).min(self.buckets - 1);
        let w = &self.w2[b * 2 * self.hidden..];
        let a = |x: f64| x.clamp(0.0, 1.0).powi(2);
        let mut out = self.b2[b];
        for i in 0..self.hidden {
            out += a(us[i]) * w[i] + a(them[i]) * w[self.hidden + i];
        }
        out * f64::from(SCALE)
    }
}

fn check(game: Game, variant: Variant, hidden: usize, buckets: usize, seed: u64) {
    check_arch(game, variant, Arch::plain(hidden, buckets), seed);
}

fn check_arch(game: Game, variant: Variant, arch: Arch, seed: u64) {
    let net = Network::random_of(game, arch, seed);
    assert!(net.is_some());
    let Some(net) = net else { return };
    let float = Float::from_file(&net.to_bytes());
    let mut worst = 0.0f64;
    let mut spread = std::collections::HashSet::new();
    for pos in random_positions(variant, 20, 120, seed) {
        let int = net.evaluate_position(&pos);
        let reference = float.evaluate(&pos);
        let diff = (f64::from(int) - reference).abs();
        worst = worst.max(diff);
        spread.insert(int);
        assert!(
            diff < 1.05,
            "{}: integer {int}, float {reference}",
            pos.to_fen()
        );
    }
    // The test means something only if the evaluations differ.
    assert!(spread.len() > 50, "only {} distinct values", spread.len());
}

#[test]
fn integer_matches_float_xiangqi_small() {
    check(Game::Xiangqi, Variant::Xiangqi, 16, 2, 1);
}

#[test]
fn integer_matches_float_janggi_small() {
    check(Game::Janggi, Variant::Janggi, 16, 2, 2);
}

#[test]
fn integer_matches_float_default_size() {
    check(Game::Xiangqi, Variant::Xiangqi, 256, 8, 3);
    check(Game::Janggi, Variant::JanggiModern, 64, 16, 4);
}

#[test]
fn integer_matches_float_general_buckets() {
    for (game, variant, seed) in [
        (Game::Xiangqi, Variant::Xiangqi, 5),
        (Game::Janggi, Variant::Janggi, 6),
    ] {
        let arch = Arch {
            inputs: InputSet::GeneralBuckets,
            hidden: 32,
            buckets: 4,
        };
        check_arch(game, variant, arch, seed);
    }
}
