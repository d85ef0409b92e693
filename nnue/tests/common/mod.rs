//! What the network tests share: a reproducible random number source and
//! random games.

#![allow(dead_code)]

use movegen::{Move, Position, SplitMix64, Variant};

/// The project's SplitMix64, drawing by modulo (the streams these tests
/// were written with).
pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
}

/// A random legal move, passes preferred now and then in Janggi so that
/// games contain them; `None` when the game is over.
pub fn random_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if pos.variant().is_janggi() && rng.below(12) == 0 {
        if let Some(&p) = moves.iter().find(|m| m.is_pass()) {
            return Some(p);
        }
    }
    moves.get(rng.below(moves.len())).copied()
}

/// Positions from random games of `variant`: every position of `games`
/// games of up to `plies` plies.
pub fn random_positions(variant: Variant, games: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(SplitMix64::new(seed));
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(variant);
        out.push(pos.clone());
        for _ in 0..plies {
            let Some(m) = random_move(&pos, &mut rng) else {
                break;
            };
            pos.make_move(m);
            out.push(pos.clone());
        }
    }
    out
}
