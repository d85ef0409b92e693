//! Selectivity of the main search: reverse futility pruning, the null
//! move, late-move and futility pruning of quiet moves, pruning of moves
//! that lose material by static exchange, the singular-extension test and
//! late move reductions, with their margins named here in one place, and
//! what the search does differently in each game ([`GameSearch`]).
//!
//! Margins are in centipawns per ply of remaining depth; depths are plies.
//! Their values, and what each one means, are rows of the tunable table
//! (`crate::params`), read here with `params::get` for the game played.

use super::pvs::Node;
use super::{Shared, Worker};
use crate::movepick::see_ge;
use crate::params::{self, Param};
use crate::tt::{TtBound, TtEntry};
use crate::MATE_BOUND;
use movegen::{ByGame, Color, Game, Move, MoveList, PieceKind, Position};

/// What the search does differently in each game besides the values of
/// its margins (those are per game in `crate::params`). (The games that
/// decided each setting: `docs/RESULTS.md`, "Search changes by SPRT".)
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameSearch {
    /// Whether the singular-extension test ([`Worker::singular`]) is made.
    pub singular_extension: bool,
    /// Whether quiet moves are ordered and rewarded by the continuation
    /// history one and two plies back (`crate::history::ContinuationHistory`).
    pub continuation_history: bool,
}

/// Each game's search settings (Janggi's for every rule set).
static GAME_SEARCH: ByGame<GameSearch> = ByGame::new(
    GameSearch {
        singular_extension: true,
        continuation_history: false,
    },
    GameSearch {
        singular_extension: false,
        continuation_history: true,
    },
);

/// The search settings of the position's game.
#[inline]
pub(crate) fn game_search(pos: &Position) -> &'static GameSearch {
    game_search_of(pos.variant().game())
}

/// The search settings of `game`.
#[inline]
pub(crate) fn game_search_of(game: Game) -> &'static GameSearch {
    GAME_SEARCH.get(game)
}

/// Reverse futility: far above beta at low depth, a quiet move will not
/// bring the score back down.
#[inline]
pub(super) fn reverse_futility(game: Game, node: &Node) -> bool {
    let margin = params::get(Param::RfpMarginPerPly, game) * node.depth
        - if node.improving {
            params::get(Param::RfpImprovingMargin, game)
        } else {
            0
        };
    node.depth <= params::get(Param::RfpMaxDepth, game) && node.eval - margin >= node.beta
}

/// How many quiet moves a node at `depth` searches before late-move
/// pruning starts.
#[inline]
pub(super) fn late_move_count(game: Game, depth: i32, improving: bool) -> i32 {
    (params::get(Param::LmpBase, game) + depth * depth) / if improving { 1 } else { 2 }
}

/// Whether the `count`th move, a quiet one, is pruned: past the node's
/// move-count limit, or futile (the static evaluation plus a margin does
/// not reach alpha). Both conditions, once true, stay true for the rest
/// of the node.
#[inline]
pub(super) fn late_quiet_pruned(game: Game, node: &Node, count: i32, alpha: i32) -> bool {
    let depth = node.depth;
    let margin = params::get(Param::FutilityMarginBase, game)
        + params::get(Param::FutilityMarginPerPly, game) * depth;
    (depth <= params::get(Param::LmpMaxDepth, game) && count > node.lmp_limit)
        || (depth <= params::get(Param::FutilityMaxDepth, game) && node.eval + margin <= alpha)
}

/// Whether the move `m` loses so much by static exchange at this shallow
/// depth that it is not searched. A quiet move that fails its margin but
/// gives check is judged with the captures' looser one (the check test is
/// made only then).
#[inline]
pub(super) fn see_pruned(pos: &Position, node: &Node, m: Move, quiet: bool) -> bool {
    let depth = node.depth;
    let game = pos.variant().game();
    if depth > params::get(Param::SeePruneMaxDepth, game) {
        return false;
    }
    let loose = -params::get(Param::SeeCaptureMargin, game) * depth;
    if quiet {
        if see_ge(
            pos,
            m,
            -params::get(Param::SeeQuietMargin, game) * depth * depth,
        ) {
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

/// Base late move reductions by depth and move number, for the terms
/// (`lmr_base`, `lmr_divisor`) of the game last searched.
pub(super) struct Reductions {
    table: Box<[[u8; 64]; 64]>,
    /// The terms the table was computed from.
    terms: (i32, i32),
}

impl Reductions {
    /// The table for `game`'s terms.
    pub fn new(game: Game) -> Reductions {
        let mut r = Reductions {
            table: Box::new([[0u8; 64]; 64]),
            terms: (0, 0),
        };
        r.fill(game);
        r
    }

    /// Make the table `game`'s: recomputed only when its terms differ from
    /// those it was made with (another game's, or a tuner's new values),
    /// so a search normally pays one comparison.
    pub fn prepare(&mut self, game: Game) {
        if Self::terms(game) != self.terms {
            self.fill(game);
        }
    }

    fn terms(game: Game) -> (i32, i32) {
        (
            params::get(Param::LmrBase, game),
            params::get(Param::LmrDivisor, game),
        )
    }

    /// Reductions grow with the log of depth and move number.
    fn fill(&mut self, game: Game) {
        let base = params::fraction(Param::LmrBase, game, 100.0);
        let divisor = params::fraction(Param::LmrDivisor, game, 100.0);
        for (d, row) in self.table.iter_mut().enumerate().skip(1) {
            for (m, v) in row.iter_mut().enumerate().skip(1) {
                *v = (base + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        self.terms = Self::terms(game);
    }

    #[inline]
    fn base(&self, depth: i32, count: i32) -> i32 {
        i32::from(self.table[depth.min(63) as usize][(count as usize).min(63)])
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
        let game = pos.variant().game();
        let prev_null = pos.state().last_move.is_none() && pos.history_len() > 0;
        if !(depth >= params::get(Param::NmpMinDepth, game)
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
        let r = params::get(Param::NmpBaseReduction, game)
            + depth / params::get(Param::NmpDepthDivisor, game)
            + ((eval - beta) / params::get(Param::NmpEvalDivisor, game))
                .min(params::get(Param::NmpMaxEvalReduction, game));
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
        if depth < params::get(Param::NmpVerifyDepth, game) || self.nmp_min_ply > 0 {
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
        let game = pos.variant().game();
        if node.depth < params::get(Param::SeMinDepth, game)
            || node.excluded.is_some()
            || !game_search(pos).singular_extension
            || tte.depth < node.depth - params::get(Param::SeTtDepthSlack, game)
            || tte.bound == TtBound::Upper
            || tte.score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let sb = tte.score - params::get(Param::SeMarginPerPly, game) * node.depth;
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
        game: Game,
        node: &Node,
        child_depth: i32,
        gives_check: bool,
        lm: &LateMove,
    ) -> i32 {
        if !(node.depth >= params::get(Param::LmrMinDepth, game)
            && lm.count > 1 + i32::from(PV)
            && (lm.quiet || lm.count > params::get(Param::LmrMinCaptureCount, game)))
        {
            return 0;
        }
        let mut r = self.reductions.base(node.depth, lm.count);
        r += i32::from(!PV) + i32::from(!node.improving) + i32::from(node.cut_node);
        r -= i32::from(gives_check);
        if lm.quiet {
            let adjust = params::get(Param::LmrMaxHistoryAdjust, game);
            r -=
                (lm.ord_score / params::get(Param::LmrHistoryDivisor, game)).clamp(-adjust, adjust);
            r -= i32::from(lm.killer);
        } else {
            r -= 1;
        }
        (r - 1).clamp(0, child_depth - 1)
    }
}
