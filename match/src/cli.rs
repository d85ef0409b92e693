//! The command line, in cutechess-cli's syntax.
//!
//! Options are words starting with `-`; `-engine`, `-each`, `-openings`,
//! `-sprt`, `-draw` and `-resign` take `key=value` words up to the next
//! option. Values may be quoted by the shell (`cmd="engine --flag"`).
//! The result is a [`MatchConfig`] (its types live in [`crate::config`]
//! and are re-exported here).

use std::fmt;
use std::path::PathBuf;

use movegen::Ranks;

use crate::shard::Shard;

pub use crate::config::{
    Clock, DrawAdjudication, EngineConfig, MatchConfig, MergeConfig, OpeningFormat, OpeningOrder,
    OpeningsConfig, Proto, ResignAdjudication, SprtConfig, TimeControl, Tournament,
};

/// Why the command line was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

fn err<T>(msg: impl Into<String>) -> Result<T, CliError> {
    Err(CliError(msg.into()))
}

/// The usage text.
pub const USAGE: &str = "\
usage: jiang match [options]
  -variant xiangqi|janggi|janggitraditional|janggimodern|janggicasual
  -engine cmd=CMD [name=N] [proto=uci|ucci|xboard] [dir=D] [arg=A] [option.X=Y]
          [ranks=0|1] [fen=xboard|std] [tc=..] [st=S] [nodes=N] [depth=D] [timemargin=MS]
          [ponder[=true|false]]
  -each KEY=VALUE ...           settings for every engine
     tc=40/60+0.5 | 60+0.5 | 1:00+0.5 | inf     st=0.1 (seconds per move)
  -games N -rounds N -repeat [N] -concurrency N -tournament round-robin|gauntlet
  -openings file=F format=epd|pgn order=sequential|random plies=N start=N
  -randomplies N                plies of a generated opening (no file; default 6)
  -pgnout FILE -notation iccs|wxf (WXF: Xiangqi only)
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N -seed N (-srand N) -recover -ratinginterval N -hangtimeout S -debug
  -pondering                    every engine thinks on its opponent's time
  -shard I/N                    play only the games k (from 0) with k % N = I
usage: jiang match -merge FILE.pgn... [-sprt elo0= elo1= alpha= beta=]
                                the report of shards' PGN files together";

fn parse_u64(key: &str, v: &str) -> Result<u64, CliError> {
    v.parse()
        .map_err(|_| CliError(format!("{key}: '{v}' is not a whole number")))
}

fn parse_u32(key: &str, v: &str) -> Result<u32, CliError> {
    v.parse()
        .map_err(|_| CliError(format!("{key}: '{v}' is not a whole number")))
}

fn parse_f64(key: &str, v: &str) -> Result<f64, CliError> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => err(format!("{key}: '{v}' is not a number")),
    }
}

fn parse_bool(key: &str, v: &str) -> Result<bool, CliError> {
    match v {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => err(format!("{key}: '{v}' is not true/false")),
    }
}

/// Seconds (`0.5`) or `minutes:seconds` (`1:30`) to milliseconds.
fn parse_secs(v: &str) -> Option<u64> {
    let secs = match v.split_once(':') {
        Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
        None => v.parse::<f64>().ok()?,
    };
    if !secs.is_finite() || secs < 0.0 {
        return None;
    }
    Some((secs * 1000.0).round() as u64)
}

/// Parse a `tc=` value: `[moves/]base[+inc]` or `inf`.
pub fn parse_tc(v: &str) -> Result<Option<Clock>, CliError> {
    if v == "inf" || v == "infinite" {
        return Ok(None);
    }
    let bad = || CliError(format!("tc: cannot read '{v}' (expected e.g. 40/60+0.5)"));
    let (moves, rest) = match v.split_once('/') {
        Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?), r),
        None => (None, v),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = parse_secs(base).ok_or_else(bad)?;
    let inc_ms = match inc {
        Some(i) => parse_secs(i).ok_or_else(bad)?,
        None => 0,
    };
    if moves == Some(0) || (base_ms == 0 && inc_ms == 0) {
        return Err(bad());
    }
    Ok(Some(Clock {
        moves,
        base_ms,
        inc_ms,
    }))
}

