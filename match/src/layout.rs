//! A match's identity and layout as PGN tags: written with every game, read
//! back by `jiang match -merge` ([`crate::merge`]) to put the games of
//! shards together. The tag names are defined here once, for both sides.
//!
//! | tag | value |
//! |---|---|
//! | `Round` | the game's number in the whole match, from 1 (game `k` of `-shard` is `Round` `k + 1`) |
//! | `MatchId` | 16 hex digits: a hash of the match's definition (see [`Fingerprint`]) |
//! | `MatchGames` | games in the whole match, all shards together |
//! | `MatchEngines` | engines in the match (`-engine` count) |
//! | `MatchRepeat` | games sharing an opening (`-repeat`; 2: pentanomial pairs) |
//! | `Tournament` | `round-robin` or `gauntlet` |
//! | `OpeningGroup` | the game's opening group within its encounter, from 0: the games of a pair share it |
//! | `WhiteIndex`, `BlackIndex` | which engine (from 0, in `-engine` order) played first and second |
//! | `SPRT` | `elo0=… elo1=… alpha=… beta=…`, when `-sprt` was given |
//!
//! `Variant`, `White`, `Black`, `Result` and `TerminationDetails` are the
//! PGN writer's own tags; the merge reads them too.

use std::fmt::{self, Write as _};
use std::path::Path;

use movegen::{move_text, Ranks, Variant};

use crate::cli::{parse_sprt, parse_tournament};
use crate::config::{MatchConfig, SprtConfig, Tournament};
use crate::openings::Opening;
use crate::pgn::read::PgnGame;

/// FNV-1a over 64 bits, fed through [`fmt::Write`]: the same value on every
/// machine and build (std's hasher promises neither). The `MatchId` is this
/// hash of the match's definition (`write_definition`) and of every game
/// of its schedule (number, engines, opening group, opening position and
/// moves). Left out: the engine program's directory (shards run on
/// machines that keep it elsewhere), and what does not change the games
/// (`-concurrency`, `-shard`, `-sprt`, `-pgnout`, `-notation`, `-recover`,
/// `-hangtimeout`, `-ratinginterval`, `-debug`).
#[derive(Clone, Copy, Debug)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// The hash of what was written so far.
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl fmt::Write for Fingerprint {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(())
    }
}

/// Feed the settings that decide the games of a match into `fp`: variant,
/// schedule shape, adjudication, and each engine (name, program file name,
/// arguments, protocol, options, time control, pondering).
pub(crate) fn write_definition(cfg: &MatchConfig, fp: &mut Fingerprint) {
    let _ = write!(
        fp,
        "variant={};games={};rounds={};repeat={};tournament={:?};draw={:?};resign={:?};\
         maxmoves={:?};",
        cfg.variant.name(),
        cfg.games,
        cfg.rounds,
        cfg.repeat,
        cfg.tournament,
        cfg.draw,
        cfg.resign,
        cfg.maxmoves
    );
    for e in &cfg.engines {
        let program = Path::new(&e.launch.program)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned());
        let _ = write!(
            fp,
            "engine name={:?} program={:?} args={:?} proto={:?} options={:?} ranks={:?} \
             letters={:?} tc={:?} margin={};",
            e.name,
            program,
            e.launch.args,
            e.proto,
            e.options,
            e.ranks,
            e.xboard_letters,
            e.tc,
            e.margin_ms
        );
        // Written only when on, so that the MatchIds of matches without
        // pondering stay what they were before the setting existed.
        if e.ponder {
            let _ = fp.write_str("ponder;");
        }
    }
}

/// Feed one scheduled game into `fp`.
pub(crate) fn write_game(fp: &mut Fingerprint, place: &GamePlace, opening: &Opening) {
    let _ = write!(
        fp,
        "game {} {} {} {} {}",
        place.round,
        place.white,
        place.black,
        place.group,
        opening.start.to_fen()
    );
    for &m in &opening.moves {
        let _ = write!(fp, " {}", move_text(m, Ranks::ZeroBased));
    }
    let _ = fp.write_char(';');
}

