//! The position: mailbox, piece lists, side to move, Zobrist key and the
//! state stack that make/unmake and repetition judgement walk.

use crate::attacks::{self, general_attacked, generals_facing, BoardView};
use crate::occupancy::{self, Direction, LineScan, Occupancy};
use crate::variant::{with_rules, GameRules};
use crate::{zobrist, Color, Move, Piece, PieceKind, Square, Variant};

/// What one ply changed and what judging the game needs about it.
///
/// `Position::states()[i]` describes the position after the `i`-th move of
/// the known history (index 0: the position the history starts from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the position.
    pub key: u64,
    /// The move that led here (`None` for the starting position or after a
    /// null move).
    pub last_move: Option<Move>,
    /// The piece that move captured.
    pub captured: Option<Piece>,
    /// Index the captured piece had in its piece list (restored on unmake).
    captured_slot: u8,
    /// Plies since the last capture (the FEN halfmove field).
    pub rule_plies: u16,
    /// Whether the side to move is in check here.
    pub in_check: bool,
}

/// Earlier occurrences of the last position of `states`, nearest first, as
/// plies back (always even: the same side to move), within the stretch of
/// reversible moves before it — real moves (a null move ends it, a pass
/// does not) that captured nothing.
pub(crate) fn earlier_occurrences(states: &[State]) -> impl Iterator<Item = usize> + '_ {
    let n = states.len() - 1;
    let key = states[n].key;
    let reversible = |st: &State| st.last_move.is_some() && st.captured.is_none();
    (1..)
        .map(|k| 2 * k)
        .take_while(move |&back| {
            back <= n && reversible(&states[n + 2 - back]) && reversible(&states[n + 1 - back])
        })
        .filter(move |&back| states[n - back].key == key)
}

/// A Xiangqi or Janggi position with its move history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    /// Squares of each colour's pieces by kind; `counts` says how many.
    lists: [[[Square; 5]; 8]; 2],
    counts: [[u8; 8]; 2],
    /// For an occupied point, its index in its piece list.
    slot: [u8; 90],
    /// Which points are occupied, per file and rank (for sliding pieces).
    occ: Occupancy,
    side: Color,
    variant: Variant,
    key: u64,
    /// Full-move number of the first state (from the FEN).
    start_fullmove: u16,
    /// Side to move in the first state.
    start_side: Color,
    states: Vec<State>,
}

impl Position {
    /// An empty board (no generals: not playable until filled).
    pub(crate) fn empty(variant: Variant) -> Position {
        Position {
            board: [None; 90],
            lists: [[[Square(0); 5]; 8]; 2],
            counts: [[0; 8]; 2],
            slot: [0; 90],
            occ: Occupancy::default(),
            side: Color::Red,
            variant,
            key: 0,
            start_fullmove: 1,
            start_side: Color::Red,
            states: Vec::with_capacity(256),
        }
    }

    /// The standard start position of a variant.
    pub fn startpos(variant: Variant) -> Position {
        match Position::from_fen(variant.start_fen(), variant) {
            Ok(p) => p,
            Err(e) => unreachable!("built-in start FEN rejected: {e}"),
        }
    }

    /// Finish setting up after the board was filled by the FEN parser.
    pub(crate) fn finish_setup(&mut self, side: Color, rule_plies: u16, fullmove: u16) {
        self.side = side;
        self.start_side = side;
        self.start_fullmove = fullmove.max(1);
        self.key = self.compute_key();
        self.states.clear();
        let in_check = self.compute_in_check();
        self.states.push(State {
            key: self.key,
            last_move: None,
            captured: None,
            captured_slot: 0,
            rule_plies,
            in_check,
        });
    }

    /// Place a piece during setup. Returns false if the point was occupied
    /// or the side already has the maximum number of that kind.
    pub(crate) fn put(&mut self, p: Piece, s: Square) -> bool {
        let (c, k) = (p.color().index(), p.kind().index());
        if self.board[s.index()].is_some() || self.counts[c][k] >= p.kind().max_count() {
            return false;
        }
        self.add_piece(p, s);
        true
    }

    // ----- accessors ------------------------------------------------------

