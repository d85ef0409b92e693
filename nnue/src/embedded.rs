//! The networks built into the binary, one per game.
//!
//! Xiangqi's network is `nnue/nets/xiangqi.jnn`, Janggi's
//! `nnue/nets/janggi.jnn` (how each was made: `nnue/nets/README.md`). To
//! replace one, put the new file in its place. The engine loads what this
//! returns at start-up with the same checks as a user's `EvalFile`, so a
//! damaged file shows up as a test failure, not a crash.

use std::sync::{Arc, OnceLock};

use movegen::{ByGame, Game};

use crate::Network;

/// The network files built into the binary.
static FILES: ByGame<Option<&[u8]>> = ByGame::new(
    Some(include_bytes!("../nets/xiangqi.jnn")),
    Some(include_bytes!("../nets/janggi.jnn")),
);

/// The embedded network file of `game`, if one is built in.
pub fn embedded(game: Game) -> Option<&'static [u8]> {
    *FILES.get(game)
}

impl Network {
    /// The network built into the binary for `game`, parsed and checked
    /// (as a user's file is) once per process, at the first call; every
    /// caller shares that one copy, so the engine can tell it by pointer.
    /// `None` when no file is built in for the game, or (a build mistake
    /// that the tests catch) when it does not load.
    pub fn embedded(game: Game) -> Option<Arc<Network>> {
        static PARSED: OnceLock<ByGame<Option<Arc<Network>>>> = OnceLock::new();
        PARSED
            .get_or_init(|| {
                ByGame::from_fn(|g| {
                    embedded(g)
                        .and_then(|bytes| Network::from_bytes_for(bytes, g).ok())
                        .map(Arc::new)
                })
            })
            .get(game)
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_has_its_own_network_embedded() {
        for (game, other) in [(Game::Xiangqi, Game::Janggi), (Game::Janggi, Game::Xiangqi)] {
            let bytes = embedded(game);
            assert!(bytes.is_some_and(|b| Network::from_bytes_for(b, game).is_ok()));
            // It is this game's, and not the other's.
            assert!(bytes.is_some_and(|b| Network::from_bytes_for(b, other).is_err()));
        }
    }

    #[test]
    fn checksum_is_the_files_closing_four_bytes() {
        for game in Game::ALL {
            if let Some(bytes) = embedded(game) {
                let net = Network::from_bytes(bytes).expect("embedded network loads");
                assert_eq!(net.checksum().to_le_bytes()[..], bytes[bytes.len() - 4..]);
            }
        }
    }

    #[test]
    fn embedded_networks_are_parsed_once() {
        for game in Game::ALL {
            let (a, b) = (Network::embedded(game), Network::embedded(game));
            assert!(a.is_some());
            assert!(a.zip(b).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)));
        }
    }

    #[test]
    fn embedded_networks_load_for_their_game() {
        for game in Game::ALL {
            if let Some(bytes) = embedded(game) {
                assert!(Network::from_bytes_for(bytes, game).is_ok());
            }
        }
    }
}
