//! Static exchange evaluation: the material outcome of the captures on
//! one point, each side capturing with its least valuable piece and free to
//! stop at any time.
//!
//! It lives with the rules, not the search, because the hard part is
//! knowing who attacks the point, and that changes as the exchange goes on:
//! a capturer leaving its point may give a cannon its screen or take it
//! away, unblock a horse's leg or a Janggi elephant's path, open a line for
//! a chariot behind it or a palace diagonal. The exchange is played on a
//! scratch copy of the board, and at every step the attackers are found
//! again with the very attack test the move generator uses
//! ([`crate::attacks::piece_attacks`]), so every screen, leg and palace line
//! is exact; Janggi cannons neither capture cannons nor jump over them.
//!
//! Legality counts: a piece may capture only if that does not leave its own
//! general attacked (pins, the flying-general rule of Xiangqi, a general
//! capturing into a defended point) and, in Janggi rule sets with bikjang,
//! only if it breaks facing generals when they face — the generator's own
//! test. So the exchange is a sequence of legal captures onto the point,
//! and the tests compare it with one played by `make_move` on captures the
//! generator lists.
//!
//! Piece values come from the caller ([`SeeValues`]): the search owns what a
//! piece is worth, this module only how the exchange goes.

use crate::attacks::{general_attacked, generals_facing, piece_attacks, After, BoardView};
use crate::occupancy::Occupancy;
use crate::variant::{with_rules, GameRules};
use crate::{Color, Move, Piece, PieceKind, Position};

/// Piece values for the exchange, by [`PieceKind::index`], with the kinds
/// in the order the exchange tries them as capturers (cheapest first; equal
/// values in kind order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeeValues {
    values: [i32; 8],
    order: [PieceKind; 7],
}

impl SeeValues {
    /// Values by [`PieceKind::index`] (index 0 unused). The general's value
    /// should exceed everything else together: it is captured only when a
    /// game was already lost (a Janggi pass in check).
    pub const fn new(values: [i32; 8]) -> SeeValues {
        let mut order = PieceKind::ALL;
        // Insertion sort by value, stable (const fn: no slice sort).
        let mut i = 1;
        while i < order.len() {
            let mut j = i;
            while j > 0 && values[order[j - 1].index()] > values[order[j].index()] {
                let t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
                j -= 1;
            }
            i += 1;
        }
        SeeValues { values, order }
    }

    /// The value of a kind.
    #[inline]
    pub const fn value(&self, k: PieceKind) -> i32 {
        self.values[k.index()]
    }

    /// The kinds, least valuable first (the order capturers are tried in).
    #[inline]
    pub const fn order(&self) -> &[PieceKind; 7] {
        &self.order
    }
}

/// The board during an exchange.
struct Scratch {
    board: [Option<Piece>; 90],
    occ: Occupancy,
    /// Where each colour's general stands (meaningless without one).
    generals: [u8; 2],
    has_general: [bool; 2],
}

impl BoardView for Scratch {
    #[inline(always)]
    fn at(&self, s: u8) -> Option<Piece> {
        self.board[s as usize]
    }

    #[inline(always)]
    fn line(&self, vertical: bool, i: u8) -> u32 {
        self.occ.line(vertical, i)
    }
}

impl Scratch {
    fn new(pos: &Position) -> Scratch {
        let gen = |c: Color| pos.count(c, PieceKind::General) == 1;
        Scratch {
            board: *pos.board(),
            occ: pos.occupancy(),
            generals: [
                pos.general(Color::Red).raw(),
                pos.general(Color::Black).raw(),
            ],
            has_general: [gen(Color::Red), gen(Color::Black)],
        }
    }

    /// Move the piece on `from` to `to`, replacing what stood there.
    #[inline]
    fn capture(&mut self, from: u8, to: u8) {
        let Some(p) = self.board[from as usize].take() else {
            return;
        };
        self.occ.clear(from);
        self.occ.set(to);
        if let Some(v) = self.board[to as usize] {
            if v.kind() == PieceKind::General {
                self.has_general[v.color().index()] = false;
            }
        }
        self.board[to as usize] = Some(p);
        if p.kind() == PieceKind::General {
            self.generals[p.color().index()] = to;
        }
    }

    /// Whether moving the piece `p` of `us` from `from` to `to` is legal:
    /// its general is not attacked afterwards and, under bikjang, the
    /// generals no longer face (the generator's `leaves_general_safe`).
    #[inline]
    fn legal<R: GameRules>(&self, us: Color, p: Piece, from: u8, to: u8, bikjang: bool) -> bool {
        if !self.has_general[us.index()] {
            return true;
        }
        let ks = if p.kind() == PieceKind::General {
            to
        } else {
            self.generals[us.index()]
        };
        let view = After {
            base: self,
            from,
            to,
            mover: p,
        };
        if general_attacked::<R, _>(&view, ks, !us) {
            return false;
        }
        if !R::FLYING_GENERAL && bikjang {
            let other = self.generals[(!us).index()];
            return to == other || !generals_facing(&view, ks, other);
        }
        true
    }

