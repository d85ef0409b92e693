//! The quantised network file of docs/NNUE.md ("Quantisation", "File
//! format"): the writer, a reader with typed errors, and the integer
//! evaluation the engine computes, as the trainer's reference of it.

use std::fmt;

use movegen::{Color, Piece};

use crate::features::{active, bucket, INPUTS, OTHER};
use crate::network::{Network, Shape, QA, QB, SCALE};
use crate::Game;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"JNNU";
/// The format version written and read.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before `W1`: magic, version, game, hash, `H`, `B`.
const HEADER: usize = 24;

/// FNV-1a, 32 bits.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The architecture hash of a shape: FNV-1a of
/// `jiang-nnue-v1 1260x{H}x2x{B} screlu qa255 qb64 s400`.
pub fn architecture_hash(shape: Shape) -> u32 {
    let text = format!(
        "jiang-nnue-v1 {INPUTS}x{}x2x{} screlu qa{QA} qb{QB} s{}",
        shape.hidden, shape.buckets, SCALE as i32
    );
    fnv1a(text.as_bytes())
}

/// The size in bytes of the file of a shape.
pub fn file_size(shape: Shape) -> usize {
    let h = shape.hidden;
    let b = shape.buckets;
    HEADER + 2 * INPUTS * h + 2 * h + 2 * b * 2 * h + 4 * b + 4
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than a header, or not the size its header says.
    Size {
        /// The file's size.
        got: usize,
        /// The size it should have (0 when the header is cut short).
        expected: usize,
    },
    /// Not `JNNU`.
    Magic,
    /// Another format version.
    Version(u32),
    /// A game code other than 0 and 1.
    Game(u32),
    /// `H` or `B` outside what the format allows.
    Shape(u32, u32),
    /// The architecture hash does not match `H` and `B`.
    Hash,
    /// The checksum does not match the bytes.
    Checksum,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Size { got, expected: 0 } => {
                write!(f, "{got} bytes: too short for a network header")
            }
            FormatError::Size { got, expected } => {
                write!(f, "{got} bytes, the header's network has {expected}")
            }
            FormatError::Magic => write!(f, "not a Jiang network (no JNNU magic)"),
            FormatError::Version(v) => write!(f, "format version {v}, expected {FORMAT_VERSION}"),
            FormatError::Game(g) => write!(f, "unknown game code {g}"),
            FormatError::Shape(h, b) => write!(
                f,
                "hidden size {h} or bucket count {b} not allowed (8..=2048 in steps of 8; 1..=16)"
            ),
            FormatError::Hash => write!(f, "architecture hash does not match"),
            FormatError::Checksum => write!(f, "checksum does not match (damaged file)"),
        }
    }
}

impl std::error::Error for FormatError {}

/// A network in the engine's integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNetwork {
    /// The game it evaluates.
    pub game: Game,
    /// Its sizes.
    pub shape: Shape,
    /// `W1`, feature-major, `round(w × QA)`.
    pub w1: Vec<i16>,
    /// `b1`, `round(b × QA)`.
    pub b1: Vec<i16>,
    /// `W2`, bucket-major, `round(w × QB)`.
    pub w2: Vec<i16>,
    /// `b2`, `round(b × QA × QB)`.
    pub b2: Vec<i32>,
}

