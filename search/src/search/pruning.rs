//! Selectivity of the main search: reverse futility pruning, the null
//! move, late-move and futility pruning of quiet moves, pruning of moves
//! that lose material by static exchange, the singular-extension test and
//! late move reductions, with their margins named here in one place, and
//! what the search does differently in each game ([`GameSearch`]).
//!
//! Margins are in centipawns per ply of remaining depth; depths are plies.

use super::pvs::Node;
use super::{Shared, Worker};
use crate::movepick::see_ge;
use crate::tt::{TtBound, TtEntry};
use crate::MATE_BOUND;
use movegen::{ByGame, Color, Move, MoveList, PieceKind, Position};

/// Reverse futility pruning is tried up to this depth.
const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility margin per ply of depth.
const RFP_MARGIN_PER_PLY: i32 = 90;
/// The reverse futility margin shrinks by this much when the static
/// evaluation improves on two plies ago.
const RFP_IMPROVING_MARGIN: i32 = 60;

/// The null move is tried from this depth on.
const NMP_MIN_DEPTH: i32 = 3;
/// Null-move reduction: this base, plus a ply per `NMP_DEPTH_DIVISOR` of
/// depth, plus a ply per `NMP_EVAL_DIVISOR` centipawns that the static
/// evaluation exceeds beta by (at most `NMP_MAX_EVAL_REDUCTION`).
const NMP_BASE_REDUCTION: i32 = 3;
const NMP_DEPTH_DIVISOR: i32 = 4;
const NMP_EVAL_DIVISOR: i32 = 200;
const NMP_MAX_EVAL_REDUCTION: i32 = 3;
/// Null-move cut-offs from this depth on are verified by a reduced normal
/// search.
const NMP_VERIFY_DEPTH: i32 = 12;

/// Late-move pruning (a quiet move past the move-count limit) up to this
/// depth.
const LMP_MAX_DEPTH: i32 = 8;
/// Futility pruning of quiet moves up to this depth.
const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility margin: this base plus `FUTILITY_MARGIN_PER_PLY` per ply.
const FUTILITY_MARGIN_BASE: i32 = 120;
const FUTILITY_MARGIN_PER_PLY: i32 = 100;

/// Moves losing material by static exchange are pruned up to this depth.
const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// A capture or a checking move is pruned when the exchange loses more
/// than this per ply of depth.
const SEE_CAPTURE_MARGIN: i32 = 100;
/// A quiet move is pruned when the exchange on its destination loses more
/// than this times the depth squared: at depth 1 a move that hangs a
/// soldier, deeper only bigger losses.
const SEE_QUIET_MARGIN: i32 = 25;

/// What the search does differently in each game; its margins are the
/// same in both. (The games that decided each setting: `docs/RESULTS.md`,
/// "Search changes by SPRT".)
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameSearch {
    /// Whether the singular-extension test ([`Worker::singular`]) is made.
    pub singular_extension: bool,
}

/// Each game's search settings (Janggi's for every rule set).
static GAME_SEARCH: ByGame<GameSearch> = ByGame::new(
    GameSearch {
        singular_extension: true,
    },
    GameSearch {
        singular_extension: false,
    },
);

/// The search settings of the position's game.
#[inline]
pub(crate) fn game_search(pos: &Position) -> &'static GameSearch {
    GAME_SEARCH.get(pos.variant().game())
}

/// The singular-extension test is made from this depth on.
const SE_MIN_DEPTH: i32 = 8;
/// ... on a hash entry searched at most this many plies shallower.
const SE_TT_DEPTH_SLACK: i32 = 3;
/// The alternatives must stay this far per ply of depth below the hash
/// score for the hash move to count as singular.
const SE_MARGIN_PER_PLY: i32 = 2;

/// Late move reductions start at this depth.
const LMR_MIN_DEPTH: i32 = 3;
/// Captures are reduced only after this many moves.
const LMR_MIN_CAPTURE_COUNT: i32 = 6;
/// A quiet move's reduction changes by one ply per this much ordering
/// (history) score, by at most `LMR_MAX_HISTORY_ADJUST` plies either way.
const LMR_HISTORY_DIVISOR: i32 = 6_000;
const LMR_MAX_HISTORY_ADJUST: i32 = 2;

