//! The main search: a principal-variation search below the root, laid
//! out as numbered steps. The selectivity helpers are in `pruning`, the
//! game ends by rule in `rules`, the leaves in `qsearch`.

use super::pruning::{
    late_move_count, late_quiet_pruned, reverse_futility, see_pruned, LateMove, Singular,
};
use super::rules::{bikjang_stands, rule_end_score, terminal_score};
use super::{Shared, Worker, INF, MAX_DEPTH};
use crate::correction::CorrectionKeys;
use crate::history::{history_bonus, PieceTo};
use crate::movepick::{capture_victim, MovePicker};
use crate::params::{self, Param};
use crate::tt::{TtBound, TtEntry};
use crate::{MATE, MATE_BOUND};
use arrayvec::ArrayVec;
use movegen::{Move, Position};

/// Most quiet moves remembered per node for the history malus.
const MAX_QUIETS: usize = 64;
/// Checks are extended only below this ply, so that a long series of
/// checks cannot run the search into the ply cap.
const CHECK_EXTENSION_MAX_PLY: usize = 2 * MAX_DEPTH as usize / 3;

/// What a node of the main search knows once it starts on its moves; the
/// pruning helpers and the move loop read it.
pub(super) struct Node {
    /// Distance from the root.
    pub ply: usize,
    /// Remaining depth (after internal iterative reduction).
    pub depth: i32,
    /// Upper bound of the window (after mate-distance pruning).
    pub beta: i32,
    /// Static evaluation (`-INF` in check), corrected by the correction
    /// history.
    pub eval: i32,
    /// The static evaluation before the correction (what the hash table
    /// keeps).
    pub raw_eval: i32,
    /// Whether the static evaluation improves on two plies ago.
    pub improving: bool,
    /// Whether a fail high is expected.
    pub cut_node: bool,
    /// In check, or Janggi bikjang: every legal move must be searched and
    /// neither a null move nor a static score is available.
    pub forced: bool,
    /// The hash move, checked for legality (`None` while it is excluded).
    pub tt_move: Option<Move>,
    /// The move this search of the node leaves out (the singular test).
    pub excluded: Option<Move>,
    /// Whether the hash move is singular and extended.
    pub singular: bool,
    /// The countermove to the opponent's last move (set at step 10).
    pub counter: Option<Move>,
    /// How many quiet moves are searched before late-move pruning.
    pub lmp_limit: i32,
}

