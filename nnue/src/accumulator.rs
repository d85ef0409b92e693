//! Accumulators: the feature transformer's output `b1 + Σ W1[f]` for both
//! perspectives, refreshed from a whole position or updated by a move.
//!
//! A move changes at most three features per perspective (the piece
//! leaves its point, arrives on another, a victim disappears); a Janggi
//! pass or a null move changes none. [`AccumulatorStack`] follows the
//! search's make/unmake: a push only records what the move changed, and
//! the accumulator of a node is computed when that node is evaluated, from
//! the nearest computed ancestor, so nodes cut off before their
//! evaluation (hash hits, pruning) cost a few bytes of bookkeeping only.
//!
//! With the general-bucketed inputs (`docs/NNUE.md`, Inputs) a move of a
//! perspective's own general changes that perspective's bucket or mirror
//! side, and so every one of its features: that perspective is refreshed
//! from the board after the move (which the stack keeps for such moves
//! only), while the other perspective is updated from the move as usual.
//! A general taken (possible only in a finished Janggi game) refreshes
//! its side's perspective the same way.
//!
//! All sums are `i16` with wrapping adds: a trained network stays far
//! inside the range (the trainer clamps its weights), and a hostile one
//! gives a meaningless value instead of a crash.

use movegen::{Color, Move, Piece, PieceKind, Position, Square};

use crate::network::Network;
use crate::piece_count;
use crate::simd;
use crate::{InputSet, View};

/// A board as `Position::board` gives it.
pub type Board = [Option<Piece>; 90];

/// Both perspectives' accumulators of one position: `H` values for Red
/// (Cho), then `H` for Black (Han), and each perspective's [`View`] (its
/// general bucket and mirror side; always [`View::PLAIN`] for the plain
/// inputs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
    views: [View; 2],
}

/// Set `dst` to perspective `c`'s accumulator of `board` computed from
/// scratch; the perspective's view.
fn fill(net: &Network, board: &Board, c: Color, dst: &mut [i16]) -> View {
    let view = net.inputs().view(board, c);
    dst.copy_from_slice(&net.b1);
    for (s, p) in Square::all().zip(board) {
        if let Some(p) = *p {
            simd::add_in_place(net.isa(), dst, net.feature_weights(view.index(c, p, s)));
        }
    }
    view
}

impl Accumulator {
    /// An accumulator of zeros for a network with `hidden` units.
    pub fn zeroed(hidden: usize) -> Accumulator {
        Accumulator {
            values: vec![0; 2 * hidden].into_boxed_slice(),
            views: [View::PLAIN; 2],
        }
    }

    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::zeroed(net.hidden());
        acc.refresh_from(net, pos);
        acc
    }

    /// Recompute this accumulator from scratch for `pos`.
    pub fn refresh_from(&mut self, net: &Network, pos: &Position) {
        self.refresh_board(net, pos.board());
    }

    /// Recompute this accumulator from scratch for `board`.
    pub fn refresh_board(&mut self, net: &Network, board: &Board) {
        let h = net.hidden();
        if self.values.len() != 2 * h {
            *self = Accumulator::zeroed(h);
        }
        let (red, black) = self.values.split_at_mut(h);
        self.views = [
            fill(net, board, Color::Red, red),
            fill(net, board, Color::Black, black),
        ];
    }

    /// The view of one perspective (its general bucket and mirror side).
    #[inline]
    pub fn view(&self, c: Color) -> View {
        self.views[c.index()]
    }

    /// The values of one perspective.
    #[inline]
    pub fn perspective(&self, c: Color) -> &[i16] {
        let h = self.values.len() / 2;
        match c {
            Color::Red => &self.values[..h],
            Color::Black => &self.values[h..],
        }
    }

    /// The side to move's half and the other's.
    #[inline]
    pub fn halves(&self, stm: Color) -> (&[i16], &[i16]) {
        let h = self.values.len() / 2;
        let (red, black) = self.values.split_at(h);
        match stm {
            Color::Red => (red, black),
            Color::Black => (black, red),
        }
    }

    /// Set this accumulator to `parent`'s updated by `delta`. `after` is
    /// the board after the move: it is read only for a perspective that
    /// [`Delta::refreshes`] (its general moved or was taken, under the
    /// general-bucketed inputs), which is computed from scratch.
    #[inline]
    pub fn update_from(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        delta: &Delta,
        after: &Board,
    ) {
        let h = net.hidden();
        let Delta::Move {
            piece,
            from,
            to,
            captured,
        } = *delta
        else {
            self.values.copy_from_slice(&parent.values);
            self.views = parent.views;
            return;
        };
        let (dst_red, dst_black) = self.values.split_at_mut(h);
        let (src_red, src_black) = parent.values.split_at(h);
        for (c, dst, src) in [
            (Color::Red, dst_red, src_red),
            (Color::Black, dst_black, src_black),
        ] {
            if delta.refreshes(net.inputs(), c) {
                self.views[c.index()] = fill(net, after, c, dst);
                continue;
            }
            // The general of `c` stayed where it was: so did its view.
            let view = parent.views[c.index()];
            self.views[c.index()] = view;
            let add = net.feature_weights(view.index(c, piece, to));
            let sub = net.feature_weights(view.index(c, piece, from));
            match captured {
                None => simd::add_sub(net.isa(), dst, src, add, sub),
                Some(v) => {
                    let sub2 = net.feature_weights(view.index(c, v, to));
                    simd::add_sub_sub(net.isa(), dst, src, add, sub, sub2);
                }
            }
        }
    }
}

