//! The accumulator stack against full refreshes over random games of both
//! games (Janggi passes and null moves included), with evaluations at
//! random plies so that the lazy catch-up runs over several plies; for the
//! plain inputs and for the general-bucketed ones, where general moves
//! (played often here on purpose) cross buckets and mirror sides and
//! refresh their side's perspective.

mod common;

use common::{random_move, Rng};
use movegen::{Color, Game, Move, PieceKind, Position, Variant};
use nnue::{Accumulator, AccumulatorStack, Arch, InputSet, Network};

/// What a walk played.
#[derive(Default)]
struct Seen {
    passes: usize,
    /// General moves that changed their side's bucket.
    bucket_changes: usize,
    /// General moves that changed their side's mirror side.
    mirror_changes: usize,
}

/// A random move, a general's move one time in four when there is one.
fn pick(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let general = pos.general(pos.side_to_move());
    if rng.below(4) == 0 {
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_pass() && m.from() == general)
            .collect();
        if !moves.is_empty() {
            return Some(moves[rng.below(moves.len())]);
        }
    }
    random_move(pos, rng)
}

/// Random walks of `variant` with a random network of `inputs`.
fn walk(variant: Variant, game: Game, inputs: InputSet, seed: u64) -> Seen {
    let arch = Arch {
        inputs,
        hidden: 32,
        buckets: 4,
    };
    let net = Network::random_of(game, arch, seed);
    assert!(net.is_some());
    let Some(net) = net else {
        return Seen::default();
    };
    let mut rng = Rng(movegen::SplitMix64::new(seed));
    let mut stack = AccumulatorStack::new(&net, 8);
    let mut seen = Seen::default();
    let view = |pos: &Position, c: Color| InputSet::GeneralBuckets.view(pos.board(), c);
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
                let Some(m) = pick(&pos, &mut rng) else {
                    break;
                };
                seen.passes += usize::from(m.is_pass());
                let us = pos.side_to_move();
                let moves_general = pos.piece_at(m.from()).map(|p| p.kind())
                    == Some(PieceKind::General)
                    && !m.is_pass();
                let before = view(&pos, us);
                stack.push_move(&pos, m);
                pos.make_move(m);
                let after = view(&pos, us);
                if moves_general {
                    seen.bucket_changes += usize::from(before.bucket() != after.bucket());
                    seen.mirror_changes += usize::from(before.mirrored() != after.mirrored());
                }
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
    seen
}

#[test]
fn incremental_equals_refresh_xiangqi() {
    assert_eq!(
        walk(Variant::Xiangqi, Game::Xiangqi, InputSet::Plain, 11).passes,
        0
    );
}

#[test]
fn incremental_equals_refresh_janggi() {
    let passes = walk(Variant::Janggi, Game::Janggi, InputSet::Plain, 12).passes
        + walk(Variant::JanggiModern, Game::Janggi, InputSet::Plain, 13).passes;
    assert!(passes > 0, "no pass was played");
}

/// The walk saw general moves across buckets and across the centre file.
fn crossed(seen: &Seen) {
    assert!(
        seen.bucket_changes > 20,
        "{} bucket changes",
        seen.bucket_changes
    );
    assert!(
        seen.mirror_changes > 5,
        "{} mirror changes",
        seen.mirror_changes
    );
}

#[test]
fn incremental_equals_refresh_xiangqi_general_buckets() {
    let seen = walk(
        Variant::Xiangqi,
        Game::Xiangqi,
        InputSet::GeneralBuckets,
        21,
    );
    crossed(&seen);
}

#[test]
fn incremental_equals_refresh_janggi_general_buckets() {
    for (variant, seed) in [(Variant::Janggi, 22), (Variant::JanggiModern, 23)] {
        let seen = walk(variant, Game::Janggi, InputSet::GeneralBuckets, seed);
        crossed(&seen);
        assert!(seen.passes > 0, "no pass was played");
    }
}

/// A stack built for one input set does not fit a network of the other
/// (the search then builds a new one).
#[test]
fn a_stack_fits_its_input_set_only() {
    let plain = Network::random(Game::Xiangqi, 32, 4, 1);
    let arch = Arch {
        inputs: InputSet::GeneralBuckets,
        hidden: 32,
        buckets: 4,
    };
    let bucketed = Network::random_of(Game::Xiangqi, arch, 1);
    assert!(plain.is_some() && bucketed.is_some());
    if let (Some(plain), Some(bucketed)) = (plain, bucketed) {
        let stack = AccumulatorStack::new(&plain, 4);
        assert!(stack.fits(&plain));
        assert!(!stack.fits(&bucketed));
        assert!(AccumulatorStack::new(&bucketed, 4).fits(&bucketed));
    }
}
