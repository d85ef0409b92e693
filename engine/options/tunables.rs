//! The search's tunable parameters as UCI spin options, in a tuning build
//! only (feature `tune`; a normal build has none of these options).
//!
//! Every row of `search::params::TUNABLES` becomes one option per game,
//! named by `search::params::option_name` (`xiangqi_rfp_margin_per_ply`,
//! `janggi_rfp_margin_per_ply`), with the row's default and range. They
//! are announced after the table's options in UCI's `uci` answer only:
//! the tuner (`jiang spsa`) speaks UCI. A value is checked like any spin
//! option's and reaches the search when the session applies its settings
//! (between searches, see `crate::session`).

use movegen::Game;
use search::params::{self, Param, TUNABLES};

use super::text::uci_line_named;
use super::{parse_spin, Kind, ValueError};

/// The option's kind: a spin with the row's default in `game` and range.
pub fn kind(p: Param, game: Game) -> Kind {
    let t = p.row();
    Kind::Spin {
        default: i64::from(*t.default.get(game)),
        min: i64::from(t.min),
        max: i64::from(t.max),
    }
}

/// The parameter and game of the option called `name` (any case).
pub fn find(name: &str) -> Option<(Param, Game)> {
    params::find_option(name)
}

/// Read `value` for parameter `p` in `game`, within its range.
pub fn parse(p: Param, game: Game, value: &str) -> Result<i32, ValueError> {
    // The range fits `i32`, so the checked value does too.
    parse_spin(kind(p, game), value.trim()).map(|v| v as i32)
}

/// The UCI `option` lines of every parameter, Xiangqi's first.
pub fn uci_lines() -> Vec<String> {
    Game::ALL
        .into_iter()
        .flat_map(|g| {
            TUNABLES
                .iter()
                .map(move |t| uci_line_named(&params::option_name(t.param, g), kind(t.param, g)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_an_option_with_its_range() {
        let lines = uci_lines();
        assert_eq!(lines.len(), 2 * TUNABLES.len());
        assert_eq!(
            lines[0],
            "option name xiangqi_rfp_max_depth type spin default 7 min 3 max 12"
        );
        let (p, g) = find("JANGGI_ASPIRATION_DELTA").unwrap();
        assert_eq!((p, g), (Param::AspirationDelta, Game::Janggi));
        assert_eq!(parse(p, g, " 30 "), Ok(30));
        assert!(parse(p, g, "4").is_err());
        assert!(parse(p, g, "x").is_err());
        assert!(parse(p, g, "99999999999").is_err());
    }
}
