//! The leap tables of the move generator, read-only, for code outside the
//! rules that needs the same geometry (the evaluation's mobility and
//! attack terms, a GUI's move hints): one table for one fact.

use crate::geometry::{self, Leaps};
use crate::Square;

pub use crate::geometry::Leap;

/// Horse jumps from every point, as the generator uses them.
static HORSE: [Leaps; 90] = geometry::HORSE;
/// Janggi elephant leaps from every point, as the generator uses them.
pub(crate) static JANGGI_ELEPHANT: [Leaps; 90] = geometry::ELEPHANT_J;

/// The horse jumps from `s` (the same in both games): for each, the
/// destination and the leg, the orthogonal neighbour of `s` that must be
/// empty ([`Leap::first_block`]; [`Leap::second_block`] is the same point).
///
/// ```
/// use movegen::{leaps, Square};
/// let corner = Square::from_coords(0, 0).expect("on the board");
/// assert_eq!(leaps::horse(corner).len(), 2);
/// ```
#[inline]
pub fn horse(s: Square) -> &'static [Leap] {
    HORSE[s.index()].as_slice()
}

/// The Janggi elephant leaps from `s`: one orthogonal step, then two
/// diagonal steps outward. For each, the destination, the orthogonal
/// neighbour ([`Leap::first_block`]) and the diagonal point after it
/// ([`Leap::second_block`]), both of which must be empty. (A Xiangqi
/// elephant's moves also depend on its colour's side of the river.)
#[inline]
pub fn janggi_elephant(s: Square) -> &'static [Leap] {
    JANGGI_ELEPHANT[s.index()].as_slice()
}
