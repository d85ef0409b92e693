//! Game judgement: is the game over, who won, and why (docs/RULES.md §1.2–1.5,
//! 2.2–2.3). This is the one implementation every user of the rules calls:
//! the referee's [`Position::judge`] and the search's [`cycle_verdict`].
//!
//! Order of the tests in [`Position::judge`]:
//! 1. a Janggi game already ended by a double pass or an accepted bikjang;
//! 2. no legal move: the side to move loses (checkmate or stalemate);
//! 3. repetition (third occurrence, fourth in `janggimodern`): perpetual
//!    check, then (Xiangqi) perpetual chase, decide; otherwise
//! 4. the `janggimodern` shuttle rule, before a plain repetition ends the
//!    game by the rule set's fallback;
//! 5. the move limit (Xiangqi: 60 moves with the 10-check allowance);
//! 6. insufficient material (Xiangqi).
//!
//! Chase information is computed lazily from the move history
//! (the private `chase` module), so make/unmake cost nothing extra. Kills
//! (mate threats, which never count as chases) are tested here, on a copy
//! of the position, and only for moves that would otherwise keep a chase
//! alive.

use std::fmt;

use crate::chase::{self, Board};
use crate::position::earlier_occurrences;
use crate::{Color, JanggiFallback, PieceKind, Position, State};

