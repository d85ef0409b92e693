//! The networks built into the binary, one per game.
//!
//! Janggi's network is `nnue/nets/janggi.jnn` (how it was made: the
//! README, "The networks made so far"); Xiangqi has none yet. To embed
//! one, put its file in `nnue/nets/` (named as below) and replace the
//! `None` of its game with `Some(include_bytes!("../nets/<file>"))`. The
//! engine loads what this returns at start-up with the same checks as a
//! user's `EvalFile`, so a damaged file shows up as a test failure, not a
//! crash.

use movegen::Game;

/// The embedded network file of `game`, if one is built in.
pub fn embedded(game: Game) -> Option<&'static [u8]> {
    match game {
        // Later: Some(include_bytes!("../nets/xiangqi.jnn")).
        Game::Xiangqi => None,
        Game::Janggi => Some(include_bytes!("../nets/janggi.jnn")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Network;

    #[test]
    fn janggi_network_is_embedded() {
        let bytes = embedded(Game::Janggi);
        assert!(bytes.is_some_and(|b| Network::from_bytes_for(b, Game::Janggi).is_ok()));
        // It is Janggi's, and no other game's.
        assert!(bytes.is_some_and(|b| Network::from_bytes_for(b, Game::Xiangqi).is_err()));
    }

    #[test]
    fn checksum_is_the_files_closing_four_bytes() {
        for game in [Game::Xiangqi, Game::Janggi] {
            if let Some(bytes) = embedded(game) {
                let net = Network::from_bytes(bytes).expect("embedded network loads");
                assert_eq!(net.checksum().to_le_bytes()[..], bytes[bytes.len() - 4..]);
            }
        }
    }

    #[test]
    fn embedded_networks_load_for_their_game() {
        for game in [Game::Xiangqi, Game::Janggi] {
            if let Some(bytes) = embedded(game) {
                assert!(Network::from_bytes_for(bytes, game).is_ok());
            }
        }
    }
}
