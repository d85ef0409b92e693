//! The network options end to end: `Use NNUE`, `EvalFile` and
//! `EvalFileJanggi` in UCI, UCCI and XBoard. A file that is missing,
//! truncated, damaged or for the other game gets one error line and the
//! network loaded before stays (the `eval` command shows which one).

mod protocol_common;

use movegen::Game;
use nnue::{fnv1a32, Network};
use protocol_common::Jiang;
use std::path::PathBuf;

/// A scratch folder for this test binary's network files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jiang-nnue-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write network");
    p.to_string_lossy().into_owned()
}

fn net(game: Game, seed: u64) -> Network {
    Network::random(game, 16, 2, seed).expect("valid sizes")
}

/// A header field rewritten, with a checksum that matches again.
fn with_field(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    let n = b.len() - 4;
    let sum = fnv1a32(&b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
    b
}

/// Every malformed file we try, by name.
fn hostile_files(dir: &std::path::Path, good: &[u8]) -> Vec<String> {
    let mut files = Vec::new();
    for len in [0, 3, 23, 24, 25, good.len() / 2, good.len() - 1] {
        files.push(write(dir, &format!("cut{len}.jnn"), &good[..len]));
    }
    let mut long = good.to_vec();
    long.push(0);
    files.push(write(dir, "long.jnn", &long));
    let mut magic = good.to_vec();
    magic[0] = b'Q';
    files.push(write(dir, "magic.jnn", &magic));
    files.push(write(dir, "version.jnn", &with_field(good, 4, 9)));
    files.push(write(dir, "game.jnn", &with_field(good, 8, 5)));
    files.push(write(dir, "hash.jnn", &with_field(good, 12, 1)));
    files.push(write(dir, "hidden.jnn", &with_field(good, 16, 1 << 30)));
    files.push(write(dir, "buckets.jnn", &with_field(good, 20, 999)));
    let mut damaged = good.to_vec();
    damaged[good.len() / 3] ^= 1;
    files.push(write(dir, "damaged.jnn", &damaged));
    files.push(dir.join("missing.jnn").to_string_lossy().into_owned());
    files
}

/// The `NNUE evaluation` line of `eval`, if any.
fn nnue_line(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.starts_with("NNUE evaluation"))
        .cloned()
}

