//! Move ordering, in stages so that work is only done when it is needed.
//!
//! Main search: the transposition-table move (already checked for
//! legality) before anything is generated; then the captures, generated
//! alone and handed out by most valuable victim / least valuable attacker;
//! only then the quiet moves, scored by killer, countermove and history;
//! last the bad captures, those that lose material by static exchange
//! evaluation (tested only when a capture's turn comes). Most nodes are
//! cut off by the hash move or a capture, and then the quiet moves are
//! never generated.
//!
//! Within a stage the first moves are picked by selection (a cut-off
//! usually comes after one or two), and once a few have been handed out the
//! rest of the stage is sorted in one go: an all-node visits every move,
//! and repeated selection would cost quadratic time there.

use crate::eval::params::{Pair, JANGGI, XIANGQI};
use crate::history::{PieceTo, PieceToHistory, SideHistory};
use arrayvec::ArrayVec;
use movegen::ByGame;
use movegen::{Move, MoveList, PieceKind, Position, SeeValues, MAX_MOVES};

/// The general's value in static exchanges: more than all other pieces
/// together (it is only ever captured in a game already lost).
const SEE_GENERAL: i32 = 20_000;

/// Static exchange values from the evaluation's material (middle and end
/// game averaged), so that one table says what a piece is worth.
const fn see_values(material: &[Pair; 8]) -> SeeValues {
    let mut v = [0; 8];
    let mut i = 0;
    while i < 8 {
        v[i] = (material[i][0] + material[i][1]) / 2;
        i += 1;
    }
    v[PieceKind::General.index()] = SEE_GENERAL;
    SeeValues::new(v)
}

/// Exchange values of each game.
static SEE: ByGame<SeeValues> =
    ByGame::new(see_values(&XIANGQI.material), see_values(&JANGGI.material));

/// The static exchange values of the position's game.
#[inline]
pub(crate) fn see_values_of(pos: &Position) -> &'static SeeValues {
    SEE.get(pos.variant().game())
}

/// Whether the legal move `m` wins at least `threshold` (centipawns) in
/// the exchange on its destination.
#[inline]
pub(crate) fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    pos.see_ge(m, threshold, see_values_of(pos))
}

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
/// Captures that lose material by static exchange, in a pre-generated
/// list: below every quiet move (history scores are 16-bit).
const BAD_CAPTURE_SCORE: i32 = -(1 << 20);
const KILLER1: i32 = 1 << 26;
const KILLER2: i32 = KILLER1 - 1;
const COUNTER: i32 = KILLER1 - 2;

/// Picks by selection before the rest of a stage is sorted.
const SELECTION_PICKS: usize = 3;

/// History-based tables a picker reads.
pub(crate) struct OrderHints<'a> {
    /// Butterfly history of the side to move.
    pub history: &'a SideHistory,
    /// Continuation history after the moves one and two plies back, where
    /// there are such moves.
    pub cont: [Option<&'a PieceToHistory>; 2],
    /// Killers of this ply.
    pub killers: [Option<Move>; 2],
    /// Countermove to the previous move.
    pub counter: Option<Move>,
}

/// A move with its ordering score.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    score: i32,
}

/// Where a picker stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Hand out the hash move.
    Tt,
    /// Generate and score the captures.
    GenCaptures,
    /// Hand out the captures.
    Captures,
    /// Generate and score the quiet moves.
    GenQuiets,
    /// Hand out the current list (quiet moves, or everything at once for
    /// evasions, quiescence captures and pre-generated lists) to the end.
    Rest,
    /// Hand out the bad captures put aside by the capture stage.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// Moves handed out best first, generated stage by stage.
pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    list: ArrayVec<Scored, MAX_MOVES>,
    next: usize,
    /// Captures that lose material, in the order they were picked.
    bad: ArrayVec<Move, MAX_MOVES>,
    /// Whether bad captures are put aside (the main staged picker).
    defer_bad: bool,
    /// Set once the search prunes the remaining quiet moves unless they
    /// give check.
    checks_only: bool,
    /// Whether any legal move was seen (false only if there is none).
    pub any: bool,
}

impl MovePicker {
    /// The main search's staged picker; `tt_move` must be legal.
    pub fn main(tt_move: Option<Move>) -> MovePicker {
        MovePicker {
            stage: Stage::Tt,
            tt_move,
            list: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
            defer_bad: true,
            checks_only: false,
            any: tt_move.is_some(),
        }
    }

