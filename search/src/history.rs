//! Move-ordering statistics learnt during the search: the butterfly
//! history (how often a quiet move from one point to another caused a
//! cut-off), the continuation history (the same for a quiet move by a
//! given piece to a given point, after a given earlier move of the line)
//! and the countermove table (the quiet move that refuted a given previous
//! move).
//!
//! The tables are indexed by `Move` and `Piece` here, and only here, so the
//! search and the move picker never compute a raw table index.

use crate::params::{self, Param};
use movegen::{Color, Game, Move, Piece, Position, Square, SQUARES};

/// Most a history value can reach in magnitude: updates are scaled so
/// that a value approaches this bound but never crosses it (gravity).
const HISTORY_MAX: i32 = 16_384;

/// Butterfly history of one side, one value per (from, to) pair.
pub(crate) struct SideHistory([i16; SQUARES * SQUARES]);

impl SideHistory {
    /// An empty table.
    #[cfg(test)]
    pub fn new() -> SideHistory {
        SideHistory([0; SQUARES * SQUARES])
    }

    #[inline]
    fn slot(m: Move) -> usize {
        m.from().index() * SQUARES + m.to().index()
    }

    /// The history value of `m`.
    #[inline]
    pub fn get(&self, m: Move) -> i16 {
        self.0[Self::slot(m)]
    }

    /// Move the value of `m` by `bonus` (negative for a malus), with
    /// gravity: the closer the value already is to the bound in the
    /// bonus's direction, the less it moves, so it never leaves
    /// `-HISTORY_MAX..=HISTORY_MAX` and old successes fade.
    #[inline]
    pub fn update(&mut self, m: Move, bonus: i32) {
        gravity(&mut self.0[Self::slot(m)], bonus);
    }
}

/// Move the history value `h` by `bonus` (negative for a malus), with
/// gravity: the closer the value already is to the bound in the bonus's
/// direction, the less it moves, so it never leaves
/// `-HISTORY_MAX..=HISTORY_MAX` and old successes fade.
#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    let v = i32::from(*h);
    *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// Butterfly history of both sides.
pub(crate) struct History(Box<[SideHistory; 2]>);

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History(Box::new([
            SideHistory([0; SQUARES * SQUARES]),
            SideHistory([0; SQUARES * SQUARES]),
        ]))
    }

    /// The table of `side`.
    #[inline]
    pub fn side(&self, side: Color) -> &SideHistory {
        &self.0[side.index()]
    }

    /// The table of `side`, to update.
    #[inline]
    pub fn side_mut(&mut self, side: Color) -> &mut SideHistory {
        &mut self.0[side.index()]
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for h in self.0.iter_mut() {
            h.0.fill(0);
        }
    }

    /// Halve every value, so that a new search is not dominated by the
    /// last one.
    pub fn age(&mut self) {
        for h in self.0.iter_mut() {
            for v in h.0.iter_mut() {
                *v /= 2;
            }
        }
    }
}

/// Which piece moved to which point: what the continuation history knows
/// of a move (the same piece arriving on the same point makes the same
/// threats, wherever it came from).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PieceTo(u16);

impl PieceTo {
    /// `piece` moving to `to`.
    #[inline]
    pub fn new(piece: Piece, to: Square) -> PieceTo {
        PieceTo((piece.index() * SQUARES + to.index()) as u16)
    }

    /// The quiet move `m` of the position `pos` (`None` for a pass, which
    /// moves no piece).
    #[inline]
    pub fn of(pos: &Position, m: Move) -> Option<PieceTo> {
        if m.is_pass() {
            return None;
        }
        pos.piece_at(m.from()).map(|p| PieceTo::new(p, m.to()))
    }

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Number of (piece, point) pairs: 16 piece codes (both colours) by 90
/// points.
const PIECE_TO: usize = 16 * SQUARES;

/// The continuation history after one earlier move: a value per (piece,
/// point) of the quiet move now considered.
#[derive(Clone)]
pub(crate) struct PieceToHistory([i16; PIECE_TO]);

impl PieceToHistory {
    /// The value of the move `pt`.
    #[inline]
    pub fn get(&self, pt: PieceTo) -> i16 {
        self.0[pt.index()]
    }

    /// Move the value of `pt` by `bonus`, with gravity.
    #[inline]
    fn update(&mut self, pt: PieceTo, bonus: i32) {
        gravity(&mut self.0[pt.index()], bonus);
    }
}

/// Continuation history: for each earlier move (piece, point), how often
/// each quiet move (piece, point) caused a cut-off after it. One table
/// serves both sides and every distance back (the search reads it one and
/// two plies back): the piece codes carry the colours.
pub(crate) struct ContinuationHistory(Box<[PieceToHistory]>);

impl ContinuationHistory {
    /// Empty tables.
    pub fn new() -> ContinuationHistory {
        ContinuationHistory(vec![PieceToHistory([0; PIECE_TO]); PIECE_TO].into_boxed_slice())
    }

    /// The table after the earlier move `prev`.
    #[inline]
    pub fn after(&self, prev: PieceTo) -> &PieceToHistory {
        &self.0[prev.index()]
    }

    /// Move the value of `pt` after `prev` by `bonus`, with gravity.
    #[inline]
    pub fn update(&mut self, prev: PieceTo, pt: PieceTo, bonus: i32) {
        self.0[prev.index()].update(pt, bonus);
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for t in self.0.iter_mut() {
            t.0.fill(0);
        }
    }

    /// Halve every value, as [`History::age`] does.
    pub fn age(&mut self) {
        for t in self.0.iter_mut() {
            for v in t.0.iter_mut() {
                *v /= 2;
            }
        }
    }
}

/// The countermove table: for the piece that made the previous move and
/// the point it moved to, the quiet move that last refuted it.
pub(crate) struct CounterMoves(Box<[[Option<Move>; SQUARES]; 16]>);

impl CounterMoves {
    /// An empty table.
    pub fn new() -> CounterMoves {
        CounterMoves(Box::new([[None; SQUARES]; 16]))
    }

    /// The countermove to `piece` having just moved with `prev`.
    #[inline]
    pub fn get(&self, piece: Piece, prev: Move) -> Option<Move> {
        self.0[piece.index()][prev.to().index()]
    }

    /// Remember `m` as the refutation of `piece` having moved with `prev`.
    #[inline]
    pub fn set(&mut self, piece: Piece, prev: Move, m: Move) {
        self.0[piece.index()][prev.to().index()] = Some(m);
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for c in self.0.iter_mut() {
            c.fill(None);
        }
    }
}

/// The history bonus for a cut-off at `depth` in `game`: deeper
/// cut-offs say more (its terms: `crate::params`).
#[inline]
pub(crate) fn history_bonus(game: Game, depth: i32) -> i32 {
    (depth * depth * params::get(Param::HistoryBonusPerDepthSq, game))
        .min(params::get(Param::HistoryMaxBonus, game))
}