impl Worker {
    /// Principal-variation search of the node at the stack's ply. `PV`
    /// nodes have an open window; `cut_node` says a fail high is expected.
    pub(super) fn search<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> i32 {
        // 1. Leaf: quiescence. Otherwise count the node; stop when told to.
        if depth <= 0 {
            return self.qsearch::<PV>(pos, sh, alpha, beta);
        }
        let ply = self.stack.ply();
        if !self.enter_node::<PV>(sh, ply) {
            return 0;
        }
        let in_check = pos.in_check();
        let game = pos.variant().game();

        // 2. Game ends by rule (Janggi-modern shuttling, repetition, the
        // move limit) and the ply cap.
        if let Some(v) = rule_end_score(pos, ply) {
            return v;
        }
        if let Some(v) = self.ply_cap_score(pos, ply, in_check) {
            return v;
        }

        // 3. Mate-distance pruning: no line from here can beat a mate
        // already found closer to the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // 4. Transposition table. A node searched without its hash move
        // (the singular test) neither takes the table's score nor stores
        // its own: both belong to the full node.
        let key = pos.hash_key();
        let excluded = self.stack.at(ply).excluded;
        let tte = sh.tt.probe(key, ply);
        let tt_move = tte
            .and_then(|e| e.mv)
            .filter(|&m| excluded.is_none() && pos.is_legal(m));
        if !PV && excluded.is_none() {
            if let Some(v) = tte.and_then(|e| e.cutoff(depth, alpha, beta)) {
                return v;
            }
        }

        // 5. Internal iterative reduction: a node expected to matter but
        // without a hash move is searched one ply shallower first; the next
        // iteration finds it again with a move to try first.
        let depth = if tt_move.is_none()
            && excluded.is_none()
            && depth >= params::get(Param::IirMinDepth, game)
            && (PV || cut_node)
        {
            depth - 1
        } else {
            depth
        };

        // 6. Static evaluation and whether it improves on two plies ago.
        // Janggi bikjang binds like a check: the side to move must break it
        // or pass (which accepts it and ends the game).
        let keys = if in_check {
            CorrectionKeys::default()
        } else {
            CorrectionKeys::of(pos)
        };
        let (raw_eval, eval, improving) =
            self.static_eval(pos, ply, in_check, keys, tte.and_then(|e| e.eval));
        let mut node = Node {
            ply,
            depth,
            beta,
            eval,
            raw_eval,
            improving,
            cut_node,
            forced: in_check || bikjang_stands(pos),
            tt_move,
            excluded,
            singular: false,
            counter: None,
            lmp_limit: late_move_count(game, depth, improving),
        };

        // 7. Reverse futility pruning and 8. the null move.
        let mut moves = None;
        if !PV && !node.forced && excluded.is_none() && beta.abs() < MATE_BOUND {
            if reverse_futility(game, &node) {
                return eval;
            }
            if let Some(v) = self.null_move(pos, sh, &node, &mut moves) {
                return v;
            }
        }

        // 9. Singular extension: when every alternative to the hash move
        // falls well short of its stored score, the hash move is extended;
        // when even the alternatives beat beta, the node is cut (multi-cut).
        if let Some(e) = tte {
            match self.singular(pos, sh, &node, &e) {
                Singular::Extend => node.singular = true,
                Singular::Cut(v) => return v,
                Singular::No => {}
            }
        }

        // 10. Move ordering: the hash move is tried before any other move
        // is generated. The countermove is read only now: the null move's
        // search may have changed the table.
        node.counter = self.counter_move(pos);
        let mut picker = match &moves {
            Some(list) => {
                let killers = self.stack.at(ply).killers;
                let ord = self.ordering(pos.side_to_move(), ply, killers, node.counter);
                MovePicker::all(pos, list, tt_move, &ord)
            }
            None => MovePicker::main(tt_move),
        };

        // 11. The move loop.
        let (best, best_move) = self.move_loop::<PV>(pos, sh, &node, &mut picker, alpha);
        if self.stopped {
            return 0;
        }

        // 12. No moves at all: mated (a stalemate loses too) or the Janggi
        // game ended by passes.
        if !picker.any {
            return terminal_score(pos, ply);
        }
        // Every move may have been pruned (only possible with a non-losing
        // line found, so `best` is set unless nothing was searched).
        if best == -INF {
            return alpha;
        }
        if excluded.is_some() {
            return best;
        }

        // 13. Learn the static evaluation's error, and store. Scores that
        // came from a repetition below are path-dependent; like most
        // engines we accept that small error (repetition nodes themselves
        // are never stored).
        let bound = TtBound::of(best, alpha, beta, true);
        self.learn_eval_error(pos, &node, keys, best, best_move, bound);
        let entry = TtEntry {
            mv: best_move,
            score: best,
            eval: (!in_check).then_some(node.raw_eval),
            depth,
            bound,
        };
        sh.tt.store(key, ply, entry);
        best
    }

    /// Step 6: the static evaluation of the node (from the hash entry's
    /// `tt_eval` when there is one; `-INF` in check) before and after the
    /// correction history's correction under `keys`, and whether the
    /// corrected one improves on two plies ago. Records it on the stack
    /// and gives the grandchildren fresh killers (children keep those of
    /// their cousins).
    #[inline]
    fn static_eval(
        &mut self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        keys: CorrectionKeys,
        tt_eval: Option<i32>,
    ) -> (i32, i32, bool) {
        let (raw, eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = match tt_eval {
                Some(e) => e,
                None => self.eval(pos, ply),
            };
            let c = self.correction.correction(pos.side_to_move(), keys);
            (raw, (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1))
        };
        self.stack.at_mut(ply).static_eval = eval;
        self.stack.at_mut(ply + 2).killers = [None; 2];
        let improving = !in_check && ply >= 2 && eval > self.stack.at(ply - 2).static_eval;
        (raw, eval, improving)
    }

    /// Step 13: teach the correction history how far `node`'s search
    /// result `best` (with `bound`, from `best_move`) lay from its
    /// corrected static evaluation. Only a quiet best move (or none) says
    /// something about the evaluation, and only a bound on the right side
    /// of it.
    #[inline]
    fn learn_eval_error(
        &mut self,
        pos: &Position,
        node: &Node,
        keys: CorrectionKeys,
        best: i32,
        best_move: Option<Move>,
        bound: TtBound,
    ) {
        let eval = node.eval;
        if node.forced
            || best_move.is_some_and(|m| capture_victim(pos, m).is_some())
            || best.abs() >= MATE_BOUND
            || (bound == TtBound::Lower && best <= eval)
            || (bound == TtBound::Upper && best >= eval)
        {
            return;
        }
        self.correction
            .update(pos.side_to_move(), keys, best - eval, node.depth);
    }

