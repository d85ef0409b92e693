//! Engine options: one table, shown in each protocol's own form, and the
//! typed settings they change.
//!
//! The protocols only translate names: UCI uses the names below, UCCI its
//! lower-case standard names (`hashsize`, `threads`, …, see
//! [`ucci_alias`]), XBoard `memory`/`cores` plus `option NAME=VALUE` with
//! these names. Values are checked here, once, with one error type.
//!
//! Settings are not pushed into the search engine when they change: the
//! search may be running, and its setters must only be called between
//! searches. The session applies them just before the next `go`.

use std::fmt;

use movegen::{Ranks, Variant};

/// Largest transposition table, MiB.
pub const MAX_HASH_MB: u64 = 32 * 1024;
/// Most search threads.
pub const MAX_THREADS: u64 = 256;
/// Longest clock time or increment the protocols pass on, ms (about
/// 115 days). Larger values are clamped: they mean "no limit" to a GUI, and
/// the time manager's arithmetic needs headroom.
pub const MAX_CLOCK_MS: u64 = 10_000_000_000;

/// Clamp a time from the GUI to `0..=MAX_CLOCK_MS`.
pub fn clock_ms(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        0
    } else {
        v.min(MAX_CLOCK_MS as f64) as u64
    }
}

/// Most principal variations.
pub const MAX_MULTIPV: u64 = 128;