/// Split a command string into words, honouring simple quotes.
fn split_command(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Apply one `key=value` to an engine definition.
fn apply_engine_kv(e: &mut EngineConfig, key: &str, v: &str) -> Result<(), CliError> {
    if let Some(opt) = key.strip_prefix("option.") {
        if let Some(slot) = e.options.iter_mut().find(|(n, _)| n == opt) {
            slot.1 = v.to_string();
        } else {
            e.options.push((opt.to_string(), v.to_string()));
        }
        return Ok(());
    }
    match key {
        "cmd" => {
            let mut words = split_command(v);
            if words.is_empty() {
                return err("cmd: empty command");
            }
            e.launch.program = words.remove(0);
            e.launch.args.splice(0..0, words);
        }
        "arg" => e.launch.args.push(v.to_string()),
        "dir" => e.launch.dir = Some(PathBuf::from(v)),
        "name" => e.name = v.to_string(),
        "proto" => {
            e.proto = match v {
                "uci" => Proto::Uci,
                "ucci" => Proto::Ucci,
                "xboard" | "cecp" => Proto::Xboard,
                _ => return err(format!("proto: unknown protocol '{v}' (uci, ucci, xboard)")),
            }
        }
        "ranks" => {
            e.ranks = Some(match v {
                "0" | "0-9" => Ranks::ZeroBased,
                "1" | "1-10" => Ranks::OneBased,
                _ => return err(format!("ranks: '{v}' (expected 0 or 1)")),
            })
        }
        "fen" => {
            e.xboard_letters = Some(match v {
                "xboard" | "he" => true,
                "std" | "nb" => false,
                _ => return err(format!("fen: '{v}' (expected xboard or std)")),
            })
        }
        "tc" => e.tc.clock = parse_tc(v)?,
        "st" => {
            let ms = parse_secs(v).ok_or_else(|| CliError(format!("st: bad time '{v}'")))?;
            if ms == 0 {
                return err("st: must be positive");
            }
            e.tc.movetime_ms = Some(ms);
        }
        "nodes" => e.tc.nodes = Some(parse_u64(key, v)?),
        "depth" => e.tc.depth = Some(parse_u32(key, v)?),
        "timemargin" => e.margin_ms = parse_u64(key, v)?,
        // A bare `ponder` (cutechess's engine flag) turns it on.
        "ponder" => e.ponder = v.is_empty() || parse_bool(key, v)?,
        // cutechess settings we accept but do not need: restarts follow
        // -recover.
        "restart" | "trust" | "stderr" | "whitepov" | "initstr" => {}
        _ => return err(format!("unknown engine setting '{key}'")),
    }
    Ok(())
}

/// The words of the command line, read front to back.
struct Words<'a> {
    args: &'a [String],
    i: usize,
}

impl<'a> Words<'a> {
    /// The next word, if any.
    fn next(&mut self) -> Option<&'a str> {
        let w = self.args.get(self.i)?;
        self.i += 1;
        Some(w)
    }

    /// The value word after `flag`.
    fn value(&mut self, flag: &str) -> Result<&'a str, CliError> {
        self.next()
            .ok_or_else(|| CliError(format!("{flag} needs a value")))
    }

    /// The `key=value` words up to the next option (a word without `=`
    /// counts as a key with an empty value).
    fn key_values(&mut self) -> Vec<(&'a str, &'a str)> {
        let mut out = Vec::new();
        while let Some(a) = self.args.get(self.i) {
            if a.starts_with('-') && !a.contains('=') {
                break;
            }
            out.push(a.split_once('=').unwrap_or((a.as_str(), "")));
            self.i += 1;
        }
        out
    }

    /// The words up to the next option (`-merge FILE...`).
    fn operands(&mut self) -> Vec<&'a str> {
        let mut out = Vec::new();
        while let Some(a) = self.args.get(self.i).filter(|a| !a.starts_with('-')) {
            out.push(a.as_str());
            self.i += 1;
        }
        out
    }

    /// The next word if it is a whole number (`-repeat [N]`).
    fn optional_count(&mut self) -> Option<u32> {
        let n = self.args.get(self.i)?.parse().ok()?;
        self.i += 1;
        Some(n)
    }

    /// Skip any of `words` that come next (cutechess's trailing `-pgnout`
    /// words `min` and `fi`: accepted, ignored).
    fn skip_any(&mut self, words: &[&str]) {
        while self
            .args
            .get(self.i)
            .is_some_and(|w| words.contains(&w.as_str()))
        {
            self.i += 1;
        }
    }
}

