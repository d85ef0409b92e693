//! The network's weights, its file format (`docs/NNUE.md`, File format)
//! and the output layer.
//!
//! A file is trusted in nothing: every header field is checked before any
//! size is computed from it, the length must be exact and the checksum
//! must match, and a rejected file never produces a [`Network`].

use std::fmt;

use movegen::{Color, Game, Position};

use crate::accumulator::Accumulator;
use crate::simd::{self, Isa};
use crate::{
    architecture_hash, bucket, fnv1a32, game_code, game_from_code, game_name, piece_count, Arch,
    InputSet, BUCKET_RANGE, HIDDEN_RANGE, HIDDEN_STEP, MAGIC, QA, QB, SCALE, VERSION,
    VERSION_PLAIN,
};

/// Bytes of a version 1 header: magic, version, game, hash, `H`, `B`.
pub const HEADER_BYTES: usize = 24;
/// Bytes of a version 2 header: version 1's and the input set.
pub const HEADER_BYTES_V2: usize = 28;
/// Bytes of the closing checksum.
const CHECKSUM_BYTES: usize = 4;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file is shorter than its header says it must be.
    Truncated {
        /// Bytes the file has.
        len: usize,
        /// Bytes it should have (the header's size while the header
        /// itself is incomplete).
        expected: usize,
    },
    /// The file is longer than its header says.
    TrailingBytes {
        /// Bytes the file has.
        len: usize,
        /// Bytes it should have.
        expected: usize,
    },
    /// The first four bytes are not `JNNU`.
    BadMagic,
    /// A format version this engine does not read.
    BadVersion(u32),
    /// A game code other than 0 (Xiangqi) or 1 (Janggi).
    BadGame(u32),
    /// A network for the other game than the one asked for.
    WrongGame {
        /// The game the network was wanted for.
        expected: Game,
        /// The game the file is for.
        found: Game,
    },
    /// A hidden size outside 8..=2048 or not a multiple of 8.
    BadHidden(u32),
    /// A bucket count outside 1..=16.
    BadBuckets(u32),
    /// An input-set code (format version 2) other than 0 (plain) or 1
    /// (general buckets).
    BadInputSet(u32),
    /// The architecture hash does not match this engine's architecture
    /// with the header's sizes.
    BadArchitecture {
        /// The hash this engine computes.
        expected: u32,
        /// The hash in the file.
        found: u32,
    },
    /// The checksum does not match the bytes (a damaged file).
    BadChecksum {
        /// The checksum of the bytes.
        expected: u32,
        /// The checksum in the file.
        found: u32,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Truncated { len, expected } => {
                write!(f, "truncated network: {len} bytes, expected {expected}")
            }
            LoadError::TrailingBytes { len, expected } => {
                write!(f, "network file too long: {len} bytes, expected {expected}")
            }
            LoadError::BadMagic => f.write_str("not a Jiang network (bad magic)"),
            LoadError::BadVersion(v) => {
                write!(
                    f,
                    "network format version {v}, this engine reads {VERSION_PLAIN} to {VERSION}"
                )
            }
            LoadError::BadGame(g) => write!(f, "network for unknown game code {g}"),
            LoadError::WrongGame { expected, found } => write!(
                f,
                "network is for {}, not {}",
                game_name(*found),
                game_name(*expected)
            ),
            LoadError::BadHidden(h) => write!(
                f,
                "network hidden size {h} is not a multiple of {HIDDEN_STEP} in {}..={}",
                HIDDEN_RANGE.start(),
                HIDDEN_RANGE.end()
            ),
            LoadError::BadBuckets(b) => write!(
                f,
                "network bucket count {b} is outside {}..={}",
                BUCKET_RANGE.start(),
                BUCKET_RANGE.end()
            ),
            LoadError::BadInputSet(c) => write!(
                f,
                "network input set {c} is unknown (0 plain, 1 general buckets)"
            ),
            LoadError::BadArchitecture { expected, found } => write!(
                f,
                "network architecture hash {found:08x} does not match {expected:08x}"
            ),
            LoadError::BadChecksum { expected, found } => write!(
                f,
                "network checksum {found:08x} does not match the data ({expected:08x}): damaged file"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// A quantised network (`docs/NNUE.md`): the feature transformer `W1`,
/// `b1` from its input set into `H` units per perspective and `B` output
/// buckets `W2`, `b2`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    game: Game,
    inputs: InputSet,
    hidden: usize,
    buckets: usize,
    /// `W1[feature][unit]`, feature-major.
    pub(crate) w1: Vec<i16>,
    /// `b1[unit]`.
    pub(crate) b1: Vec<i16>,
    /// `W2[bucket][2H]`: the side to move's half, then the other's.
    w2: Vec<i16>,
    /// `b2[bucket]`.
    b2: Vec<i32>,
    /// The instruction set the inner loops use on this machine.
    isa: Isa,
    /// Whether every output weight is within the vector dot product's
    /// bound ([`simd::VECTOR_W2_MAX`]).
    small_w2: bool,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = match self.inputs {
            InputSet::Plain => "",
            InputSet::GeneralBuckets => "general-buckets ",
        };
        write!(
            f,
            "Network({}, {set}{}x{}x2x{}, {})",
            game_name(self.game),
            self.inputs.inputs(),
            self.hidden,
            self.buckets,
            self.isa.name()
        )
    }
}

