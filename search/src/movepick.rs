//! Move ordering: score every legal move once, then hand them out best
//! first by selection (most nodes cut off after one or two moves, so a
//! full sort would be wasted work).
//!
//! Order: the transposition-table move; captures by most valuable victim /
//! least valuable attacker; the two killers of this ply; the countermove
//! to the opponent's last move; remaining quiet moves by history.

use movegen::{Move, MoveList, PieceKind, Position, MAX_MOVES};

/// Ordering value of a piece kind as a victim or attacker.
#[inline]
pub(crate) fn order_value(k: PieceKind) -> i32 {
    match k {
        PieceKind::General => 20,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Horse => 4,
        PieceKind::Cannon => 5,
        PieceKind::Chariot => 9,
        PieceKind::Soldier => 1,
    }
}

const TT_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 28;
const KILLER1: i32 = 1 << 26;
const KILLER2: i32 = KILLER1 - 1;
const COUNTER: i32 = KILLER1 - 2;

/// History-based tables a picker reads.
pub(crate) struct Ordering<'a> {
    /// Butterfly history of the side to move, indexed `from * 90 + to`.
    pub history: &'a [i16],
    /// Killers of this ply.
    pub killers: [Option<Move>; 2],
    /// Countermove to the previous move.
    pub counter: Option<Move>,
}

/// A scored move list handed out best first.
pub(crate) struct Picker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// Staged picking for the main search: the (legality-checked) hash move
/// is tried before any move is generated, since it often refutes the node
/// on its own; the legal moves are generated and scored only if needed.
pub(crate) struct StagedPicker {
    tt_move: Option<Move>,
    /// Moves generated before the loop (Janggi's null-move guard), if any.
    pregenerated: Option<MoveList>,
    /// The hash move once tried (left out of the generated moves).
    skip: Option<Move>,
    rest: Option<Picker>,
    /// Whether any move exists (false only when nothing was generated).
    pub any: bool,
}

impl StagedPicker {
    /// A picker that starts with `tt_move` (already known to be legal).
    pub fn new(tt_move: Option<Move>, pregenerated: Option<MoveList>) -> StagedPicker {
        StagedPicker {
            tt_move,
            pregenerated,
            skip: None,
            rest: None,
            any: tt_move.is_some(),
        }
    }

    /// The next move with its ordering score; the ordering tables are read
    /// when the remaining moves are generated.
    #[inline]
    pub fn next(&mut self, pos: &Position, ord: &Ordering) -> Option<(Move, i32)> {
        if let Some(m) = self.tt_move.take() {
            self.skip = Some(m);
            return Some((m, TT_SCORE));
        }
        if self.rest.is_none() {
            let mut moves = match self.pregenerated.take() {
                Some(list) => list,
                None => pos.legal_moves(),
            };
            if let Some(skip) = self.skip {
                moves.retain(|m| *m != skip);
            }
            self.any |= !moves.is_empty();
            self.rest = Some(Picker::new(pos, moves, None, ord));
        }
        self.rest.as_mut().and_then(Picker::next)
    }
}

impl Picker {
    /// Score all moves in `moves` for position `pos`.
    pub fn new(pos: &Position, moves: MoveList, tt_move: Option<Move>, ord: &Ordering) -> Picker {
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == tt_move {
                TT_SCORE
            } else if let Some(v) = capture_victim(pos, m) {
                let attacker = pos.piece_at(m.from()).map_or(0, |p| order_value(p.kind()));
                CAPTURE_SCORE + order_value(v) * 16 - attacker
            } else if Some(m) == ord.killers[0] {
                KILLER1
            } else if Some(m) == ord.killers[1] {
                KILLER2
            } else if Some(m) == ord.counter {
                COUNTER
            } else {
                i32::from(ord.history[m.from().index() * 90 + m.to().index()])
            };
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures only, by MVV/LVA (quiescence).
    pub fn captures(pos: &Position, moves: MoveList, tt_move: Option<Move>) -> Picker {
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            let v = capture_victim(pos, m).map_or(0, order_value);
            let a = pos.piece_at(m.from()).map_or(0, |p| order_value(p.kind()));
            scores[i] = if Some(m) == tt_move {
                TT_SCORE
            } else {
                v * 16 - a
            };
        }
        Picker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The next best move, with its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// The kind of piece a move captures, if any (never for a pass).
#[inline]
pub(crate) fn capture_victim(pos: &Position, m: Move) -> Option<PieceKind> {
    if m.is_pass() {
        return None;
    }
    pos.piece_at(m.to()).map(|p| p.kind())
}