/// `key=value` pairs as owned strings, kept until all `-each` words are
/// known.
fn owned(kvs: Vec<(&str, &str)>) -> Vec<(String, String)> {
    kvs.into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Whether the words after `jiang match` ask for a merge (`-merge`).
pub fn is_merge(args: &[String]) -> bool {
    args.iter().any(|a| a == "-merge" || a == "--merge")
}

/// Parse `jiang match -merge FILE.pgn... [-sprt …]`.
pub fn parse_merge(args: &[String]) -> Result<MergeConfig, CliError> {
    let mut m = MergeConfig::default();
    let mut words = Words { args, i: 0 };
    while let Some(flag) = words.next() {
        match flag.trim_start_matches('-') {
            "merge" if flag.starts_with('-') => {
                m.files
                    .extend(words.operands().into_iter().map(PathBuf::from));
            }
            "sprt" if flag.starts_with('-') => m.sprt = Some(parse_sprt(&words.key_values())?),
            _ => {
                return err(format!(
                    "-merge takes PGN files and -sprt only, not '{flag}'\n{USAGE}"
                ))
            }
        }
    }
    if m.files.is_empty() {
        return err("-merge needs at least one PGN file");
    }
    Ok(m)
}

/// Parse the words after `jiang match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, CliError> {
    let mut cfg = MatchConfig::default();
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut pondering = false;
    let mut words = Words { args, i: 0 };
    while let Some(flag) = words.next() {
        match flag.trim_start_matches('-') {
            "engine" => engines.push(owned(words.key_values())),
            "pondering" => pondering = true,
            "each" => each.extend(owned(words.key_values())),
            "openings" => parse_openings(&mut cfg.openings, &words.key_values())?,
            "sprt" => cfg.sprt = Some(parse_sprt(&words.key_values())?),
            "draw" => cfg.draw = Some(parse_draw(&words.key_values())?),
            "resign" => cfg.resign = Some(parse_resign(&words.key_values())?),
            name => apply_flag(&mut cfg, name, flag, &mut words)?,
        }
    }
    if engines.len() < 2 {
        return err(format!("need at least two -engine definitions\n{USAGE}"));
    }
    if pondering {
        // As the first `-each` word, wherever it stood: an explicit
        // `ponder=false` (in `-each` or one engine's words) still wins.
        each.insert(0, ("ponder".to_string(), "true".to_string()));
    }
    for (n, kvs) in engines.iter().enumerate() {
        cfg.engines.push(engine_config(n, &each, kvs)?);
    }
    number_duplicate_names(&mut cfg.engines);
    if cfg.games == 0 || cfg.rounds == 0 || cfg.repeat == 0 || cfg.concurrency == 0 {
        return err("-games, -rounds, -repeat and -concurrency must be at least 1");
    }
    Ok(cfg)
}