    /// The variant (game and rule set).
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of the current position.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key of the game state for hash tables: [`Position::key`], and
    /// whether the move just played was a Janggi pass. After a pass a
    /// second pass ends the game, so the same board with the same side to
    /// move is another game state there than after a move (or after the
    /// search's null move, which keeps [`Position::key`]'s value): a
    /// transposition table keyed by the board alone would hand the result
    /// of one to the other. Repetitions compare [`Position::key`] (the
    /// rules' "same position").
    #[inline]
    pub fn hash_key(&self) -> u64 {
        if self.state().last_move.is_some_and(|m| m.is_pass()) {
            self.key ^ zobrist::after_pass()
        } else {
            self.key
        }
    }

    /// The [`Position::hash_key`] the position will have after `m` (a
    /// legal move here), without making it: lets a search fetch the
    /// child's hash entry while it is still making the move.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let mut k = self.key ^ zobrist::side_toggle();
        if m.is_pass() {
            return k ^ zobrist::after_pass();
        }
        let (from, to) = (m.from(), m.to());
        if let Some(p) = self.board[from.index()] {
            k ^= zobrist::piece(p, from) ^ zobrist::piece(p, to);
        }
        if let Some(victim) = self.board[to.index()] {
            k ^= zobrist::piece(victim, to);
        }
        k
    }

    /// The first two pieces along a file or rank from `s` and the empty
    /// points before and between them, from the occupancy masks (no walk
    /// along the line). For evaluation terms such as slider mobility.
    #[inline]
    pub fn scan_line(&self, s: Square, d: Direction) -> LineScan {
        let (vertical, line, _, _) = occupancy::ray_line(s.raw(), d as usize);
        occupancy::scan(self.occ.line(vertical, line), s.raw(), d as usize)
    }

    /// Earlier occurrences of the current position in the known history,
    /// nearest first, as plies back, within the stretch of reversible moves
    /// (no capture, no null move) before it. Repetition judgement and the
    /// search's repetition test both walk this.
    #[inline]
    pub fn repetitions(&self) -> impl Iterator<Item = usize> + '_ {
        earlier_occurrences(&self.states)
    }

    /// Piece on a point.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.board[s.index()]
    }

    /// The whole board, indexed by square index.
    #[inline]
    pub fn board(&self) -> &[Option<Piece>; 90] {
        &self.board
    }

    /// Squares of one colour's pieces of one kind.
    #[inline]
    pub fn pieces(&self, c: Color, k: PieceKind) -> &[Square] {
        &self.lists[c.index()][k.index()][..self.counts[c.index()][k.index()] as usize]
    }

    /// How many pieces of a kind a side has.
    #[inline]
    pub fn count(&self, c: Color, k: PieceKind) -> usize {
        self.counts[c.index()][k.index()] as usize
    }

    /// The general of a colour. Every playable position has one.
    #[inline]
    pub fn general(&self, c: Color) -> Square {
        self.lists[c.index()][PieceKind::General.index()][0]
    }

    /// Whether both generals are on the board (false only after a general
    /// was captured in a finished Janggi game).
    #[inline]
    pub fn has_both_generals(&self) -> bool {
        self.counts[0][PieceKind::General.index()] == 1
            && self.counts[1][PieceKind::General.index()] == 1
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.state().in_check
    }

    /// The current state record.
    #[inline]
    pub fn state(&self) -> &State {
        // A position always holds its starting state.
        &self.states[self.states.len() - 1]
    }

    /// All state records from the start of the known history to now.
    #[inline]
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// Plies since the last capture.
    #[inline]
    pub fn rule_plies(&self) -> u16 {
        self.state().rule_plies
    }

    /// Plies played since the position was set up.
    #[inline]
    pub fn history_len(&self) -> usize {
        self.states.len() - 1
    }

    /// The full-move number (FEN field 6).
    pub fn fullmove(&self) -> u16 {
        let plies = self.history_len() + usize::from(self.start_side == Color::Black);
        self.start_fullmove.saturating_add((plies / 2) as u16)
    }

    /// Forget the move history, keeping the position (its current state
    /// becomes the first one). Used when a game's history is not needed.
    pub fn clear_history(&mut self) {
        let last = *self.state();
        self.start_fullmove = self.fullmove();
        self.start_side = self.side;
        self.states.clear();
        self.states.push(State {
            last_move: None,
            captured: None,
            ..last
        });
    }

    /// The occupancy masks (for a scratch copy of the board).
    #[inline]
    pub(crate) fn occupancy(&self) -> Occupancy {
        self.occ
    }

    /// Whether the generals stand on one open file.
    #[inline]
    pub fn generals_facing(&self) -> bool {
        self.has_both_generals()
            && generals_facing(
                self,
                self.general(Color::Red).raw(),
                self.general(Color::Black).raw(),
            )
    }

    // ----- attacks --------------------------------------------------------

    /// Whether a colour's general is attacked (for Xiangqi this includes the
    /// flying-general rule; for Janggi, facing generals are not an attack).
    pub fn general_attacked(&self, c: Color) -> bool {
        let ks = self.general(c).raw();
        with_rules!(self.variant.game(), R => general_attacked::<R, _>(self, ks, !c))
    }

    fn compute_in_check(&self) -> bool {
        self.count(self.side, PieceKind::General) == 1 && self.general_attacked(self.side)
    }

    /// Whether the piece on `from` attacks point `to` (could capture a piece
    /// of the other colour there, ignoring pins).
    pub fn attacks(&self, from: Square, to: Square) -> bool {
        with_rules!(self.variant.game(), R => {
            attacks::piece_attacks::<R, _>(self, from.raw(), to.raw())
        })
    }

    /// Every point the piece on `from` attacks, as a mask (bit `i` for
    /// point index `i`; empty when `from` is empty): the points `to` for
    /// which [`Position::attacks`] holds, found in one pass.
    pub fn attack_mask(&self, from: Square) -> u128 {
        with_rules!(self.variant.game(), R => {
            attacks::attack_mask::<R, _>(self, from.raw())
        })
    }

    /// Pieces of colour `by` that attack point `s` (ignoring pins).
    pub fn attackers(&self, s: Square, by: Color) -> arrayvec::ArrayVec<Square, 16> {
        let mut v = arrayvec::ArrayVec::new();
        for k in PieceKind::ALL {
            for &from in self.pieces(by, k) {
                if from != s && self.attacks(from, s) {
                    v.push(from);
                }
            }
        }
        v
    }

    // ----- make / unmake --------------------------------------------------

    #[inline(always)]
    fn add_piece(&mut self, p: Piece, s: Square) {
        let (c, k) = (p.color().index(), p.kind().index());
        let n = self.counts[c][k];
        self.lists[c][k][n as usize] = s;
        self.slot[s.index()] = n;
        self.counts[c][k] = n + 1;
        self.board[s.index()] = Some(p);
        self.occ.set(s.raw());
    }

    /// Remove the piece on `s`; returns it and the slot it had.
    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, s: Square) -> u8 {
        let (c, k) = (p.color().index(), p.kind().index());
        let i = self.slot[s.index()];
        let last = self.counts[c][k] - 1;
        let moved = self.lists[c][k][last as usize];
        self.lists[c][k][i as usize] = moved;
        self.slot[moved.index()] = i;
        self.counts[c][k] = last;
        self.board[s.index()] = None;
        self.occ.clear(s.raw());
        i
    }

    /// Put a captured piece back into the slot it had.
    #[inline(always)]
    fn restore_piece(&mut self, p: Piece, s: Square, i: u8) {
        let (c, k) = (p.color().index(), p.kind().index());
        let n = self.counts[c][k];
        let displaced = self.lists[c][k][i as usize];
        self.lists[c][k][n as usize] = displaced;
        self.slot[displaced.index()] = n;
        self.lists[c][k][i as usize] = s;
        self.slot[s.index()] = i;
        self.counts[c][k] = n + 1;
        self.board[s.index()] = Some(p);
        self.occ.set(s.raw());
    }

    #[inline(always)]
    fn move_piece(&mut self, p: Piece, from: Square, to: Square) {
        let (c, k) = (p.color().index(), p.kind().index());
        let i = self.slot[from.index()];
        self.lists[c][k][i as usize] = to;
        self.slot[to.index()] = i;
        self.board[to.index()] = Some(p);
        self.board[from.index()] = None;
        // The destination was empty: captures remove the victim first.
        self.occ.set(to.raw());
        self.occ.clear(from.raw());
    }

    /// Play a move without checking it: the unchecked fast path for moves
    /// this crate generated for this very position ([`Position::legal_moves`]),
    /// as search and perft use it. Library users with moves of any other
    /// origin (typed, read from a file or a hash table) call
    /// [`Position::play`], which checks legality first.
    ///
    /// # Precondition
    ///
    /// `m` must be legal here. The position is not checked: a move from an
    /// empty point is ignored without recording a state (debug builds
    /// panic), so the next [`Position::unmake_move`] takes back the move
    /// before it and the game record no longer matches the board; other
    /// illegal moves leave a position no rule allows.
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let st = *self.state();
        let mut key = st.key ^ zobrist::side_toggle();
        let mut captured = None;
        let mut captured_slot = 0;
        let mut rule_plies = st.rule_plies.saturating_add(1);
        if !m.is_pass() {
            let Some(p) = self.board[from.index()] else {
                debug_assert!(false, "make_move {m} from an empty point");
                return;
            };
            if let Some(victim) = self.board[to.index()] {
                captured_slot = self.remove_piece(victim, to);
                key ^= zobrist::piece(victim, to);
                captured = Some(victim);
                rule_plies = 0;
            }
            self.move_piece(p, from, to);
            key ^= zobrist::piece(p, from) ^ zobrist::piece(p, to);
        }
        self.side = !self.side;
        self.key = key;
        // A pass (which may have accepted bikjang in check, leaving the
        // passer's general attacked) or the first move gets the full test.
        let shortcut = !m.is_pass() && st.last_move.is_some_and(|prev| !prev.is_pass());
        let in_check = self.count(self.side, PieceKind::General) == 1 && {
            let (ks, by) = (self.general(self.side).raw(), !self.side);
            with_rules!(self.variant.game(), R => attacks::check_given::<R, _>(
                self, ks, by, from.raw(), to.raw(), shortcut
            ))
        };
        self.states.push(State {
            key,
            last_move: Some(m),
            captured,
            captured_slot,
            rule_plies,
            in_check,
        });
        debug_assert!(
            self.check_consistency().is_ok(),
            "{:?}",
            self.check_consistency()
        );
    }

    /// Take back the last move made with [`Position::make_move`].
    pub fn unmake_move(&mut self) {
        if self.states.len() < 2 {
            debug_assert!(false, "unmake_move without a move");
            return;
        }
        let Some(st) = self.states.pop() else { return };
        self.side = !self.side;
        self.key = self.state().key;
        if let Some(m) = st.last_move {
            if !m.is_pass() {
                let (from, to) = (m.from(), m.to());
                if let Some(p) = self.board[to.index()] {
                    self.move_piece(p, to, from);
                }
                if let Some(victim) = st.captured {
                    self.restore_piece(victim, to, st.captured_slot);
                }
            }
        }
        debug_assert!(
            self.check_consistency().is_ok(),
            "{:?}",
            self.check_consistency()
        );
    }

    /// Give the move to the other side without moving (search's null move).
    /// Must not be used in check.
    pub fn make_null(&mut self) {
        let st = *self.state();
        self.side = !self.side;
        self.key = st.key ^ zobrist::side_toggle();
        self.states.push(State {
            key: self.key,
            last_move: None,
            captured: None,
            captured_slot: 0,
            rule_plies: st.rule_plies.saturating_add(1),
            in_check: false,
        });
    }

    /// Take back a null move.
    pub fn unmake_null(&mut self) {
        if self.states.len() < 2 {
            return;
        }
        self.states.pop();
        self.side = !self.side;
        self.key = self.state().key;
    }

    // ----- consistency ----------------------------------------------------

    /// The Zobrist key recomputed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::side(self.side);
        for s in Square::all() {
            if let Some(p) = self.board[s.index()] {
                k ^= zobrist::piece(p, s);
            }
        }
        k
    }

    /// Check that the incremental state agrees with a recomputation: key,
    /// piece lists against the board, and the check flag.
    pub fn check_consistency(&self) -> Result<(), String> {
        if self.key != self.compute_key() {
            return Err(format!(
                "key {:x} != recomputed {:x}",
                self.key,
                self.compute_key()
            ));
        }
        if self.state().key != self.key {
            return Err("state key differs from position key".into());
        }
        let mut seen = 0usize;
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                for (i, &s) in self.pieces(c, k).iter().enumerate() {
                    if self.board[s.index()] != Some(Piece::new(c, k)) {
                        return Err(format!("list says {c:?} {k:?} on {s}, board disagrees"));
                    }
                    if self.slot[s.index()] as usize != i {
                        return Err(format!("slot of {s} is wrong"));
                    }
                    seen += 1;
                }
            }
            // A general can be missing only after one was captured, which
            // only a finished Janggi game (accepted bikjang) allows.
            if self.count(c, PieceKind::General) > 1 {
                return Err(format!("{c:?} has two generals"));
            }
        }
        let on_board = self.board.iter().filter(|p| p.is_some()).count();
        if on_board != seen {
            return Err(format!("{on_board} pieces on the board, {seen} in lists"));
        }
        let mut occ = Occupancy::default();
        for s in Square::all() {
            if self.board[s.index()].is_some() {
                occ.set(s.raw());
            }
        }
        if occ != self.occ {
            return Err("occupancy masks disagree with the board".into());
        }
        if self.state().in_check != self.compute_in_check() {
            return Err("check flag is wrong".into());
        }
        Ok(())
    }

    // ----- helpers for the generator --------------------------------------

    /// Whether the position's game is Janggi (generic code asks its
    /// [`GameRules`] instead).
    #[inline(always)]
    pub(crate) fn is_janggi(&self) -> bool {
        self.variant.is_janggi()
    }

    /// Whether the general on `ks` would be attacked after moving the piece
    /// on `from` to `to`, and (Janggi with bikjang) whether generals facing
    /// before the move still face after it.
    #[inline(always)]
    pub(crate) fn leaves_general_safe<R: GameRules>(
        &self,
        from: u8,
        to: u8,
        ks: u8,
        must_break_bikjang: bool,
    ) -> bool {
        let Some(mover) = self.board[from as usize] else {
            return false;
        };
        let view = attacks::After {
            base: self,
            from,
            to,
            mover,
        };
        if general_attacked::<R, _>(&view, ks, !self.side) {
            return false;
        }
        // Facing generals are bikjang where they are not an attack.
        if !R::FLYING_GENERAL && must_break_bikjang {
            let other = self.general(!self.side).raw();
            // Capturing the facing general (possible only after a pass in
            // check accepted bikjang) also breaks it.
            return to == other || !generals_facing(&view, ks, other);
        }
        true
    }

    /// Whether the move gives check (the enemy general attacked afterwards).
    pub fn gives_check(&self, m: Move) -> bool {
        if m.is_pass() {
            return false;
        }
        let Some(mover) = self.board[m.from().index()] else {
            return false;
        };
        let view = attacks::After {
            base: self,
            from: m.from().raw(),
            to: m.to().raw(),
            mover,
        };
        if self.count(!self.side, PieceKind::General) == 0 {
            return false;
        }
        let ks = self.general(!self.side).raw();
        // After an ordinary move the opponent is not in check (see
        // `attacks::check_given`).
        let shortcut = self.state().last_move.is_some_and(|prev| !prev.is_pass());
        let (f, t) = (m.from().raw(), m.to().raw());
        with_rules!(self.variant.game(), R => {
            attacks::check_given::<R, _>(&view, ks, self.side, f, t, shortcut)
        })
    }
}

impl BoardView for Position {
    #[inline(always)]
    fn at(&self, s: u8) -> Option<Piece> {
        self.board[s as usize]
    }

    #[inline(always)]
    fn line(&self, vertical: bool, i: u8) -> u32 {
        self.occ.line(vertical, i)
    }
}

impl PartialEq for Position {
    /// Positions are equal when board, side and variant agree (history and
    /// counters are ignored).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.side == other.side && self.variant == other.variant
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