/// What one ply changed on the board, as far as the features go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delta {
    /// Nothing (a Janggi pass or a null move).
    None,
    /// `piece` went from `from` to `to`, taking `captured` if any.
    Move {
        /// The piece that moved.
        piece: Piece,
        /// Where it stood.
        from: Square,
        /// Where it went.
        to: Square,
        /// The piece it took.
        captured: Option<Piece>,
    },
}

impl Delta {
    /// Whether perspective `c` must be refreshed from the board after
    /// this move under `inputs`: its own general moved or was taken, so
    /// its view changed (every general move changes the palace point, and
    /// each palace point has its own bucket and mirror side). Never for
    /// the plain inputs, whose view is fixed.
    #[inline]
    pub fn refreshes(&self, inputs: InputSet, c: Color) -> bool {
        inputs != InputSet::Plain && self.touches_general(c)
    }

    /// Whether the move is by or takes the general of `c`.
    #[inline]
    fn touches_general(&self, c: Color) -> bool {
        let general = Piece::new(c, PieceKind::General);
        matches!(*self, Delta::Move { piece, captured, .. }
            if piece == general || captured == Some(general))
    }

    /// The board after this move, made on `before` (the board it was
    /// computed from).
    pub fn board_after(&self, before: &Board) -> Board {
        let mut b = *before;
        if let Delta::Move {
            piece, from, to, ..
        } = *self
        {
            b[from.index()] = None;
            b[to.index()] = Some(piece);
        }
        b
    }

    /// What `m` (legal in `pos`, not yet made) will change.
    #[inline]
    pub fn of(pos: &Position, m: Move) -> Delta {
        if m.is_pass() {
            return Delta::None;
        }
        match pos.piece_at(m.from()) {
            Some(piece) => Delta::Move {
                piece,
                from: m.from(),
                to: m.to(),
                captured: pos.piece_at(m.to()),
            },
            None => Delta::None,
        }
    }
}

/// One ply of the stack: its accumulator, whether that is up to date, the
/// change from the ply below and, when that change refreshes a
/// perspective, the board after it (otherwise stale and never read).
#[derive(Clone, Debug)]
struct Frame {
    acc: Accumulator,
    computed: bool,
    delta: Delta,
    after: Board,
}

/// The accumulators along the search's current line, pushed on make and
/// popped on unmake, computed lazily when a node is evaluated.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    frames: Vec<Frame>,
    ply: usize,
    hidden: usize,
    inputs: InputSet,
}

impl AccumulatorStack {
    /// A stack for `net` with room for `depth` plies above the root (it
    /// grows if a line is longer).
    pub fn new(net: &Network, depth: usize) -> AccumulatorStack {
        let frame = Frame {
            acc: Accumulator::zeroed(net.hidden()),
            computed: false,
            delta: Delta::None,
            after: [None; 90],
        };
        AccumulatorStack {
            frames: vec![frame; depth + 1],
            ply: 0,
            hidden: net.hidden(),
            inputs: net.inputs(),
        }
    }

    /// Whether this stack fits `net` (same hidden size and input set: the
    /// input set decides which moves keep the board after them).
    pub fn fits(&self, net: &Network) -> bool {
        self.hidden == net.hidden() && self.inputs == net.inputs()
    }