    /// Whether the generals face each other in a rule set where that is
    /// bikjang (every move must then break it).
    #[inline]
    fn bikjang<R: GameRules>(&self, has_bikjang: bool) -> bool {
        !R::FLYING_GENERAL
            && has_bikjang
            && self.has_general[0]
            && self.has_general[1]
            && generals_facing(self, self.generals[0], self.generals[1])
    }

    /// The least valuable piece of `us` that can legally capture on `to`:
    /// its point. Among equal kinds, the lowest point (a fixed choice, so
    /// that tests can repeat it).
    fn least_attacker<R: GameRules>(
        &self,
        pos: &Position,
        values: &SeeValues,
        us: Color,
        to: u8,
        has_bikjang: bool,
    ) -> Option<u8> {
        let bikjang = self.bikjang::<R>(has_bikjang);
        for &k in values.order() {
            let p = Piece::new(us, k);
            let mut best: Option<u8> = None;
            // The piece lists are the position's; a piece that has already
            // gone to `to` (and been captured there) is no longer on its
            // point in the scratch board.
            for &s in pos.pieces(us, k) {
                let s = s.raw();
                if s == to
                    || self.board[s as usize] != Some(p)
                    || best.is_some_and(|b| b < s)
                    || !piece_attacks::<R, _>(self, s, to)
                    || !self.legal::<R>(us, p, s, to, bikjang)
                {
                    continue;
                }
                best = Some(s);
            }
            if best.is_some() {
                return best;
            }
        }
        None
    }
}

impl Position {
    /// Static exchange evaluation: whether the legal move `m` wins at least
    /// `threshold` in the exchange it starts on its destination, with
    /// piece values `values` (a quiet move starts an exchange with nothing
    /// captured: it tests whether the piece is safe there). After `m` each
    /// side in turn captures on that point with its least valuable piece
    /// that may legally do so, or stops when that is better for it.
    ///
    /// # Precondition
    ///
    /// `m` is legal here (a pass is answered `threshold <= 0`).
    pub fn see_ge(&self, m: Move, threshold: i32, values: &SeeValues) -> bool {
        if m.is_pass() {
            return threshold <= 0;
        }
        with_rules!(self.variant().game(), R => self.see_ge_of::<R>(m, threshold, values))
    }

    fn see_ge_of<R: GameRules>(&self, m: Move, threshold: i32, values: &SeeValues) -> bool {
        let (from, to) = (m.from().raw(), m.to().raw());
        let Some(mover) = self.piece_at(m.from()) else {
            return threshold <= 0;
        };
        // `swing`: what the side that made `m` has won so far. Whoever is to
        // capture may also stop, so the side that made `m` reaches the
        // threshold if `swing >= threshold` whenever the opponent is to
        // move, and fails if `swing < threshold` whenever it is to move
        // itself.
        let mut swing = self.piece_at(m.to()).map_or(0, |v| values.value(v.kind()));
        if swing < threshold {
            // The opponent simply does not recapture.
            return false;
        }
        if swing - values.value(mover.kind()) >= threshold {
            // Even losing the mover for nothing keeps the threshold.
            return true;
        }
        let us = self.side_to_move();
        let has_bikjang = self.variant().has_bikjang();
        let mut board = Scratch::new(self);
        board.capture(from, to);
        let mut side = !us;
        // The value of the piece standing on `to`.
        let mut on_to = values.value(mover.kind());
        loop {
            let Some(a) = board.least_attacker::<R>(self, values, side, to, has_bikjang) else {
                // Whoever cannot capture has to stop: when it is the
                // opponent, `swing >= threshold` holds here.
                return side != us;
            };
            let attacker = match board.at(a) {
                Some(p) => values.value(p.kind()),
                None => return side != us,
            };
            if side == us {
                // `swing < threshold` here: we capture.
                swing += on_to;
                if swing < threshold {
                    // Still short: the opponent stops.
                    return false;
                }
                if swing - attacker >= threshold {
                    // Enough even if the capturer is lost.
                    return true;
                }
            } else {
                // `swing >= threshold` here: the opponent captures.
                swing -= on_to;
                if swing >= threshold {
                    // Not enough for the opponent: we stop.
                    return true;
                }
                if swing + attacker < threshold {
                    // Even winning the capturer back is not enough.
                    return false;
                }
            }
            board.capture(a, to);
            on_to = attacker;
            side = !side;
        }
    }
}