/// What every game of one match shares (all shards alike).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLayout {
    /// `MatchId`: the hash of the match's definition and schedule.
    pub id: u64,
    /// `MatchGames`: games of the whole match.
    pub games: u32,
    /// `MatchEngines`: how many engines play.
    pub engines: usize,
    /// `MatchRepeat`: consecutive games of an encounter sharing an opening.
    pub repeat: u32,
    /// `Tournament`: the pairing scheme.
    pub tournament: Tournament,
    /// `Variant` (written by the PGN writer itself).
    pub variant: Variant,
    /// `SPRT`: the test's settings, when the match has one.
    pub sprt: Option<SprtConfig>,
}

/// Where one game sits in its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePlace {
    /// `Round`: the game's number in the whole match, from 1.
    pub round: u32,
    /// `OpeningGroup`: its opening group within its encounter, from 0.
    pub group: u32,
    /// `WhiteIndex`: the engine (from 0) that played first.
    pub white: usize,
    /// `BlackIndex`: the engine that played second.
    pub black: usize,
}

pub(crate) fn tournament_name(t: Tournament) -> &'static str {
    match t {
        Tournament::RoundRobin => "round-robin",
        Tournament::Gauntlet => "gauntlet",
    }
}

impl MatchLayout {
    /// The layout of `cfg`'s match, whose definition and schedule hash to
    /// `id` and which has `games` games in all.
    pub fn new(cfg: &MatchConfig, id: u64, games: u32) -> MatchLayout {
        MatchLayout {
            id,
            games,
            engines: cfg.engines.len(),
            repeat: cfg.repeat,
            tournament: cfg.tournament,
            variant: cfg.variant,
            sprt: cfg.sprt,
        }
    }

    /// The tags this module adds to a game at `place`, after the writer's
    /// own (`Round` and `Variant` are the writer's).
    pub fn tags(&self, place: &GamePlace) -> Vec<(&'static str, String)> {
        let mut tags = vec![
            ("MatchId", format!("{:016x}", self.id)),
            ("MatchGames", self.games.to_string()),
            ("MatchEngines", self.engines.to_string()),
            ("MatchRepeat", self.repeat.to_string()),
            ("Tournament", tournament_name(self.tournament).to_string()),
            ("OpeningGroup", place.group.to_string()),
            ("WhiteIndex", place.white.to_string()),
            ("BlackIndex", place.black.to_string()),
        ];
        if let Some(s) = self.sprt {
            tags.push((
                "SPRT",
                format!(
                    "elo0={} elo1={} alpha={} beta={}",
                    s.elo0, s.elo1, s.alpha, s.beta
                ),
            ));
        }
        tags
    }

    /// The layout and place of a game read from PGN; the error names the
    /// tag that is missing or wrong.
    pub fn read(g: &PgnGame<'_>) -> Result<(MatchLayout, GamePlace), String> {
        let tag = |name: &str| g.tag(name).ok_or_else(|| format!("no {name} tag"));
        let number = |name: &str, min: u64, max: u64| -> Result<u64, String> {
            let v = tag(name)?;
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "{name} \"{v}\" is not a whole number from {min} to {max}"
                )),
            }
        };
        let id_text = tag("MatchId")?;
        let id = u64::from_str_radix(id_text, 16)
            .ok()
            .filter(|_| id_text.len() == 16)
            .ok_or_else(|| format!("MatchId \"{id_text}\" is not 16 hex digits"))?;
        let games = number("MatchGames", 1, u32::MAX.into())? as u32;
        let engines = number("MatchEngines", 2, 1 << 16)? as usize;
        let layout = MatchLayout {
            id,
            games,
            engines,
            repeat: number("MatchRepeat", 1, u32::MAX.into())? as u32,
            tournament: parse_tournament("Tournament", tag("Tournament")?)
                .map_err(|e| e.to_string())?,
            variant: tag("Variant")?.parse().map_err(|e| format!("{e}"))?,
            sprt: match g.tag("SPRT") {
                Some(v) => Some(read_sprt(v)?),
                None => None,
            },
        };
        let last = engines as u64 - 1;
        let place = GamePlace {
            round: number("Round", 1, games.into())? as u32,
            group: number("OpeningGroup", 0, u32::MAX.into())? as u32,
            white: number("WhiteIndex", 0, last)? as usize,
            black: number("BlackIndex", 0, last)? as usize,
        };
        if place.white == place.black {
            return Err(format!(
                "WhiteIndex and BlackIndex are both {}",
                place.white
            ));
        }
        Ok((layout, place))
    }
}

