//! Checkpoints: the float weights and Adam's state after an epoch, so a
//! run can be resumed exactly where it stopped (`jiang train --resume`).
//!
//! Layout (little-endian): magic `JNNTCKPT`, u32 version 3, u32 game,
//! u32 `H`, u32 `B`, u32 input set (the network file's code), u64 epochs
//! done, u64 optimiser steps, f64 best validation loss (infinity: none
//! yet), then the parameters, Adam's first and second moments, the
//! factors' first and second moments ([`factor_rows`] × `H` each; f32
//! each), and an FNV-1a 32 checksum of all before. Version 2 (no input
//! set) is refused: resume such a run with the trainer that wrote it.

use std::path::Path;

use nnue::fnv1a32;

use crate::network::{Network, Shape};
use crate::trainer::{factor_rows, Trainer};
use crate::{Game, TrainError};

const MAGIC: &[u8; 8] = b"JNNTCKPT";
const VERSION: u32 = 3;
const HEADER: usize = 8 + 5 * 4 + 8 + 8 + 8;

/// Where a run stands after an epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Epochs finished.
    pub epochs: u64,
    /// The lowest validation loss so far (infinity: none).
    pub best: f64,
}

/// The bytes of a checkpoint of `t` at `p`.
pub fn encode(t: &Trainer, p: Progress) -> Vec<u8> {
    let shape = t.net.shape;
    let mut out = Vec::with_capacity(size(shape));
    out.extend_from_slice(MAGIC);
    for x in [
        VERSION,
        nnue::game_code(t.net.game),
        shape.hidden as u32,
        shape.buckets as u32,
        shape.inputs.code(),
    ] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&p.epochs.to_le_bytes());
    out.extend_from_slice(&t.step.to_le_bytes());
    out.extend_from_slice(&p.best.to_le_bytes());
    for x in t
        .net
        .params
        .iter()
        .chain(&t.m)
        .chain(&t.v)
        .chain(&t.fm)
        .chain(&t.fv)
    {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let sum = fnv1a32(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The bytes of a checkpoint of `shape`.
fn size(shape: Shape) -> usize {
    HEADER + 12 * shape.len() + 8 * factor_rows(shape.inputs) * shape.hidden + 4
}

/// Write the checkpoint through a temporary file and a rename, so a kill
/// mid-write leaves the previous checkpoint.
pub fn save(path: &Path, t: &Trainer, p: Progress) -> Result<(), TrainError> {
    let tmp = path.with_extension("tmp");
    let io = |e: std::io::Error| TrainError::Io(path.to_path_buf(), e.to_string());
    std::fs::write(&tmp, encode(t, p)).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Restore a checkpoint's weights and optimiser state into `t`, which
/// must be of the same game and shape; where the run stood.
pub fn restore(bytes: &[u8], t: &mut Trainer) -> Result<Progress, String> {
    if bytes.len() < HEADER + 4 || &bytes[..8] != MAGIC {
        return Err("not a trainer checkpoint".into());
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(b)
    };
    if u32_at(8) != VERSION {
        return Err(format!("checkpoint version {}", u32_at(8)));
    }
    let game = nnue::game_from_code(u32_at(12));
    let inputs = nnue::InputSet::from_code(u32_at(24));
    let (hidden, buckets) = (u32_at(16) as usize, u32_at(20) as usize);
    let ours = t.net.shape;
    if game != Some(t.net.game)
        || inputs != Some(ours.inputs)
        || (hidden, buckets) != (ours.hidden, ours.buckets)
    {
        return Err(format!(
            "it is a {} network of {} inputs {}x{}, this run trains {} {} {}x{}",
            game.map_or("unknown", nnue::game_name),
            inputs.map_or("unknown", nnue::InputSet::name),
            hidden,
            buckets,
            nnue::game_name(t.net.game),
            ours.inputs.name(),
            ours.hidden,
            ours.buckets
        ));
    }
    let shape = ours;
    if bytes.len() != size(shape) {
        return Err("wrong size".into());
    }
    let body = bytes.len() - 4;
    if fnv1a32(&bytes[..body]) != u32_at(body) {
        return Err("checksum does not match (damaged file)".into());
    }
    // The five float blocks one after the other: parameters, their two
    // moments, the factors' two moments.
    let mut at = HEADER;
    for out in [&mut t.net.params, &mut t.m, &mut t.v, &mut t.fm, &mut t.fv] {
        let len = 4 * out.len();
        for (o, c) in out.iter_mut().zip(bytes[at..at + len].chunks_exact(4)) {
            *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        at += len;
    }
    t.step = u64_at(36);
    Ok(Progress {
        epochs: u64_at(28),
        best: f64::from_bits(u64_at(44)),
    })
}

/// Read a whole checkpoint file into `t`.
pub fn load(path: &Path, t: &mut Trainer) -> Result<Progress, TrainError> {
    let bytes =
        std::fs::read(path).map_err(|e| TrainError::Io(path.to_path_buf(), e.to_string()))?;
    restore(&bytes, t).map_err(|why| TrainError::Checkpoint(path.to_path_buf(), why))
}

/// A network of `game` and `shape` from a checkpoint's bytes (for tools
/// that want the float weights of a run).
pub fn network(bytes: &[u8], game: Game, shape: Shape) -> Result<Network, String> {
    let mut t = Trainer::new(
        Network::random(game, shape, 0),
        crate::trainer::Hyper {
            batch: 1,
            ..Default::default()
        },
    );
    restore(bytes, &mut t)?;
    Ok(t.net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trainer::Hyper;

    #[test]
    fn round_trip_and_refusals() {
        let shape = Shape {
            hidden: 8,
            buckets: 2,
            ..Shape::DEFAULT
        };
        let hyper = Hyper {
            batch: 4,
            ..Default::default()
        };
        let mut a = Trainer::new(Network::random(Game::Xiangqi, shape, 1), hyper);
        a.m[3] = 0.5;
        a.v[7] = 0.25;
        a.step = 9;
        let p = Progress {
            epochs: 3,
            best: 0.125,
        };
        let bytes = encode(&a, p);
        let mut b = Trainer::new(Network::random(Game::Xiangqi, shape, 2), hyper);
        assert_eq!(restore(&bytes, &mut b), Ok(p));
        assert_eq!((&b.net, &b.m, &b.v, b.step), (&a.net, &a.m, &a.v, a.step));
        let mut c = Trainer::new(Network::random(Game::Janggi, shape, 2), hyper);
        assert!(restore(&bytes, &mut c).is_err());
        let mut bad = bytes.clone();
        bad[60] ^= 1;
        assert!(restore(&bad, &mut b).is_err());
        assert!(restore(&bytes[..30], &mut b).is_err());
        // The input set is part of the shape: a bucketed run resumes its
        // own checkpoints (factor moments included) and no plain one.
        let bucketed = Shape {
            inputs: nnue::InputSet::GeneralBuckets,
            ..shape
        };
        let mut d = Trainer::new(Network::random(Game::Xiangqi, bucketed, 1), hyper);
        assert!(restore(&bytes, &mut d).is_err());
        if let Some(x) = d.fm.last_mut() {
            *x = 0.75;
        }
        let bytes = encode(&d, p);
        let mut e = Trainer::new(Network::random(Game::Xiangqi, bucketed, 2), hyper);
        assert_eq!(restore(&bytes, &mut e), Ok(p));
        assert_eq!((&e.net, &e.fm, &e.fv), (&d.net, &d.fm, &d.fv));
        assert!(restore(&bytes, &mut b).is_err());
    }
}