/// The shape of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in a range.
    Spin {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true`/`false`.
    Check,
    /// One of a list of words.
    Combo(&'static [&'static str]),
    /// No value: an action.
    Button,
}

/// One option as the protocols announce it.
#[derive(Clone, Copy, Debug)]
pub struct OptionDef {
    /// Name (UCI spelling; lookup ignores case).
    pub name: &'static str,
    /// Value kind.
    pub kind: Kind,
    /// Default value as text (empty for buttons).
    pub default: &'static str,
}

/// The `UCI_Variant` values.
pub const VARIANTS: &[&str] = &[
    "xiangqi",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];
/// The `UCI_Ranks` values: follow `UCI_Variant` (`auto`), or force ranks
/// 0–9 or 1–10.
pub const RANK_MODES: &[&str] = &["auto", "0-9", "1-10"];

/// Every option, in the order they are announced.
pub const OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
        default: "1",
    },
    OptionDef {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        default: "16",
    },
    OptionDef {
        name: "Clear Hash",
        kind: Kind::Button,
        default: "",
    },
    OptionDef {
        name: "Ponder",
        kind: Kind::Check,
        default: "false",
    },
    OptionDef {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        default: "1",
    },
    OptionDef {
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: 5000 },
        default: "10",
    },
    OptionDef {
        name: "UCI_Variant",
        kind: Kind::Combo(VARIANTS),
        default: "xiangqi",
    },
    OptionDef {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        default: "false",
    },
    OptionDef {
        name: "UCI_Ranks",
        kind: Kind::Combo(RANK_MODES),
        default: "auto",
    },
    // Game-end behaviour (UCCI `bestmove … draw|resign`, XBoard offers):
    // resign when the score is at or below minus this many centipawns
    // (0: never); accept or offer a draw when the score is at most this.
    OptionDef {
        name: "Resign Score",
        kind: Kind::Spin {
            min: 0,
            max: 100_000,
        },
        default: "0",
    },
    OptionDef {
        name: "Draw Score",
        kind: Kind::Spin {
            min: -1000,
            max: 1000,
        },
        default: "0",
    },
];

/// UCCI standard option names that map onto ours.
pub fn ucci_alias(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "hashsize" => "Hash",
        "threads" => "Threads",
        "ponder" => "Ponder",
        "multipv" => "MultiPV",
        "resignscore" => "Resign Score",
        "drawscore" => "Draw Score",
        _ => return None,
    })
}

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
    /// No option has this name.
    Unknown(String),
    /// The value does not fit the option.
    BadValue {
        /// Option name.
        name: &'static str,
        /// Value given.
        value: String,
        /// What would have been accepted.
        expected: String,
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
        }
    }
}

impl std::error::Error for OptionError {}

/// What setting an option asks the session to do besides storing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Clear the hash table before the next search.
    ClearHash,
    /// The variant changed: reset the position to its start.
    Variant,
}

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// Hash size, MiB.
    pub hash_mb: usize,
    /// Whether the GUI may ask us to ponder.
    pub ponder: bool,
    /// Principal variations to report.
    pub multipv: usize,
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
    /// Resign at or below minus this score (cp); 0: never.
    pub resign_cp: i32,
    /// Accept or offer a draw at or below this score (cp).
    pub draw_cp: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            hash_mb: 16,
            ponder: false,
            multipv: 1,
            move_overhead_ms: 10,
            variant: Variant::Xiangqi,
            show_wdl: false,
            rank_mode: RankMode::Auto,
            variant_set_by_gui: false,
            resign_cp: 0,
            draw_cp: 0,
        }
    }
}

fn find(name: &str) -> Option<&'static OptionDef> {
    let want = name.trim();
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(want))
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
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

    /// Set an option by name (any case). On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Effect, OptionError> {
        let def = find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
        let value = value.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: def.name,
            value: value.to_string(),
            expected,
        };
        let int = match def.kind {
            Kind::Spin { min, max } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => v,
                _ => return Err(bad(format!("an integer from {min} to {max}"))),
            },
            _ => 0,
        };
        let flag = match def.kind {
            Kind::Check => parse_bool(value).ok_or_else(|| bad("true or false".into()))?,
            _ => false,
        };
        let word = match def.kind {
            Kind::Combo(vals) => vals
                .iter()
                .copied()
                .find(|v| v.eq_ignore_ascii_case(value))
                .or(match (def.name, value) {
                    ("UCI_Ranks", "0") => Some("0-9"),
                    ("UCI_Ranks", "1") => Some("1-10"),
                    _ => None,
                })
                .ok_or_else(|| bad(format!("one of {}", vals.join(", "))))?,
            _ => "",
        };
        // Spin values are range-checked above, so these conversions cannot
        // lose anything.
        let uint = usize::try_from(int).unwrap_or(0);
        match def.name {
            "Threads" => self.threads = uint,
            "Hash" => self.hash_mb = uint,
            "Clear Hash" => return Ok(Effect::ClearHash),
            "Ponder" => self.ponder = flag,
            "MultiPV" => self.multipv = uint,
            "Move Overhead" => self.move_overhead_ms = uint as u64,
            "UCI_ShowWDL" => self.show_wdl = flag,
            "Resign Score" => self.resign_cp = int as i32,
            "Draw Score" => self.draw_cp = int as i32,
            "UCI_Ranks" => {
                self.rank_mode = match word {
                    "0-9" => RankMode::Zero,
                    "1-10" => RankMode::One,
                    _ => RankMode::Auto,
                }
            }
            "UCI_Variant" => {
                let v: Variant = word.parse().map_err(|_| bad(VARIANTS.join(", ")))?;
                self.variant = v;
                self.variant_set_by_gui = true;
                return Ok(Effect::Variant);
            }
            _ => return Err(OptionError::Unknown(def.name.to_string())),
        }
        Ok(Effect::None)
    }

    /// Current value of an option as text (for `option` listings).
    pub fn value_text(&self, def: &OptionDef) -> String {
        match def.name {
            "Threads" => self.threads.to_string(),
            "Hash" => self.hash_mb.to_string(),
            "Ponder" => self.ponder.to_string(),
            "MultiPV" => self.multipv.to_string(),
            "Move Overhead" => self.move_overhead_ms.to_string(),
            "UCI_Variant" => self.variant.name().to_string(),
            "UCI_ShowWDL" => self.show_wdl.to_string(),
            "UCI_Ranks" => match self.rank_mode {
                RankMode::Auto => "auto",
                RankMode::Zero => "0-9",
                RankMode::One => "1-10",
            }
            .to_string(),
            "Resign Score" => self.resign_cp.to_string(),
            "Draw Score" => self.draw_cp.to_string(),
            _ => def.default.to_string(),
        }
    }
}

/// An option in UCI form: `option name Hash type spin default 16 min 1 max …`.
pub fn uci_line(def: &OptionDef) -> String {
    match def.kind {
        Kind::Spin { min, max } => {
            format!(
                "option name {} type spin default {} min {min} max {max}",
                def.name, def.default
            )
        }
        Kind::Check => format!(
            "option name {} type check default {}",
            def.name, def.default
        ),
        Kind::Combo(vals) => {
            let vars: Vec<String> = vals.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {} type combo default {} {}",
                def.name,
                def.default,
                vars.join(" ")
            )
        }
        Kind::Button => format!("option name {} type button", def.name),
    }
}

/// An option in XBoard form: `feature option="Hash -spin 16 1 32768"`.
pub fn xboard_feature(def: &OptionDef, current: &str) -> String {
    let body = match def.kind {
        Kind::Spin { min, max } => format!("{} -spin {current} {min} {max}", def.name),
        Kind::Check => format!("{} -check {}", def.name, u8::from(current == "true")),
        Kind::Combo(vals) => {
            let list: Vec<String> = vals
                .iter()
                .map(|v| {
                    if *v == current {
                        format!("*{v}")
                    } else {
                        (*v).to_string()
                    }
                })
                .collect();
            format!("{} -combo {}", def.name, list.join(" /// "))
        }
        Kind::Button => format!("{} -button", def.name),
    };
    format!("feature option=\"{body}\"")
}

/// Split a tolerant UCI `setoption` argument list into name and value:
/// `name Clear Hash`, `name Hash value 64`, and the keyword-less
/// `Threads 4` some GUIs send (the last word is the value then, unless the
/// whole text names a button).
pub fn split_setoption(args: &str) -> Option<(String, String)> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let name_at = lower.iter().position(|w| w == "name");
    let value_at = lower.iter().position(|w| w == "value");
    match (name_at, value_at) {
        (Some(n), Some(v)) if v > n => Some((words[n + 1..v].join(" "), words[v + 1..].join(" "))),
        (Some(n), None) => Some((words[n + 1..].join(" "), String::new())),
        (None, Some(v)) => Some((words[..v].join(" "), words[v + 1..].join(" "))),
        _ => {
            let all = words.join(" ");
            if find(&all).is_some() || words.len() == 1 {
                Some((all, String::new()))
            } else {
                let (last, rest) = words.split_last()?;
                Some((rest.join(" "), (*last).to_string()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_reject() {
        let mut s = Settings::default();
        assert_eq!(s.set("hash", "64"), Ok(Effect::None));
        assert_eq!(s.hash_mb, 64);
        assert!(matches!(
            s.set("Hash", "0"),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            s.set("Hash", "abc"),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(s.hash_mb, 64);
        assert!(matches!(s.set("Nope", "1"), Err(OptionError::Unknown(_))));
        assert_eq!(s.uci_ranks(), Ranks::ZeroBased);
        assert_eq!(s.set("UCI_Variant", "Janggi"), Ok(Effect::Variant));
        assert_eq!(s.uci_ranks(), Ranks::OneBased);
        assert_eq!(s.set("UCI_Ranks", "0"), Ok(Effect::None));
        assert_eq!(s.uci_ranks(), Ranks::ZeroBased);
        assert_eq!(s.set("Clear Hash", ""), Ok(Effect::ClearHash));
    }

    #[test]
    fn clocks_are_clamped() {
        assert_eq!(clock_ms(-5.0), 0);
        assert_eq!(clock_ms(f64::NAN), 0);
        assert_eq!(clock_ms(1500.7), 1500);
        assert_eq!(clock_ms(1e30), MAX_CLOCK_MS);
    }

    #[test]
    fn tolerant_setoption() {
        let p = split_setoption;
        assert_eq!(p("name Hash value 64"), Some(("Hash".into(), "64".into())));
        assert_eq!(p("Threads 4"), Some(("Threads".into(), "4".into())));
        assert_eq!(
            p("name Clear Hash"),
            Some(("Clear Hash".into(), String::new()))
        );
        assert_eq!(p("Clear Hash"), Some(("Clear Hash".into(), String::new())));
        assert_eq!(
            p("name Move Overhead value 30"),
            Some(("Move Overhead".into(), "30".into()))
        );
        assert_eq!(
            p("Move Overhead 30"),
            Some(("Move Overhead".into(), "30".into()))
        );
        assert_eq!(p(""), None);
    }
}
