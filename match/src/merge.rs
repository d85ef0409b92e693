//! `jiang match -merge FILE.pgn... [-sprt …]`: the report of a match played
//! in shards (`-shard I/N`), from the shards' PGN files.
//!
//! Every game `jiang match` writes carries its match's layout
//! ([`crate::layout`]). The merge reads the games of all files, checks
//! that they belong to one match (one `MatchId`, one layout, one name per
//! engine), keeps one copy of a game found twice with the same content (a
//! shard rerun into the same file) and refuses a game found twice with
//! different content. Then it counts the games in match order with the
//! statistics of a single run (`report`) and prints the same final
//! report: per encounter Elo ± 95%, LOS, W/L/D, points, the pentanomial
//! pairs, the SPRT (`-sprt` given to the merge, else the settings the games
//! record), game ends and faults. A partial merge (some games missing) is
//! allowed; it says how many of the match's games it found and which are
//! missing. A game with a malformed tag line is refused: its tags cannot
//! be trusted to place it.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::fmt;

use movegen::GameResult;

use crate::config::{EngineConfig, MatchConfig, MergeConfig, SprtConfig};
use crate::ending::Ending;
use crate::layout::{tournament_name, GamePlace, MatchLayout};
use crate::pgn::read::{read_games, PgnGame};
use crate::report::{final_report, Outcome, Progress};
use crate::tournament::{encounters, Summary};

/// Where a game was read: its file and its number there, from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The file's name as given.
    pub file: String,
    /// The game's place in the file, from 1.
    pub game: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, game {}", self.file, self.game)
    }
}

/// Why PGN files could not be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A file could not be read.
    Read {
        /// The file.
        file: String,
        /// What went wrong.
        error: String,
    },
    /// A game is not a finished `jiang match` game with its layout tags.
    Malformed {
        /// The game.
        at: At,
        /// What is missing or wrong.
        reason: String,
    },
    /// A game belongs to another match than the first game read.
    OtherMatch {
        /// The game.
        at: At,
        /// The first game read.
        first: At,
        /// What differs.
        what: String,
    },
    /// The same game of the match twice, with different content.
    Conflict {
        /// Its `Round`.
        round: u32,
        /// Where it was read first, and again.
        first: At,
        /// Where it was read again.
        second: At,
    },
    /// Games record different SPRT settings and the merge was given none.
    SprtConflict {
        /// A game recording one setting.
        first: At,
        /// A game recording another.
        second: At,
    },
    /// No game in any file.
    NoGames,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Read { file, error } => write!(f, "{file}: {error}"),
            MergeError::Malformed { at, reason } => {
                write!(f, "{at}: not a game of a jiang match: {reason}")
            }
            MergeError::OtherMatch { at, first, what } => write!(
                f,
                "{at} is from another match than {first}: {what}; merge the files of one match only"
            ),
            MergeError::Conflict {
                round,
                first,
                second,
            } => write!(
                f,
                "game {round} of the match is in {first} and in {second} with different \
                 content (players, opening, moves or result)"
            ),
            MergeError::SprtConflict { first, second } => write!(
                f,
                "{first} and {second} record different SPRT settings; give the merge -sprt"
            ),
            MergeError::NoGames => f.write_str("no games in the files"),
        }
    }
}

impl std::error::Error for MergeError {}

/// One game as the merge keeps it.
#[derive(Clone, Debug)]
struct Game {
    place: GamePlace,
    result: GameResult,
    ending: Ending,
    /// Players, start position, moves and result, to tell a copy of a game
    /// from another game with the same number.
    content: String,
    at: At,
}

/// The games of one match gathered from PGN files.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The match's layout (`SPRT` aside: see [`Merged::sprt`]).
    pub layout: MatchLayout,
    /// Games read twice with the same content, counted once.
    pub duplicates: u32,
    /// The engines' names by index, once a game names them.
    names: Vec<Option<String>>,
    /// The SPRT settings the first game recording any records.
    sprt: Option<(SprtConfig, At)>,
    /// A game recording other SPRT settings.
    sprt_conflict: Option<At>,
    games: BTreeMap<u32, Game>,
    first: At,
}

/// A finished result from the `Result` tag.
fn read_result(g: &PgnGame<'_>) -> Result<GameResult, String> {
    match g.tag("Result") {
        Some("1-0") => Ok(GameResult::RedWins),
        Some("0-1") => Ok(GameResult::BlackWins),
        Some("1/2-1/2") => Ok(GameResult::Draw),
        Some(r) => Err(format!("Result \"{r}\" is not a finished game")),
        None => Err("no Result tag".into()),
    }
}

