//! Games and rule sets.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{self, Leap, Leaps, Targets};

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

/// What differs between the two games' movement rules: the rules as
/// constants and the per-game geometry tables behind a common shape.
///
/// The generator, the attack tests and the check shortcut are generic over
/// this trait, so each game gets its own monomorphised copy of the hot loops
/// and no run-time test of the game is left in them; [`with_rules!`] picks
/// the copy once, at the entry point.
pub(crate) trait GameRules {
    /// Generals on one open file attack each other (Xiangqi's flying
    /// general). In Janggi facing generals are bikjang, which the variant
    /// settles, not an attack.
    const FLYING_GENERAL: bool;
    /// Chariots, cannons, generals and guards also move along the palace
    /// diagonals (Janggi).
    const PALACE_DIAGONALS: bool;
    /// A cannon moves only by jumping, and may neither jump over nor capture
    /// a cannon (Janggi). A Xiangqi cannon moves like a chariot and captures
    /// by jumping over any piece.
    const JUMPING_CANNON: bool;
    /// Elephants can reach the enemy general, over two blocking points
    /// (Janggi). Xiangqi elephants stay on their own side and have one eye.
    const LONG_ELEPHANT: bool;
    /// The side to move may pass (Janggi).
    const PASS: bool;
    /// Points that matter to a general on the indexed point as move origins
    /// ([`crate::geometry::CHECK_FROM`]).
    const CHECK_FROM: &'static [u128; 90];
    /// Points that matter to a general on the indexed point as move
    /// destinations ([`crate::geometry::CHECK_TO`]).
    const CHECK_TO: &'static [u128; 90];

    /// Soldier steps of colour `c` from point `s`.
    fn soldier_steps(c: usize, s: usize) -> &'static [u8];
    /// Points from which a soldier of colour `c` attacks point `s`.
    fn soldier_attackers(c: usize, s: usize) -> &'static [u8];
    /// Elephant leaps of colour `c` from point `s`.
    fn elephant_leaps(c: usize, s: usize) -> &'static [Leap];
    /// Advisor (Janggi: guard) steps of colour `c` from point `s`.
    fn advisor_steps(c: usize, s: usize) -> &'static [u8];
    /// General steps of colour `c` from point `s` (within the palace).
    fn general_steps(c: usize, s: usize) -> &'static [u8];
}

/// Xiangqi's rules for generic generator functions.
pub(crate) struct XiangqiRules;
/// Janggi's rules for generic generator functions.
pub(crate) struct JanggiRules;

impl GameRules for XiangqiRules {
    const FLYING_GENERAL: bool = true;
    const PALACE_DIAGONALS: bool = false;
    const JUMPING_CANNON: bool = false;
    const LONG_ELEPHANT: bool = false;
    const PASS: bool = false;
    const CHECK_FROM: &'static [u128; 90] = &geometry::CHECK_FROM[0];
    const CHECK_TO: &'static [u128; 90] = &geometry::CHECK_TO[0];

    #[inline(always)]
    fn soldier_steps(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<3>; 90]; 2] = geometry::SOLDIER_X;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn soldier_attackers(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<5>; 90]; 2] = geometry::SOLDIER_X_ATTACKERS;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn elephant_leaps(c: usize, s: usize) -> &'static [Leap] {
        static T: [[Leaps; 90]; 2] = geometry::ELEPHANT_X;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn advisor_steps(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<4>; 90]; 2] = geometry::ADVISOR_X;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn general_steps(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<4>; 90]; 2] = geometry::GENERAL_X;
        T[c][s].as_slice()
    }
}

impl GameRules for JanggiRules {
    const FLYING_GENERAL: bool = false;
    const PALACE_DIAGONALS: bool = true;
    const JUMPING_CANNON: bool = true;
    const LONG_ELEPHANT: bool = true;
    const PASS: bool = true;
    const CHECK_FROM: &'static [u128; 90] = &geometry::CHECK_FROM[1];
    const CHECK_TO: &'static [u128; 90] = &geometry::CHECK_TO[1];

    #[inline(always)]
    fn soldier_steps(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<5>; 90]; 2] = geometry::SOLDIER_J;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn soldier_attackers(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<5>; 90]; 2] = geometry::SOLDIER_J_ATTACKERS;
        T[c][s].as_slice()
    }
    #[inline(always)]
    fn elephant_leaps(_c: usize, s: usize) -> &'static [Leap] {
        crate::leaps::JANGGI_ELEPHANT[s].as_slice()
    }
    #[inline(always)]
    fn advisor_steps(c: usize, s: usize) -> &'static [u8] {
        Self::general_steps(c, s)
    }
    #[inline(always)]
    fn general_steps(c: usize, s: usize) -> &'static [u8] {
        static T: [[Targets<8>; 90]; 2] = geometry::PALACE_STEP_J;
        T[c][s].as_slice()
    }
}

/// Evaluate `$body` with `$R` standing for the [`GameRules`] of `$game` (a
/// [`Game`]): the one place where a run-time game becomes a type, so that
/// what follows is monomorphised per game.
///
/// `with_rules!(pos.variant().game(), R => general_attacked::<R, _>(pos, ks, by))`
macro_rules! with_rules {
    ($game:expr, $R:ident => $body:expr) => {
        match $game {
            $crate::variant::Game::Xiangqi => {
                type $R = $crate::variant::XiangqiRules;
                $body
            }
            $crate::variant::Game::Janggi => {
                type $R = $crate::variant::JanggiRules;
                $body
            }
        }
    };
}
pub(crate) use with_rules;
