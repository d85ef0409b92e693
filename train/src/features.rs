//! The network's inputs (docs/NNUE.md, "Inputs"): the active features of
//! a board from one perspective, the other perspective's index of a
//! feature, and the output bucket.

use movegen::{Color, Piece, Square};

/// Inputs per perspective: 2 sides × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * 90;
/// Most pieces on a board of either game, so most active features of one
/// perspective.
pub const MAX_ACTIVE: usize = 32;

/// The index of `piece` on `sq` seen from `perspective`:
/// `(side * 7 + kind) * 90 + point`, the board flipped top-bottom for the
/// second player so that rank 0 is always the perspective's back rank.
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> u16 {
    let side = usize::from(piece.color() != perspective);
    let kind = piece.kind().index() - 1;
    let point = match perspective {
        Color::Red => sq.raw(),
        Color::Black => sq.flip_rank().raw(),
    };
    ((side * 7 + kind) * 90 + usize::from(point)) as u16
}

/// The same piece on the same point seen from the other perspective: the
/// side swaps and the board flips top-bottom (flipping twice is the
/// identity, so one table serves both directions).
const fn other_table() -> [u16; INPUTS] {
    let mut t = [0u16; INPUTS];
    let mut f = 0;
    while f < INPUTS {
        let side = f / (7 * 90);
        let kind = (f / 90) % 7;
        let point = f % 90;
        let flipped = (9 - point / 9) * 9 + point % 9;
        t[f] = (((1 - side) * 7 + kind) * 90 + flipped) as u16;
        f += 1;
    }
    t
}

/// [`other_table`], computed at compile time.
pub static OTHER: [u16; INPUTS] = other_table();

/// The active features of `board` from `perspective`, in point order;
/// how many there are (at most [`MAX_ACTIVE`]; further pieces, which no
/// position of either game has, are ignored).
pub fn active(board: &[Option<Piece>; 90], perspective: Color) -> ([u16; MAX_ACTIVE], usize) {
    let mut out = [0u16; MAX_ACTIVE];
    let mut n = 0;
    for (sq, p) in Square::all().zip(board.iter()) {
        let Some(p) = p else { continue };
        if n == MAX_ACTIVE {
            break;
        }
        out[n] = feature(perspective, *p, sq);
        n += 1;
    }
    (out, n)
}

/// The output bucket of a board with `pieces` pieces (generals included)
/// for `buckets` buckets: `min(B − 1, (pieces − 2) · B / 31)`.
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{PieceKind, Position, Variant};

    #[test]
    fn the_other_perspective_swaps_side_and_flips_the_board() {
        for sq in Square::all() {
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    let p = Piece::new(c, k);
                    let red = feature(Color::Red, p, sq);
                    let black = feature(Color::Black, p, sq);
                    assert!(usize::from(red) < INPUTS);
                    assert_eq!(OTHER[usize::from(red)], black);
                    assert_eq!(OTHER[usize::from(black)], red);
                }
            }
        }
    }

    #[test]
    fn indices_follow_the_document() {
        // Red's general on e0 (point 4), seen by Red: side 0, kind 0.
        let g = Piece::new(Color::Red, PieceKind::General);
        let e0 = Square::new(4).expect("a point");
        assert_eq!(feature(Color::Red, g, e0), 4);
        // Seen by Black: side 1, point flipped to e9 (85).
        assert_eq!(feature(Color::Black, g, e0), (7 * 90 + 85) as u16);
        // Black's soldier (kind 6) on a6 (54) seen by Black: a3 (27).
        let s = Piece::new(Color::Black, PieceKind::Soldier);
        let a6 = Square::new(54).expect("a point");
        assert_eq!(feature(Color::Black, s, a6), (6 * 90 + 27) as u16);
    }

    #[test]
    fn the_xiangqi_start_looks_the_same_from_both_sides() {
        let pos = Position::startpos(Variant::Xiangqi);
        let (red, n) = active(pos.board(), Color::Red);
        let (black, m) = active(pos.board(), Color::Black);
        assert_eq!((n, m), (32, 32));
        let mut a = red.to_vec();
        let mut b = black.to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }

    #[test]
    fn buckets_span_the_range() {
        assert_eq!(bucket(2, 8), 0);
        assert_eq!(bucket(32, 8), 7);
        assert_eq!(bucket(33, 8), 7);
        assert_eq!(bucket(17, 8), 3);
        assert_eq!(bucket(32, 1), 0);
        assert_eq!(bucket(0, 8), 0);
    }
}