/// The game's place, layout and what it holds.
fn read_game(g: &PgnGame<'_>, at: At) -> Result<(MatchLayout, [String; 2], Game), String> {
    if let Some((line, e)) = g.bad_tags.first() {
        return Err(format!("bad tag line '{line}': {e}"));
    }
    let (layout, place) = MatchLayout::read(g)?;
    let result = read_result(g)?;
    let code = g
        .tag("TerminationDetails")
        .ok_or("no TerminationDetails tag")?;
    let ending =
        Ending::from_code(code).ok_or_else(|| format!("unknown TerminationDetails \"{code}\""))?;
    let white = g.tag("White").ok_or("no White tag")?.to_string();
    let black = g.tag("Black").ok_or("no Black tag")?.to_string();
    let moves: Vec<&str> = g.moves.iter().map(|m| m.text).collect();
    let content = format!(
        "{white}|{black}|{}|{}|{code}|{}",
        g.tag("FEN").unwrap_or(""),
        g.tag("Result").unwrap_or(""),
        moves.join(" ")
    );
    let game = Game {
        place,
        result,
        ending,
        content,
        at,
    };
    Ok((layout, [white, black], game))
}

/// The first layout field in which `b` differs from `a` (`SPRT` aside).
fn difference(a: &MatchLayout, b: &MatchLayout) -> Option<String> {
    let fields = [
        (
            "MatchId",
            format!("{:016x}", a.id),
            format!("{:016x}", b.id),
        ),
        ("MatchGames", a.games.to_string(), b.games.to_string()),
        ("MatchEngines", a.engines.to_string(), b.engines.to_string()),
        ("MatchRepeat", a.repeat.to_string(), b.repeat.to_string()),
        (
            "Tournament",
            tournament_name(a.tournament).to_string(),
            tournament_name(b.tournament).to_string(),
        ),
        ("Variant", a.variant.to_string(), b.variant.to_string()),
    ];
    fields
        .into_iter()
        .find(|(_, x, y)| x != y)
        .map(|(name, x, y)| format!("{name} {y} here, {x} there"))
}

impl Merged {
    /// Gather the games of `files`, given as (name, text), in order.
    pub fn gather(files: &[(String, String)]) -> Result<Merged, MergeError> {
        let mut merged: Option<Merged> = None;
        for (file, text) in files {
            for (i, g) in read_games(text).iter().enumerate() {
                let at = At {
                    file: file.clone(),
                    game: i + 1,
                };
                let (layout, names, game) =
                    read_game(g, at.clone()).map_err(|reason| MergeError::Malformed {
                        at: at.clone(),
                        reason,
                    })?;
                let m = merged.get_or_insert_with(|| Merged {
                    layout: MatchLayout {
                        sprt: None,
                        ..layout.clone()
                    },
                    duplicates: 0,
                    names: vec![None; layout.engines],
                    sprt: None,
                    sprt_conflict: None,
                    games: BTreeMap::new(),
                    first: at.clone(),
                });
                m.add(layout, names, game)?;
            }
        }
        merged.ok_or(MergeError::NoGames)
    }

    /// Add one game: the same match, the same names, not another game with
    /// its number.
    fn add(
        &mut self,
        layout: MatchLayout,
        names: [String; 2],
        game: Game,
    ) -> Result<(), MergeError> {
        let other = |what: String| MergeError::OtherMatch {
            at: game.at.clone(),
            first: self.first.clone(),
            what,
        };
        if let Some(what) = difference(&self.layout, &layout) {
            return Err(other(what));
        }
        for (idx, name) in [game.place.white, game.place.black].into_iter().zip(names) {
            match &self.names[idx] {
                Some(known) if *known != name => {
                    return Err(other(format!(
                        "engine {} is '{name}' here, '{known}' there",
                        idx + 1
                    )))
                }
                Some(_) => {}
                None => self.names[idx] = Some(name),
            }
        }
        match (&self.sprt, layout.sprt) {
            (None, Some(s)) => self.sprt = Some((s, game.at.clone())),
            (Some((kept, _)), Some(s)) if *kept != s && self.sprt_conflict.is_none() => {
                self.sprt_conflict = Some(game.at.clone());
            }
            _ => {}
        }
        match self.games.entry(game.place.round) {
            Entry::Vacant(v) => {
                v.insert(game);
            }
            Entry::Occupied(o) => {
                let kept = o.get();
                if kept.place != game.place || kept.content != game.content {
                    return Err(MergeError::Conflict {
                        round: game.place.round,
                        first: kept.at.clone(),
                        second: game.at,
                    });
                }
                self.duplicates += 1;
            }
        }
        Ok(())
    }

