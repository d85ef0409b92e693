//! The networks built into the binary, one per game.
//!
//! None is embedded yet: no trained network exists. When one does, put
//! its file in `nnue/nets/` (named as below), replace the `None` of its
//! game with `Some(include_bytes!("../nets/<file>"))`, and write how it was
//! made in the README (issue 14, item 4). The engine loads what this
//! returns at start-up with the same checks as a user's `EvalFile`, so a
//! damaged file shows up as a test failure, not a crash.

use movegen::Game;

/// The embedded network file of `game`, if one is built in.
pub fn embedded(game: Game) -> Option<&'static [u8]> {
    match game {
        // Later: Some(include_bytes!("../nets/xiangqi.jnn")).
        Game::Xiangqi => None,
        // Later: Some(include_bytes!("../nets/janggi.jnn")).
        Game::Janggi => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Network;

    #[test]
    fn embedded_networks_load_for_their_game() {
        for game in [Game::Xiangqi, Game::Janggi] {
            if let Some(bytes) = embedded(game) {
                assert!(Network::from_bytes_for(bytes, game).is_ok());
            }
        }
    }
}