/// Apply one option that takes no `key=value` list: `name` is `flag`
/// without its dashes.
fn apply_flag(
    cfg: &mut MatchConfig,
    name: &str,
    flag: &str,
    words: &mut Words<'_>,
) -> Result<(), CliError> {
    match name {
        "variant" => {
            let v = words.value(flag)?;
            cfg.variant = v.parse().map_err(|e| CliError(format!("{e}")))?;
        }
        "games" => cfg.games = parse_u32(flag, words.value(flag)?)?,
        "rounds" => cfg.rounds = parse_u32(flag, words.value(flag)?)?,
        "repeat" => cfg.repeat = words.optional_count().unwrap_or(2),
        "concurrency" => cfg.concurrency = parse_u64(flag, words.value(flag)?)? as usize,
        "pgnout" => {
            cfg.pgnout = Some(PathBuf::from(words.value(flag)?));
            words.skip_any(&["min", "fi"]);
        }
        "maxmoves" => cfg.maxmoves = Some(parse_u32(flag, words.value(flag)?)?),
        "seed" | "srand" => cfg.seed = parse_u64(flag, words.value(flag)?)?,
        "recover" => cfg.recover = true,
        "notation" => cfg.notation = parse_notation(flag, words.value(flag)?)?,
        "debug" => cfg.debug = true,
        "randomplies" => cfg.random_plies = parse_u64(flag, words.value(flag)?)? as usize,
        "ratinginterval" => cfg.rating_interval = parse_u32(flag, words.value(flag)?)?,
        "hangtimeout" => {
            let v = words.value(flag)?;
            cfg.hang_ms =
                parse_secs(v).ok_or_else(|| CliError(format!("{flag}: bad time '{v}'")))?;
        }
        "tournament" => cfg.tournament = parse_tournament(flag, words.value(flag)?)?,
        "shard" => {
            cfg.shard =
                Shard::parse(words.value(flag)?).map_err(|e| CliError(format!("{flag}: {e}")))?;
        }
        _ => return err(format!("unknown option '{flag}'\n{USAGE}")),
    }
    Ok(())
}

fn parse_notation(flag: &str, v: &str) -> Result<crate::pgn::Notation, CliError> {
    match v {
        "iccs" => Ok(crate::pgn::Notation::Iccs),
        "wxf" => Ok(crate::pgn::Notation::Wxf),
        _ => err(format!("{flag}: unknown notation '{v}' (iccs or wxf)")),
    }
}

pub(crate) fn parse_tournament(flag: &str, v: &str) -> Result<Tournament, CliError> {
    match v {
        "round-robin" | "roundrobin" => Ok(Tournament::RoundRobin),
        "gauntlet" => Ok(Tournament::Gauntlet),
        _ => err(format!("{flag}: unknown tournament '{v}'")),
    }
}

/// `-openings file= format= order= plies= start=`.
fn parse_openings(o: &mut OpeningsConfig, kvs: &[(&str, &str)]) -> Result<(), CliError> {
    for &(k, v) in kvs {
        match k {
            "file" => o.file = Some(PathBuf::from(v)),
            "format" => o.format = parse_opening_format(v)?,
            "order" => o.order = parse_opening_order(v)?,
            "plies" => o.plies = Some(parse_u64(k, v)? as usize),
            "start" => o.start = parse_u64(k, v)? as usize,
            "policy" => {}
            _ => return err(format!("unknown openings setting '{k}'")),
        }
    }
    Ok(())
}

fn parse_opening_format(v: &str) -> Result<OpeningFormat, CliError> {
    match v {
        "epd" | "fen" => Ok(OpeningFormat::Epd),
        "pgn" => Ok(OpeningFormat::Pgn),
        _ => err(format!("openings format '{v}' (epd or pgn)")),
    }
}

fn parse_opening_order(v: &str) -> Result<OpeningOrder, CliError> {
    match v {
        "sequential" => Ok(OpeningOrder::Sequential),
        "random" => Ok(OpeningOrder::Random),
        _ => err(format!("openings order '{v}'")),
    }
}

