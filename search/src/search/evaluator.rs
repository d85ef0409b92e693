//! A search thread's static evaluation, of one of two kinds: the classical
//! evaluation, whose material and piece squares it keeps incrementally
//! along the current line, or a network, whose accumulators it keeps. Each
//! kind keeps only its own incremental state, so a search with a network
//! computes no classical terms, and the quiescence search's lazy estimate
//! has one path ([`Evaluator::lazy`]).
//!
//! The state moves with the search's moves: [`Evaluator::push_move`]
//! before a move is made, [`Evaluator::push_null`], [`Evaluator::pop`]
//! when it is taken back; `ply` arguments are the search stack's.

use std::sync::Arc;

use crate::eval::params::Pair;
use crate::eval::{evaluate_with_psq, psq, psq_delta, psq_only};
use crate::MAX_PLY;
use movegen::{Move, Position};
use nnue::{AccumulatorStack, Network};

/// The network's evaluation is clamped to this many centipawns, far below
/// mate scores (a hostile network can output anything).
const NNUE_EVAL_LIMIT: i32 = 20_000;
/// How far outside the window the material-only score must be for the
/// quiescence search to skip the full classical evaluation.
const LAZY_MARGIN: i32 = 300;

/// The evaluation of one search thread.
pub(super) enum Evaluator {
    /// The classical evaluation, with the material and piece squares (Red's
    /// view) of each ply of the current line.
    Classical(Box<[Pair; MAX_PLY + 2]>),
    /// A network and its accumulators along the current line.
    Network {
        /// The network.
        net: Arc<Network>,
        /// Its accumulators, pushed and popped with the moves.
        acc: AccumulatorStack,
    },
}

impl Evaluator {
    /// The classical evaluation.
    pub fn classical() -> Evaluator {
        Evaluator::Classical(Box::new([[0; 2]; MAX_PLY + 2]))
    }

    /// Evaluate with `net` from now on (`None`: the classical evaluation).
    /// The accumulators are kept when the size still fits.
    pub fn set_network(&mut self, net: Option<&Arc<Network>>) {
        match (net, &mut *self) {
            (None, Evaluator::Classical(_)) => {}
            (None, Evaluator::Network { .. }) => *self = Evaluator::classical(),
            (Some(n), Evaluator::Network { net, acc }) if acc.fits(n) => *net = Arc::clone(n),
            (Some(n), _) => {
                *self = Evaluator::Network {
                    net: Arc::clone(n),
                    acc: AccumulatorStack::new(n, MAX_PLY + 2),
                }
            }
        }
    }

    /// Start a search at the root position `pos`.
    #[inline]
    pub fn start(&mut self, pos: &Position) {
        match self {
            Evaluator::Classical(psqs) => psqs[0] = psq(pos),
            Evaluator::Network { net, acc } => acc.reset(net, pos),
        }
    }

    /// Before `m` is made in `pos`, at `ply`: the child's state.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move, ply: usize) {
        match self {
            Evaluator::Classical(psqs) => {
                let (p, d) = (psqs[ply], psq_delta(pos, m));
                psqs[ply + 1] = [p[0] + d[0], p[1] + d[1]];
            }
            Evaluator::Network { acc, .. } => acc.push_move(pos, m),
        }
    }

    /// Before a null move at `ply`: the material stays.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        match self {
            Evaluator::Classical(psqs) => psqs[ply + 1] = psqs[ply],
            Evaluator::Network { acc, .. } => acc.push_null(),
        }
    }

    /// After a move or null move is taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Evaluator::Network { acc, .. } = self {
            acc.pop();
        }
    }

    /// The static evaluation of `pos`, the node at `ply`.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match self {
            Evaluator::Classical(psqs) => {
                debug_assert_eq!(psqs[ply], psq(pos));
                evaluate_with_psq(pos, psqs[ply])
            }
            Evaluator::Network { net, acc } => acc
                .evaluate(net, pos)
                .clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT),
        }
    }

    /// The quiescence search's evaluation of `pos` at `ply` in the window
    /// `alpha..beta`, and whether it is the full static evaluation: the
    /// classical evaluation settles for its material and piece squares
    /// when they alone lie [`LAZY_MARGIN`] outside the window; a network
    /// always evaluates in full.
    #[inline]
    pub fn lazy(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> (i32, bool) {
        if let Evaluator::Classical(psqs) = self {
            let quick = psq_only(pos, psqs[ply]);
            if quick - LAZY_MARGIN >= beta || quick + LAZY_MARGIN <= alpha {
                return (quick, false);
            }
        }
        (self.evaluate(pos, ply), true)
    }

    /// Debug builds: with a network, the accumulator of `ply` equals a full
    /// refresh of `pos` (like the position's own consistency check in
    /// `make_move`). This computes the lazy accumulators at every ply, so
    /// debug searches check every update.
    #[inline(always)]
    pub fn debug_check(&mut self, pos: &Position, ply: usize) {
        #[cfg(debug_assertions)]
        if let Evaluator::Network { net, acc } = self {
            debug_assert_eq!(acc.ply(), ply);
            debug_assert!(
                acc.matches_refresh(net, pos),
                "incremental accumulator differs from a refresh at {}",
                pos.to_fen()
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = (pos, ply);
    }
}