    /// Step 11: search the moves of `node` from `picker`, with the window's
    /// lower end at `alpha`, until one fails high. Returns the best score
    /// (`-INF` when every move was pruned or there was none) and the move
    /// that raised alpha, if any. Stops early when the search is stopped.
    #[inline]
    fn move_loop<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        node: &Node,
        picker: &mut MovePicker,
        mut alpha: i32,
    ) -> (i32, Option<Move>) {
        let us = pos.side_to_move();
        let game = pos.variant().game();
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets: ArrayVec<Move, MAX_QUIETS> = ArrayVec::new();
        let mut count = 0;
        loop {
            let killers = self.stack.at(node.ply).killers;
            let ord = self.ordering(us, node.ply, killers, node.counter);
            let Some((m, ord_score)) = picker.next(pos, &ord) else {
                break;
            };
            if Some(m) == node.excluded {
                continue;
            }
            let quiet = capture_victim(pos, m).is_none();
            count += 1;

            // 11a. Late-move and futility pruning of quiet moves at
            // shallow depth, once a non-losing line exists. Their
            // conditions, once true, stay true for the rest of the node, so
            // the picker drops the remaining quiet non-checks.
            if !PV
                && !node.forced
                && quiet
                && best > -MATE_BOUND
                && Some(m) != node.tt_move
                && late_quiet_pruned(game, node, count, alpha)
                && !pos.gives_check(m)
            {
                picker.quiet_checks_only(pos);
                continue;
            }

            // 11b. Moves that lose material by static exchange at shallow
            // depth, once a non-losing line exists (the hash move is
            // always searched).
            if !node.forced
                && best > -MATE_BOUND
                && Some(m) != node.tt_move
                && see_pruned(pos, node, m, quiet)
            {
                continue;
            }

            // 11c. Search the move.
            let lm = LateMove {
                mv: m,
                count,
                quiet,
                killer: Some(m) == killers[0] || Some(m) == killers[1],
                ord_score,
            };
            let score = self.search_move::<PV>(pos, sh, node, &lm, alpha);
            if self.stopped {
                break;
            }

            // 11d. A new best move; a cut-off teaches the ordering.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.pv.update(node.ply, m);
                    }
                    if score >= node.beta {
                        if quiet {
                            self.update_quiet_stats(pos, m, node, &quiets);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && Some(m) != best_move {
                let _ = quiets.try_push(m);
            }
        }
        (best, best_move)
    }

    /// Step 11c: play `lm`, extend it if it gives check, search it (the
    /// first move with the full window, later ones with a null window after
    /// a late move reduction, re-searched as PVS requires) and take it back.
    #[inline]
    fn search_move<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        node: &Node,
        lm: &LateMove,
        alpha: i32,
    ) -> i32 {
        let beta = node.beta;
        self.make(pos, sh, lm.mv);
        let gives_check = pos.in_check();
        let singular = node.singular && Some(lm.mv) == node.tt_move;
        let ext = i32::from((singular || gives_check) && node.ply < CHECK_EXTENSION_MAX_PLY);
        let nd = node.depth - 1 + ext;
        let mut score;
        if lm.count == 1 {
            score = -self.search::<PV>(pos, sh, -beta, -alpha, nd, false);
        } else {
            let r = self.reduction::<PV>(pos.variant().game(), node, nd, gives_check, lm);
            score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd - r, true);
            if score > alpha && r > 0 {
                score = -self.search::<false>(pos, sh, -alpha - 1, -alpha, nd, !node.cut_node);
            }
            if PV && score > alpha && score < beta {
                score = -self.search::<true>(pos, sh, -beta, -alpha, nd, false);
            }
        }
        self.unmake(pos);
        score
    }

    /// The countermove to the opponent's last move, if one is known.
    #[inline]
    fn counter_move(&self, pos: &Position) -> Option<Move> {
        pos.state()
            .last_move
            .and_then(|pm| pos.piece_at(pm.to()).and_then(|p| self.counters.get(p, pm)))
    }

    /// A quiet move `m` caused a cut-off at `node` after the quiet moves
    /// `tried`: reward it in the butterfly and continuation histories and
    /// punish those, and make it a killer and the countermove of the
    /// previous move.
    fn update_quiet_stats(&mut self, pos: &Position, m: Move, node: &Node, tried: &[Move]) {
        let bonus = history_bonus(pos.variant().game(), node.depth);
        let hist = self.history.side_mut(pos.side_to_move());
        hist.update(m, bonus);
        for &q in tried {
            if q != m {
                hist.update(q, -bonus);
            }
        }
        for prev in self.continuations(node.ply).into_iter().flatten() {
            if let Some(pt) = PieceTo::of(pos, m) {
                self.cont.update(prev, pt, bonus);
            }
            for &q in tried {
                if let Some(pt) = PieceTo::of(pos, q).filter(|_| q != m) {
                    self.cont.update(prev, pt, -bonus);
                }
            }
        }
        let k = &mut self.stack.at_mut(node.ply).killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(prev) = pos.state().last_move {
            if let Some(p) = pos.piece_at(prev.to()) {
                self.counters.set(p, prev, m);
            }
        }
    }
}