/// `-sprt elo0= elo1= alpha= beta=` (defaults 0, 5, 0.05, 0.05).
pub(crate) fn parse_sprt(kvs: &[(&str, &str)]) -> Result<SprtConfig, CliError> {
    let mut s = SprtConfig {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for &(k, v) in kvs {
        let x = parse_f64(k, v)?;
        match k {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => return err(format!("unknown sprt setting '{k}'")),
        }
    }
    let rate_ok = |x: f64| x > 0.0 && x < 0.5;
    if s.elo1 <= s.elo0 || !rate_ok(s.alpha) || !rate_ok(s.beta) {
        return err("sprt: need elo1 > elo0 and 0 < alpha, beta < 0.5");
    }
    Ok(s)
}

/// A centipawn bound: a whole number, capped to fit an `i32`.
fn parse_cp(k: &str, v: &str) -> Result<i32, CliError> {
    Ok(parse_u32(k, v)?.min(i32::MAX as u32) as i32)
}

/// `-draw movenumber= movecount= score=`.
fn parse_draw(kvs: &[(&str, &str)]) -> Result<DrawAdjudication, CliError> {
    let mut d = DrawAdjudication {
        movenumber: 0,
        movecount: 1,
        score: 0,
    };
    for &(k, v) in kvs {
        match k {
            "movenumber" => d.movenumber = parse_u32(k, v)?,
            "movecount" => d.movecount = parse_u32(k, v)?.max(1),
            "score" => d.score = parse_cp(k, v)?,
            _ => return err(format!("unknown draw setting '{k}'")),
        }
    }
    Ok(d)
}

/// `-resign movecount= score= [twosided=]`.
fn parse_resign(kvs: &[(&str, &str)]) -> Result<ResignAdjudication, CliError> {
    let mut r = ResignAdjudication {
        movecount: 1,
        score: 1000,
        twosided: false,
    };
    for &(k, v) in kvs {
        match k {
            "movecount" => r.movecount = parse_u32(k, v)?.max(1),
            "score" => r.score = parse_cp(k, v)?,
            "twosided" => r.twosided = parse_bool(k, v)?,
            _ => return err(format!("unknown resign setting '{k}'")),
        }
    }
    Ok(r)
}

/// Engine `n` (0-based): the `-each` settings, then its own; it needs a
/// command and a time control; its name defaults to the program's.
fn engine_config(
    n: usize,
    each: &[(String, String)],
    own: &[(String, String)],
) -> Result<EngineConfig, CliError> {
    let mut e = EngineConfig::default();
    for (k, v) in each.iter().chain(own) {
        apply_engine_kv(&mut e, k, v)?;
    }
    if e.launch.program.is_empty() {
        return err(format!("engine {}: cmd= is missing", n + 1));
    }
    if e.name.is_empty() {
        e.name = std::path::Path::new(&e.launch.program)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("engine{}", n + 1));
    }
    if e.tc.is_unlimited() {
        return err(format!(
            "engine '{}': no time control (give tc=, st=, nodes= or depth=, e.g. -each tc=10+0.1)",
            e.name
        ));
    }
    Ok(e)
}

