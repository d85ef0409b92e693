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
//! All sums are `i16` with wrapping adds: a trained network stays far
//! inside the range (the trainer clamps its weights), and a hostile one
//! gives a meaningless value instead of a crash.

use movegen::{Color, Move, Piece, Position, Square};

use crate::network::Network;
use crate::simd;
use crate::{feature_index, piece_count};

/// Both perspectives' accumulators of one position: `H` values for Red
/// (Cho), then `H` for Black (Han).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
}

impl Accumulator {
    /// An accumulator of zeros for a network with `hidden` units.
    pub fn zeroed(hidden: usize) -> Accumulator {
        Accumulator {
            values: vec![0; 2 * hidden].into_boxed_slice(),
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
        let h = net.hidden();
        if self.values.len() != 2 * h {
            *self = Accumulator::zeroed(h);
        }
        let (red, black) = self.values.split_at_mut(h);
        red.copy_from_slice(&net.b1);
        black.copy_from_slice(&net.b1);
        for s in Square::all() {
            if let Some(p) = pos.piece_at(s) {
                simd::add_in_place(
                    net.isa(),
                    red,
                    net.feature_weights(feature_index(Color::Red, p, s)),
                );
                simd::add_in_place(
                    net.isa(),
                    black,
                    net.feature_weights(feature_index(Color::Black, p, s)),
                );
            }
        }
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

    /// Set this accumulator to `parent`'s updated by `delta`.
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, delta: &Delta) {
        let h = net.hidden();
        let Delta::Move {
            piece,
            from,
            to,
            captured,
        } = *delta
        else {
            self.values.copy_from_slice(&parent.values);
            return;
        };
        let (dst_red, dst_black) = self.values.split_at_mut(h);
        let (src_red, src_black) = parent.values.split_at(h);
        for (c, dst, src) in [
            (Color::Red, dst_red, src_red),
            (Color::Black, dst_black, src_black),
        ] {
            let add = net.feature_weights(feature_index(c, piece, to));
            let sub = net.feature_weights(feature_index(c, piece, from));
            match captured {
                None => simd::add_sub(net.isa(), dst, src, add, sub),
                Some(v) => {
                    let sub2 = net.feature_weights(feature_index(c, v, to));
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

/// One ply of the stack: its accumulator, whether that is up to date, and
/// the change from the ply below.
#[derive(Clone, Debug)]
struct Frame {
    acc: Accumulator,
    computed: bool,
    delta: Delta,
}

/// The accumulators along the search's current line, pushed on make and
/// popped on unmake, computed lazily when a node is evaluated.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    frames: Vec<Frame>,
    ply: usize,
    hidden: usize,
}

impl AccumulatorStack {
    /// A stack for `net` with room for `depth` plies above the root (it
    /// grows if a line is longer).
    pub fn new(net: &Network, depth: usize) -> AccumulatorStack {
        let frame = Frame {
            acc: Accumulator::zeroed(net.hidden()),
            computed: false,
            delta: Delta::None,
        };
        AccumulatorStack {
            frames: vec![frame; depth + 1],
            ply: 0,
            hidden: net.hidden(),
        }
    }

    /// Whether this stack fits `net` (same hidden size).
    pub fn fits(&self, net: &Network) -> bool {
        self.hidden == net.hidden()
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
        self.push(Delta::of(pos, m));
    }

    /// Enter the child reached by a null move (nothing changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::None);
    }

    #[inline]
    fn push(&mut self, delta: Delta) {
        self.ply += 1;
        if self.ply == self.frames.len() {
            self.frames.push(Frame {
                acc: Accumulator::zeroed(self.hidden),
                computed: false,
                delta,
            });
        } else {
            let f = &mut self.frames[self.ply];
            f.computed = false;
            f.delta = delta;
        }
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
            child.acc.update_from(&below[i - 1].acc, net, &child.delta);
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
