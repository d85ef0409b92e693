//! Legal move generation for both games.
//!
//! Moves are generated per piece from the const geometry tables and tested
//! for legality on the spot. The test is skipped for most moves: when the
//! side to move is not in check, a move that neither leaves nor lands on a
//! point that could matter to its own general (the general's file and rank,
//! Janggi palace diagonals, the horse legs and elephant paths next to it)
//! cannot expose the general, so it is legal. Everything else is checked
//! exactly by looking at the board as it would be after the move
//! ([`crate::attacks`]): a move near the general outside check only on the
//! lines and legs it changes, a general move on the whole board. In check,
//! only moves that capture a checker, interpose, block a leg or move a
//! cannon's screen can be legal; the others are dropped untested.
//!
//! Slider captures jump to the first (chariot) or second (cannon) piece on
//! each line with the position's occupancy masks; lists with quiet moves
//! walk the rays, which visits those points anyway.
//!
//! The generator is generic over the game ([`GameRules`]) so that Xiangqi
//! pays nothing for Janggi's palace diagonals and vice versa.

use crate::attacks::square;
use crate::attacks::{attacked_after_move, for_each_diagonal, for_each_line, After, BoardView};
use crate::geometry::*;
use crate::occupancy::{beyond, blockers, nearest, point, ray_line};
use crate::variant::{with_rules, GameRules};
use crate::{Color, Move, MoveList, Piece, PieceKind, Position};

/// What to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MoveSet {
    All,
    Captures,
    /// Non-captures, including the Janggi pass.
    Quiets,
}

/// Per-node facts the legality filter needs.
struct Ctx {
    us: Color,
    ks: u8,
    /// Moves from these points need the exact test.
    from_mask: u128,
    /// Moves to these points need the exact test.
    to_mask: u128,
    /// Janggi: the generals face each other now and the rule set has
    /// bikjang, so every move must break it (or be the pass).
    bikjang: bool,
    /// Generate pseudo-legal moves (empty masks, no test): the caller tests
    /// the one move it wants.
    pseudo: bool,
    /// In check (without bikjang): only moves leaving a point of
    /// `evade_from` or landing on one of `evade_to` can be legal; they get
    /// the exact test, every other move is dropped untested.
    evading: bool,
    evade_from: u128,
    evade_to: u128,
}

/// The points of a list as a mask.
#[inline(always)]
fn points_mask(points: &[u8]) -> u128 {
    points.iter().fold(0, |m, &s| m | 1u128 << s)
}

impl Position {
    /// All legal moves. For Janggi this includes the pass when it is
    /// allowed, and is empty when the game has already ended by a double
    /// pass or an accepted bikjang (see [`Position::janggi_game_ended`]).
    pub fn legal_moves(&self) -> MoveList {
        self.legal_list(MoveSet::All)
    }

    /// A new list of the legal moves of `set`; empty once a Janggi game
    /// has ended.
    #[inline]
    fn legal_list(&self, set: MoveSet) -> MoveList {
        let mut list = MoveList::new();
        if !self.janggi_game_ended() {
            self.generate_into(&mut list, set);
        }
        list
    }

    /// Legal moves judged from the board alone, without the Janggi game-end
    /// cut-off (what a position's FEN says is playable).
    pub fn legal_moves_ignoring_game_end(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(&mut list, MoveSet::All);
        list
    }