/// The result of a game: who has won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The game goes on.
    Ongoing,
    /// The first player (Red / Cho) has won.
    RedWins,
    /// The second player (Black / Han) has won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The result in which `c` wins.
    pub const fn win_for(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The PGN-style text: `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Ongoing => "*",
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game ended. [`fmt::Display`] gives the kebab-case names of the
/// `result` command (docs/PROTOCOL.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The game is not over.
    None,
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss).
    Stalemate,
    /// One side checked on every move of a repetition cycle and lost.
    PerpetualCheck,
    /// One side chased the same piece on every move of a cycle and lost.
    PerpetualChase,
    /// A repetition without a forbidden pattern: a draw.
    Repetition,
    /// The move limit without a capture was reached.
    MoveLimit,
    /// Xiangqi: neither side has a piece that can give mate.
    InsufficientMaterial,
    /// Janggi: a pass accepted facing generals.
    Bikjang,
    /// Janggi: two passes in a row.
    DoublePass,
    /// Janggi: a repetition decided by counting material points.
    Counting,
    /// `janggimodern`: a side shuttled one piece back and forth five times.
    Shuttle,
}

impl Reason {
    /// Every reason, in declaration order (readers of the names use it).
    pub const ALL: [Reason; 12] = [
        Reason::None,
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::Repetition,
        Reason::MoveLimit,
        Reason::InsufficientMaterial,
        Reason::Bikjang,
        Reason::DoublePass,
        Reason::Counting,
        Reason::Shuttle,
    ];

    /// The kebab-case name used by the `result` command.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::None => "none",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move-limit",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::Bikjang => "bikjang",
            Reason::DoublePass => "double-pass",
            Reason::Counting => "counting",
            Reason::Shuttle => "shuttle",
        }
    }

    /// Plain words for a game-end comment (`1-0 {perpetual chase}`).
    pub const fn words(self) -> &'static str {
        match self {
            Reason::None => "none",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move limit",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Bikjang => "bikjang",
            Reason::DoublePass => "double pass",
            Reason::Counting => "repetition, counting",
            Reason::Shuttle => "shuttle rule",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A judgement: the result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// Who won, or `Ongoing`.
    pub result: GameResult,
    /// Why the game ended (`Reason::None` while it goes on).
    pub reason: Reason,
}

impl Verdict {
    /// The game goes on.
    pub const ONGOING: Verdict = Verdict {
        result: GameResult::Ongoing,
        reason: Reason::None,
    };

    /// Whether the game is over.
    pub const fn is_over(&self) -> bool {
        !matches!(self.result, GameResult::Ongoing)
    }

    const fn new(result: GameResult, reason: Reason) -> Verdict {
        Verdict { result, reason }
    }
}

impl fmt::Display for Verdict {
    /// `result <r> reason <why>`, as the `result` command prints it after
    /// `info string`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result {} reason {}", self.result, self.reason)
    }
}

/// A repetition cycle's verdict from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleVerdict {
    /// The cycle is a draw.
    Draw,
    /// The side to move wins (the opponent checked or chased perpetually,
    /// or Janggi counting favours the side to move).
    SideToMoveWins,
    /// The side to move loses.
    SideToMoveLoses,
}

/// Janggi material points ×10: chariot 130, cannon 70, horse 50, elephant
/// 30, guard 30, soldier 20; Han (Black) adds 15 (docs/RULES.md §2.2). Counts are
/// never equal, so counting always has a winner.
pub fn janggi_points(pos: &Position, c: Color) -> u32 {
    let value = |k: PieceKind| -> u32 {
        match k {
            PieceKind::General => 0,
            PieceKind::Chariot => 130,
            PieceKind::Cannon => 70,
            PieceKind::Horse => 50,
            PieceKind::Elephant | PieceKind::Advisor => 30,
            PieceKind::Soldier => 20,
        }
    };
    let material: u32 = PieceKind::ALL
        .into_iter()
        .map(|k| value(k) * pos.count(c, k) as u32)
        .sum();
    material + if c == Color::Black { 15 } else { 0 }
}

/// The side that wins on Janggi counting.
fn counting_winner(pos: &Position) -> Color {
    if janggi_points(pos, Color::Red) > janggi_points(pos, Color::Black) {
        Color::Red
    } else {
        Color::Black
    }
}

/// The result a Janggi game gets when it ends without mate.
fn janggi_fallback_result(pos: &Position) -> GameResult {
    match pos.variant().janggi_fallback() {
        Some(JanggiFallback::Counting) => GameResult::win_for(counting_winner(pos)),
        _ => GameResult::Draw,
    }
}

/// The move-limit counter as the rules count it: plies without a capture,
/// less the plies that do not count. In Xiangqi each side's first 10 checks
/// since the last capture advance the count; a further check and the reply
/// to it do not (docs/RULES.md §1.4). Only the known history can be inspected:
/// plies before it (the FEN counter) all count.
pub fn move_limit_count(pos: &Position) -> u16 {
    let plies = pos.rule_plies();
    if pos.variant().is_janggi() {
        return plies;
    }
    let states = pos.states();
    let n = states.len() - 1;
    // The window since the last capture, within the known history.
    let first = (1..=n)
        .rev()
        .find(|&i| states[i].captured.is_some())
        .map_or(1, |i| i + 1);
    let mut checks = [0u32; 2];
    let mut void = 0u16;
    let mut reply_is_void = false;
    // The side that made move `first`: the side to move at `first - 1`.
    let mut mover = if (n - (first - 1)) % 2 == 0 {
        pos.side_to_move()
    } else {
        !pos.side_to_move()
    };
    for st in &states[first.min(n + 1)..] {
        let mut this_void = reply_is_void;
        reply_is_void = false;
        if st.in_check && st.last_move.is_some() {
            checks[mover.index()] += 1;
            if checks[mover.index()] > 10 {
                this_void = true;
                reply_is_void = true;
            }
        }
        if this_void {
            void += 1;
        }
        mover = !mover;
    }
    plies.saturating_sub(void)
}

/// Index into `states` of the earliest of the `need` occurrences of the
/// current position (see [`earlier_occurrences`]); `None` if it has not
/// occurred that often.
fn repetition_start(states: &[State], need: usize) -> Option<usize> {
    let n = states.len() - 1;
    earlier_occurrences(states)
        .nth(need.saturating_sub(2))
        .map(|back| n - back)
}

/// What each side did on all of its moves in a cycle.
#[derive(Clone, Copy, Default, Debug)]
struct CycleFacts {
    /// Indexed by colour: checked on every move of the cycle.
    perpetual_check: [bool; 2],
    /// Indexed by colour: chased one (tracked) piece on every move.
    perpetual_chase: [bool; 2],
}

/// The facts of the cycle made of the moves into `states[start+1..]`.
fn cycle_facts(pos: &Position, start: usize) -> CycleFacts {
    let states = pos.states();
    let n = states.len() - 1;
    let mut facts = CycleFacts::default();
    if start >= n {
        return facts;
    }
    // Colour of the side that made the move into state i.
    let mover_of = |i: usize| -> Color {
        if (n - i) % 2 == 0 {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        }
    };
    let mut checks = [true; 2];
    let mut moved = [false; 2];
    for (i, st) in states.iter().enumerate().skip(start + 1) {
        let c = mover_of(i).index();
        moved[c] = true;
        checks[c] &= st.in_check;
    }
    for c in 0..2 {
        facts.perpetual_check[c] = moved[c] && checks[c];
    }
    // Chases matter only when no side checked perpetually (rules 2 and 6).
    if !pos.variant().is_janggi() && facts.perpetual_check == [false, false] {
        facts.perpetual_chase = perpetual_chases(pos, start);
    }
    facts
}

/// Xiangqi: for each colour, whether it chased one piece (followed as it
/// moves) with every one of its moves in the cycle.
fn perpetual_chases(pos: &Position, start: usize) -> [bool; 2] {
    let states = pos.states();
    let n = states.len() - 1;
    // Rebuild the board at the start of the cycle.
    let mut board: Board = *pos.board();
    for st in states[start + 1..].iter().rev() {
        let Some(m) = st.last_move else {
            return [false; 2];
        };
        chase::revert(&mut board, m, st.captured);
    }
    // Candidate victims per colour; `None` until that colour has moved.
    let mut candidates: [Option<chase::Victims>; 2] = [None, None];
    for st in &states[start + 1..=n] {
        let Some(m) = st.last_move else {
            return [false; 2];
        };
        let Some(mover) = board[m.from().index()] else {
            return [false; 2];
        };
        let us = mover.color().index();
        let them = 1 - us;
        // A side whose candidates ran out cannot chase perpetually: skip
        // the work for its remaining moves.
        let hopeless = candidates[us].as_ref().is_some_and(|v| v.is_empty());
        if !hopeless {
            // A checking move that also creates a new threat is a chase too
            // (reference cases 5 and 10): only a check that threatens
            // nothing new breaks a chase (rule 4).
            let only = candidates[us].as_ref().map(|v| v.as_slice());
            let victims = chase::chased_by_move(&board, m, only);
            candidates[us] = Some(match candidates[us].take() {
                None => victims,
                Some(prev) => prev.into_iter().filter(|v| victims.contains(v)).collect(),
            });
        }
        if candidates
            .iter()
            .all(|c| c.as_ref().is_some_and(|v| v.is_empty()))
        {
            return [false; 2];
        }
        // Our move may move a piece the opponent is chasing: follow it.
        if let Some(theirs) = candidates[them].as_mut() {
            for v in theirs.iter_mut() {
                if *v == m.from().raw() {
                    *v = m.to().raw();
                }
            }
        }
        chase::apply(&mut board, m);
    }
    let chasing = [0, 1].map(|c| candidates[c].as_ref().is_some_and(|v| !v.is_empty()));
    if chasing == [false, false] {
        return chasing;
    }
    without_kills(pos, start, chasing)
}

/// Rule 3 (docs/RULES.md §1.3, family A): a move that threatens mate
/// without checking is a "kill", an allowed move even when it also attacks
/// a loose piece, so a side that made one in the cycle is not chasing; a
/// mate by taking a piece the move chases does not count (the threat to
/// win that piece is a chase). A side
/// still counted as chasing (`chasing`) chased on every one of its moves,
/// so testing its non-checking moves for a kill afterwards gives the same
/// verdict as dropping the kill's chases on the way; done here, the move
/// generation it costs is spent only on cycles that would otherwise be
/// perpetual chases.
fn without_kills(pos: &Position, start: usize, mut chasing: [bool; 2]) -> [bool; 2] {
    let states = pos.states();
    let mut p = pos.clone();
    // Walk back from the end of the cycle: `p` stands after move `i`.
    for i in (start + 1..states.len()).rev() {
        let st = &states[i];
        let mover = st
            .last_move
            .and_then(|m| p.piece_at(m.to()))
            .map(|piece| piece.color().index());
        if let (Some(c), Some(m)) = (mover, st.last_move) {
            if chasing[c] && !st.in_check {
                // A mate by taking a piece the move chases is the threat to
                // win that piece: it does not make the move a kill.
                let mut before: Board = *p.board();
                chase::revert(&mut before, m, st.captured);
                let victims = chase::chased_by_move(&before, m, None);
                if threatens_mate(&mut p, &victims) {
                    chasing[c] = false;
                }
            }
        }
        if chasing == [false, false] {
            break;
        }
        p.unmake_move();
    }
    chasing
}

/// Whether the side that just moved, without giving check, threatens
/// mate: were it to move again, it would have a move that leaves the
/// opponent in check with no legal move (docs/RULES.md §1.3, "kill"), other
/// than a capture on one of the points in `spared` (the pieces the move
/// chases: a mate by taking one of them is a threat to win it, which the
/// chase rules judge).
fn threatens_mate(p: &mut Position, spared: &[u8]) -> bool {
    if p.in_check() {
        return false;
    }
    // Give the move back to the side that just moved.
    p.make_null();
    let mates = p.legal_moves().into_iter().any(|m| {
        if spared.contains(&m.to().raw()) || !p.gives_check(m) {
            return false;
        }
        p.make_move(m);
        let mate = p.has_no_legal_move();
        p.unmake_move();
        mate
    });
    p.unmake_null();
    mates
}

/// The verdict of a cycle from the colours' point of view: `Some(loser)`
/// for a forbidden pattern, `None` for no loser (draw or fallback).
fn cycle_loser(facts: &CycleFacts) -> Option<Color> {
    let [rc, bc] = facts.perpetual_check;
    match (rc, bc) {
        (true, false) => return Some(Color::Red),
        (false, true) => return Some(Color::Black),
        (true, true) => return None,
        (false, false) => {}
    }
    match facts.perpetual_chase {
        [true, false] => Some(Color::Red),
        [false, true] => Some(Color::Black),
        _ => None,
    }
}

/// The verdict of the repetition cycle that ends at the current position
/// and began `plies_back` plies ago (where the same position stood), from
/// the side to move's point of view, by the rules [`Position::judge`] uses:
/// perpetual check and (Xiangqi) perpetual chase lose; otherwise Xiangqi
/// and the draw rule sets draw, and counting decides in `janggi` and
/// `janggimodern`. For the search, which may score a repetition on its path
/// at once. A `plies_back` outside the history gives `Draw`.
pub fn cycle_verdict(pos: &Position, plies_back: usize) -> CycleVerdict {
    let n = pos.history_len();
    if plies_back == 0 || plies_back > n {
        return CycleVerdict::Draw;
    }
    let facts = cycle_facts(pos, n - plies_back);
    let us = pos.side_to_move();
    let winner = match cycle_loser(&facts) {
        Some(loser) => Some(!loser),
        None => match pos.variant().janggi_fallback() {
            Some(JanggiFallback::Counting) => Some(counting_winner(pos)),
            _ => None,
        },
    };
    match winner {
        None => CycleVerdict::Draw,
        Some(w) if w == us => CycleVerdict::SideToMoveWins,
        Some(_) => CycleVerdict::SideToMoveLoses,
    }
}

/// `janggimodern`: whether the side that just moved has now moved one
/// piece (not the general or a guard) back and forth between the same two
/// points on each of its last five moves (it loses). Used by
/// [`Position::judge`] and by the search.
pub fn shuttle_violation(pos: &Position) -> bool {
    let states = pos.states();
    let n = states.len() - 1;
    if n < 9 {
        return false;
    }
    let Some(last) = states[n].last_move else {
        return false;
    };
    if last.is_pass() {
        return false;
    }
    let kind_ok = pos
        .piece_at(last.to())
        .is_some_and(|p| !matches!(p.kind(), PieceKind::General | PieceKind::Advisor));
    if !kind_ok {
        return false;
    }
    (0..5).all(|k| {
        let Some(m) = states[n - 2 * k].last_move else {
            return false;
        };
        let (a, b) = if k % 2 == 0 {
            (last.from(), last.to())
        } else {
            (last.to(), last.from())
        };
        !m.is_pass() && m.from() == a && m.to() == b
    })
}

/// Xiangqi: neither side has a chariot, horse, cannon or soldier.
fn insufficient_material(pos: &Position) -> bool {
    Color::BOTH.into_iter().all(|c| {
        [
            PieceKind::Chariot,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ]
        .into_iter()
        .all(|k| pos.count(c, k) == 0)
    })
}

impl Position {
    /// The game as a referee sees it now, judged from the whole known
    /// history in [`Position::states`]: whether it is over, who won and why.
    pub fn judge(&self) -> Verdict {
        let us = self.side_to_move();
        let variant = self.variant();
        let states = self.states();
        let n = states.len() - 1;

        // 1. Janggi: double pass or accepted bikjang already ended it.
        if self.janggi_game_ended() {
            let prev_pass = n >= 2 && states[n - 1].last_move.is_some_and(|m| m.is_pass());
            let reason = if prev_pass {
                Reason::DoublePass
            } else {
                Reason::Bikjang
            };
            return Verdict::new(janggi_fallback_result(self), reason);
        }

        // 2. No legal move loses.
        if !self.has_both_generals() {
            // Only a finished game can lack a general: its owner lost.
            let loser = if self.count(us, PieceKind::General) == 0 {
                us
            } else {
                !us
            };
            return Verdict::new(GameResult::win_for(!loser), Reason::Checkmate);
        }
        if self.has_no_legal_move() {
            let reason = if self.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Verdict::new(GameResult::win_for(!us), reason);
        }

        // 3./4. Repetition and the shuttle rule.
        let repetition = repetition_start(states, variant.repetition_count() as usize);
        let mut repetition_verdict = None;
        if let Some(start) = repetition {
            let facts = cycle_facts(self, start);
            if let Some(loser) = cycle_loser(&facts) {
                let reason = if facts.perpetual_check.iter().any(|&c| c) {
                    Reason::PerpetualCheck
                } else {
                    Reason::PerpetualChase
                };
                return Verdict::new(GameResult::win_for(!loser), reason);
            }
            repetition_verdict = Some(match variant.janggi_fallback() {
                Some(JanggiFallback::Counting) => {
                    Verdict::new(GameResult::win_for(counting_winner(self)), Reason::Counting)
                }
                _ => Verdict::new(GameResult::Draw, Reason::Repetition),
            });
        }
        if variant.has_shuttle_rule() && shuttle_violation(self) {
            // The side that just moved shuttled: it loses.
            return Verdict::new(GameResult::win_for(us), Reason::Shuttle);
        }
        if let Some(v) = repetition_verdict {
            return v;
        }

        // 5. Move limit.
        if move_limit_count(self) >= variant.move_limit_plies() {
            let result = if variant.is_janggi() {
                janggi_fallback_result(self)
            } else {
                GameResult::Draw
            };
            return Verdict::new(result, Reason::MoveLimit);
        }

        // 6. Insufficient material.
        if !variant.is_janggi() && insufficient_material(self) {
            return Verdict::new(GameResult::Draw, Reason::InsufficientMaterial);
        }
        Verdict::ONGOING
    }
}

/// Xiangqi: whether the last move of the history was a "kill" (it
/// threatens mate without giving check, other than by taking a piece it
/// chases: docs/RULES.md §1.3) — the test the cycle verdict applies, for
/// display and analysis. False for Janggi and for a position without
/// history.
pub fn last_move_is_kill(pos: &Position) -> bool {
    let st = &pos.states()[pos.states().len() - 1];
    let Some(m) = st.last_move else {
        return false;
    };
    if pos.variant().is_janggi() || st.in_check {
        return false;
    }
    let mut before: Board = *pos.board();
    chase::revert(&mut before, m, st.captured);
    let victims = chase::chased_by_move(&before, m, None);
    threatens_mate(&mut pos.clone(), &victims)
}

/// Xiangqi: the enemy pieces (their squares) that the last move of the
/// history chased, by the definition of docs/RULES.md §1.3 — for display and
/// analysis (`d` output, GUIs explaining a verdict). Empty for Janggi and
/// for a position without history. The kill rule (a move that threatens
/// mate chases nothing) is applied by the cycle verdict, not here.
pub fn chased_by_last_move(pos: &Position) -> Vec<crate::Square> {
    let states = pos.states();
    let n = states.len() - 1;
    let st = &states[n];
    let Some(m) = st.last_move else {
        return Vec::new();
    };
    if pos.variant().is_janggi() {
        return Vec::new();
    }
    let mut before: Board = *pos.board();
    chase::revert(&mut before, m, st.captured);
    chase::chased_by_move(&before, m, None)
        .into_iter()
        .filter_map(crate::Square::new)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(check: [bool; 2], chase: [bool; 2]) -> CycleFacts {
        CycleFacts {
            perpetual_check: check,
            perpetual_chase: chase,
        }
    }

    /// The verdict table of docs/RULES.md §1.3, rules 1, 2 and 5–7, on cycle
    /// facts (`[red, black]`).
    #[test]
    fn verdict_table() {
        let (t, f) = (true, false);
        // 1: nothing forbidden.
        assert_eq!(cycle_loser(&facts([f, f], [f, f])), None);
        // 2: one side checks perpetually and loses; both: draw.
        assert_eq!(cycle_loser(&facts([t, f], [f, f])), Some(Color::Red));
        assert_eq!(cycle_loser(&facts([f, t], [f, f])), Some(Color::Black));
        assert_eq!(cycle_loser(&facts([t, t], [f, f])), None);
        // 5: one side chases perpetually and loses; both: draw.
        assert_eq!(cycle_loser(&facts([f, f], [t, f])), Some(Color::Red));
        assert_eq!(cycle_loser(&facts([f, f], [f, t])), Some(Color::Black));
        assert_eq!(cycle_loser(&facts([f, f], [t, t])), None);
        // 6: a perpetual checker facing a perpetual chaser loses.
        assert_eq!(cycle_loser(&facts([t, f], [f, t])), Some(Color::Red));
        assert_eq!(cycle_loser(&facts([f, t], [t, f])), Some(Color::Black));
        // 7: occasional checks do not excuse a perpetual chase (the
        // occasional checker is not a perpetual checker).
        assert_eq!(cycle_loser(&facts([f, f], [f, t])), Some(Color::Black));
    }

    #[test]
    fn counting_never_ties() {
        let pos = Position::startpos(crate::Variant::Janggi);
        assert_eq!(counting_winner(&pos), Color::Black);
        assert!(janggi_points(&pos, Color::Red) % 10 == 0);
        assert!(janggi_points(&pos, Color::Black) % 10 == 5);
    }
}
