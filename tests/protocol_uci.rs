//! UCI transcripts against the built binary.

mod protocol_common;

use std::time::{Duration, Instant};

use movegen::{Ranks, Variant};
use protocol_common::{legal_in, Jiang, SOON};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn fen_of(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_default()
        .to_string()
}

fn bestmove(e: &mut Jiang) -> String {
    e.until_prefix("bestmove ")
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Jiang::start();
    e.send("uci");
    let lines = e.until_line("uciok");
    e.check(lines[0].starts_with("id name Jiang "), "id name");
    e.check(
        lines.iter().any(|l| l.starts_with("id author ")),
        "id author",
    );
    for opt in [
        "Threads type spin",
        "Hash type spin",
        "Clear Hash type button",
        "Ponder type check",
        "MultiPV type spin",
        "Move Overhead type spin",
        "UCI_Variant type combo default xiangqi var xiangqi var janggi var janggitraditional var janggimodern var janggicasual",
        "UCI_ShowWDL type check",
        "UCI_Ranks type combo default auto var auto var 0-9 var 1-10",
    ] {
        let want = format!("option name {opt}");
        e.check(lines.iter().any(|l| l.starts_with(&want)), &format!("missing {want}"));
    }
    e.send("quit");
    e.expect_exit(SOON, "quit ends the process");
}

