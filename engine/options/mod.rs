//! Engine options: one table ([`table`]), shown in each protocol's own
//! form ([`text`]), and the typed settings they change.
//!
//! The protocols only translate names: UCI (and XBoard's `option`) use
//! the UCI names, UCCI its lower-case standard names (`hashsize`,
//! `threads`, …), XBoard also `memory`/`cores`. Values are checked here,
//! once, with one error type: a value outside an option's limits is
//! refused and the previous value stays (the search API, which has no
//! user to tell, clamps instead).
//!
//! Settings are not pushed into the search engine when they change: the
//! search may be running, and its setters must only be called between
//! searches. The session applies them just before the next `go`.

pub mod resign;
pub mod table;
pub mod text;
#[cfg(feature = "tune")]
pub mod tunables;

use std::fmt;

use movegen::{Game, Ranks, Variant};

pub use resign::EndRule;
pub use table::{Dialect, Kind, OptionId, OptionRow, OPTIONS, RANK_MODES, VARIANTS};

/// How ranks are written in UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankMode {
    /// 0–9 until a GUI sets `UCI_Variant`, then 1–10 (Fairy-Stockfish).
    #[default]
    Auto,
    /// Always 0–9.
    Zero,
    /// Always 1–10.
    One,
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name in the protocol used.
    Unknown(String),
    /// The value does not fit the option.
    BadValue {
        /// Option name as the protocol spells it.
        name: String,
        /// Value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// The hash table could not be resized (the old size stays).
    Hash {
        /// Option name as the protocol spells it.
        name: String,
        /// What the search said.
        error: search::HashError,
    },
    /// A network file could not be used (the previous network stays).
    Network {
        /// Option name as the protocol spells it.
        name: String,
        /// The path given.
        path: String,
        /// Why: unreadable, or what the network reader refused.
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(f, "option {name}: bad value '{value}', expected {expected}")
            }
            OptionError::Hash { name, error } => write!(f, "option {name}: {error}"),
            OptionError::Network { name, path, reason } => write!(
                f,
                "option {name}: cannot use '{path}': {reason}; keeping the previous network"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// A value that does not fit its option (the caller adds the name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// Value given.
    pub value: String,
    /// What would have been accepted.
    pub expected: String,
}

impl ValueError {
    /// The full error, naming the option as the protocol spells it.
    pub fn named(self, name: &str) -> OptionError {
        OptionError::BadValue {
            name: name.to_string(),
            value: self.value,
            expected: self.expected,
        }
    }
}

/// What setting an option asks the session to do besides storing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Clear the hash table before the next search.
    ClearHash,
    /// The variant changed: reset the position to its start.
    Variant,
    /// A new game starts (UCCI `newgame`).
    NewGame,
    /// `Use NNUE` changed.
    UseNnue,
    /// A game's network file changed: load it (or the embedded network
    /// when the name is empty).
    Network(Game),
}

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// UCCI: `go` times are milliseconds (else seconds).
    pub use_millisec: bool,
    /// Search threads.
    pub threads: usize,
    /// Hash size, MiB.
    pub hash_mb: usize,
    /// Whether the GUI may ask us to ponder.
    pub ponder: bool,
    /// Principal variations to report.
    pub multipv: usize,
    /// `Skill Level`, 0–20.
    pub skill_level: i64,
    /// `UCI_LimitStrength`: play at `uci_elo` rather than `skill_level`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub uci_elo: i64,
    /// `Skill Seed` (0: the session's own seed, new each run).
    pub skill_seed: u64,
    /// Time kept back per move for communication, ms.
    pub move_overhead_ms: u64,
    /// The game.
    pub variant: Variant,
    /// Print `wdl` in UCI info lines.
    pub show_wdl: bool,
    /// Rank convention for UCI.
    pub rank_mode: RankMode,
    /// `UCI_Variant` has been set (switches `Auto` ranks to 1–10).
    pub variant_set_by_gui: bool,
    /// When to resign or accept a draw.
    pub end: EndRule,
    /// Evaluate with the game's network when one is loaded.
    pub use_nnue: bool,
    /// The Xiangqi network file (`EvalFile`; empty: the embedded one).
    pub eval_file: String,
    /// The Janggi network file (`EvalFileJanggi`; empty: the embedded one).
    pub eval_file_janggi: String,
}

