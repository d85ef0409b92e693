//! Short real matches: Jiang against itself and against Debian's engines
//! (Fairy-Stockfish over UCI and UCCI, Sjaak II and MaxQi over XBoard), in
//! Xiangqi and Janggi where the engine plays it, some with `-pondering`. Every game must end by a
//! rule or adjudication with no engine fault, and the PGN must replay with
//! the rules core to the same verdict.
//!
//! Ignored by default (they take a minute and need the Debian engines and a
//! built `jiang` of the same profile, or `JIANG_BIN=path`):
//! `cargo build --release && cargo test -p jiang-match --release --test
//! match_real -- --ignored --test-threads 1`. `.ci/run` plays the matches
//! against the peers that way; a missing peer fails its test by name.
//! `JIANG_MATCH_PGN=file.pgn cargo test -p jiang-match --test match_real
//! verify_pgn_file -- --ignored` checks the games of any `jiang match` run.

use std::path::{Path, PathBuf};

use jiang_match::openings::parse_pgn;
use jiang_match::{cli, tournament};
use movegen::Variant;

/// The `jiang` binary to play with: `JIANG_BIN`, else the workspace's build
/// of this test's profile. This crate does not depend on the engine, so
/// cargo does not build it for these tests; the binary must exist.
fn jiang() -> String {
    if let Ok(bin) = std::env::var("JIANG_BIN") {
        return bin;
    }
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    // CARGO_TARGET_TMPDIR is `<target>/tmp`; binaries live in `<target>/<profile>`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
    let bin = target.join(profile).join("jiang");
    assert!(
        bin.exists(),
        "{} is missing: build it first (cargo build) or set JIANG_BIN",
        bin.display()
    );
    bin.display().to_string()
}

/// Stop with the peer's name when it is missing: a real match that was
/// never played must not pass. `.ci/run` installs the peers.
fn require(path: &str) {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install Debian's peer engines (apt-get install fairy-stockfish sjaakii fairymax)"
    );
}

fn temp_pgn(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("jiang-match-{tag}-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Replay every game of a PGN file and check each game's end: no position
/// before the last was already over, and a game ended "normal"ly carries
/// exactly the rules core's verdict. Returns the number of games checked.
fn verify_pgn(path: &Path, variant: Variant) -> usize {
    let text = std::fs::read_to_string(path).expect("pgn readable");
    let games = parse_pgn(&text, variant).expect("pgn replays legally");
    let results: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .map(|l| l.trim_end_matches("\"]"))
        .collect();
    let terms: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Termination \""))
        .map(|l| l.trim_end_matches("\"]"))
        .collect();
    assert_eq!(games.len(), results.len());
    for (i, g) in games.iter().enumerate() {
        let mut pos = g.start.clone();
        for &m in &g.moves {
            assert!(
                !pos.judge().is_over(),
                "game {}: played on after the end",
                i + 1
            );
            pos.make_move(m);
        }
        let v = pos.judge();
        if terms[i] == "normal" && v.is_over() {
            assert_eq!(
                v.result.as_str(),
                results[i],
                "game {}: result {} vs {}",
                i + 1,
                results[i],
                v
            );
        }
        if terms[i] == "normal" && !v.is_over() {
            // Only a resignation ends a game normally without a verdict.
            assert!(
                text.contains("resignation"),
                "game {}: ended without a verdict",
                i + 1
            );
        }
    }
    games.len()
}

fn real_match(variant: &str, second: &[&str], games: u32, tag: &str) {
    real_match_with(variant, second, games, tag, &[]);
}

