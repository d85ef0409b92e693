//! Training positions in memory: each record of the `jiang datagen` files
//! turned once into its side-to-move plain features (u16 indices from
//! `nnue::active_features`; the other perspective's follow by
//! `nnue::other_perspective`), both generals' points (which give the
//! general-bucketed inputs, `nnue::View`), its score and its result, and
//! split into training and validation sets by game.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use data::{Flags, Reader, Record};
use movegen::{Color, Piece, PieceKind, Square};
use nnue::{InputSet, View};

use crate::{Game, TrainError};

/// Most pieces on a board of either game, so most active features of one
/// perspective (the size of a sample's feature list).
pub const MAX_ACTIVE: usize = 32;

/// A general's point in [`Sample::generals`] when it has none.
pub const NO_GENERAL: u8 = 90;

/// One position, compact (70 bytes): what the trainer needs of a record,
/// for either input set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Active plain features from the side to move's perspective; the
    /// first `count` are used.
    pub features: [u16; MAX_ACTIVE],
    /// The side to move's and the other side's own general, each as its
    /// own perspective sees it (`nnue::inputs::perspective_point`;
    /// [`NO_GENERAL`]: none): all the general-bucketed inputs need beyond
    /// the plain features.
    pub generals: [u8; 2],
    /// How many features: the pieces on the board, which is also the
    /// piece count that chooses the output bucket (`nnue::bucket`).
    pub count: u8,
    /// The game's result for the side to move in halves: 2 win, 1 draw,
    /// 0 loss.
    pub result: u8,
    /// The search score, side to move's view, centipawns.
    pub score: i16,
}

impl Sample {
    /// The sample of a board with `stm` to move, searched to `score`, in
    /// a game the side to move scored `result` (0, ½ or 1: halves are
    /// rounded). Pieces beyond [`MAX_ACTIVE`], which no position of
    /// either game has, are left out.
    pub fn new(board: &[Option<Piece>; 90], stm: Color, score: i16, result: f64) -> Sample {
        let mut features = [0u16; MAX_ACTIVE];
        let mut count = 0;
        for (slot, f) in features.iter_mut().zip(nnue::active_features(board, stm)) {
            // Below nnue::INPUTS (1260), so a u16 holds it.
            *slot = f as u16;
            count += 1;
        }
        let general = |c: Color| {
            let g = Piece::new(c, PieceKind::General);
            Square::all()
                .zip(board)
                .find_map(|(s, p)| (*p == Some(g)).then_some(s))
                .map_or(NO_GENERAL, |s| nnue::inputs::perspective_point(c, s) as u8)
        };
        Sample {
            features,
            generals: [general(stm), general(!stm)],
            count,
            result: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            score,
        }
    }

    /// The sample of a record.
    pub fn from_record(r: &Record) -> Sample {
        Sample::new(
            &r.board,
            r.side_to_move,
            r.score,
            r.result_for_side_to_move(),
        )
    }

    /// The side to move's features.
    pub fn stm(&self) -> &[u16] {
        &self.features[..usize::from(self.count)]
    }

    /// The other side's features, written into `out`.
    pub fn other<'a>(&self, out: &'a mut [u16; MAX_ACTIVE]) -> &'a [u16] {
        let n = usize::from(self.count);
        for (o, &f) in out.iter_mut().zip(&self.features[..n]) {
            *o = nnue::other_perspective(usize::from(f)) as u16;
        }
        &out[..n]
    }

    /// The input indices of both perspectives under `inputs`, the side to
    /// move's first, written into the buffers where they differ from the
    /// stored plain features.
    pub fn active<'a>(
        &'a self,
        inputs: InputSet,
        stm: &'a mut [u16; MAX_ACTIVE],
        other: &'a mut [u16; MAX_ACTIVE],
    ) -> (&'a [u16], &'a [u16]) {
        let n = usize::from(self.count);
        if inputs == InputSet::Plain {
            return (self.stm(), self.other(other));
        }
        let view = |g: u8| View::of_general((g != NO_GENERAL).then_some(usize::from(g)));
        let (vs, vo) = (view(self.generals[0]), view(self.generals[1]));
        for ((s, o), &f) in stm.iter_mut().zip(other.iter_mut()).zip(self.stm()) {
            let f = usize::from(f);
            // Below 6 × 1260 = 7560, so a u16 holds them.
            *s = vs.apply(f) as u16;
            *o = vo.apply(nnue::other_perspective(f)) as u16;
        }
        (&stm[..n], &other[..n])
    }

    /// The training target: `λ·r + (1 − λ)·σ(score / K)`.
    pub fn target(&self, lambda: f32, k: f32) -> f32 {
        let r = f32::from(self.result) / 2.0;
        lambda * r + (1.0 - lambda) * sigmoid(f32::from(self.score) / k)
    }
}

/// `1 / (1 + e^(−x))`.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Which records become samples and which game goes to validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Every `holdout`-th game goes to the validation set (0: none).
    pub holdout: usize,
    /// Keep positions in check, with a capture as best move or with a
    /// mate score (skipped by default: their score is not the static
    /// value the network is asked for).
    pub keep_noisy: bool,
}

/// The positions of a run.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The game of every position.
    pub game: Game,
    /// The training positions, in file order.
    pub train: Vec<Sample>,
    /// The held-out positions, in file order.
    pub valid: Vec<Sample>,
    /// Games read.
    pub games: usize,
    /// Records read but not kept (noisy).
    pub skipped: usize,
}

