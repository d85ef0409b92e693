//! The input sets a network file may declare (`docs/NNUE.md`, Inputs):
//! the plain piece-square inputs, and the general-bucketed inputs, where
//! each perspective's own general chooses one of six copies of the plain
//! inputs and, right of the centre file, mirrors the board left–right.
//!
//! A perspective's [`View`] (its bucket and whether it mirrors) is all a
//! bucketed index needs beyond the plain one: [`View::apply`] turns a
//! plain index ([`feature_index`]) into the input index. The engine's
//! accumulators and the trainer both go through it, so the set is defined
//! once.

use movegen::{Color, Piece, PieceKind, Square};

use crate::{feature_index, INPUTS};

/// General buckets: the palace's files d and e (f is mirrored onto d) ×
/// its three ranks.
pub const GENERAL_BUCKETS: usize = 6;

/// Which inputs a network reads; a property of its file (`docs/NNUE.md`,
/// File format), never of the engine build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSet {
    /// The 1260 piece-square inputs ([`feature_index`]).
    Plain,
    /// [`GENERAL_BUCKETS`] × 1260 inputs: the own general's palace point,
    /// mirrored left–right, chooses the copy ([`View`]).
    GeneralBuckets,
}

impl InputSet {
    /// Every input set, in code order.
    pub const ALL: [InputSet; 2] = [InputSet::Plain, InputSet::GeneralBuckets];

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            InputSet::Plain => INPUTS,
            InputSet::GeneralBuckets => GENERAL_BUCKETS * INPUTS,
        }
    }

    /// The code of the file's input-set field (format version 2).
    pub const fn code(self) -> u32 {
        match self {
            InputSet::Plain => 0,
            InputSet::GeneralBuckets => 1,
        }
    }

    /// The input set of a file's code.
    pub const fn from_code(code: u32) -> Option<InputSet> {
        match code {
            0 => Some(InputSet::Plain),
            1 => Some(InputSet::GeneralBuckets),
            _ => None,
        }
    }

    /// The name in messages and on the trainer's command line.
    pub const fn name(self) -> &'static str {
        match self {
            InputSet::Plain => "plain",
            InputSet::GeneralBuckets => "general-buckets",
        }
    }

    /// The input set called `name` ([`InputSet::name`]).
    pub fn from_name(name: &str) -> Option<InputSet> {
        InputSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The view of `perspective` on `board` under this input set: always
    /// [`View::PLAIN`] for the plain set.
    pub fn view(self, board: &[Option<Piece>; 90], perspective: Color) -> View {
        match self {
            InputSet::Plain => View::PLAIN,
            InputSet::GeneralBuckets => {
                let general = Piece::new(perspective, PieceKind::General);
                let sq = Square::all()
                    .zip(board)
                    .find_map(|(s, p)| (*p == Some(general)).then_some(s));
                View::of_general(sq.map(|s| perspective_point(perspective, s)))
            }
        }
    }
}

/// The point of `sq` seen from `perspective`'s side: ranks flipped for
/// Black/Han, files unchanged (`docs/NNUE.md`, Inputs).
#[inline(always)]
pub const fn perspective_point(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    }
}

/// The plain index `f` with its point mirrored left–right (file
/// `x` → `8 − x`), side and kind kept. `f` must be below [`INPUTS`].
#[inline(always)]
pub const fn mirror_feature(f: usize) -> usize {
    let file = f % 90 % 9;
    f - file + (8 - file)
}

/// One perspective's view of the general-bucketed inputs: the bucket its
/// own general chooses and whether the board is mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    bucket: u8,
    mirror: bool,
}

impl View {
    /// The plain inputs' view: bucket 0, not mirrored (plain index =
    /// input index).
    pub const PLAIN: View = View {
        bucket: 0,
        mirror: false,
    };

    /// The view of a perspective whose own general stands on `point`
    /// ([`perspective_point`]), or has none (`None`, only after a Janggi
    /// general was taken): mirrored when the general is right of the
    /// centre file (file > 4), and bucket `2 · rank + (file' == 4)` with
    /// `file'` the mirrored file. Palace points give buckets 0..6 (d1 0,
    /// e1 1, d2 2, e2 3, d3 4, e3 5, from the perspective's side); points
    /// outside the palace, which no legal position has, fall into the
    /// nearest palace rank and file (a total function, no panic); no
    /// general gives [`View::PLAIN`].
    pub const fn of_general(point: Option<usize>) -> View {
        let Some(point) = point else {
            return View::PLAIN;
        };
        let (file, rank) = (point % 9, point / 9);
        let mirror = file > 4;
        let file = if mirror { 8 - file } else { file };
        let rank = if rank > 2 { 2 } else { rank };
        View {
            bucket: (2 * rank + (file == 4) as usize) as u8,
            mirror,
        }
    }

    /// The bucket, `0..GENERAL_BUCKETS`.
    pub const fn bucket(self) -> usize {
        self.bucket as usize
    }

    /// Whether this perspective's points are mirrored left–right.
    pub const fn mirrored(self) -> bool {
        self.mirror
    }