impl Default for Settings {
    /// The table's defaults (a test checks that every row's default is
    /// what this gives).
    fn default() -> Self {
        Settings {
            use_millisec: true,
            threads: search::DEFAULT_THREADS,
            hash_mb: search::DEFAULT_HASH_MB,
            ponder: false,
            multipv: search::DEFAULT_MULTIPV,
            skill_level: table::MAX_SKILL_LEVEL,
            limit_strength: false,
            uci_elo: search::skill::MAX_ELO,
            skill_seed: 0,
            move_overhead_ms: search::DEFAULT_MOVE_OVERHEAD_MS,
            variant: Variant::Xiangqi,
            show_wdl: false,
            rank_mode: RankMode::Auto,
            variant_set_by_gui: false,
            end: EndRule::default(),
            use_nnue: true,
            eval_file: String::new(),
            eval_file_janggi: String::new(),
        }
    }
}

/// A value read according to its option's kind.
enum Value {
    Int(i64),
    Flag(bool),
    Word(&'static str),
    Text(String),
    Nothing,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Read a spin option's `value` within its limits (`kind` is a spin).
fn parse_spin(kind: Kind, value: &str) -> Result<i64, ValueError> {
    let (min, max) = match kind {
        Kind::Spin { min, max, .. } => (min, max),
        _ => (i64::MIN, i64::MAX),
    };
    match value.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ValueError {
            value: value.to_string(),
            expected: format!("an integer from {min} to {max}"),
        }),
    }
}

/// Read `value` as `kind` describes, within its limits.
fn parse_value(kind: Kind, value: &str) -> Result<Value, ValueError> {
    let bad = |expected: String| ValueError {
        value: value.to_string(),
        expected,
    };
    match kind {
        Kind::Spin { .. } => parse_spin(kind, value).map(Value::Int),
        Kind::Check { .. } => parse_bool(value)
            .map(Value::Flag)
            .ok_or_else(|| bad("true or false".into())),
        Kind::Combo { values, .. } => values
            .iter()
            .copied()
            .find(|v| v.eq_ignore_ascii_case(value))
            .map(Value::Word)
            .ok_or_else(|| bad(format!("one of {}", values.join(", ")))),
        Kind::Button => Ok(Value::Nothing),
        Kind::Text { .. } if value == text::EMPTY => Ok(Value::Text(String::new())),
        Kind::Text { .. } => Ok(Value::Text(value.to_string())),
    }
}

impl Settings {
    /// Rank convention UCI uses now.
    pub fn uci_ranks(&self) -> Ranks {
        match self.rank_mode {
            RankMode::Zero => Ranks::ZeroBased,
            RankMode::One => Ranks::OneBased,
            RankMode::Auto if self.variant_set_by_gui => Ranks::OneBased,
            RankMode::Auto => Ranks::ZeroBased,
        }
    }