    /// Legal captures only (for quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        self.legal_list(MoveSet::Captures)
    }

    /// Legal non-captures only, including the Janggi pass: with
    /// [`Position::legal_captures`] exactly [`Position::legal_moves`], so a
    /// search can try captures before generating quiet moves at all.
    pub fn legal_quiets(&self) -> MoveList {
        self.legal_list(MoveSet::Quiets)
    }

    /// Append the legal captures to `list` ([`Position::legal_captures`]
    /// without returning a list by value: a search generating at every node
    /// saves the copy).
    #[inline]
    pub fn push_legal_captures(&self, list: &mut MoveList) {
        if !self.janggi_game_ended() {
            self.generate_into(list, MoveSet::Captures);
        }
    }

    /// Append the legal quiet moves (and the Janggi pass) to `list`, as
    /// [`Position::legal_quiets`].
    #[inline]
    pub fn push_legal_quiets(&self, list: &mut MoveList) {
        if !self.janggi_game_ended() {
            self.generate_into(list, MoveSet::Quiets);
        }
    }

    /// Whether a Janggi game has already ended by the last moves: two
    /// passes in a row, or a pass made while the generals faced each other
    /// (accepting bikjang, in rule sets with bikjang). Always false for
    /// Xiangqi.
    pub fn janggi_game_ended(&self) -> bool {
        if !self.is_janggi() {
            return false;
        }
        let states = self.states();
        let n = states.len();
        let last_pass = |i: usize| states[i].last_move.is_some_and(|m| m.is_pass());
        if n < 2 || !last_pass(n - 1) {
            return false;
        }
        (n >= 3 && last_pass(n - 2)) || (self.variant().has_bikjang() && self.generals_facing())
    }

    /// Whether a move (for instance one read from a transposition table or
    /// typed by a user) is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        if self.janggi_game_ended() {
            return false;
        }
        let from = m.from();
        if m.is_pass() {
            return self.is_janggi()
                && from == self.general(self.side_to_move())
                && self.pass_allowed();
        }
        match self.piece_at(from) {
            Some(p) if p.color() == self.side_to_move() => {
                with_rules!(self.variant().game(), R => self.is_legal_move_of::<R>(p.kind(), m))
            }
            _ => false,
        }
    }

    /// [`Position::is_legal`] for a move of our piece of kind `k`: whether
    /// the piece can make it by its movement rules (generating only that
    /// piece's captures or quiet moves, without legality filter), then one
    /// exact test that it does not expose the general.
    fn is_legal_move_of<R: GameRules>(&self, k: PieceKind, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from().raw(), m.to().raw());
        let has_general = self.count(us, PieceKind::General) == 1;
        let ks = self.general(us).raw();
        let bikjang = !R::FLYING_GENERAL && self.variant().has_bikjang() && self.generals_facing();
        let ctx = Ctx {
            us,
            ks,
            from_mask: 0,
            to_mask: 0,
            bikjang,
            pseudo: true,
            evading: false,
            evade_from: !0,
            evade_to: !0,
        };
        let kind = if self.board()[to as usize].is_some() {
            MoveSet::Captures
        } else {
            MoveSet::Quiets
        };
        let mut list = MoveList::new();
        self.gen_piece::<R>(&ctx, k, from, kind, &mut list);
        if !list.contains(&m) {
            return false;
        }
        // General moves were tested exactly by the generator.
        k == PieceKind::General
            || !has_general
            || self.leaves_general_safe::<R>(from, to, ks, bikjang)
    }

    /// Janggi: whether passing is legal now (not in check, or in check
    /// while bikjang stands, which the pass accepts).
    fn pass_allowed(&self) -> bool {
        !self.in_check() || (self.variant().has_bikjang() && self.generals_facing())
    }

    fn generate_into(&self, list: &mut MoveList, kind: MoveSet) {
        with_rules!(self.variant().game(), R => self.generate::<R>(list, kind))
    }

    fn context<R: GameRules>(&self) -> Ctx {
        let us = self.side_to_move();
        let ks = self.general(us).raw();
        let bikjang = !R::FLYING_GENERAL && self.variant().has_bikjang() && self.generals_facing();
        let has_general = self.count(us, PieceKind::General) == 1;
        let (from_mask, to_mask) = if !has_general {
            // Only after a general was captured in a finished Janggi game
            // (Fairy-Stockfish still lists moves there): nothing to expose.
            (0, 0)
        } else if self.in_check() || bikjang {
            (!0, !0)
        } else {
            self.sensitive_points::<R>(us, ks)
        };
        let evading = has_general && self.in_check() && !bikjang;
        let (evade_from, evade_to) = if evading {
            self.evasion_points::<R>(us, ks)
        } else {
            (!0, !0)
        };
        Ctx {
            us,
            ks,
            from_mask,
            to_mask,
            bikjang,
            pseudo: false,
            evading,
            evade_from,
            evade_to,
        }
    }

    /// The points where a move by a side not in check could change whether
    /// its general (on `ks`) is attacked: `(from_mask, to_mask)`.
    ///
    /// A line attack on the general depends only on the first pieces along
    /// each line from it: a chariot (or, in Xiangqi, the enemy general) as
    /// the first, a cannon as the second (in Janggi over a screen that is no
    /// cannon). With the first three pieces `p1 p2 p3` of a line known and no
    /// attack now:
    /// - leaving `p1` matters only if `p2` would then attack as a first
    ///   piece or `p3` as a cannon behind `p2`; leaving `p2` only if `p3` is
    ///   a cannon that `p1` would then screen;
    /// - landing between the general and `p1` matters only if `p1` is an
    ///   enemy cannon (the mover becomes its screen); landing beyond `p1`
    ///   puts our own piece first or second, which attacks nothing; a
    ///   capture on `p1` is tested anyway (in Janggi it can turn an invalid
    ///   cannon screen into a valid one).
    ///
    /// A horse (Janggi: elephant) aimed at the general can only be uncovered
    /// by leaving one of its blocking points. Moves of the general itself are
    /// always tested exactly, and debug builds check every shortcut taken.
    #[inline(always)]
    fn sensitive_points<R: GameRules>(&self, us: Color, ks: u8) -> (u128, u128) {
        let board = self.board();
        let them = !us;
        let chariot = Piece::new(them, PieceKind::Chariot);
        let cannon = Piece::new(them, PieceKind::Cannon);
        let general = Piece::new(them, PieceKind::General);
        let first_attacks = |p: Piece| p == chariot || (R::FLYING_GENERAL && p == general);
        let screens = |p: Piece| !R::JUMPING_CANNON || p.kind() != PieceKind::Cannon;
        let (mut from_mask, mut to_mask) = (0u128, 0u128);
        // Decide one line from the first three pieces on it; `before_p1`
        // gives the empty points before the first (needed only rarely).
        let mut decide = |found: [(u8, Option<Piece>); 3], before_p1: &dyn Fn() -> u128| {
            let [(s1, p1), (s2, p2), (_, p3)] = found;
            let Some(p1) = p1 else { return };
            if p1 == cannon {
                to_mask |= before_p1();
            }
            if p1.color() == them {
                to_mask |= 1u128 << s1;
            }
            let p3_cannon = p3 == Some(cannon);
            if p1.color() == us
                && p2.is_some_and(|p2| first_attacks(p2) || (p3_cannon && screens(p2)))
            {
                from_mask |= 1u128 << s1;
            }
            if p2.is_some_and(|p2| p2.color() == us) && p3_cannon && screens(p1) {
                from_mask |= 1u128 << s2;
            }
        };
        for (d, ray) in RAYS[ks as usize].iter().enumerate() {
            // The first three pieces from the occupancy masks.
            let (vertical, line, at, up) = ray_line(ks, d);
            let mut rest = beyond(self.line(vertical, line), at, up);
            let mut found: [(u8, Option<Piece>); 3] = [(0, None); 3];
            let mut gap = 0;
            for (i, f) in found.iter_mut().enumerate() {
                if rest == 0 {
                    break;
                }
                let (b, r) = nearest(rest, up);
                rest = r;
                let s = point(vertical, line, b);
                if i == 0 {
                    gap = usize::from(b.abs_diff(at)) - 1;
                }
                *f = (s, board[s as usize]);
            }
            decide(found, &|| points_mask(&ray.as_slice()[..gap]));
        }
        for_each_diagonal::<R>(ks as usize, |ray| {
            let mut found: [(u8, Option<Piece>); 3] = [(0, None); 3];
            let mut n = 0;
            for &s in ray {
                if let Some(p) = board[s as usize] {
                    found[n] = (s, Some(p));
                    n += 1;
                }
            }
            let gap = ray
                .iter()
                .take_while(|&&s| board[s as usize].is_none())
                .count();
            decide(found, &|| points_mask(&ray[..gap]));
        });
        let horse = Some(Piece::new(them, PieceKind::Horse));
        for a in HORSE_ATTACKERS[ks as usize].as_slice() {
            if board[a.sq as usize] == horse {
                from_mask |= 1u128 << a.b1;
            }
        }
        if R::LONG_ELEPHANT {
            let elephant = Some(Piece::new(them, PieceKind::Elephant));
            for a in ELEPHANT_J_ATTACKERS[ks as usize].as_slice() {
                if board[a.sq as usize] == elephant {
                    from_mask |= (1u128 << a.b1) | (1u128 << a.b2);
                }
            }
        }
        (from_mask, to_mask)
    }

    /// In check: the points a move (other than the general's) must leave or
    /// land on to possibly answer every check, as `(from, to)` masks. For
    /// each checker: its own point (capture) and, for a horse or Janggi
    /// elephant, its blocking points; for a line piece the points between
    /// it and the general (interposing; for a cannon this includes its
    /// screen, which a Janggi cannon may capture to void the screen), and
    /// for a cannon the screen's point as a move origin (the screen steps
    /// off the line). A move must answer every checker, so the union over
    /// the checkers is a safe filter; the candidates still get the exact
    /// test.
    fn evasion_points<R: GameRules>(&self, us: Color, ks: u8) -> (u128, u128) {
        let board = self.board();
        let them = !us;
        let k = ks as usize;
        let bit = |s: u8| 1u128 << s;
        let (mut from_c, mut to_c) = (0u128, 0u128);
        let horse = Some(Piece::new(them, PieceKind::Horse));
        for a in HORSE_ATTACKERS[k].as_slice() {
            if board[a.sq as usize] == horse && board[a.b1 as usize].is_none() {
                to_c |= bit(a.sq) | bit(a.b1);
            }
        }
        let soldier = Some(Piece::new(them, PieceKind::Soldier));
        for &s in R::soldier_attackers(them.index(), k) {
            if board[s as usize] == soldier {
                to_c |= bit(s);
            }
        }
        if R::LONG_ELEPHANT {
            let elephant = Some(Piece::new(them, PieceKind::Elephant));
            for a in ELEPHANT_J_ATTACKERS[k].as_slice() {
                if board[a.sq as usize] == elephant
                    && board[a.b1 as usize].is_none()
                    && board[a.b2 as usize].is_none()
                {
                    to_c |= bit(a.sq) | bit(a.b1) | bit(a.b2);
                }
            }
        }
        let chariot = Piece::new(them, PieceKind::Chariot);
        let cannon = Piece::new(them, PieceKind::Cannon);
        let general = Piece::new(them, PieceKind::General);
        let line = |ray: &[u8]| {
            let mut it = ray
                .iter()
                .enumerate()
                .filter_map(|(i, &s)| board[s as usize].map(|p| (i, p)));
            let Some((i1, p1)) = it.next() else { return };
            if p1 == chariot || (R::FLYING_GENERAL && p1 == general) {
                to_c |= points_mask(&ray[..=i1]);
                return;
            }
            if R::JUMPING_CANNON && p1.kind() == PieceKind::Cannon {
                return;
            }
            if let Some((i2, p2)) = it.next() {
                if p2 == cannon {
                    to_c |= points_mask(&ray[..=i2]);
                    from_c |= bit(ray[i1]);
                }
            }
        };
        for_each_line::<R>(k, line);
        (from_c, to_c)
    }

    fn generate<R: GameRules>(&self, list: &mut MoveList, kind: MoveSet) {
        let ctx = self.context::<R>();
        let us = ctx.us;
        // Most mobile pieces first: helps nothing in perft, but the search's
        // move picker sorts anyway and this order is as good as any.
        for k in [
            PieceKind::Chariot,
            PieceKind::Cannon,
            PieceKind::Horse,
            PieceKind::Soldier,
            PieceKind::Elephant,
            PieceKind::Advisor,
            PieceKind::General,
        ] {
            for &from in self.pieces(us, k) {
                self.gen_piece::<R>(&ctx, k, from.raw(), kind, list);
            }
        }
        if R::PASS
            && kind != MoveSet::Captures
            && self.count(us, PieceKind::General) == 1
            && self.pass_allowed()
        {
            list.push(Move::pass(square(ctx.ks)));
        }
    }

    /// Push `from -> to` if legal.
    #[inline(always)]
    fn add<R: GameRules>(&self, ctx: &Ctx, from: u8, to: u8, list: &mut MoveList) {
        if ctx.evading && ((ctx.evade_from >> from) | (ctx.evade_to >> to)) & 1 == 0 {
            debug_assert!(
                !self.leaves_general_safe::<R>(from, to, ctx.ks, ctx.bikjang),
                "evasion filter dropped the legal move {} in {}",
                Move::new(square(from), square(to)),
                self.to_fen()
            );
            return;
        }
        let fast = ((ctx.from_mask >> from) | (ctx.to_mask >> to)) & 1 == 0;
        debug_assert!(
            !fast || ctx.pseudo || self.leaves_general_safe::<R>(from, to, ctx.ks, ctx.bikjang),
            "shortcut accepted an illegal move {} in {}",
            Move::new(square(from), square(to)),
            self.to_fen()
        );
        if fast || self.move_is_safe::<R>(ctx, from, to) {
            list.push(Move::new(square(from), square(to)));
        }
    }

    /// The exact test of a move by a piece other than the general: whether
    /// it leaves our general unattacked (and, with bikjang, breaks it).
    /// Outside check and bikjang only what the move changes is examined
    /// ([`attacked_after_move`]); otherwise the whole board.
    #[inline(always)]
    fn move_is_safe<R: GameRules>(&self, ctx: &Ctx, from: u8, to: u8) -> bool {
        if ctx.evading || ctx.bikjang {
            return self.leaves_general_safe::<R>(from, to, ctx.ks, ctx.bikjang);
        }
        let Some(mover) = self.board()[from as usize] else {
            return false;
        };
        let view = After {
            base: self,
            from,
            to,
            mover,
        };
        let safe = !attacked_after_move::<R, _>(&view, ctx.ks, !ctx.us, from, to, false);
        debug_assert_eq!(
            safe,
            self.leaves_general_safe::<R>(from, to, ctx.ks, ctx.bikjang),
            "targeted legality test of {} in {}",
            Move::new(square(from), square(to)),
            self.to_fen()
        );
        safe
    }

    /// Whether `to` can be entered by a piece of colour `us`: empty (a
    /// quiet move) or an enemy (a capture), as far as `kind` wants those.
    #[inline(always)]
    fn enterable(&self, us: Color, to: u8, kind: MoveSet) -> bool {
        match self.board()[to as usize] {
            None => kind != MoveSet::Captures,
            Some(p) => p.color() != us && kind != MoveSet::Quiets,
        }
    }

    #[inline(always)]
    fn gen_piece<R: GameRules>(
        &self,
        ctx: &Ctx,
        k: PieceKind,
        from: u8,
        kind: MoveSet,
        list: &mut MoveList,
    ) {
        let us = ctx.us;
        let c = us.index();
        let f = from as usize;
        let board = self.board();
        match k {
            PieceKind::Chariot => self.slider::<R>(ctx, from, false, kind, list),
            PieceKind::Cannon => self.slider::<R>(ctx, from, true, kind, list),
            PieceKind::Horse => {
                for l in HORSE[f].as_slice() {
                    if board[l.b1 as usize].is_none() && self.enterable(us, l.sq, kind) {
                        self.add::<R>(ctx, from, l.sq, list);
                    }
                }
            }
            PieceKind::Elephant => {
                for l in R::elephant_leaps(c, f) {
                    // Xiangqi leaps have `b2 == b1`: one test is enough.
                    if board[l.b1 as usize].is_none()
                        && (!R::LONG_ELEPHANT || board[l.b2 as usize].is_none())
                        && self.enterable(us, l.sq, kind)
                    {
                        self.add::<R>(ctx, from, l.sq, list);
                    }
                }
            }
            PieceKind::Soldier => {
                for &to in R::soldier_steps(c, f) {
                    if self.enterable(us, to, kind) {
                        self.add::<R>(ctx, from, to, list);
                    }
                }
            }
            PieceKind::Advisor => {
                for &to in R::advisor_steps(c, f) {
                    if self.enterable(us, to, kind) {
                        self.add::<R>(ctx, from, to, list);
                    }
                }
            }
            PieceKind::General => {
                for &to in R::general_steps(c, f) {
                    if self.enterable(us, to, kind)
                        && self.leaves_general_safe::<R>(from, to, to, ctx.bikjang)
                    {
                        list.push(Move::new(square(from), square(to)));
                    }
                }
            }
        }
    }

    /// Moves of a chariot or (`cannon`) a cannon on `from`, along every
    /// line the rules give it: the one loop over lines in the generator.
    /// Captures alone jump to the first (chariot) or second (cannon) piece
    /// on the orthogonal lines with the occupancy masks; lists with quiet
    /// moves walk the rays, which visits those points anyway.
    #[inline(always)]
    fn slider<R: GameRules>(
        &self,
        ctx: &Ctx,
        from: u8,
        cannon: bool,
        kind: MoveSet,
        list: &mut MoveList,
    ) {
        let f = from as usize;
        if kind == MoveSet::Captures {
            for d in 0..4 {
                if cannon {
                    self.cannon_capture::<R>(ctx, from, d, list);
                } else {
                    self.chariot_capture::<R>(ctx, from, d, list);
                }
            }
        } else {
            for ray in &RAYS[f] {
                self.slider_ray::<R>(ctx, from, ray.as_slice(), cannon, kind, list);
            }
        }
        if R::PALACE_DIAGONALS {
            for ray in &DIAG_RAYS[f] {
                self.slider_ray::<R>(ctx, from, ray.as_slice(), cannon, kind, list);
            }
        }
    }

    /// Moves of a chariot or (`cannon`) a cannon on `from` along one ray.
    #[inline(always)]
    fn slider_ray<R: GameRules>(
        &self,
        ctx: &Ctx,
        from: u8,
        ray: &[u8],
        cannon: bool,
        kind: MoveSet,
        list: &mut MoveList,
    ) {
        if cannon {
            self.cannon::<R>(ctx, from, ray, kind, list);
        } else {
            self.slide::<R>(ctx, from, ray, kind, list);
        }
    }

    /// The chariot capture along orthogonal direction `d`, if any: the
    /// first piece on the line, when it is an enemy.
    #[inline(always)]
    fn chariot_capture<R: GameRules>(&self, ctx: &Ctx, from: u8, d: usize, list: &mut MoveList) {
        let (vertical, line, _, _) = ray_line(from, d);
        if let (Some(to), _, _) = blockers(self.line(vertical, line), from, d) {
            if self.board()[to as usize].is_some_and(|p| p.color() != ctx.us) {
                self.add::<R>(ctx, from, to, list);
            }
        }
    }

    /// The cannon capture along orthogonal direction `d`, if any: the
    /// second piece on the line, when it is an enemy (Janggi: neither it
    /// nor the screen a cannon).
    #[inline(always)]
    fn cannon_capture<R: GameRules>(&self, ctx: &Ctx, from: u8, d: usize, list: &mut MoveList) {
        let (vertical, line, _, _) = ray_line(from, d);
        let (Some(screen), Some(to), _) = blockers(self.line(vertical, line), from, d) else {
            return;
        };
        let board = self.board();
        let is_cannon = |s: u8| board[s as usize].is_some_and(|p| p.kind() == PieceKind::Cannon);
        if board[to as usize].is_some_and(|p| p.color() != ctx.us)
            && !(R::JUMPING_CANNON && (is_cannon(screen) || is_cannon(to)))
        {
            self.add::<R>(ctx, from, to, list);
        }
    }

    #[inline(always)]
    fn slide<R: GameRules>(
        &self,
        ctx: &Ctx,
        from: u8,
        ray: &[u8],
        kind: MoveSet,
        list: &mut MoveList,
    ) {
        let board = self.board();
        for &to in ray {
            match board[to as usize] {
                None => {
                    if kind != MoveSet::Captures {
                        self.add::<R>(ctx, from, to, list);
                    }
                }
                Some(p) => {
                    if p.color() != ctx.us && kind != MoveSet::Quiets {
                        self.add::<R>(ctx, from, to, list);
                    }
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn cannon<R: GameRules>(
        &self,
        ctx: &Ctx,
        from: u8,
        ray: &[u8],
        kind: MoveSet,
        list: &mut MoveList,
    ) {
        let board = self.board();
        let mut it = ray.iter();
        // Xiangqi: quiet moves up to the screen. Janggi: none before it.
        let screen: Piece = loop {
            let Some(&to) = it.next() else { return };
            match board[to as usize] {
                None => {
                    if !R::JUMPING_CANNON && kind != MoveSet::Captures {
                        self.add::<R>(ctx, from, to, list);
                    }
                }
                Some(p) => break p,
            }
        };
        if R::JUMPING_CANNON && screen.kind() == PieceKind::Cannon {
            return;
        }
        for &to in it {
            match board[to as usize] {
                None => {
                    if R::JUMPING_CANNON && kind != MoveSet::Captures {
                        self.add::<R>(ctx, from, to, list);
                    }
                }
                Some(p) => {
                    if p.color() != ctx.us
                        && !(R::JUMPING_CANNON && p.kind() == PieceKind::Cannon)
                        && kind != MoveSet::Quiets
                    {
                        self.add::<R>(ctx, from, to, list);
                    }
                    return;
                }
            }
        }
    }

    /// Whether the side to move has no legal move (mated or stalemated).
    pub fn has_no_legal_move(&self) -> bool {
        self.legal_moves().is_empty()
    }
}