    /// The input index of the plain index `plain` (below [`INPUTS`]):
    /// `bucket × 1260 + plain`, with the point mirrored when the view
    /// mirrors.
    #[inline(always)]
    pub const fn apply(self, plain: usize) -> usize {
        let plain = if self.mirror {
            mirror_feature(plain)
        } else {
            plain
        };
        self.bucket as usize * INPUTS + plain
    }

    /// The input index of `piece` on `sq` from `perspective` under this
    /// view: [`View::apply`] of [`feature_index`].
    #[inline(always)]
    pub const fn index(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        self.apply(feature_index(perspective, piece, sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Position, Variant};

    fn sq(file: u8, rank: u8) -> Square {
        Square::from_coords(file, rank).unwrap_or_else(|| unreachable!())
    }

    #[test]
    fn palace_points_give_six_buckets_and_the_right_file_mirrors() {
        // (file, rank) from the perspective's side → (bucket, mirrored).
        let cases = [
            ((3, 0), (0, false)),
            ((4, 0), (1, false)),
            ((5, 0), (0, true)),
            ((3, 1), (2, false)),
            ((4, 1), (3, false)),
            ((5, 1), (2, true)),
            ((3, 2), (4, false)),
            ((4, 2), (5, false)),
            ((5, 2), (4, true)),
        ];
        for ((f, r), (b, m)) in cases {
            let v = View::of_general(Some(sq(f, r).index()));
            assert_eq!((v.bucket(), v.mirrored()), (b, m), "file {f} rank {r}");
        }
        assert_eq!(View::of_general(None), View::PLAIN);
        // Off-palace points (illegal) still give a bucket in range.
        for s in Square::all() {
            assert!(View::of_general(Some(s.index())).bucket() < GENERAL_BUCKETS);
        }
    }

    #[test]
    fn both_perspectives_see_their_own_general_from_their_side() {
        // Red's general on f1 (file 5, rank 0): bucket 0, mirrored; a Red
        // chariot on a1 then reads as on i1, in bucket 0.
        let mut board = [None; 90];
        let rg = Piece::new(Color::Red, PieceKind::General);
        let bg = Piece::new(Color::Black, PieceKind::General);
        let rc = Piece::new(Color::Red, PieceKind::Chariot);
        board[sq(5, 0).index()] = Some(rg);
        // Black's general on e9 (file 4, rank 8: its rank 1): bucket 3.
        board[sq(4, 8).index()] = Some(bg);
        board[sq(0, 0).index()] = Some(rc);
        let set = InputSet::GeneralBuckets;
        let red = set.view(&board, Color::Red);
        let black = set.view(&board, Color::Black);
        assert_eq!((red.bucket(), red.mirrored()), (0, true));
        assert_eq!((black.bucket(), black.mirrored()), (3, false));
        assert_eq!(
            red.index(Color::Red, rc, sq(0, 0)),
            feature_index(Color::Red, rc, sq(8, 0))
        );
        // From Black: the other side's chariot (side 1, kind 4) on a1
        // seen as a10 (point 81), in bucket 3.
        assert_eq!(
            black.index(Color::Black, rc, sq(0, 0)),
            3 * INPUTS + (7 + 4) * 90 + 81
        );
        // Black's general on d10 (its d1) and f10 (its f1).
        board[sq(4, 8).index()] = None;
        board[sq(3, 9).index()] = Some(bg);
        assert_eq!(set.view(&board, Color::Black), View::of_general(Some(3)));
        board[sq(3, 9).index()] = None;
        board[sq(5, 9).index()] = Some(bg);
        let v = set.view(&board, Color::Black);
        assert_eq!((v.bucket(), v.mirrored()), (0, true));
        // No general: the plain view; the plain set: always the plain view.
        board[sq(5, 9).index()] = None;
        assert_eq!(set.view(&board, Color::Black), View::PLAIN);
        assert_eq!(InputSet::Plain.view(&board, Color::Red), View::PLAIN);
    }

    #[test]
    fn start_positions_buckets() {
        // Xiangqi's generals start on e1/e10 (bucket 1), Janggi's on the
        // palace centre e2/e9 (bucket 3); neither mirrors.
        for (v, b) in [(Variant::Xiangqi, 1), (Variant::Janggi, 3)] {
            let pos = Position::startpos(v);
            for c in Color::BOTH {
                let view = InputSet::GeneralBuckets.view(pos.board(), c);
                assert_eq!((view.bucket(), view.mirrored()), (b, false));
            }
        }
    }

    #[test]
    fn indices_stay_in_range_and_mirroring_is_an_involution() {
        for f in 0..INPUTS {
            assert_eq!(mirror_feature(mirror_feature(f)), f);
            assert_eq!(mirror_feature(f) / 90, f / 90);
        }
        let set = InputSet::GeneralBuckets;
        for p in Square::all() {
            let v = View::of_general(Some(p.index()));
            for s in Square::all() {
                for c in Color::BOTH {
                    for k in PieceKind::ALL {
                        assert!(v.index(c, Piece::new(c, k), s) < set.inputs());
                    }
                }
            }
        }
        for s in InputSet::ALL {
            assert_eq!(InputSet::from_code(s.code()), Some(s));
            assert_eq!(InputSet::from_name(s.name()), Some(s));
        }
        assert_eq!(InputSet::from_code(2), None);
    }
}
