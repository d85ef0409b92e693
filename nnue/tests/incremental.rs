//! The accumulator stack against full refreshes over random games of both
//! games (Janggi passes and null moves included), with evaluations at
//! random plies so that the lazy catch-up runs over several plies.

mod common;

use common::{random_move, Rng};
use movegen::{Game, Position, Variant};
use nnue::{Accumulator, AccumulatorStack, Network};

/// Random walks of `variant`; returns the number of passes played.
fn walk(variant: Variant, game: Game, seed: u64) -> usize {
    let net = Network::random(game, 32, 4, seed);
    assert!(net.is_some());
    let Some(net) = net else { return 0 };
    let mut rng = Rng(movegen::SplitMix64::new(seed));
    let mut stack = AccumulatorStack::new(&net, 8);
    let mut passes = 0;
    for _ in 0..20 {
        let mut pos = Position::startpos(variant);
        stack.reset(&net, &pos);
        for _ in 0..150 {
            // Mostly forward, sometimes back, so that frames are reused.
            if stack.ply() > 0 && rng.below(4) == 0 {
                match pos.state().last_move {
                    Some(_) => pos.unmake_move(),
                    None => pos.unmake_null(),
                }
                stack.pop();
            } else if !pos.in_check() && rng.below(20) == 0 {
                stack.push_null();
                pos.make_null();
            } else {
                let Some(m) = random_move(&pos, &mut rng) else {
                    break;
                };
                passes += usize::from(m.is_pass());
                stack.push_move(&pos, m);
                pos.make_move(m);
            }
            if rng.below(3) == 0 {
                let fresh = Accumulator::refresh(&net, &pos);
                assert_eq!(stack.current(&net), &fresh, "{}", pos.to_fen());
                assert_eq!(
                    stack.evaluate(&net, &pos),
                    net.evaluate_position(&pos),
                    "{}",
                    pos.to_fen()
                );
            }
        }
        assert!(stack.matches_refresh(&net, &pos));
    }
    passes
}

#[test]
fn incremental_equals_refresh_xiangqi() {
    assert_eq!(walk(Variant::Xiangqi, Game::Xiangqi, 11), 0);
}

#[test]
fn incremental_equals_refresh_janggi() {
    let passes =
        walk(Variant::Janggi, Game::Janggi, 12) + walk(Variant::JanggiModern, Game::Janggi, 13);
    assert!(passes > 0, "no pass was played");
}
