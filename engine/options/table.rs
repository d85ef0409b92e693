//! The option table: every engine option once, with the name each
//! protocol knows it by, its kind, default and limits
//! (docs/PROTOCOL.md §3–§5).
//!
//! The announcements (`uci`, `ucci`, XBoard's `feature option=`), the
//! lookups of `setoption`/`option` and the value checks all read this
//! table, so an option is added by adding a row (and its field in
//! [`super::Settings`], which the compiler then asks for). Spin limits
//! and defaults that the search also enforces come from `search`.

use std::fmt;

/// Every option the engine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionId {
    /// UCCI `usemillisec`: `go` times in milliseconds (else seconds).
    UseMillisec,
    /// Search threads.
    Threads,
    /// Hash table size, MiB.
    Hash,
    /// Empty the hash table.
    ClearHash,
    /// The GUI may ask us to ponder.
    Ponder,
    /// Principal variations reported.
    MultiPv,
    /// Playing level, 0–20 (20: full strength).
    SkillLevel,
    /// Play at `UCI_Elo` instead of `Skill Level`.
    LimitStrength,
    /// The strength, in the calibration's Elo, when `UCI_LimitStrength`.
    UciElo,
    /// Seed of a weakened level's move draw (0: a new one each run).
    SkillSeed,
    /// Time kept back per move, ms.
    MoveOverhead,
    /// The game and rule set.
    UciVariant,
    /// `wdl` in UCI info lines.
    UciShowWdl,
    /// UCI's rank convention.
    UciRanks,
    /// Resign threshold, cp (see [`super::Settings::resigns`]).
    ResignScore,
    /// Draw threshold, cp (see [`super::Settings::accepts_draw`]).
    DrawScore,
    /// Evaluate with the network of the game played, when there is one.
    UseNnue,
    /// The Xiangqi network file (empty: the embedded one, if any).
    EvalFile,
    /// The Janggi network file (empty: the embedded one, if any).
    EvalFileJanggi,
    /// UCCI `newgame`: forget the previous game.
    NewGame,
}

/// The shape of an option's value, with its default and limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`; others are refused.
    Spin {
        /// Value before any `setoption`.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
    Check {
        /// Value before any `setoption`.
        default: bool,
    },
    /// One of a list of words (any case).
    Combo {
        /// Value before any `setoption`.
        default: &'static str,
        /// The words, in the order they are announced.
        values: &'static [&'static str],
    },
    /// No value: an action.
    Button,
    /// Free text, such as a file name; UCI and UCCI write the empty
    /// default as `<empty>`.
    Text {
        /// Value before any `setoption`.
        default: &'static str,
    },
}

impl Kind {
    /// The default as the protocols write it (empty for a button).
    pub fn default_text(self) -> String {
        match self {
            Kind::Spin { default, .. } => default.to_string(),
            Kind::Check { default } => default.to_string(),
            Kind::Combo { default, .. } => default.to_string(),
            Kind::Button => String::new(),
            Kind::Text { default } => default.to_string(),
        }
    }
}

/// Which protocols list an option and by which name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRow {
    /// Which option.
    pub id: OptionId,
    /// The UCI name, also used by XBoard's `option NAME=VALUE`; `None`
    /// for an option that only UCCI has.
    pub uci: Option<&'static str>,
    /// UCCI's lower-case name; `None` when UCCI does not have it.
    pub ucci: Option<&'static str>,
    /// Announced as an XBoard `feature option=`. Options XBoard sets with
    /// its own commands (`cores`, `memory`, `variant`, `hard`/`easy`) and
    /// those about UCI's text are not.
    pub xboard: bool,
    /// Kind, default and limits.
    pub kind: Kind,
}

/// A protocol's way of naming options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI names (XBoard's `option` command uses them too).
    Uci,
    /// UCCI's lower-case names.
    Ucci,
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

/// Largest `Resign Score`, cp: far beyond any evaluation, so a threshold
/// this high resigns only mated positions.
pub const MAX_RESIGN_CP: i64 = 100_000;
/// Largest magnitude of `Draw Score`, cp.
pub const MAX_DRAW_CP: i64 = 1000;
/// `Skill Level` of full strength, its default and maximum.
pub const MAX_SKILL_LEVEL: i64 = search::skill::FULL_LEVEL as i64;
/// Largest `Skill Seed`: 2^31 − 1, which every GUI's spin box holds.
pub const MAX_SKILL_SEED: i64 = i32::MAX as i64;

const fn spin(default: usize, max: usize) -> Kind {
    Kind::Spin {
        default: default as i64,
        min: 1,
        max: max as i64,
    }
}