    /// A picker over an already generated list of all legal moves (the
    /// hash move first when it is among them), ordered as the main picker
    /// orders them.
    pub fn all(pos: &Position, moves: &MoveList, tt_move: Option<Move>, ord: &OrderHints) -> Self {
        let mut p = MovePicker {
            stage: Stage::Rest,
            tt_move: None,
            list: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
            defer_bad: false,
            checks_only: false,
            any: !moves.is_empty(),
        };
        for &m in moves {
            let score = if Some(m) == tt_move {
                TT_SCORE
            } else if let Some(v) = capture_victim(pos, m) {
                let s = capture_score(pos, m, v);
                if see_ge(pos, m, 0) {
                    s
                } else {
                    s - CAPTURE_SCORE + BAD_CAPTURE_SCORE
                }
            } else {
                quiet_score(pos, m, ord)
            };
            p.list.push(Scored { mv: m, score });
        }
        p
    }

    /// Quiescence: the legal captures in MVV/LVA order, the hash move (if
    /// it is one of them) first. Fills `self` in place (the picker is too
    /// large to return by value at every node).
    #[inline]
    pub fn load_captures(&mut self, pos: &Position, tt_move: Option<Move>) {
        self.stage = Stage::Rest;
        self.tt_move = None;
        self.next = 0;
        self.checks_only = false;
        self.list.clear();
        let mut moves = MoveList::new();
        pos.push_legal_captures(&mut moves);
        for &m in &moves {
            let score = if Some(m) == tt_move {
                TT_SCORE
            } else {
                capture_victim(pos, m).map_or(0, |v| capture_score(pos, m, v))
            };
            self.list.push(Scored { mv: m, score });
        }
        self.any = !self.list.is_empty();
    }

    /// The next move with its ordering score; `ord` is read when the quiet
    /// moves are generated.
    #[inline]
    pub fn next(&mut self, pos: &Position, ord: &OrderHints) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenCaptures;
                    if let Some(m) = self.tt_move {
                        return Some((m, TT_SCORE));
                    }
                }
                Stage::GenCaptures => {
                    let mut moves = MoveList::new();
                    pos.push_legal_captures(&mut moves);
                    self.fill(&moves, |m| {
                        capture_victim(pos, m).map_or(0, |v| capture_score(pos, m, v))
                    });
                    self.stage = Stage::Captures;
                }
                Stage::Captures => match self.pick() {
                    Some(s) => {
                        if self.defer_bad && !see_ge(pos, s.mv, 0) {
                            self.bad.push(s.mv);
                            continue;
                        }
                        return Some((s.mv, s.score));
                    }
                    None => self.stage = Stage::GenQuiets,
                },
                Stage::GenQuiets => {
                    let mut moves = MoveList::new();
                    pos.push_legal_quiets(&mut moves);
                    self.fill(&moves, |m| quiet_score(pos, m, ord));
                    self.stage = Stage::Rest;
                }
                Stage::Rest => match self.pick() {
                    Some(s) => return Some((s.mv, s.score)),
                    None => {
                        self.stage = Stage::BadCaptures;
                        self.next = 0;
                    }
                },
                Stage::BadCaptures => match self.bad.get(self.next) {
                    Some(&m) => {
                        self.next += 1;
                        return Some((m, BAD_CAPTURE_SCORE));
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// The search will prune every further quiet move that does not give
    /// check (late-move and futility pruning: once their conditions hold
    /// they hold for the rest of the node). Drop those moves now instead of
    /// ordering and handing them out one by one; captures stay. Called only
    /// after a quiet move was handed out, so the list holds the quiet moves
    /// (or, for [`MovePicker::all`], the moves not yet handed out).
    pub fn quiet_checks_only(&mut self, pos: &Position) {
        if self.checks_only {
            return;
        }
        self.checks_only = true;
        debug_assert!(self.stage == Stage::Rest);
        let mut w = self.next;
        for r in self.next..self.list.len() {
            let s = self.list[r];
            if capture_victim(pos, s.mv).is_some() || pos.gives_check(s.mv) {
                self.list[w] = s;
                w += 1;
            }
        }
        self.list.truncate(w);
    }

    /// The next move of a picker built with its whole list
    /// ([`MovePicker::all`], [`MovePicker::load_captures`]), which needs no
    /// ordering tables any more.
    #[inline]
    pub fn next_listed(&mut self) -> Option<(Move, i32)> {
        debug_assert!(self.stage == Stage::Rest || self.stage == Stage::Done);
        self.pick().map(|s| (s.mv, s.score))
    }

    /// Replace the list by `moves` (less the hash move, already tried),
    /// scored by `score`.
    #[inline]
    fn fill(&mut self, moves: &MoveList, score: impl Fn(Move) -> i32) {
        self.list.clear();
        self.next = 0;
        for &m in moves {
            if Some(m) != self.tt_move {
                self.list.push(Scored {
                    mv: m,
                    score: score(m),
                });
            }
        }
        self.any |= !self.list.is_empty();
    }

    /// The best remaining move of the current list.
    #[inline]
    fn pick(&mut self) -> Option<Scored> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        if self.next < SELECTION_PICKS {
            let mut best = self.next;
            for i in self.next + 1..n {
                if self.list[i].score > self.list[best].score {
                    best = i;
                }
            }
            self.list.swap(self.next, best);
        } else if self.next == SELECTION_PICKS {
            insertion_sort(&mut self.list[SELECTION_PICKS..]);
        }
        let s = self.list[self.next];
        self.next += 1;
        Some(s)
    }
}