    /// Set an option. On error nothing changes.
    pub fn set(&mut self, id: OptionId, value: &str) -> Result<Effect, ValueError> {
        let mut value = value.trim();
        // `UCI_Ranks 0` / `1`: the short forms people type.
        if id == OptionId::UciRanks {
            value = match value {
                "0" => "0-9",
                "1" => "1-10",
                v => v,
            };
        }
        let parsed = parse_value(id.row().kind, value)?;
        // Spin values are within their limits, which fit every field.
        let (int, flag, word) = match parsed {
            Value::Int(v) => (v, false, ""),
            Value::Flag(f) => (0, f, ""),
            Value::Word(w) => (0, false, w),
            Value::Text(t) => {
                return Ok(match id {
                    OptionId::EvalFileJanggi => {
                        self.eval_file_janggi = t;
                        Effect::Network(Game::Janggi)
                    }
                    _ => {
                        self.eval_file = t;
                        Effect::Network(Game::Xiangqi)
                    }
                })
            }
            Value::Nothing => (0, false, ""),
        };
        let uint = usize::try_from(int).unwrap_or(0);
        let small = i32::try_from(int).unwrap_or(0);
        match id {
            OptionId::UseMillisec => self.use_millisec = flag,
            OptionId::Threads => self.threads = uint,
            OptionId::Hash => self.hash_mb = uint,
            OptionId::ClearHash => return Ok(Effect::ClearHash),
            OptionId::Ponder => self.ponder = flag,
            OptionId::MultiPv => self.multipv = uint,
            OptionId::SkillLevel => self.skill_level = int,
            OptionId::LimitStrength => self.limit_strength = flag,
            OptionId::UciElo => self.uci_elo = int,
            OptionId::SkillSeed => self.skill_seed = uint as u64,
            OptionId::MoveOverhead => self.move_overhead_ms = uint as u64,
            OptionId::UciShowWdl => self.show_wdl = flag,
            OptionId::ResignScore => self.end.resign_cp = small,
            OptionId::DrawScore => self.end.draw_cp = small,
            OptionId::UciRanks => {
                self.rank_mode = match word {
                    "0-9" => RankMode::Zero,
                    "1-10" => RankMode::One,
                    _ => RankMode::Auto,
                }
            }
            OptionId::UciVariant => {
                let v: Variant = word.parse().map_err(|_| ValueError {
                    value: value.to_string(),
                    expected: format!("one of {}", VARIANTS.join(", ")),
                })?;
                self.variant = v;
                self.variant_set_by_gui = true;
                return Ok(Effect::Variant);
            }
            OptionId::NewGame => return Ok(Effect::NewGame),
            OptionId::UseNnue => {
                self.use_nnue = flag;
                return Ok(Effect::UseNnue);
            }
            // Text options returned above.
            OptionId::EvalFile | OptionId::EvalFileJanggi => {}
        }
        Ok(Effect::None)
    }

    /// Current value of an option as text (empty for buttons).
    pub fn value_text(&self, id: OptionId) -> String {
        match id {
            OptionId::UseMillisec => self.use_millisec.to_string(),
            OptionId::Threads => self.threads.to_string(),
            OptionId::Hash => self.hash_mb.to_string(),
            OptionId::Ponder => self.ponder.to_string(),
            OptionId::MultiPv => self.multipv.to_string(),
            OptionId::SkillLevel => self.skill_level.to_string(),
            OptionId::LimitStrength => self.limit_strength.to_string(),
            OptionId::UciElo => self.uci_elo.to_string(),
            OptionId::SkillSeed => self.skill_seed.to_string(),
            OptionId::MoveOverhead => self.move_overhead_ms.to_string(),
            OptionId::UciVariant => self.variant.name().to_string(),
            OptionId::UciShowWdl => self.show_wdl.to_string(),
            OptionId::UciRanks => match self.rank_mode {
                RankMode::Auto => "auto",
                RankMode::Zero => "0-9",
                RankMode::One => "1-10",
            }
            .to_string(),
            OptionId::ResignScore => self.end.resign_cp.to_string(),
            OptionId::DrawScore => self.end.draw_cp.to_string(),
            OptionId::UseNnue => self.use_nnue.to_string(),
            OptionId::EvalFile => self.eval_file.clone(),
            OptionId::EvalFileJanggi => self.eval_file_janggi.clone(),
            OptionId::ClearHash | OptionId::NewGame => String::new(),
        }
    }

    /// The strength to play: `UCI_Elo`'s level under
    /// `UCI_LimitStrength` (as in Stockfish, it overrides `Skill Level`),
    /// else `Skill Level`; the draw's seed is `Skill Seed`, or
    /// `session_seed` when that is 0.
    pub fn skill(&self, session_seed: u64) -> search::Skill {
        let level = if self.limit_strength {
            search::skill::level_for_elo(self.uci_elo)
        } else {
            self.skill_level as f64
        };
        let seed = match self.skill_seed {
            0 => session_seed,
            s => s,
        };
        search::Skill::new(level, seed)
    }

    /// The network file option of `game`.
    pub fn eval_file(&self, game: Game) -> &str {
        match game {
            Game::Xiangqi => &self.eval_file,
            Game::Janggi => &self.eval_file_janggi,
        }
    }
}

#[cfg(test)]
mod tests;