/// Every option, in the order the protocols announce them.
pub const OPTIONS: &[OptionRow] = &[
    OptionRow {
        id: OptionId::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        xboard: false,
        kind: Kind::Check { default: true },
    },
    OptionRow {
        id: OptionId::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        xboard: false,
        kind: spin(search::DEFAULT_THREADS, search::MAX_THREADS),
    },
    OptionRow {
        id: OptionId::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        xboard: false,
        kind: spin(search::DEFAULT_HASH_MB, search::MAX_HASH_MB),
    },
    OptionRow {
        id: OptionId::ClearHash,
        uci: Some("Clear Hash"),
        ucci: None,
        xboard: true,
        kind: Kind::Button,
    },
    OptionRow {
        id: OptionId::Ponder,
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        xboard: false,
        kind: Kind::Check { default: false },
    },
    OptionRow {
        id: OptionId::MultiPv,
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        xboard: true,
        kind: spin(search::DEFAULT_MULTIPV, search::MAX_MULTIPV),
    },
    // The strength options of Stockfish and Fairy-Stockfish, under their
    // names, so GUIs that offer them find them. UCCI has none, so its
    // names follow the others' lower-case style.
    OptionRow {
        id: OptionId::SkillLevel,
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        xboard: true,
        kind: Kind::Spin {
            default: MAX_SKILL_LEVEL,
            min: 0,
            max: MAX_SKILL_LEVEL,
        },
    },
    OptionRow {
        id: OptionId::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        xboard: true,
        kind: Kind::Check { default: false },
    },
    OptionRow {
        id: OptionId::UciElo,
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        xboard: true,
        // Default full strength: `UCI_LimitStrength` alone weakens nothing.
        kind: Kind::Spin {
            default: search::skill::MAX_ELO,
            min: search::skill::MIN_ELO,
            max: search::skill::MAX_ELO,
        },
    },
    OptionRow {
        id: OptionId::SkillSeed,
        uci: Some("Skill Seed"),
        ucci: Some("skillseed"),
        xboard: true,
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: MAX_SKILL_SEED,
        },
    },
    OptionRow {
        id: OptionId::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: None,
        xboard: true,
        kind: Kind::Spin {
            default: search::DEFAULT_MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: search::MAX_MOVE_OVERHEAD_MS as i64,
        },
    },
    OptionRow {
        id: OptionId::UciVariant,
        uci: Some("UCI_Variant"),
        ucci: None,
        xboard: false,
        kind: Kind::Combo {
            default: "xiangqi",
            values: VARIANTS,
        },
    },
    OptionRow {
        id: OptionId::UciShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        xboard: false,
        kind: Kind::Check { default: false },
    },
    OptionRow {
        id: OptionId::UciRanks,
        uci: Some("UCI_Ranks"),
        ucci: None,
        xboard: false,
        kind: Kind::Combo {
            default: "auto",
            values: RANK_MODES,
        },
    },
    OptionRow {
        id: OptionId::ResignScore,
        uci: Some("Resign Score"),
        ucci: Some("resignscore"),
        xboard: true,
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: MAX_RESIGN_CP,
        },
    },
    OptionRow {
        id: OptionId::DrawScore,
        uci: Some("Draw Score"),
        ucci: Some("drawscore"),
        xboard: true,
        kind: Kind::Spin {
            default: 0,
            min: -MAX_DRAW_CP,
            max: MAX_DRAW_CP,
        },
    },
    OptionRow {
        id: OptionId::UseNnue,
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        xboard: true,
        // On: each game's embedded network beat the classical evaluation
        // in games (docs/RESULTS.md, "Networks"). A game without a network loaded is
        // evaluated classically whatever this says.
        kind: Kind::Check { default: true },
    },
    OptionRow {
        id: OptionId::EvalFile,
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        xboard: true,
        kind: Kind::Text { default: "" },
    },
    OptionRow {
        id: OptionId::EvalFileJanggi,
        uci: Some("EvalFileJanggi"),
        ucci: Some("evalfilejanggi"),
        xboard: true,
        kind: Kind::Text { default: "" },
    },
    OptionRow {
        id: OptionId::NewGame,
        uci: None,
        ucci: Some("newgame"),
        xboard: false,
        kind: Kind::Button,
    },
];

impl OptionRow {
    /// The name in a dialect, if the option exists there.
    pub fn name_in(&self, dialect: Dialect) -> Option<&'static str> {
        match dialect {
            Dialect::Uci => self.uci,
            Dialect::Ucci => self.ucci,
        }
    }

    /// A name for messages: the UCI name, else the UCCI one.
    pub fn name(&self) -> &'static str {
        self.uci.or(self.ucci).unwrap_or("?")
    }
}

impl OptionId {
    /// The option called `name` (any case, surrounding blanks ignored) in
    /// a dialect.
    pub fn find(name: &str, dialect: Dialect) -> Option<OptionId> {
        let want = name.trim();
        OPTIONS
            .iter()
            .find(|r| {
                r.name_in(dialect)
                    .is_some_and(|n| n.eq_ignore_ascii_case(want))
            })
            .map(|r| r.id)
    }

    /// This option's row.
    pub fn row(self) -> &'static OptionRow {
        // Rows are in declaration order of the ids (checked at compile
        // time below), so the id is the row's index.
        &OPTIONS[self as usize]
    }
}

// Row `i` is the option whose id is `i`, and every id has a row.
const _: () = {
    assert!(OPTIONS.len() == OptionId::NewGame as usize + 1);
    let mut i = 0;
    while i < OPTIONS.len() {
        assert!(OPTIONS[i].id as usize == i);
        i += 1;
    }
};

impl fmt::Display for OptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().name())
    }
}