    /// The games found, each counted once.
    pub fn present(&self) -> u32 {
        self.games.len() as u32
    }

    /// The numbers (`Round`) of the match's games that are missing.
    pub fn missing(&self) -> Vec<u32> {
        (1..=self.layout.games)
            .filter(|r| !self.games.contains_key(r))
            .collect()
    }

    /// The engines' names by index (`engine N` for one no game names).
    pub fn names(&self) -> Vec<String> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, n)| n.clone().unwrap_or_else(|| format!("engine {}", i + 1)))
            .collect()
    }

    /// The SPRT to report: `given` (the merge's `-sprt`), else the settings
    /// the games record (games recording none do not count); an error when
    /// they record different ones.
    pub fn sprt(&self, given: Option<SprtConfig>) -> Result<Option<SprtConfig>, MergeError> {
        match (given, &self.sprt, &self.sprt_conflict) {
            (Some(s), _, _) => Ok(Some(s)),
            (None, Some((_, first)), Some(second)) => Err(MergeError::SprtConflict {
                first: first.clone(),
                second: second.clone(),
            }),
            (None, kept, None) => Ok(kept.as_ref().map(|(s, _)| *s)),
            (None, None, Some(_)) => Ok(None),
        }
    }

    /// The configuration a single run of this match would report with:
    /// its engines' names, pairings and SPRT.
    pub fn config(&self, sprt: Option<SprtConfig>) -> MatchConfig {
        MatchConfig {
            variant: self.layout.variant,
            engines: self
                .names()
                .into_iter()
                .map(|name| EngineConfig {
                    name,
                    ..EngineConfig::default()
                })
                .collect(),
            repeat: self.layout.repeat,
            tournament: self.layout.tournament,
            sprt,
            rating_interval: 0,
            ..MatchConfig::default()
        }
    }

    /// Count the games, in match order, as a single run counts them.
    pub fn summary(&self, cfg: &MatchConfig) -> Result<Summary, MergeError> {
        let pairs = encounters(cfg);
        let mut progress = Progress::counting(cfg, self.layout.games as usize, self.layout.clone());
        for g in self.games.values() {
            let (w, b) = (g.place.white, g.place.black);
            let encounter = pairs
                .iter()
                .position(|&p| p == (w.min(b), w.max(b)))
                .ok_or_else(|| MergeError::Malformed {
                    at: g.at.clone(),
                    reason: format!(
                        "engines {} and {} do not meet in this match ({})",
                        w + 1,
                        b + 1,
                        tournament_name(self.layout.tournament)
                    ),
                })?;
            progress.count(&Outcome {
                encounter,
                red: w,
                black: b,
                group: g.place.group,
                result: g.result,
                ending: g.ending,
            });
        }
        let mut summary = progress.finish();
        summary.overhead_us = None;
        Ok(summary)
    }
}

/// Read the files of `-merge`, check them, and print the report.
pub fn run(m: &MergeConfig) -> Result<Summary, MergeError> {
    let mut texts = Vec::new();
    for path in &m.files {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| MergeError::Read {
            file: file.clone(),
            error: e.to_string(),
        })?;
        texts.push((file, text));
    }
    let merged = Merged::gather(&texts)?;
    let sprt = merged.sprt(m.sprt)?;
    let cfg = merged.config(sprt);
    let summary = merged.summary(&cfg)?;
    print_header(&merged, texts.len());
    final_report(&cfg, &summary);
    Ok(summary)
}

/// How much of the match the files hold.
fn print_header(merged: &Merged, files: usize) {
    let l = &merged.layout;
    println!(
        "Merged {} of {} games of match {:016x} from {files} file(s); {} duplicate(s) ignored",
        merged.present(),
        l.games,
        l.id,
        merged.duplicates
    );
    let missing = merged.missing();
    if !missing.is_empty() {
        const SHOWN: usize = 20;
        let list: Vec<String> = missing.iter().take(SHOWN).map(u32::to_string).collect();
        let more = if missing.len() > SHOWN { ", …" } else { "" };
        println!(
            "Missing {} game(s), by Round: {}{more}",
            missing.len(),
            list.join(", ")
        );
    }
}
