//! The option table seen from outside: every option each protocol lists
//! can be set back to its listed default by the name listed, limits are
//! refused with one error line and the process keeps running, and the
//! resign rule is the same in UCI, UCCI and XBoard.

mod protocol_common;

use protocol_common::{Jiang, SOON};

/// The mated side to move: Black, two rooks on the e-file.
const MATED: &str = "3k5/9/4R4/9/9/9/9/9/4R4/4K4 b - - 0 1";

/// `(name, type, default)` of a UCI `option name N type T [default D] …`
/// line, or of UCCI's `option N type T … [default D]`.
fn parse_option(line: &str, ucci: bool) -> Option<(String, String, String)> {
    let rest = line.strip_prefix(if ucci { "option " } else { "option name " })?;
    let (name, rest) = rest.split_once(" type ")?;
    let kind = rest.split_whitespace().next()?.to_string();
    let default = match rest.split_once(" default ") {
        Some((_, d)) if ucci => d.to_string(),
        Some((_, d)) => d.split_whitespace().next().unwrap_or("").to_string(),
        None => String::new(),
    };
    Some((name.to_string(), kind, default))
}

/// Whether setting option `name` to its default answered as it should:
/// nothing, except that a network file option (empty: the embedded
/// network) says which network it loaded, as Stockfish-family engines do.
fn quiet_default(name: &str, out: &[String]) -> bool {
    if name.to_ascii_lowercase().starts_with("evalfile") {
        out.iter().all(|l| {
            l.starts_with("info string") && l.contains("loaded the") && !l.contains("error")
        })
    } else {
        out.is_empty()
    }
}

#[test]
fn uci_options_take_their_defaults_and_refuse_their_limits() {
    let mut e = Jiang::start();
    let lines = e.uci("uci");
    let options: Vec<_> = lines
        .iter()
        .filter_map(|l| parse_option(l, false))
        .collect();
    assert!(options.len() >= 11, "{lines:?}");
    for (name, kind, default) in &options {
        let cmd = if kind == "button" {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {default}")
        };
        let out = e.uci(&cmd);
        assert!(quiet_default(name, &out), "{cmd}: {out:?}");
        // Names are matched without case.
        let out = e.uci(&cmd.replace(name.as_str(), &name.to_ascii_lowercase()));
        assert!(quiet_default(name, &out), "{cmd} (lower case): {out:?}");
    }
    for line in lines.iter().filter(|l| l.contains(" type spin ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |w: &str| words.iter().position(|x| *x == w).map(|i| words[i + 1]);
        let (Some(min), Some(max)) = (at("min"), at("max")) else {
            panic!("{line}")
        };
        let name = parse_option(line, false).map(|o| o.0).unwrap_or_default();
        let (min, max): (i64, i64) = (min.parse().unwrap_or(0), max.parse().unwrap_or(0));
        for bad in [min - 1, max + 1] {
            let out = e.uci(&format!("setoption name {name} value {bad}"));
            assert!(
                out.len() == 1 && out[0].starts_with("info string error: option"),
                "{name} {bad}: {out:?}"
            );
        }
    }
    // UCCI's names are not UCI's.
    let out = e.uci("setoption name hashsize value 8");
    assert_eq!(out, ["info string error: unknown option 'hashsize'"]);
    // A hash no machine has (32 TiB): refused, the engine keeps
    // searching. Only where Linux refuses such an allocation up front; a
    // kernel that always overcommits would grant it and kill the process
    // when the table is filled in.
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory");
    if overcommit.is_ok_and(|m| m.trim() != "1") {
        let out = e.uci("setoption name Hash value 33554432");
        assert!(
            out.len() == 1 && out[0].contains("cannot allocate"),
            "{out:?}"
        );
        // Set during a search, the size is tried when that search is
        // joined (at the latest by the next `go`): the error comes then,
        // and the new search runs with the old table.
        e.send("go infinite");
        let notes = |out: Vec<String>| -> Vec<String> {
            out.into_iter()
                .filter(|l| l.starts_with("info string"))
                .collect()
        };
        assert!(notes(e.uci("setoption name Hash value 33554432")).is_empty());
        e.send("stop");
        e.until_prefix("bestmove ");
        e.send("go depth 1");
        let out = notes(e.until(SOON, |l| l.starts_with("bestmove ")));
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: option Hash: cannot allocate"),
            "{out:?}"
        );
    }
    e.send("go depth 2");
    e.until_prefix("bestmove ");
}

#[test]
fn ucci_options_take_their_defaults() {
    let mut e = Jiang::start();
    let lines = e.uci("ucci");
    let options: Vec<_> = lines.iter().filter_map(|l| parse_option(l, true)).collect();
    let names: Vec<&str> = options.iter().map(|o| o.0.as_str()).collect();
    for want in [
        "usemillisec",
        "threads",
        "hashsize",
        "ponder",
        "multipv",
        "resignscore",
        "drawscore",
        "newgame",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for (name, _, default) in &options {
        let cmd = format!("setoption {name} {default}");
        let out = e.uci(cmd.trim_end());
        assert!(quiet_default(name, &out), "{cmd}: {out:?}");
    }
    let out = e.uci("setoption hashsize 0");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error: option hashsize"),
        "{out:?}"
    );
    let out = e.uci("setoption Hash 8");
    assert_eq!(out, ["info string error: unknown option 'Hash'"]);
    e.send("quit");
    e.until_line("bye");
}

#[test]
fn xboard_options_show_their_current_values() {
    let (mut e, features) = Jiang::start_xboard();
    let shown: Vec<&String> = features
        .iter()
        .filter(|l| l.starts_with("feature option="))
        .collect();
    assert_eq!(shown.len(), 12, "{features:?}");
    assert!(!shown.iter().any(|l| l.contains("Hash -spin")));
    assert!(e.ask("option MultiPV=3", "ping 1", "pong 1").is_empty());
    let bad = e.ask("option MultiPV=0", "ping 2", "pong 2");
    assert!(
        bad.len() == 1 && bad[0].starts_with("Error (bad option)"),
        "{bad:?}"
    );
    let bad = e.ask("cores 0", "ping 3", "pong 3");
    assert!(
        bad.len() == 1 && bad[0].starts_with("Error (bad value)"),
        "{bad:?}"
    );
    e.send("protover 2");
    let again = e.until_line("feature done=1");
    assert!(
        again
            .iter()
            .any(|l| l == "feature option=\"MultiPV -spin 3 1 500\""),
        "{again:?}"
    );
}

#[test]
fn resign_rule_is_one_in_every_protocol() {
    // UCI cannot resign: a threshold changes nothing in its output.
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("setoption name Resign Score value 500");
    e.uci(&format!("position fen {MATED}"));
    e.send("go depth 4");
    let bm = e.until_prefix("bestmove ");
    assert!(!bm.contains("resign"), "{bm}");

    // XBoard, default Resign Score 0: plays on even when mated.
    let (mut e, _) = Jiang::start_xboard();
    for cmd in ["new", "force", "sd 3"] {
        e.send(cmd);
    }
    e.send(&format!("setboard {MATED}"));
    e.send("go");
    let mv = e.until_prefix("move ");
    assert!(mv.starts_with("move "), "{mv}");
    // With a threshold: resigns.
    for cmd in ["new", "option Resign Score=500", "force", "sd 3"] {
        e.send(cmd);
    }
    e.send(&format!("setboard {MATED}"));
    e.send("go");
    e.until_line("resign");
}