/// `round(x × q)` saturated into an i16 (the trainer's clipping keeps it
/// inside; saturation only guards a network that was not clipped).
fn q16(x: f32, q: i32) -> i16 {
    (x * q as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

impl QuantNetwork {
    /// Quantise a float network.
    pub fn from_float(net: &Network) -> QuantNetwork {
        QuantNetwork {
            game: net.game,
            shape: net.shape,
            w1: net.w1().iter().map(|&w| q16(w, QA)).collect(),
            b1: net.b1().iter().map(|&w| q16(w, QA)).collect(),
            w2: net.w2().iter().map(|&w| q16(w, QB)).collect(),
            b2: net
                .b2()
                .iter()
                .map(|&w| (f64::from(w) * f64::from(QA * QB)).round() as i32)
                .collect(),
        }
    }

    /// The float network of these integers (each weight divided by its
    /// scale): what the integer evaluation computes up to its rounding
    /// and clamping, so it separates the error of the integer arithmetic
    /// from the error of the weights' quantisation.
    pub fn to_float(&self) -> Network {
        let qa = QA as f32;
        let qb = QB as f32;
        let params = (self.w1.iter().chain(&self.b1).map(|&w| f32::from(w) / qa))
            .chain(self.w2.iter().map(|&w| f32::from(w) / qb))
            .chain(self.b2.iter().map(|&w| w as f32 / (qa * qb)))
            .collect();
        Network {
            game: self.game,
            shape: self.shape,
            params,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(self.shape));
        out.extend_from_slice(&MAGIC);
        for x in [
            FORMAT_VERSION,
            self.game.code(),
            architecture_hash(self.shape),
            self.shape.hidden as u32,
            self.shape.buckets as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in &self.b2 {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a file's bytes, checking everything the document asks.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNetwork, FormatError> {
        if bytes.len() < HEADER {
            return Err(FormatError::Size {
                got: bytes.len(),
                expected: 0,
            });
        }
        if bytes[..4] != MAGIC {
            return Err(FormatError::Magic);
        }
        let version = u32_at(bytes, 4);
        if version != FORMAT_VERSION {
            return Err(FormatError::Version(version));
        }
        let game = Game::from_code(u32_at(bytes, 8)).ok_or(FormatError::Game(u32_at(bytes, 8)))?;
        let (h, b) = (u32_at(bytes, 16), u32_at(bytes, 20));
        let shape = Shape {
            hidden: h as usize,
            buckets: b as usize,
        };
        if !shape.is_valid() {
            return Err(FormatError::Shape(h, b));
        }
        if u32_at(bytes, 12) != architecture_hash(shape) {
            return Err(FormatError::Hash);
        }
        let expected = file_size(shape);
        if bytes.len() != expected {
            return Err(FormatError::Size {
                got: bytes.len(),
                expected,
            });
        }
        let body = expected - 4;
        if fnv1a(&bytes[..body]) != u32_at(bytes, body) {
            return Err(FormatError::Checksum);
        }
        let mut at = HEADER;
        let mut i16s = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w1 = i16s(INPUTS * shape.hidden);
        let b1 = i16s(shape.hidden);
        let w2 = i16s(2 * shape.hidden * shape.buckets);
        let start = body - 4 * shape.buckets;
        let b2 = bytes[start..body]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(QuantNetwork {
            game,
            shape,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The i16 accumulator of a perspective: `b1 + Σ W1[f]`. Wrapping
    /// adds, as an i16 accumulator wraps (clipping keeps real networks far
    /// from it), so the order of the features does not matter.
    pub fn accumulate(&self, features: impl Iterator<Item = u16>) -> Vec<i16> {
        let h = self.shape.hidden;
        let mut acc = self.b1.clone();
        for f in features {
            let row = &self.w1[usize::from(f) * h..][..h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        acc
    }

    /// The integer evaluation in centipawns, side to move's view:
    /// `s = Σ clamp(acc, 0, QA)² · W2`, `s = s / QA + b2`,
    /// `cp = s × SCALE / (QA × QB)`, divisions toward zero.
    pub fn evaluate(&self, board: &[Option<Piece>; 90], stm: Color) -> i32 {
        let (features, n) = active(board, stm);
        let feats = &features[..n];
        let acc_stm = self.accumulate(feats.iter().copied());
        let acc_other = self.accumulate(feats.iter().map(|&f| OTHER[usize::from(f)]));
        let h = self.shape.hidden;
        let b = bucket(n, self.shape.buckets);
        let w2 = &self.w2[b * 2 * h..][..2 * h];
        let mut s: i64 = 0;
        for (a, w) in acc_stm.iter().chain(&acc_other).zip(w2) {
            let c = i64::from((*a).clamp(0, QA as i16));
            s += c * c * i64::from(*w);
        }
        let s = s / i64::from(QA) + i64::from(self.b2[b]);
        (s * SCALE as i64 / i64::from(QA * QB)) as i32
    }
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
            },
            3,
        )
    }

    #[test]
    fn round_trip_and_size() {
        let q = QuantNetwork::from_float(&small());
        let bytes = q.to_bytes();
        assert_eq!(bytes.len(), file_size(q.shape));
        assert_eq!(QuantNetwork::from_bytes(&bytes), Ok(q));
    }

    #[test]
    fn every_damage_is_named() {
        let bytes = QuantNetwork::from_float(&small()).to_bytes();
        let read = |b: &[u8]| QuantNetwork::from_bytes(b).err();
        assert!(matches!(read(&bytes[..10]), Some(FormatError::Size { .. })));
        assert!(matches!(
            read(&bytes[..bytes.len() - 1]),
            Some(FormatError::Size { .. })
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(read(&long), Some(FormatError::Size { .. })));
        let patch = |i: usize, v: u8| {
            let mut b = bytes.clone();
            b[i] = v;
            b
        };
        assert_eq!(read(&patch(0, b'X')), Some(FormatError::Magic));
        assert_eq!(read(&patch(4, 2)), Some(FormatError::Version(2)));
        assert_eq!(read(&patch(8, 7)), Some(FormatError::Game(7)));
        assert_eq!(read(&patch(12, bytes[12] ^ 1)), Some(FormatError::Hash));
        assert_eq!(read(&patch(16, 12)), Some(FormatError::Shape(12, 2)));
        assert_eq!(read(&patch(20, 17)), Some(FormatError::Shape(16, 17)));
        assert_eq!(
            read(&patch(100, bytes[100] ^ 1)),
            Some(FormatError::Checksum)
        );
    }

    #[test]
    fn the_hash_is_fnv1a_of_the_documented_text() {
        // FNV-1a 32 of "a" is 0xe40c292c (the algorithm's test vector).
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        let shape = Shape {
            hidden: 256,
            buckets: 8,
        };
        assert_eq!(
            architecture_hash(shape),
            fnv1a(b"jiang-nnue-v1 1260x256x2x8 screlu qa255 qb64 s400")
        );
    }
}
