//! Games and rule sets.

use std::fmt;
use std::str::FromStr;

/// Which of the two games a position belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Game {
    /// Chinese chess.
    Xiangqi,
    /// Korean chess.
    Janggi,
}

/// How a Janggi game that ends without mate is decided (double pass,
/// accepted bikjang, repetition, move limit).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum JanggiFallback {
    /// Material points decide; Han gets 1.5 extra, so there is no tie.
    Counting,
    /// The game is drawn.
    Draw,
}

/// A game together with its rule set. Names match Fairy-Stockfish's
/// `UCI_Variant` values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Xiangqi under Asian (WXF) rules.
    #[default]
    Xiangqi,
    /// Janggi, tournament rules: bikjang, counting decides (`janggi`).
    Janggi,
    /// Janggi, traditional: bikjang and double pass are draws.
    JanggiTraditional,
    /// Janggi, modern: no bikjang, counting, 100-move limit, fourfold
    /// repetition and the shuttle rule.
    JanggiModern,
    /// Janggi, casual: no bikjang, draws instead of counting.
    JanggiCasual,
}

impl Variant {
    /// Every variant, in the order the `UCI_Variant` combo lists them.
    pub const ALL: [Variant; 5] = [
        Variant::Xiangqi,
        Variant::Janggi,
        Variant::JanggiTraditional,
        Variant::JanggiModern,
        Variant::JanggiCasual,
    ];

    /// The game played.
    #[inline]
    pub const fn game(self) -> Game {
        match self {
            Variant::Xiangqi => Game::Xiangqi,
            _ => Game::Janggi,
        }
    }

    /// Whether this is a Janggi rule set.
    #[inline]
    pub const fn is_janggi(self) -> bool {
        !matches!(self, Variant::Xiangqi)
    }

    /// Whether facing generals (bikjang) must be broken by the side to move.
    #[inline]
    pub const fn has_bikjang(self) -> bool {
        matches!(self, Variant::Janggi | Variant::JanggiTraditional)
    }

    /// How a Janggi game ends when nobody is mated; `None` for Xiangqi.
    pub const fn janggi_fallback(self) -> Option<JanggiFallback> {
        match self {
            Variant::Xiangqi => None,
            Variant::Janggi | Variant::JanggiModern => Some(JanggiFallback::Counting),
            Variant::JanggiTraditional | Variant::JanggiCasual => Some(JanggiFallback::Draw),
        }
    }

    /// Plies without a capture after which the game ends.
    pub const fn move_limit_plies(self) -> u16 {
        match self {
            Variant::Xiangqi => 120,
            Variant::JanggiModern => 200,
            _ => 100,
        }
    }

    /// How many times a position must occur to end the game by repetition.
    pub const fn repetition_count(self) -> u8 {
        match self {
            Variant::JanggiModern => 4,
            _ => 3,
        }
    }

    /// Whether the modern shuttle rule applies.
    pub const fn has_shuttle_rule(self) -> bool {
        matches!(self, Variant::JanggiModern)
    }

    /// The `UCI_Variant` name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Janggi => "janggi",
            Variant::JanggiTraditional => "janggitraditional",
            Variant::JanggiModern => "janggimodern",
            Variant::JanggiCasual => "janggicasual",
        }
    }

    /// The standard start position of this variant (for Janggi the setup
    /// Fairy-Stockfish uses: both sides `RNBA1ABNR`).
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Xiangqi => crate::fen::XIANGQI_START,
            _ => crate::fen::JANGGI_START,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected xiangqi, janggi, janggitraditional, janggimodern or janggicasual)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == lower)
            .or(match lower.as_str() {
                "chinese" | "cchess" => Some(Variant::Xiangqi),
                "korean" => Some(Variant::Janggi),
                _ => None,
            })
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Compile-time game selection for the move generator's hot loops.
pub(crate) trait GameRules {
    /// True for Janggi, false for Xiangqi.
    const JANGGI: bool;
}

/// Xiangqi marker for generic generator functions.
pub(crate) struct XiangqiRules;
/// Janggi marker for generic generator functions.
pub(crate) struct JanggiRules;

impl GameRules for XiangqiRules {
    const JANGGI: bool = false;
}
impl GameRules for JanggiRules {
    const JANGGI: bool = true;
}
