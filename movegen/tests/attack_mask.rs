//! `Position::attack_mask` (one pass over a piece's lines) must agree
//! with `Position::attacks` (one test per point) for every piece and
//! every point, in random positions of both games.

use movegen::{setups, Position, SplitMix64, Square, Variant};

/// Compare the two on every occupied point of `p`; returns how many
/// (piece, point) pairs were attacked.
fn check(p: &Position) -> usize {
    let mut attacked = 0;
    for from in (0..90).filter_map(Square::new) {
        if p.piece_at(from).is_none() {
            assert_eq!(p.attack_mask(from), 0);
            continue;
        }
        let mask = p.attack_mask(from);
        assert_eq!(mask >> 90, 0, "bits beyond the board");
        for to in (0..90).filter_map(Square::new) {
            let bit = mask >> to.index() & 1 != 0;
            let want = from != to && p.attacks(from, to);
            assert_eq!(bit, want, "{} from {from:?} to {to:?}", p.to_fen());
            attacked += usize::from(bit);
        }
    }
    attacked
}

/// Random games of `variant`, preferring captures now and then so that
/// lines open and cannons find screens.
fn random_play(variant: Variant, games: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let names = setups::janggi_setup_names();
    let (mut positions, mut attacked) = (0, 0);
    for _ in 0..games {
        let mut p = if variant.is_janggi() {
            let name = &names[rng.below(names.len())];
            setups::janggi_setup(name, variant).expect("setup")
        } else {
            Position::startpos(variant)
        };
        for _ in 0..20 + rng.below(160) {
            attacked += check(&p);
            positions += 1;
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let caps = p.legal_captures();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(m);
        }
    }
    assert!(
        positions > 1000 && attacked > 10 * positions,
        "{positions} {attacked}"
    );
}

#[test]
fn xiangqi_masks_agree_with_attacks() {
    random_play(Variant::Xiangqi, 30, 0xA77A);
}

#[test]
fn janggi_masks_agree_with_attacks() {
    random_play(Variant::Janggi, 30, 0xA77B);
}

#[test]
fn janggi_modern_masks_agree_with_attacks() {
    random_play(Variant::JanggiModern, 15, 0xA77C);
}