#[test]
fn positions_are_all_or_nothing() {
    let mut e = Jiang::start();
    e.uci("uci");
    let fen = fen_of(&e.uci("position startpos moves h2e2 h9g7\nd"));
    assert_eq!(
        fen,
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    for bad in [
        "position startpos moves h2e2 zz",
        "position startpos moves h2e2 h2e2",
        "position fen 9/9/9 w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "position",
        "position nonsense",
        "position startpos junk",
    ] {
        let out = e.uci(bad);
        e.check(
            out.len() == 1 && out[0].starts_with("info string error: "),
            &format!("one error for {bad}"),
        );
        assert_eq!(
            fen_of(&e.uci("d")),
            fen,
            "{bad} must not change the position"
        );
    }
    // Horse H / elephant E / side r, and missing trailing fields.
    let out = e.uci("position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(fen_of(&e.uci("d")), START);
    // UCI-Cyclone: bare fen / startpos lines, ranks 0–9.
    e.uci(&format!("fen {START} moves b0c2"));
    assert!(fen_of(&e.uci("d"))
        .starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b"));
    e.uci("startpos moves h2e2");
    assert!(fen_of(&e.uci("d")).contains("1C2C4"));
}

#[test]
fn go_perft_divide_form() {
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("position startpos");
    e.send("go perft 3");
    let lines = e.until(SOON, |l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 79666")
    );
    assert_eq!(lines[lines.len() - 2], "");
    let moves = &lines[..lines.len() - 2];
    assert_eq!(moves.len(), 44);
    let sum: u64 = moves
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(": ").expect("<move>: <count>");
            assert!(
                legal_in(START, Variant::Xiangqi, m, Ranks::ZeroBased),
                "{m}"
            );
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(sum, 79666);
    // Back to back, as perft tools send them: each one runs (a finished
    // perft never reports itself as still running).
    for _ in 0..100 {
        e.send("go perft 1");
        let lines = e.until(SOON, |l| {
            l.starts_with("Nodes searched") || l.contains("error")
        });
        assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 44"));
    }
    let err = e.uci("go perft x");
    assert!(
        err.len() == 1 && err[0].starts_with("info string error"),
        "{err:?}"
    );
}

#[test]
fn rank_convention_follows_uci_variant_and_can_be_forced() {
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("position startpos moves h2e2");
    // After UCI_Variant the GUI speaks ranks 1–10 (Fairy-Stockfish style).
    e.uci("setoption name UCI_Variant value xiangqi");
    let out = e.uci("position startpos moves h3e3 h10g8");
    assert!(out.is_empty(), "{out:?}");
    e.send("go perft 1");
    let lines = e.until(SOON, |l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l.starts_with("a1a2: ")), "{lines:?}");
    e.send("go depth 2");
    let bm = bestmove(&mut e);
    let m = bm.split_whitespace().nth(1).unwrap_or_default().to_string();
    let fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    assert!(legal_in(fen, Variant::Xiangqi, &m, Ranks::OneBased), "{bm}");
    // Forced back to 0–9.
    e.uci("setoption name UCI_Ranks value 0-9");
    let out = e.uci("position startpos moves h2e2 h9g7");
    assert!(out.is_empty(), "{out:?}");
    let out = e.uci("setoption name UCI_Ranks value 2-11");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
}

#[test]
fn setoption_is_tolerant_and_checked() {
    let mut e = Jiang::start();
    e.uci("uci");
    for ok in [
        "setoption Threads 2",
        "setoption name Hash value 8",
        "setoption name Clear Hash",
        "setoption Clear Hash",
        "setoption name Move Overhead value 30",
        "setoption name multipv value 2",
        "setoption name Ponder value true",
        "setoption name UCI_ShowWDL value true",
    ] {
        let out = e.uci(ok);
        assert!(out.is_empty(), "{ok}: {out:?}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Threads value many",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value chess",
        "setoption",
    ] {
        let out = e.uci(bad);
        assert!(
            out.len() == 1 && out[0].starts_with("info string error"),
            "{bad}: {out:?}"
        );
    }
    // MultiPV 2 and WDL show in the search output.
    e.uci("position startpos");
    e.send("go depth 3");
    let lines = e.until(SOON, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    for l in &infos {
        for field in [
            " seldepth ",
            " score ",
            " wdl ",
            " nodes ",
            " nps ",
            " hashfull ",
            " tbhits 0 ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(field), "{field} missing in {l}");
        }
    }
}

#[test]
fn search_commands() {
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("position startpos moves h2e2");
    e.send("go depth 3");
    let bm = bestmove(&mut e);
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let words: Vec<&str> = bm.split_whitespace().collect();
    assert!(
        legal_in(fen, Variant::Xiangqi, words[1], Ranks::ZeroBased),
        "{bm}"
    );
    // searchmoves restricts the root.
    e.send("go depth 3 searchmoves a9a8 i9i8");
    let bm = bestmove(&mut e);
    assert!(
        bm.starts_with("bestmove a9a8") || bm.starts_with("bestmove i9i8"),
        "{bm}"
    );
    // nodes and movetime end by themselves.
    e.send("go nodes 2000");
    bestmove(&mut e);
    e.send("go movetime 100");
    bestmove(&mut e);
    e.send("go wtime 3000 btime 3000 winc 100 binc 100 movestogo 10");
    bestmove(&mut e);
    // Unknown go words are noted, the search still runs.
    e.send("go depth 2 frobnicate");
    let lines = e.until(SOON, |l| l.starts_with("bestmove"));
    assert!(lines[0].starts_with("info string warning"), "{lines:?}");
    // No legal move: bestmove (none).
    e.uci("position fen 4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b");
    e.send("go depth 3");
    assert_eq!(bestmove(&mut e), "bestmove (none)");
    // Mate found and reported as mate.
    e.uci("position fen 3k5/9/4R4/9/9/9/9/9/4R4/4K4 w");
    e.send("go depth 4");
    let lines = e.until(SOON, |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

#[test]
fn commands_arrive_while_searching() {
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("setoption name Threads value 2");
    e.uci("position startpos");
    e.send("go infinite");
    // isready is answered while the search runs; position and setoption
    // do not disturb it.
    let t = Instant::now();
    e.send("isready");
    e.until_line("readyok");
    assert!(t.elapsed() < Duration::from_secs(5));
    e.send("position startpos moves h2e2");
    e.send("setoption name Hash value 4");
    e.uci("d");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("stop");
    let bm = bestmove(&mut e);
    let ms = t.elapsed().as_millis();
    // Loose bound for a shared test machine; the real latency is
    // measured in release (`scripts/stop_latency.py`).
    assert!(ms < 1000, "stop took {ms} ms");
    // The search ran on the start position, not the one sent during it.
    let m = bm.split_whitespace().nth(1).unwrap_or_default().to_string();
    assert!(
        legal_in(START, Variant::Xiangqi, &m, Ranks::ZeroBased),
        "{bm}"
    );
    // A go while searching: the old search answers, then the new one.
    e.send("go infinite");
    e.send("go depth 2");
    bestmove(&mut e);
    bestmove(&mut e);
    // Ponder: the search waits for ponderhit.
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.quiet(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    bestmove(&mut e);
    // quit during a search ends at once.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("quit");
    e.expect_exit(Duration::from_secs(5), "quit during search");
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn extensions_and_result() {
    let mut e = Jiang::start();
    e.uci("uci");
    let d = e.uci("d");
    assert_eq!(fen_of(&d), START);
    assert!(
        d.iter()
            .any(|l| l.starts_with("Key: ") && l.len() == 5 + 16),
        "{d:?}"
    );
    assert!(d.iter().any(|l| l == "Checkers: "), "{d:?}");
    assert!(
        d.iter().any(|l| l.starts_with(" 9 | r | n | b | a | k |")),
        "{d:?}"
    );
    let d = e.uci("position fen 3k5/9/4R4/9/9/9/9/9/9/4K4 b\nd");
    assert!(d.iter().any(|l| l == "Checkers: "), "{d:?}");
    let d = e.uci("position fen 4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b\nd");
    assert!(d.iter().any(|l| l == "Checkers: e8"), "{d:?}");
    assert_eq!(e.uci("result"), ["info string result 1-0 reason checkmate"]);
    assert_eq!(
        e.uci("position startpos\nresult"),
        ["info string result * reason none"]
    );
    // Repetition judged from the move history.
    let rep = "position fen 4k4/9/R8/9/8p/9/9/9/9/3K5 w - - 0 1 moves a7a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";
    assert_eq!(
        e.uci(&format!("{rep}\nresult")),
        ["info string result 0-1 reason perpetual-check"]
    );
    let ev = e.uci("position startpos\neval");
    assert!(
        !ev.is_empty() && ev.iter().any(|l| l.contains("evaluation")),
        "{ev:?}"
    );
    let un = e.uci("frobnicate now");
    assert!(
        un.len() == 1 && un[0].starts_with("info string error: unknown command"),
        "{un:?}"
    );
    // bench prints Stockfish's closing lines.
    e.send("bench 1");
    e.until(Duration::from_secs(120), |l| l.starts_with("Nodes/second"));
}

#[test]
fn janggi_under_uci() {
    let mut e = Jiang::start();
    e.uci("uci");
    e.uci("setoption name UCI_Variant value janggi");
    // The pass in ranks 1–10 is the general's square twice.
    let out = e.uci("position startpos moves e2e2 e9e9");
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(
        e.uci("result"),
        ["info string result 0-1 reason double-pass"]
    );
    e.uci("position startpos moves e2e2");
    e.send("go perft 1");
    let lines = e.until(SOON, |l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l.starts_with("e9e9: ")), "{lines:?}");
    e.uci("position startpos");
    e.send("go depth 2");
    let bm = bestmove(&mut e);
    let m = bm.split_whitespace().nth(1).unwrap_or_default().to_string();
    assert!(
        legal_in(
            movegen::fen::JANGGI_START,
            Variant::Janggi,
            &m,
            Ranks::OneBased
        ),
        "{bm}"
    );
}

#[test]
fn end_of_input_ends_cleanly() {
    let mut e = Jiang::start();
    e.send("position startpos");
    e.send("go perft 2");
    e.close_stdin();
    e.expect_exit(SOON, "exit at end of input");
    let rest = e.drain();
    assert_eq!(
        rest.last().map(String::as_str),
        Some("Nodes searched: 1920"),
        "{rest:?}"
    );
}