/// [`real_match`] with more words on the command line; returns the
/// summary.
fn real_match_with(
    variant: &str,
    second: &[&str],
    games: u32,
    tag: &str,
    extra: &[&str],
) -> tournament::Summary {
    let pgn = temp_pgn(tag);
    let mut args: Vec<String> = vec![
        "-variant".into(),
        variant.into(),
        "-engine".into(),
        format!("cmd={}", jiang()),
        "name=jiang".into(),
        "-engine".into(),
    ];
    args.extend(second.iter().map(|s| s.to_string()));
    for a in [
        "-each",
        "tc=2+0.05",
        "timemargin=200",
        "-games",
        &games.to_string(),
        "-repeat",
        "-seed",
        "3",
        "-ratinginterval",
        "0",
        "-pgnout",
    ] {
        args.push(a.to_string());
    }
    args.push(pgn.display().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    let cfg = cli::parse(&args).expect("valid");
    let s = tournament::run(&cfg).expect("runs");
    assert_eq!(s.games, games, "{tag}");
    assert!(s.faults.is_empty(), "{tag}: faults {:?}", s.faults);
    let v: Variant = variant.parse().expect("variant");
    assert_eq!(verify_pgn(&pgn, v), games as usize);
    let _ = std::fs::remove_file(&pgn);
    s
}

#[test]
#[ignore = "plays real games (about a minute)"]
fn jiang_vs_jiang() {
    real_match(
        "xiangqi",
        &[&format!("cmd={}", jiang()), "name=jiang2"],
        2,
        "jj-x",
    );
    real_match(
        "janggi",
        &[&format!("cmd={}", jiang()), "name=jiang2"],
        2,
        "jj-j",
    );
}

#[test]
#[ignore = "plays real games with pondering (about two minutes)"]
fn jiang_vs_jiang_pondering() {
    // Each protocol of Jiang against itself, both sides pondering.
    for (proto, variant) in [
        ("uci", "xiangqi"),
        ("ucci", "xiangqi"),
        ("xboard", "janggi"),
    ] {
        let each = format!("proto={proto}");
        let second = [&format!("cmd={}", jiang()), "name=jiang2"];
        let tag = format!("jj-ponder-{proto}");
        let s = real_match_with(variant, &second, 2, &tag, &["-pondering", "-each", &each]);
        let p = s.ponder;
        println!("{proto} {variant}: ponder {p}");
        assert_eq!(p.searches, p.hits + p.misses + p.game_end_stops, "{p:?}");
        assert_eq!((p.stray_moves, p.unanswered_stops), (0, 0), "{p:?}");
        if proto == "xboard" {
            // XBoard engines ponder by themselves: nothing to count.
            assert_eq!(p.searches, 0);
        } else {
            assert!(p.hits > 0, "{proto}: {p:?}");
        }
    }
}

#[test]
#[ignore = "needs /usr/games/fairy-stockfish"]
fn jiang_vs_fairy_stockfish() {
    require("/usr/games/fairy-stockfish");
    let fsf = [
        "cmd=/usr/games/fairy-stockfish",
        "name=fsf",
        "option.Hash=16",
    ];
    real_match("xiangqi", &fsf, 2, "fsf-x");
    real_match("janggi", &fsf, 2, "fsf-j");
    let ucci = ["cmd=/usr/games/fairy-stockfish", "name=fsf", "proto=ucci"];
    real_match("xiangqi", &ucci, 2, "fsf-ucci");
    // Both sides pondering: Fairy-Stockfish has a `Ponder` option and
    // answers `ponderhit` and `stop` as UCI says.
    let s = real_match_with("xiangqi", &fsf, 2, "fsf-ponder", &["-pondering"]);
    let p = s.ponder;
    assert_eq!(p.searches, p.hits + p.misses + p.game_end_stops, "{p:?}");
    assert!(
        p.hits > 0 && p.stray_moves == 0 && p.unanswered_stops == 0,
        "{p:?}"
    );
}

#[test]
#[ignore = "needs /usr/games/sjaakii and /usr/games/maxqi"]
fn jiang_vs_xboard_engines() {
    for e in ["sjaakii", "maxqi"] {
        require(&format!("/usr/games/{e}"));
    }
    for e in ["sjaakii", "maxqi"] {
        let path = format!("/usr/games/{e}");
        real_match(
            "xiangqi",
            &[&format!("cmd={path}"), &format!("name={e}"), "proto=xboard"],
            2,
            e,
        );
    }
}

#[test]
#[ignore = "checks the PGN named by JIANG_MATCH_PGN"]
fn verify_pgn_file() {
    // Without a file there is nothing to check; say so rather than pass.
    let path = std::env::var("JIANG_MATCH_PGN")
        .expect("JIANG_MATCH_PGN is not set: name the PGN file of a `jiang match` run to check");
    let variant: Variant = std::env::var("JIANG_MATCH_VARIANT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_default();
    let n = verify_pgn(Path::new(&path), variant);
    println!("{n} games verified");
}