#[test]
fn uci_loads_refuses_and_keeps_networks() {
    let dir = scratch("uci");
    let good = net(Game::Xiangqi, 1);
    let good_path = write(&dir, "good.jnn", &good.to_bytes());
    let janggi_path = write(&dir, "janggi.jnn", &net(Game::Janggi, 2).to_bytes());
    let mut e = Jiang::start();
    e.uci("uci");

    // Xiangqi has an embedded network: `Use NNUE` is on by default, and
    // setting it again, off or on, says nothing; `eval` shows it.
    assert!(e.uci("setoption name Use NNUE value true").is_empty());
    assert!(e.uci("setoption name Use NNUE value false").is_empty());
    assert!(e.uci("setoption name Use NNUE value true").is_empty());
    assert!(nnue_line(&e.uci("eval")).is_some());

    let out = e.uci(&format!("setoption name EvalFile value {good_path}"));
    assert!(
        out.len() == 1 && out[0].starts_with("info string EvalFile: loaded"),
        "{out:?}"
    );
    let shown = nnue_line(&e.uci("eval")).expect("eval shows the network");
    let start = movegen::Position::startpos(movegen::Variant::Xiangqi);
    let cp = good.evaluate_position(&start);
    assert!(
        shown.starts_with(&format!("NNUE evaluation: {cp} cp")) && shown.contains("used by"),
        "{shown}"
    );

    // Every bad file: one error line, the good network stays.
    let mut bad = hostile_files(&dir, &good.to_bytes());
    bad.push(janggi_path.clone());
    for path in &bad {
        let out = e.uci(&format!("setoption name EvalFile value {path}"));
        assert!(
            out.len() == 1
                && out[0].starts_with("info string error: option EvalFile: cannot use")
                && out[0].ends_with("keeping the previous network"),
            "{path}: {out:?}"
        );
        assert_eq!(nnue_line(&e.uci("eval")), Some(shown.clone()), "{path}");
    }
    let out = e.uci(&format!("setoption name EvalFile value {janggi_path}"));
    assert!(
        out[0].contains("network is for janggi, not xiangqi"),
        "{out:?}"
    );

    // The search runs on the network.
    e.send("go depth 4");
    let best = e.until_prefix("bestmove");
    assert!(best.len() > "bestmove ".len(), "{best}");

    // Off: still loaded and shown, not used.
    e.uci("setoption name Use NNUE value false");
    let off = nnue_line(&e.uci("eval")).expect("still loaded");
    assert!(off.contains("not used"), "{off}");

    // Janggi has its own option.
    e.uci("setoption name UCI_Variant value janggi");
    let out = e.uci(&format!("setoption name EvalFileJanggi value {good_path}"));
    assert!(
        out[0].contains("network is for xiangqi, not janggi"),
        "{out:?}"
    );
    let out = e.uci(&format!(
        "setoption name EvalFileJanggi value {janggi_path}"
    ));
    assert!(out[0].contains("loaded the janggi network"), "{out:?}");
    assert!(e.alive());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ucci_and_xboard_report_bad_network_files() {
    let dir = scratch("ucci");
    let good = net(Game::Xiangqi, 3);
    let good_path = write(&dir, "good.jnn", &good.to_bytes());
    let cut = write(&dir, "cut.jnn", &good.to_bytes()[..100]);

    let mut e = Jiang::start();
    e.uci("ucci");
    let out = e.uci(&format!("setoption evalfile {good_path}"));
    assert!(out[0].contains("loaded the xiangqi network"), "{out:?}");
    let out = e.uci(&format!("setoption evalfile {cut}"));
    assert!(
        out.len() == 1 && out[0].starts_with("info string error:") && out[0].contains("truncated"),
        "{out:?}"
    );
    assert!(nnue_line(&e.uci("eval")).is_some());
    let out = e.uci("setoption usennue true");
    assert!(out.is_empty(), "{out:?}");

    let (mut x, features) = Jiang::start_xboard();
    assert!(
        features.iter().any(|l| l.contains("EvalFile -file")),
        "{features:?}"
    );
    let ask = |x: &mut Jiang, cmd: &str| x.ask(cmd, "ping 1", "pong 1");
    let out = ask(&mut x, &format!("option EvalFile={cut}"));
    assert!(
        out.len() == 1 && out[0].starts_with("Error (bad option):") && out[0].contains("truncated"),
        "{out:?}"
    );
    let out = ask(&mut x, &format!("option EvalFile={good_path}"));
    assert!(out[0].starts_with("# EvalFile: loaded"), "{out:?}");
    let out = ask(&mut x, "option Use NNUE=1");
    assert!(out.is_empty(), "{out:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A general-bucketed network (format version 2) through `EvalFile`: it
/// loads and evaluates as the engine's crate does, the search runs on it
/// (and, in debug builds, checks its accumulators against refreshes),
/// the search moves between it and a plain one, and a version 2 file with
/// a bad input-set field is refused like any bad file.
#[test]
fn uci_loads_a_general_bucketed_network() {
    let dir = scratch("buckets");
    let arch = nnue::Arch {
        inputs: nnue::InputSet::GeneralBuckets,
        hidden: 16,
        buckets: 2,
    };
    let bucketed = Network::random_of(Game::Xiangqi, arch, 5).expect("valid sizes");
    let path = write(&dir, "buckets.jnn", &bucketed.to_bytes());
    let bad_set = write(&dir, "set.jnn", &with_field(&bucketed.to_bytes(), 24, 7));
    let plain_path = write(&dir, "plain.jnn", &net(Game::Xiangqi, 6).to_bytes());
    let mut e = Jiang::start();
    e.uci("uci");
    let out = e.uci(&format!("setoption name EvalFile value {path}"));
    assert!(
        out[0].starts_with("info string EvalFile: loaded"),
        "{out:?}"
    );
    assert!(out[0].contains("general-buckets 7560x16x2x2"), "{out:?}");
    let start = movegen::Position::startpos(movegen::Variant::Xiangqi);
    let cp = bucketed.evaluate_position(&start);
    let shown = nnue_line(&e.uci("eval")).expect("eval shows the network");
    assert!(
        shown.starts_with(&format!("NNUE evaluation: {cp} cp")),
        "{shown}"
    );
    let out = e.uci(&format!("setoption name EvalFile value {bad_set}"));
    assert!(out[0].contains("input set 7"), "{out:?}");
    // A line with general moves, then searches on each network in turn.
    e.send("position startpos moves e0e1 e9e8 e1e2 e8f8");
    e.send("go depth 5");
    assert!(e.until_prefix("bestmove").len() > "bestmove ".len());
    e.uci(&format!("setoption name EvalFile value {plain_path}"));
    e.send("go depth 4");
    assert!(e.until_prefix("bestmove").len() > "bestmove ".len());
    e.uci(&format!("setoption name EvalFile value {path}"));
    e.send("go depth 4");
    assert!(e.until_prefix("bestmove").len() > "bestmove ".len());
    assert!(e.alive());
    let _ = std::fs::remove_dir_all(dir);
}