    /// Start over at `pos`, the root (a full refresh).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.ply = 0;
        if let Some(f) = self.frames.first_mut() {
            f.acc.refresh_from(net, pos);
            f.computed = true;
            f.delta = Delta::None;
        }
    }

    /// Plies above the root.
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Enter the child reached by `m` (call before making it in `pos`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let delta = Delta::of(pos, m);
        let frame = self.push(delta);
        // Only a refreshing move pays for the board copy.
        if Color::BOTH.iter().any(|&c| delta.refreshes(self.inputs, c)) {
            self.frames[frame].after = delta.board_after(pos.board());
        }
    }

    /// Enter the child reached by a null move (nothing changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::None);
    }

    /// Enter a child reached by `delta`; the index of its frame.
    #[inline]
    fn push(&mut self, delta: Delta) -> usize {
        self.ply += 1;
        if self.ply == self.frames.len() {
            self.frames.push(Frame {
                acc: Accumulator::zeroed(self.hidden),
                computed: false,
                delta,
                after: [None; 90],
            });
        } else {
            let f = &mut self.frames[self.ply];
            f.computed = false;
            f.delta = delta;
        }
        self.ply
    }

    /// Return to the parent.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.ply > 0, "accumulator stack popped at the root");
        self.ply = self.ply.saturating_sub(1);
    }

    /// The accumulator of the current ply, computed from the nearest
    /// computed ancestor if needed. `net` must be the stack's network.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        let ply = self.ply;
        if !self.frames[ply].computed {
            self.compute(net, ply);
        }
        &self.frames[ply].acc
    }

    /// Bring every frame from the nearest computed one up to `ply` up to
    /// date.
    fn compute(&mut self, net: &Network, ply: usize) {
        // The root is always computed (by `reset`).
        let mut base = ply;
        while base > 0 && !self.frames[base].computed {
            base -= 1;
        }
        for i in base + 1..=ply {
            let (below, above) = self.frames.split_at_mut(i);
            let child = &mut above[0];
            child
                .acc
                .update_from(&below[i - 1].acc, net, &child.delta, &child.after);
            child.computed = true;
        }
    }

    /// The evaluation of the current ply's position `pos` (centipawns,
    /// side to move).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let pieces = piece_count(pos);
        let acc = self.current(net);
        net.evaluate(acc, pos.side_to_move(), pieces)
    }

    /// Whether the current ply's accumulator equals a full refresh of
    /// `pos` (the debug check of the search's make/unmake).
    pub fn matches_refresh(&mut self, net: &Network, pos: &Position) -> bool {
        let fresh = Accumulator::refresh(net, pos);
        *self.current(net) == fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Arch;

    /// Moves no random game plays, on a bare board: a general taken (its
    /// side then has the plain view) and a general stepping across the
    /// centre file (a new mirror side), each equal to a refresh of the
    /// board after it, for both input sets.
    #[test]
    fn general_captures_and_mirror_steps_equal_a_refresh() {
        let sq = |f, r| Square::from_coords(f, r).unwrap_or_else(|| unreachable!());
        let rg = Piece::new(Color::Red, PieceKind::General);
        let bg = Piece::new(Color::Black, PieceKind::General);
        let rc = Piece::new(Color::Red, PieceKind::Chariot);
        let mut board: Board = [None; 90];
        board[sq(4, 0).index()] = Some(rg);
        board[sq(3, 8).index()] = Some(bg);
        board[sq(3, 4).index()] = Some(rc);
        let moves = [
            // The chariot takes Black's general.
            Delta::Move {
                piece: rc,
                from: sq(3, 4),
                to: sq(3, 8),
                captured: Some(bg),
            },
            // Red's general steps e1-f1: mirrored from now on.
            Delta::Move {
                piece: rg,
                from: sq(4, 0),
                to: sq(5, 0),
                captured: None,
            },
        ];
        for inputs in InputSet::ALL {
            let arch = Arch {
                inputs,
                hidden: 16,
                buckets: 1,
            };
            let net = Network::random_of(movegen::Game::Janggi, arch, 9);
            assert!(net.is_some());
            let Some(net) = net else { return };
            let mut parent = Accumulator::zeroed(16);
            parent.refresh_board(&net, &board);
            for d in moves {
                let after = d.board_after(&board);
                let mut child = Accumulator::zeroed(16);
                child.update_from(&parent, &net, &d, &after);
                let mut fresh = Accumulator::zeroed(16);
                fresh.refresh_board(&net, &after);
                assert_eq!(child, fresh, "{inputs:?} {d:?}");
            }
            let taken = moves[0].board_after(&board);
            parent.refresh_board(&net, &taken);
            assert_eq!(parent.view(Color::Black), View::PLAIN);
            let stepped = moves[1].board_after(&board);
            parent.refresh_board(&net, &stepped);
            let mirrored = inputs == InputSet::GeneralBuckets;
            assert_eq!(parent.view(Color::Red).mirrored(), mirrored);
        }
    }
}