/// Reverse futility: far above beta at low depth, a quiet move will not
/// bring the score back down.
#[inline]
pub(super) fn reverse_futility(node: &Node) -> bool {
    let margin = RFP_MARGIN_PER_PLY * node.depth
        - if node.improving {
            RFP_IMPROVING_MARGIN
        } else {
            0
        };
    node.depth <= RFP_MAX_DEPTH && node.eval - margin >= node.beta
}

/// How many quiet moves a node at `depth` searches before late-move
/// pruning starts.
#[inline]
pub(super) fn late_move_count(depth: i32, improving: bool) -> i32 {
    (3 + depth * depth) / if improving { 1 } else { 2 }
}

/// Whether the `count`th move, a quiet one, is pruned: past the node's
/// move-count limit, or futile (the static evaluation plus a margin does
/// not reach alpha). Both conditions, once true, stay true for the rest
/// of the node.
#[inline]
pub(super) fn late_quiet_pruned(node: &Node, count: i32, alpha: i32) -> bool {
    let depth = node.depth;
    (depth <= LMP_MAX_DEPTH && count > node.lmp_limit)
        || (depth <= FUTILITY_MAX_DEPTH
            && node.eval + FUTILITY_MARGIN_BASE + FUTILITY_MARGIN_PER_PLY * depth <= alpha)
}

/// Whether the move `m` loses so much by static exchange at this shallow
/// depth that it is not searched. A quiet move that fails its margin but
/// gives check is judged with the captures' looser one (the check test is
/// made only then).
#[inline]
pub(super) fn see_pruned(pos: &Position, node: &Node, m: Move, quiet: bool) -> bool {
    let depth = node.depth;
    if depth > SEE_PRUNE_MAX_DEPTH {
        return false;
    }
    let loose = -SEE_CAPTURE_MARGIN * depth;
    if quiet {
        if see_ge(pos, m, -SEE_QUIET_MARGIN * depth * depth) {
            return false;
        }
        return !pos.gives_check(m) || !see_ge(pos, m, loose);
    }
    !see_ge(pos, m, loose)
}

/// Whether `c` has a chariot, horse or cannon (null-move zugzwang guard).
fn has_major(pos: &Position, c: Color) -> bool {
    pos.count(c, PieceKind::Chariot)
        + pos.count(c, PieceKind::Horse)
        + pos.count(c, PieceKind::Cannon)
        > 0
}

/// What the singular-extension test found.
pub(super) enum Singular {
    /// No test, or the hash move is not singular.
    No,
    /// The hash move is singular: extend it.
    Extend,
    /// Some alternative beats beta too: the node fails high with this
    /// score (multi-cut).
    Cut(i32),
}

/// A move of the move loop, as pruning and reductions see it.
pub(super) struct LateMove {
    /// The move.
    pub mv: Move,
    /// Its number in the loop, from 1.
    pub count: i32,
    /// Whether it captures nothing.
    pub quiet: bool,
    /// Whether it is one of the node's killers.
    pub killer: bool,
    /// Its ordering score (history for quiet moves).
    pub ord_score: i32,
}

/// Base late move reductions by depth and move number.
pub(super) struct Reductions(Box<[[u8; 64]; 64]>);

impl Reductions {
    /// The table: reductions grow with the log of depth and move number.
    pub fn new() -> Reductions {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, v) in row.iter_mut().enumerate().skip(1) {
                *v = (0.7 + (d as f64).ln() * (m as f64).ln() / 2.3) as u8;
            }
        }
        Reductions(lmr)
    }

    #[inline]
    fn base(&self, depth: i32, count: i32) -> i32 {
        i32::from(self.0[depth.min(63) as usize][(count as usize).min(63)])
    }
}