/// The `SPRT` tag's value, read as `-sprt` reads its words.
fn read_sprt(v: &str) -> Result<SprtConfig, String> {
    let kvs: Vec<(&str, &str)> = v
        .split_whitespace()
        .map(|w| w.split_once('=').unwrap_or((w, "")))
        .collect();
    parse_sprt(&kvs).map_err(|e| format!("SPRT \"{v}\": {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read::read_games;

    #[test]
    fn fingerprint_is_fnv1a() {
        // The FNV-1a 64 reference values.
        let hash = |s: &str| {
            let mut f = Fingerprint::default();
            let _ = f.write_str(s);
            f.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn tags_read_back() {
        let layout = MatchLayout {
            id: 0x0123_4567_89ab_cdef,
            games: 40,
            engines: 3,
            repeat: 2,
            tournament: Tournament::Gauntlet,
            variant: Variant::Janggi,
            sprt: Some(SprtConfig {
                elo0: -1.5,
                elo1: 3.25,
                alpha: 0.05,
                beta: 0.1,
            }),
        };
        let place = GamePlace {
            round: 17,
            group: 4,
            white: 2,
            black: 0,
        };
        let mut text = String::from("[Round \"17\"]\n[Variant \"janggi\"]\n");
        for (k, v) in layout.tags(&place) {
            crate::pgn::tag::write(&mut text, k, &v);
        }
        text.push_str("\n1. a0a1 *\n");
        let games = read_games(&text);
        assert_eq!(MatchLayout::read(&games[0]), Ok((layout, place)));
    }

    #[test]
    fn bad_tags_are_named() {
        let base = "[Round \"3\"]\n[Variant \"xiangqi\"]\n[MatchId \"00000000000000ff\"]\n\
                    [MatchGames \"4\"]\n[MatchEngines \"2\"]\n[MatchRepeat \"2\"]\n\
                    [Tournament \"round-robin\"]\n[OpeningGroup \"1\"]\n[WhiteIndex \"0\"]\n\
                    [BlackIndex \"1\"]\n";
        let read = |text: &str| MatchLayout::read(&read_games(text)[0]);
        assert!(read(&format!("{base}\n*\n")).is_ok());
        let cases = [
            (
                "[MatchId \"00000000000000ff\"]",
                "[MatchId \"ff\"]",
                "MatchId",
            ),
            ("[Round \"3\"]", "[Round \"5\"]", "Round"),
            ("[Round \"3\"]", "[Round \"0\"]", "Round"),
            ("[MatchGames \"4\"]", "[MatchGames \"x\"]", "MatchGames"),
            ("[BlackIndex \"1\"]", "[BlackIndex \"0\"]", "BlackIndex"),
            ("[BlackIndex \"1\"]", "[BlackIndex \"2\"]", "BlackIndex"),
            (
                "[Tournament \"round-robin\"]",
                "[Tournament \"swiss\"]",
                "swiss",
            ),
            ("[Variant \"xiangqi\"]", "[Variant \"chess\"]", "chess"),
            ("[MatchEngines \"2\"]", "", "MatchEngines"),
            (
                "[WhiteIndex \"0\"]",
                "[WhiteIndex \"0\"]\n[SPRT \"elo0=5 elo1=0\"]",
                "SPRT",
            ),
        ];
        for (from, to, named) in cases {
            let text = format!("{}\n*\n", base.replace(from, to));
            let e = read(&text).expect_err(to);
            assert!(e.contains(named), "{to}: {e}");
        }
    }
}