/// Duplicate names make reports and PGNs ambiguous: number them.
fn number_duplicate_names(engines: &mut [EngineConfig]) {
    for n in 0..engines.len() {
        let name = engines[n].name.clone();
        if engines[..n].iter().any(|e| e.name == name) {
            engines[n].name = format!("{name} ({})", n + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn tc_forms() {
        let c = parse_tc("40/60+0.5").unwrap().unwrap();
        assert_eq!((c.moves, c.base_ms, c.inc_ms), (Some(40), 60_000, 500));
        let c = parse_tc("1:30+1").unwrap().unwrap();
        assert_eq!((c.moves, c.base_ms, c.inc_ms), (None, 90_000, 1000));
        assert_eq!(parse_tc("inf").unwrap(), None);
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0/10").is_err());
    }

    #[test]
    fn full_line() {
        let a = words(
            "-variant janggi -engine cmd=a name=A proto=xboard ranks=1 option.Hash=64 \
             -engine cmd=b -each tc=40/60+0.5 timemargin=50 -games 2 -rounds 3 -repeat \
             -concurrency 2 -sprt elo0=0 elo1=5 -draw movenumber=30 movecount=5 score=10 \
             -resign movecount=3 score=600 -maxmoves 200 -seed 7 -recover",
        );
        let c = parse(&a).unwrap();
        assert_eq!(c.variant, Variant::Janggi);
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].proto, Proto::Xboard);
        assert_eq!(c.engines[0].ranks, Some(Ranks::OneBased));
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "64".into())]);
        assert_eq!(c.engines[1].tc.clock.unwrap().base_ms, 60_000);
        assert_eq!(c.engines[1].margin_ms, 50);
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, 2, 2));
        assert_eq!(c.draw.unwrap().movecount, 5);
        assert_eq!(c.resign.unwrap().score, 600);
        assert_eq!((c.maxmoves, c.seed, c.recover), (Some(200), 7, true));
        assert_eq!(c.sprt.unwrap().elo1, 5.0);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse(&words("-engine cmd=a -engine cmd=b")).is_err()); // no tc
        assert!(parse(&words("-engine cmd=a -each st=1")).is_err()); // one engine
        assert!(parse(&words("-engine cmd=a proto=foo -engine cmd=b -each st=1")).is_err());
        assert!(parse(&words("-engine cmd=a -engine cmd=b -each st=1 -games x")).is_err());
        assert!(parse(&words("-engine cmd=a -engine cmd=b -each st=1 -bogus")).is_err());
        let c = parse(&words("-engine cmd=a -engine cmd=a -each st=0.1")).unwrap();
        assert_ne!(c.engines[0].name, c.engines[1].name);
        assert_eq!(c.engines[0].tc.movetime_ms, Some(100));
    }

    #[test]
    fn pondering_global_and_per_engine() {
        let base = "-engine cmd=a -engine cmd=b -each st=1";
        let c = parse(&words(base)).unwrap();
        assert!(!c.engines[0].ponder && !c.engines[1].ponder);
        let c = parse(&words(&format!("{base} -pondering"))).unwrap();
        assert!(c.engines[0].ponder && c.engines[1].ponder);
        let c = parse(&words("-engine cmd=a ponder -engine cmd=b -each st=1")).unwrap();
        assert!(c.engines[0].ponder && !c.engines[1].ponder);
        let c = parse(&words(
            "-pondering -engine cmd=a ponder=false -engine cmd=b -each st=1",
        ))
        .unwrap();
        assert!(!c.engines[0].ponder && c.engines[1].ponder);
        assert!(parse(&words(
            "-engine cmd=a ponder=maybe -engine cmd=b -each st=1"
        ))
        .is_err());
    }

    #[test]
    fn shard_option() {
        let base = "-engine cmd=a -engine cmd=b -each st=1";
        assert!(parse(&words(base)).unwrap().shard.is_whole());
        let c = parse(&words(&format!("{base} -shard 2/5"))).unwrap();
        assert_eq!((c.shard.index(), c.shard.count()), (2, 5));
        for bad in ["5/5", "0/0", "x", "1", "1/-2"] {
            let e = parse(&words(&format!("{base} -shard {bad}"))).unwrap_err();
            assert!(e.0.starts_with("-shard: bad shard"), "{bad}: {e}");
        }
        assert!(parse(&words(&format!("{base} -shard"))).is_err());
    }

    #[test]
    fn merge_line() {
        let m = parse_merge(&words("-merge a.pgn b.pgn -sprt elo0=0 elo1=10")).unwrap();
        assert_eq!(m.files, [PathBuf::from("a.pgn"), PathBuf::from("b.pgn")]);
        assert_eq!(m.sprt.map(|s| s.elo1), Some(10.0));
        assert!(is_merge(&words("x -merge y")) && !is_merge(&words("-engine cmd=merge")));
        for bad in [
            "-merge",
            "-merge -sprt elo0=0",
            "-merge a.pgn -engine cmd=x",
            "-merge a.pgn -sprt elo0=5 elo1=0",
        ] {
            assert!(parse_merge(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn command_words() {
        assert_eq!(split_command("a 'b c' d"), vec!["a", "b c", "d"]);
        assert_eq!(split_command("  x  "), vec!["x"]);
    }
}
