//! The trainer's side of docs/NNUE.md, "Quantisation": float weights
//! rounded into the engine's integers, and back. The file format, its
//! checks and the integer evaluation are the engine's (`nnue::Network`);
//! the trainer writes and reads network files through it only.

use std::path::Path;

use nnue::{QA, QB};

use crate::network::{Network, Shape};
use crate::{Game, TrainError};

/// `round(x × q)` saturated into an i16 (the trainer's clipping keeps it
/// inside; saturation only guards a network that was not clipped).
fn q16(x: f32, q: i32) -> i16 {
    (x * q as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The engine's network of a float network: `W1`, `b1` times `QA`, `W2`
/// times `QB`, `b2` times `QA × QB`, each rounded to the nearest integer.
/// `None` when the shape is one the file format does not allow.
pub fn quantise(net: &Network) -> Option<nnue::Network> {
    nnue::Network::from_weights(
        net.game,
        net.shape.arch(),
        net.w1().iter().map(|&w| q16(w, QA)).collect(),
        net.b1().iter().map(|&w| q16(w, QA)).collect(),
        net.w2().iter().map(|&w| q16(w, QB)).collect(),
        net.b2()
            .iter()
            .map(|&w| (f64::from(w) * f64::from(QA * QB)).round() as i32)
            .collect(),
    )
}

/// The float network of an engine's network (each weight divided by its
/// scale): what the engine's integer evaluation computes up to its two
/// integer divisions, so it separates the error of the integer arithmetic
/// from the error of the weights' rounding.
pub fn dequantise(net: &nnue::Network) -> Network {
    let (qa, qb) = (QA as f32, QB as f32);
    let (w1, b1, w2, b2) = net.weights();
    let params = (w1.iter().chain(b1).map(|&w| f32::from(w) / qa))
        .chain(w2.iter().map(|&w| f32::from(w) / qb))
        .chain(b2.iter().map(|&w| w as f32 / (qa * qb)))
        .collect();
    Network {
        game: net.game(),
        shape: Shape::of_arch(net.arch()),
        params,
    }
}

/// Read a network file of `game` with the engine's reader (and its
/// checks): what the engine's `EvalFile` would load.
pub fn read_network(path: &Path, game: Game) -> Result<nnue::Network, TrainError> {
    let bytes =
        std::fs::read(path).map_err(|e| TrainError::Io(path.to_path_buf(), e.to_string()))?;
    nnue::Network::from_bytes_for(&bytes, game)
        .map_err(|e| TrainError::Network(path.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Network {
        Network::random(
            Game::Janggi,
            Shape {
                hidden: 16,
                buckets: 2,
                ..Shape::DEFAULT
            },
            3,
        )
    }

    #[test]
    fn quantised_weights_survive_the_file() {
        let q = quantise(&small());
        assert!(q.is_some());
        let Some(q) = q else { return };
        let back = nnue::Network::from_bytes_for(&q.to_bytes(), Game::Janggi);
        assert_eq!(back.as_ref(), Ok(&q));
        // Dequantised and quantised again: the same integers.
        assert_eq!(quantise(&dequantise(&q)), Some(q));
    }

    #[test]
    fn bad_files_are_typed_errors() {
        let dir = std::env::temp_dir().join(format!("jiang-train-quant-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("net.jnn");
        let bytes = quantise(&small()).map(|q| q.to_bytes()).unwrap_or_default();
        let _ = std::fs::write(&path, &bytes[..bytes.len() - 1]);
        assert!(matches!(
            read_network(&path, Game::Janggi),
            Err(TrainError::Network(_, nnue::LoadError::Truncated { .. }))
        ));
        let _ = std::fs::write(&path, &bytes);
        assert!(read_network(&path, Game::Janggi).is_ok());
        assert!(matches!(
            read_network(&path, Game::Xiangqi),
            Err(TrainError::Network(_, nnue::LoadError::WrongGame { .. }))
        ));
        assert!(matches!(
            read_network(&dir.join("none.jnn"), Game::Janggi),
            Err(TrainError::Io(..))
        ));
        let _ = std::fs::remove_dir_all(dir);
    }
}
