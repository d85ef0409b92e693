//! UCCI transcripts against the built binary.

mod protocol_common;

use std::time::{Duration, Instant};

use movegen::{Ranks, Variant};
use protocol_common::{legal_in, Jiang, SOON};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn best(e: &mut Jiang) -> String {
    let lines = e.until(SOON, |l| l.starts_with("bestmove") || l == "nobestmove");
    lines.last().cloned().unwrap_or_default()
}

#[test]
fn handshake_and_options() {
    let mut e = Jiang::start();
    e.send("ucci");
    let lines = e.until_line("ucciok");
    assert!(lines[0].starts_with("id name Jiang"), "{lines:?}");
    for opt in [
        "option usemillisec type check default true",
        "option hashsize type spin min 1 max",
        "option threads type spin",
        "option ponder type check",
        "option newgame type button",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(opt)),
            "{opt} missing: {lines:?}"
        );
    }
    assert!(
        !lines.iter().any(|l| l.starts_with("option name")),
        "UCCI options have no name keyword"
    );
    // Standard names that do not apply: a note, never a failure.
    for name in [
        "batch",
        "debug",
        "usebook",
        "bookfiles",
        "randomness",
        "idle",
        "pruning",
        "knowledge",
        "promotion",
    ] {
        let out = e.uci(&format!("setoption {name} true"));
        assert!(
            out.len() == 1 && out[0].starts_with("info string option"),
            "{name}: {out:?}"
        );
    }
    for ok in [
        "setoption hashsize 8",
        "setoption threads 2",
        "setoption ponder true",
        "setoption newgame",
    ] {
        assert!(e.uci(ok).is_empty(), "{ok}");
    }
    for bad in [
        "setoption hashsize 0",
        "setoption usemillisec maybe",
        "setoption frob 1",
        "setoption",
    ] {
        let out = e.uci(bad);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error"),
            "{bad}: {out:?}"
        );
    }
    e.send("quit");
    e.until_line("bye");
    e.expect_exit(SOON, "quit ends UCCI");
}

#[test]
fn search_banmoves_and_times() {
    let mut e = Jiang::start();
    e.uci("ucci");
    e.uci("position startpos");
    e.send("go depth 3");
    let lines = e.until(SOON, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for l in &infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[3], "score", "{l}");
        assert!(w[4].parse::<i32>().is_ok(), "bare score number: {l}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info time ") && l.contains(" nodes ")),
        "{lines:?}"
    );
    let bm = lines.last().cloned().unwrap_or_default();
    let m = bm.split_whitespace().nth(1).unwrap_or_default();
    assert!(
        legal_in(START, Variant::Xiangqi, m, Ranks::ZeroBased),
        "{bm}"
    );
    // Ban the move just played: it is not chosen again.
    assert!(e.uci(&format!("banmoves {m}")).is_empty());
    e.send("go depth 3");
    let bm2 = best(&mut e);
    assert!(!bm2.starts_with(&format!("bestmove {m}")), "{bm2}");
    // A bad banmoves list changes nothing; position clears the list.
    let out = e.uci("banmoves h2e2 zz");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
    // Ban every legal move but one (the general has e0e1 and e0d0; f0
    // would face the other general).
    e.uci("position fen 5k3/9/9/9/9/9/9/9/9/4K4 w");
    e.uci("banmoves e0e1");
    e.send("go depth 2");
    assert!(best(&mut e).starts_with("bestmove e0d0"));
    e.uci("banmoves e0e1 e0d0");
    e.send("go depth 2");
    assert_eq!(best(&mut e), "nobestmove");
    e.uci("position fen 5k3/9/9/9/9/9/9/9/9/4K4 w");
    e.send("go depth 2");
    assert!(best(&mut e).starts_with("bestmove"));
    // Times in milliseconds, then in seconds.
    e.uci("position startpos");
    let t = Instant::now();
    e.send("go time 2000 increment 0");
    best(&mut e);
    let ms_mode = t.elapsed();
    e.uci("setoption usemillisec false");
    let t = Instant::now();
    e.send("go time 2 increment 0 opptime 2 oppincrement 0");
    best(&mut e);
    assert!(t.elapsed() < Duration::from_secs(2) && ms_mode < Duration::from_secs(2));
    e.send("go nodes 3000");
    best(&mut e);
    // No legal move.
    e.uci("position fen 4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b");
    e.send("go depth 3");
    assert_eq!(best(&mut e), "nobestmove");
}

#[test]
fn draw_resign_ponder_probe() {
    let mut e = Jiang::start();
    e.uci("ucci");
    // A dead-equal position, the opponent offers a draw: accepted (the
    // margin allows for the tempo bonus).
    assert!(e.uci("setoption drawscore 50").is_empty());
    e.uci("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w");
    e.send("go draw depth 3");
    let bm = best(&mut e);
    assert!(bm.ends_with(" draw"), "{bm}");
    // Without the offer, no draw.
    e.send("go depth 3");
    assert!(!best(&mut e).ends_with(" draw"));
    // Being mated with `resignscore` 0 (the default): no resignation,
    // the rule every protocol shares; with a threshold: resign.
    e.uci("position fen 3k5/9/4R4/9/9/9/9/9/4R4/4K4 b");
    e.send("go depth 5");
    let bm = best(&mut e);
    assert!(!bm.contains("resign"), "{bm}");
    assert!(e.uci("setoption resignscore 500").is_empty());
    e.send("go depth 5");
    let bm = best(&mut e);
    assert!(bm.ends_with(" resign"), "{bm}");
    assert!(e.uci("setoption resignscore 0").is_empty());
    // Ponder, then ponderhit draw.
    e.uci("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w");
    e.send("go ponder time 500");
    let early = e.quiet(Duration::from_millis(200));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit draw");
    assert!(best(&mut e).ends_with(" draw"));
    // stop ends an infinite search.
    e.uci("position startpos");
    e.send("go depth infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    best(&mut e);
    // probe after a search finds the hash entry of a searched position.
    e.uci("position startpos moves h2e2");
    e.send("go depth 6");
    best(&mut e);
    let p = e.uci("probe startpos moves h2e2 h9g7");
    assert!(p.len() == 1 && p[0].starts_with("pophash"), "{p:?}");
    let p = e.uci("probe fen nonsense");
    assert!(
        p.len() == 1 && p[0].starts_with("info string error"),
        "{p:?}"
    );
    e.send("quit");
    e.until_line("bye");
}