/// Reads little-endian fields from a byte slice whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut v = [0; N];
        if let Some(s) = self.bytes.get(self.at..self.at + N) {
            v.copy_from_slice(s);
        }
        self.at += N;
        v
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
}

/// The header's size in format `version` (1 or 2).
const fn header_bytes(version: u32) -> usize {
    if version == VERSION_PLAIN {
        HEADER_BYTES
    } else {
        HEADER_BYTES_V2
    }
}

/// The bytes after a header of version `version` (1 or 2): the weights
/// and the checksum.
fn file_size_in(arch: Arch, version: u32) -> usize {
    let Arch {
        inputs,
        hidden,
        buckets,
    } = arch;
    header_bytes(version)
        + 2 * inputs.inputs() * hidden
        + 2 * hidden
        + 2 * buckets * 2 * hidden
        + 4 * buckets
        + CHECKSUM_BYTES
}

/// The exact size of the file [`Network::to_bytes`] writes for `arch`
/// (in the version [`Arch::version`] names).
pub fn file_size(arch: Arch) -> usize {
    file_size_in(arch, arch.version())
}

impl Network {
    /// Read a network file. Every case `docs/NNUE.md` lists is refused
    /// with its [`LoadError`]; no input makes this panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, LoadError> {
        let len = bytes.len();
        if len < HEADER_BYTES {
            return Err(LoadError::Truncated {
                len,
                expected: HEADER_BYTES,
            });
        }
        let mut r = Reader { bytes, at: 0 };
        if r.take::<4>() != MAGIC {
            return Err(LoadError::BadMagic);
        }
        let version = r.u32();
        if version != VERSION_PLAIN && version != VERSION {
            return Err(LoadError::BadVersion(version));
        }
        let code = r.u32();
        let game = game_from_code(code).ok_or(LoadError::BadGame(code))?;
        let hash = r.u32();
        let (h, b) = (r.u32(), r.u32());
        // Version 1 has no input-set field: it is the plain set.
        let inputs = if version == VERSION_PLAIN {
            InputSet::Plain
        } else {
            if len < HEADER_BYTES_V2 {
                return Err(LoadError::Truncated {
                    len,
                    expected: HEADER_BYTES_V2,
                });
            }
            let code = r.u32();
            InputSet::from_code(code).ok_or(LoadError::BadInputSet(code))?
        };
        // Sizes are checked before anything is computed from them.
        let hidden = h as usize;
        if !HIDDEN_RANGE.contains(&hidden) || hidden % HIDDEN_STEP != 0 {
            return Err(LoadError::BadHidden(h));
        }
        let buckets = b as usize;
        if !BUCKET_RANGE.contains(&buckets) {
            return Err(LoadError::BadBuckets(b));
        }
        let arch = Arch {
            inputs,
            hidden,
            buckets,
        };
        let arch_hash = architecture_hash(arch);
        if hash != arch_hash {
            return Err(LoadError::BadArchitecture {
                expected: arch_hash,
                found: hash,
            });
        }
        let expected = file_size_in(arch, version);
        if len < expected {
            return Err(LoadError::Truncated { len, expected });
        }
        if len > expected {
            return Err(LoadError::TrailingBytes { len, expected });
        }
        let body = &bytes[..len - CHECKSUM_BYTES];
        let sum = fnv1a32(body);
        let mut tail = Reader {
            bytes,
            at: len - CHECKSUM_BYTES,
        };
        let found = tail.u32();
        if found != sum {
            return Err(LoadError::BadChecksum {
                expected: sum,
                found,
            });
        }
        let w1 = r.i16s(inputs.inputs() * hidden);
        let b1 = r.i16s(hidden);
        let w2 = r.i16s(buckets * 2 * hidden);
        let b2 = r.i32s(buckets);
        // The sizes were checked above, so this always succeeds.
        Network::from_weights(game, arch, w1, b1, w2, b2)
            .ok_or(LoadError::Truncated { len, expected })
    }

    /// The instruction set this network's inner loops use here.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// This network evaluated with the inner loops of `isa` (one of
    /// [`Isa::supported`]): for the benchmarks and the tests that compare
    /// the paths; every path gives the same values.
    pub fn with_isa(mut self, isa: Isa) -> Network {
        self.isa = isa;
        self
    }

    /// [`Network::from_bytes`] for a network that must be for `game`.
    pub fn from_bytes_for(bytes: &[u8], game: Game) -> Result<Network, LoadError> {
        let net = Network::from_bytes(bytes)?;
        if net.game != game {
            return Err(LoadError::WrongGame {
                expected: game,
                found: net.game,
            });
        }
        Ok(net)
    }

    /// The checksum that closes the network's file: a short name for the
    /// weights (training data records which network played its games).
    pub fn checksum(&self) -> u32 {
        let bytes = self.to_bytes();
        let mut tail = Reader {
            bytes: &bytes,
            at: bytes.len() - CHECKSUM_BYTES,
        };
        tail.u32()
    }

    /// The network as a file (`docs/NNUE.md`, File format): version 1
    /// for the plain set, version 2 with its input-set field otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        let arch = self.arch();
        let mut v = Vec::with_capacity(file_size(arch));
        v.extend_from_slice(&MAGIC);
        for x in [
            arch.version(),
            game_code(self.game),
            architecture_hash(arch),
            self.hidden as u32,
            self.buckets as u32,
        ] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        if arch.version() != VERSION_PLAIN {
            v.extend_from_slice(&self.inputs.code().to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            v.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a32(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// A network of `arch` from its quantised weights, laid out as in
    /// the file (`w1` feature-major `[inputs][hidden]`, `w2`
    /// `[buckets][2·hidden]`); `None` when a size is outside the file's
    /// limits or a slice has the wrong length.
    pub fn from_weights(
        game: Game,
        arch: Arch,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Option<Network> {
        let Arch {
            inputs,
            hidden,
            buckets,
        } = arch;
        let ok = arch.sizes_ok()
            && w1.len() == inputs.inputs() * hidden
            && b1.len() == hidden
            && w2.len() == buckets * 2 * hidden
            && b2.len() == buckets;
        if !ok {
            return None;
        }
        let small_w2 = w2
            .iter()
            .all(|w| w.unsigned_abs() <= simd::VECTOR_W2_MAX as u16);
        Some(Network {
            game,
            inputs,
            hidden,
            buckets,
            w1,
            b1,
            w2,
            b2,
            isa: Isa::detected(),
            small_w2,
        })
    }

    /// A plain network of small random weights from `seed`, for tests
    /// and speed measurements only: it plays nothing well.
    pub fn random(game: Game, hidden: usize, buckets: usize, seed: u64) -> Option<Network> {
        Network::random_of(game, Arch::plain(hidden, buckets), seed)
    }

    /// [`Network::random`] of any architecture.
    pub fn random_of(game: Game, arch: Arch, seed: u64) -> Option<Network> {
        let Arch {
            inputs,
            hidden,
            buckets,
        } = arch;
        let mut rng = movegen::SplitMix64::new(seed);
        let mut next = move |range: i32| (rng.next_u64() % (2 * range as u64 + 1)) as i32 - range;
        // Feature weights of ±0.25 and biases around 0.3 keep most units
        // between the clamps, so the evaluation depends on every input.
        let w1 = (0..inputs.inputs() * hidden)
            .map(|_| next(64) as i16)
            .collect();
        let b1 = (0..hidden).map(|_| (next(64) + 80) as i16).collect();
        let w2 = (0..buckets * 2 * hidden).map(|_| next(96) as i16).collect();
        let b2 = (0..buckets).map(|_| next(QA * QB / 4)).collect();
        Network::from_weights(game, arch, w1, b1, w2, b2)
    }

    /// The game this network evaluates.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The input set its file declares.
    pub fn inputs(&self) -> InputSet {
        self.inputs
    }

    /// Its input set and sizes.
    pub fn arch(&self) -> Arch {
        Arch {
            inputs: self.inputs,
            hidden: self.hidden,
            buckets: self.buckets,
        }
    }

    /// Hidden units per perspective (`H`).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (`B`).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The quantised weights, laid out as in the file: `W1`
    /// (feature-major), `b1`, `W2` (bucket-major, the side to move's half
    /// first) and `b2`. The trainer reads them back to check its float
    /// network against this one.
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.w1, &self.b1, &self.w2, &self.b2)
    }

    /// `W1`'s row of feature `f` (`H` weights).
    #[inline(always)]
    pub(crate) fn feature_weights(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The evaluation in centipawns for the side to move from the
    /// accumulator halves of the side to move (`us`) and the other side
    /// (`them`), on a board with `pieces` pieces (`docs/NNUE.md`,
    /// Quantisation). The exact integer formula, so the trainer's check
    /// can reproduce it; a hostile network can give any value, which the
    /// caller clamps.
    #[inline]
    pub fn evaluate_halves(&self, us: &[i16], them: &[i16], pieces: usize) -> i32 {
        let h = self.hidden;
        let b = bucket(pieces, self.buckets);
        let w = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let (w_us, w_them) = w.split_at(h);
        let dot = |a, w| simd::screlu_dot(self.isa, a, w, self.small_w2);
        let sum = dot(us, w_us) + dot(them, w_them);
        let s = sum / i64::from(QA) + i64::from(self.b2[b]);
        let cp = s * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The evaluation of `acc` (of a position with `pieces` pieces and
    /// `stm` to move).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color, pieces: usize) -> i32 {
        let (us, them) = acc.halves(stm);
        self.evaluate_halves(us, them, pieces)
    }

    /// The evaluation of a position from scratch (a full refresh).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let acc = Accumulator::refresh(self, pos);
        self.evaluate(&acc, pos.side_to_move(), piece_count(pos))
    }
}