/// Whether a record is noisy: in check, a capture as best move or a mate
/// score.
fn noisy(r: &Record) -> bool {
    r.flags
        .intersects(Flags::IN_CHECK | Flags::CAPTURE | Flags::MATE)
}

/// Read the files, in order, into one data set. All their records must be
/// of one game (the Janggi rule sets are one game).
pub fn load(paths: &[PathBuf], opts: LoadOptions) -> Result<Dataset, TrainError> {
    let mut set = Dataset {
        game: Game::Xiangqi,
        train: Vec::new(),
        valid: Vec::new(),
        games: 0,
        skipped: 0,
    };
    let mut first: Option<(Game, &Path)> = None;
    for path in paths {
        let file = File::open(path).map_err(|e| TrainError::Io(path.clone(), e.to_string()))?;
        // The game of the previous record and whether it was its last: a
        // new game starts when either changes (game numbers of different
        // files or shards may repeat).
        let mut prev: Option<(u64, bool)> = None;
        for r in Reader::new(BufReader::with_capacity(1 << 20, file)) {
            let r = r.map_err(|e| TrainError::Data(path.clone(), e))?;
            let game = r.variant.game();
            match first {
                None => first = Some((game, path)),
                Some((g, p)) if g != game => {
                    return Err(TrainError::MixedGames {
                        first: (g, p.to_path_buf()),
                        then: (game, path.clone()),
                    })
                }
                Some(_) => {}
            }
            if prev != Some((r.game, false)) {
                set.games += 1;
            }
            prev = Some((r.game, r.is_last()));
            if !opts.keep_noisy && noisy(&r) {
                set.skipped += 1;
                continue;
            }
            let held = opts.holdout > 0 && set.games % opts.holdout == 0;
            let s = Sample::from_record(&r);
            if held {
                set.valid.push(s);
            } else {
                set.train.push(s);
            }
        }
    }
    set.game = first.map_or(Game::Xiangqi, |(g, _)| g);
    if set.train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Position, Variant};

    #[test]
    fn samples_hold_features_result_and_target() {
        let pos = Position::startpos(Variant::Janggi);
        let s = Sample::new(pos.board(), Color::Black, 200, 1.0);
        assert_eq!((s.count, s.result, s.score), (32, 2, 200));
        let mut buf = [0; MAX_ACTIVE];
        let other: Vec<u16> = s.other(&mut buf).to_vec();
        let red: Vec<u16> = nnue::active_features(pos.board(), Color::Red)
            .map(|f| f as u16)
            .collect();
        assert_eq!(other, red);
        assert!((s.target(1.0, 400.0) - 1.0).abs() < 1e-6);
        assert!((s.target(0.0, 400.0) - sigmoid(0.5)).abs() < 1e-6);
        assert_eq!(std::mem::size_of::<Sample>(), 70);
        // Both generals on the palace centre's file, Janggi's on their
        // second rank: bucket 3 for both, and the bucketed indices are the
        // plain ones plus 3 × 1260.
        assert_eq!(s.generals, [13, 13]);
        let (mut a, mut b) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        let (stm, oth) = s.active(InputSet::GeneralBuckets, &mut a, &mut b);
        assert!(stm.iter().zip(s.stm()).all(|(x, y)| *x == y + 3 * 1260));
        assert!(oth.iter().zip(&red).all(|(x, y)| *x == y + 3 * 1260));
    }
}

#[cfg(test)]
mod bucket_tests {
    use super::*;
    use movegen::{Position, Variant};

    /// A sample's bucketed features equal the engine's (`nnue::View`
    /// from the board) for both perspectives, on positions with the
    /// generals on many palace points and both sides to move.
    #[test]
    fn bucketed_features_match_the_engines_index() {
        let mut rng = movegen::SplitMix64::new(3);
        let mut seen = std::collections::HashSet::new();
        for variant in [Variant::Xiangqi, Variant::Janggi] {
            let mut pos = Position::startpos(variant);
            for _ in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    pos = Position::startpos(variant);
                    continue;
                }
                // General moves often, so that the points vary.
                let g = pos.general(pos.side_to_move());
                let mine: Vec<_> = moves.iter().filter(|m| m.from() == g).collect();
                let m = match mine.first() {
                    Some(&&m) if rng.next_u64() % 2 == 0 => m,
                    _ => moves[(rng.next_u64() % moves.len() as u64) as usize],
                };
                pos.make_move(m);
                let stm = pos.side_to_move();
                let s = Sample::new(pos.board(), stm, 0, 0.5);
                let (mut a, mut b) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
                let (got_s, got_o) = s.active(InputSet::GeneralBuckets, &mut a, &mut b);
                for (c, got) in [(stm, got_s), (!stm, got_o)] {
                    let view = InputSet::GeneralBuckets.view(pos.board(), c);
                    seen.insert((view.bucket(), view.mirrored()));
                    let mut want: Vec<u16> = Square::all()
                        .filter_map(|sq| pos.piece_at(sq).map(|p| view.index(c, p, sq) as u16))
                        .collect();
                    let mut got = got.to_vec();
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{}", pos.to_fen());
                }
            }
        }
        // Every bucket, mirrored and not (buckets of file d and f).
        assert!(seen.len() >= 9, "{seen:?}");
    }
}