impl Worker {
    /// The null move: give the opponent a free move; if we still beat
    /// beta the node would fail high anyway. The score to return when it
    /// settles the node. Guarded against zugzwang by requiring a piece
    /// besides soldiers and the defenders, and in Janggi by having a move
    /// besides the pass (where the pass is the only move, a null move is
    /// no test); the legal moves generated for that test are left in
    /// `moves` for the move loop.
    pub(super) fn null_move(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        node: &Node,
        moves: &mut Option<MoveList>,
    ) -> Option<i32> {
        let (ply, depth, eval, beta) = (node.ply, node.depth, node.eval, node.beta);
        let prev_null = pos.state().last_move.is_none() && pos.history_len() > 0;
        if !(depth >= NMP_MIN_DEPTH
            && eval >= beta
            && !prev_null
            && ply >= self.nmp_min_ply
            && has_major(pos, pos.side_to_move()))
        {
            return None;
        }
        if pos.variant().is_janggi() {
            let list = pos.legal_moves();
            let only_pass = list.len() <= 1;
            *moves = Some(list);
            if only_pass {
                return None;
            }
        }
        let r = NMP_BASE_REDUCTION
            + depth / NMP_DEPTH_DIVISOR
            + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_MAX_EVAL_REDUCTION);
        self.make_null(pos);
        let v = -self.search::<false>(pos, sh, -beta, -beta + 1, depth - r, !node.cut_node);
        self.unmake_null(pos);
        if self.stopped {
            return Some(0);
        }
        if v < beta {
            return None;
        }
        let v = if v >= MATE_BOUND { beta } else { v };
        // Verify deep cut-offs with a reduced normal search in which null
        // moves are off for a few plies.
        if depth < NMP_VERIFY_DEPTH || self.nmp_min_ply > 0 {
            return Some(v);
        }
        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
        let w = self.search::<false>(pos, sh, beta - 1, beta, depth - r, false);
        self.nmp_min_ply = 0;
        (w >= beta).then_some(v)
    }

    /// The singular-extension test of `node`, whose hash entry is `tte`:
    /// the node is searched without the hash move, at half depth and with
    /// a null window just below the hash score less a margin. If nothing
    /// reaches it the hash move is singular. A lower-bound or exact entry
    /// nearly as deep as the node is needed, with a score that is not a
    /// mate. Only in a game whose [`GameSearch`] asks for it.
    pub(super) fn singular(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        node: &Node,
        tte: &TtEntry,
    ) -> Singular {
        let Some(m) = node.tt_move else {
            return Singular::No;
        };
        if node.depth < SE_MIN_DEPTH
            || node.excluded.is_some()
            || !game_search(pos).singular_extension
            || tte.depth < node.depth - SE_TT_DEPTH_SLACK
            || tte.bound == TtBound::Upper
            || tte.score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let sb = tte.score - SE_MARGIN_PER_PLY * node.depth;
        let ply = node.ply;
        self.stack.at_mut(ply).excluded = Some(m);
        let v = self.search::<false>(pos, sh, sb - 1, sb, (node.depth - 1) / 2, node.cut_node);
        self.stack.at_mut(ply).excluded = None;
        if self.stopped {
            return Singular::No;
        }
        if v < sb {
            Singular::Extend
        } else if sb >= node.beta {
            Singular::Cut(sb)
        } else {
            Singular::No
        }
    }

    /// Late move reduction of `lm` (which gives check or not) in `node`,
    /// whose children are searched to `child_depth`: more for late and
    /// quiet moves, less for checks, killers and well-scored history.
    #[inline]
    pub(super) fn reduction<const PV: bool>(
        &self,
        node: &Node,
        child_depth: i32,
        gives_check: bool,
        lm: &LateMove,
    ) -> i32 {
        if !(node.depth >= LMR_MIN_DEPTH
            && lm.count > 1 + i32::from(PV)
            && (lm.quiet || lm.count > LMR_MIN_CAPTURE_COUNT))
        {
            return 0;
        }
        let mut r = self.reductions.base(node.depth, lm.count);
        r += i32::from(!PV) + i32::from(!node.improving) + i32::from(node.cut_node);
        r -= i32::from(gives_check);
        if lm.quiet {
            r -= (lm.ord_score / LMR_HISTORY_DIVISOR)
                .clamp(-LMR_MAX_HISTORY_ADJUST, LMR_MAX_HISTORY_ADJUST);
            r -= i32::from(lm.killer);
        } else {
            r -= 1;
        }
        (r - 1).clamp(0, child_depth - 1)
    }
}
