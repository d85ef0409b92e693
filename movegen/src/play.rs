//! The checked way to play a move, for library users: [`Position::play`]
//! tests legality first, where [`Position::make_move`] (the fast path of
//! search and perft) trusts its caller.

use std::fmt;

use crate::{Move, Position};

/// A move that [`Position::play`] refused: not legal in the position (an
/// empty or enemy origin, a move the piece cannot make, one that leaves the
/// mover's general attacked, or any move once a Janggi game has ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move here: {}", self.0)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Play `m` if it is legal here ([`Position::is_legal`]); otherwise
    /// return it as an [`IllegalMove`] and leave the position unchanged.
    /// [`Position::unmake_move`] takes a played move back.
    ///
    /// ```
    /// use movegen::{Move, Position, Square, Variant};
    /// let mut pos = Position::startpos(Variant::Xiangqi);
    /// let sq = |f, r| Square::from_coords(f, r).expect("on the board");
    /// assert!(pos.play(Move::new(sq(4, 4), sq(4, 5))).is_err()); // empty origin
    /// assert!(pos.play(Move::new(sq(7, 2), sq(4, 2))).is_ok()); // h2e2
    /// ```
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove(m));
        }
        self.make_move(m);
        Ok(())
    }
}
