//! The quiescence search: captures only (all legal moves when in check or
//! under bikjang), standing pat on the static evaluation otherwise, so that
//! the main search's leaves are scored in quiet positions.

use super::rules::{bikjang_stands, game_ending_pass_score, terminal_score};
use super::{Shared, Worker, INF};
use crate::eval::params::Pair;
use crate::movepick::{capture_victim, see_ge, MovePicker};
use crate::params::{self, Param};
use crate::tt::{TtBound, TtEntry};
use movegen::{Move, PieceKind, Position};

/// The draft of quiescence results in the transposition table: every
/// entry is deep enough for the quiescence search.
const QSEARCH_DEPTH: i32 = 0;

impl Worker {
    /// Quiescence search of the node at the stack's ply.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        pos: &mut Position,
        sh: &Shared,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        // 1. Count the node; stop when told to.
        let ply = self.stack.ply();
        if !self.enter_node::<PV>(sh, ply) {
            return 0;
        }

        // 2. The ply cap, and a Janggi game ended by passes.
        let in_check = pos.in_check();
        if let Some(v) = self.ply_cap_score(pos, ply, in_check) {
            return v;
        }
        if pos.variant().is_janggi()
            && pos.state().last_move.is_some_and(|m| m.is_pass())
            && pos.janggi_game_ended()
        {
            return terminal_score(pos, ply);
        }

        // 3. Transposition table.
        let key = pos.hash_key();
        let tte = sh.tt.probe(key, ply);
        if !PV {
            if let Some(v) = tte.and_then(|e| e.cutoff(QSEARCH_DEPTH, alpha, beta)) {
                return v;
            }
        }

        // 4. Standing pat. In check, or under bikjang (see `search`), every
        // legal move is searched and there is no standing pat.
        let mut best;
        let eval;
        // What the hash table keeps: the static evaluation, if the full one
        // was computed (the lazy estimate would mislead the main search).
        let mut tt_eval = None;
        let mut evasions = None;
        let forced = in_check || bikjang_stands(pos);
        if forced {
            eval = 0;
            best = -INF;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return terminal_score(pos, ply);
            }
            evasions = Some(moves);
        } else {
            eval = match tte.and_then(|e| e.eval) {
                Some(e) => e,
                None => {
                    let (v, full) = self.evaluator.lazy(pos, ply, alpha, beta);
                    if full {
                        tt_eval = Some(v);
                    }
                    v
                }
            };
            best = eval;
            // Janggi: where a pass would end the game (after the opponent's
            // pass, or accepting bikjang), that result is always available
            // to the side to move, so it bounds the node from below. The
            // main search tries the pass as a move; here it would otherwise
            // be beyond the horizon.
            if pos.variant().is_janggi() {
                if let Some(v) = game_ending_pass_score(pos, ply) {
                    best = best.max(v);
                }
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        // 5. Move ordering. The hash move is checked only now that standing
        // pat did not settle the node, and only if it is a move this node
        // searches.
        let tt_move = tte
            .and_then(|e| e.mv)
            .filter(|&m| (forced || capture_victim(pos, m).is_some()) && pos.is_legal(m));
        let mut picker = match &evasions {
            Some(list) => {
                let ord = self.ordering(pos.side_to_move(), self.stack.ply(), [None; 2], None);
                MovePicker::all(pos, list, tt_move, &ord)
            }
            None => {
                let mut p = MovePicker::main(None);
                p.load_captures(pos, tt_move);
                p
            }
        };

        // 6. The move loop.
        let material = &crate::eval::Weights::builtin(pos.variant().game())
            .params
            .material;
        let mut best_move = None;
        let old_alpha = alpha;
        while let Some((m, _)) = picker.next_listed() {
            if !forced && capture_pruned(pos, m, eval, alpha, material) {
                continue;
            }
            self.make(pos, sh, m);
            let score = -self.qsearch::<PV>(pos, sh, -beta, -alpha);
            self.unmake(pos);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        // 7. Store.
        let entry = TtEntry {
            mv: best_move,
            score: best,
            eval: tt_eval,
            depth: QSEARCH_DEPTH,
            bound: TtBound::of(best, old_alpha, beta, PV),
        };
        sh.tt.store(key, ply, entry);
        best
    }
}

/// Whether the quiescence search skips the capture `m` (a quiet `m`, which
/// only evasions hand out, is never skipped here).
#[inline]
fn capture_pruned(pos: &Position, m: Move, eval: i32, alpha: i32, material: &[Pair; 8]) -> bool {
    let Some(v) = capture_victim(pos, m) else {
        return false;
    };
    // Delta pruning: even winning this piece for free cannot raise alpha.
    let margin = params::get(Param::DeltaMargin, pos.variant().game());
    if v != PieceKind::General && eval + material[v.index()][1] + margin <= alpha {
        return true;
    }
    // Captures that lose material by static exchange.
    !see_ge(pos, m, 0)
}