/// Sort best first, keeping generation order among equal scores. The lists
/// are short (rarely over 40 moves) and often nearly ordered by history, where
/// insertion sort beats the general-purpose sorts.
#[inline]
fn insertion_sort(list: &mut [Scored]) {
    for i in 1..list.len() {
        let x = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].score < x.score {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = x;
    }
}

/// MVV/LVA score of a capture of `victim`.
#[inline]
fn capture_score(pos: &Position, m: Move, victim: PieceKind) -> i32 {
    let attacker = pos.piece_at(m.from()).map_or(0, |p| order_value(p.kind()));
    CAPTURE_SCORE + order_value(victim) * 16 - attacker
}

/// Killer, countermove or history score of a quiet move: the butterfly
/// value plus the continuation values one and two plies back (each within
/// 16 bits, so the sum stays far below the killers).
#[inline]
fn quiet_score(pos: &Position, m: Move, ord: &OrderHints) -> i32 {
    if Some(m) == ord.killers[0] {
        KILLER1
    } else if Some(m) == ord.killers[1] {
        KILLER2
    } else if Some(m) == ord.counter {
        COUNTER
    } else {
        let mut s = i32::from(ord.history.get(m));
        if let Some(pt) = PieceTo::of(pos, m) {
            for t in ord.cont.iter().flatten() {
                s += i32::from(t.get(pt));
            }
        }
        s
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

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    /// The staged picker hands out every legal move exactly once, the hash
    /// move first, then the captures that do not lose material, the quiet
    /// moves, and last the captures that do.
    #[test]
    fn staged_picker_covers_all_moves_once() {
        let fens = [
            (
                Variant::Xiangqi,
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            ),
            (
                Variant::Xiangqi,
                "r1bakab1r/9/1cn3nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 3",
            ),
            (
                Variant::Janggi,
                "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            ),
            // Chariots can take defended soldiers: bad captures.
            (
                Variant::Xiangqi,
                "rnbakabnr/9/1c5c1/p1p1p1p1p/R7R/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1",
            ),
        ];
        let history = SideHistory::new();
        for (v, fen) in fens {
            let pos = Position::from_fen(fen, v).expect("valid FEN");
            let legal = pos.legal_moves();
            for tt in [None, legal.first().copied(), legal.last().copied()] {
                let ord = OrderHints {
                    history: &history,
                    cont: [None; 2],
                    killers: [legal.get(5).copied(), None],
                    counter: None,
                };
                let mut picker = MovePicker::main(tt);
                let mut seen = Vec::new();
                // 0: good captures, 1: quiet moves, 2: bad captures.
                let mut group = 0;
                while let Some((m, _)) = picker.next(&pos, &ord) {
                    if seen.is_empty() && tt.is_some() {
                        assert_eq!(Some(m), tt);
                    } else {
                        let g = match capture_victim(&pos, m) {
                            None => 1,
                            Some(_) if see_ge(&pos, m, 0) => 0,
                            Some(_) => 2,
                        };
                        assert!(g >= group, "{fen}: {m} out of its group");
                        group = g;
                    }
                    seen.push(m.code());
                }
                let mut all: Vec<_> = legal.iter().map(|m| m.code()).collect();
                all.sort_unstable();
                seen.sort_unstable();
                assert_eq!(seen, all, "{fen}");
                assert!(picker.any);
            }
        }
    }
}
