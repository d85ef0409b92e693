//! XBoard / CECP transcripts against the built binary.

mod protocol_common;

use std::time::{Duration, Instant};

use movegen::{Ranks, Variant};
use protocol_common::{legal_in, Jiang, SOON};

/// Start an engine in XBoard mode, past the feature negotiation.
fn xboard() -> Jiang {
    Jiang::start_xboard().0
}

/// `cmd` then `ping n`; lines before `pong n`.
fn ask(e: &mut Jiang, cmd: &str) -> Vec<String> {
    e.ask(cmd, "ping 77", "pong 77")
}

fn fen_now(e: &mut Jiang) -> String {
    let d = ask(e, "d");
    d.iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_default()
        .to_string()
}

/// The first of `moves` that is legal in the Xiangqi position `fen`.
fn first_legal<'a>(fen: &str, moves: &[&'a str]) -> &'a str {
    moves
        .iter()
        .copied()
        .find(|m| legal_in(fen, Variant::Xiangqi, m, Ranks::ZeroBased))
        .unwrap_or_else(|| panic!("none of {moves:?} is legal in {fen}"))
}

fn engine_move(e: &mut Jiang) -> String {
    let l = e.until_prefix("move ");
    l["move ".len()..].to_string()
}

#[test]
fn features() {
    let mut e = Jiang::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until_line("feature done=1");
    let all = lines.join("\n");
    for f in [
        "setboard=1",
        "usermove=1",
        "time=1",
        "memory=1",
        "smp=1",
        "ping=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "myname=\"Jiang",
        "variants=\"xiangqi,janggi",
    ] {
        assert!(all.contains(f), "feature {f} missing:\n{all}");
    }
    assert!(
        lines.iter().any(|l| l.starts_with("feature option=\"")),
        "{all}"
    );
    e.send("quit");
    e.expect_exit(SOON, "quit");
}

#[test]
fn plays_a_game_and_keeps_state_on_bad_input() {
    let mut e = xboard();
    assert!(ask(&mut e, "new").is_empty());
    assert!(ask(&mut e, "variant xiangqi").is_empty());
    assert!(ask(&mut e, "sd 2").is_empty());
    // The engine plays Black after `new`: our move gets an answer.
    e.send("usermove h2e2");
    let m = engine_move(&mut e);
    let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    assert!(
        legal_in(after, Variant::Xiangqi, &m, Ranks::ZeroBased),
        "{m}"
    );
    let fen = fen_now(&mut e);
    // Illegal and malformed moves: an error, nothing changes.
    assert_eq!(ask(&mut e, "usermove h2h9"), ["Illegal move: h2h9"]);
    assert_eq!(ask(&mut e, "usermove zz"), ["Illegal move: zz"]);
    assert_eq!(
        ask(&mut e, "frobnicate"),
        ["Error (unknown command): frobnicate"]
    );
    assert_eq!(fen_now(&mut e), fen);
    // Force mode: moves are only recorded. Which moves are legal depends
    // on the engine's reply above: take the first legal of a few.
    ask(&mut e, "force");
    let red = first_legal(&fen, &["b0c2", "h0g2", "a0a1", "i0i1"]);
    assert!(ask(&mut e, &format!("usermove {red}")).is_empty());
    let black = first_legal(&fen_now(&mut e), &["b9c7", "h9g7", "a9a8", "i9i8"]);
    assert!(ask(&mut e, &format!("usermove {black}")).is_empty());
    // undo / remove take moves back.
    ask(&mut e, "remove");
    assert_eq!(fen_now(&mut e), fen);
    ask(&mut e, &format!("usermove {red}"));
    ask(&mut e, "undo");
    assert_eq!(fen_now(&mut e), fen);
    // go: the engine plays the side to move.
    e.send("go");
    let m = engine_move(&mut e);
    assert!(
        legal_in(&fen, Variant::Xiangqi, &m, Ranks::ZeroBased),
        "{m}"
    );
    // Bad setboard keeps the board.
    ask(&mut e, "force");
    let before = fen_now(&mut e);
    let out = ask(&mut e, "setboard 9/9/9 w");
    assert!(
        out.len() == 1 && out[0].starts_with("tellusererror Illegal position"),
        "{out:?}"
    );
    assert_eq!(fen_now(&mut e), before);
    // XBoard's letters (H, E) are read.
    assert!(ask(
        &mut e,
        "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
    )
    .is_empty());
    assert!(fen_now(&mut e).starts_with("rnbakabnr/"));
    // XBoard 4.9 writes FENs without the castling and en-passant fields.
    let out = ask(
        &mut e,
        "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1",
    );
    assert!(out.is_empty(), "{out:?}");
    for (cmd, ok) in [
        ("memory 8", true),
        ("cores 2", true),
        ("option Move Overhead=20", true),
        ("option Bogus=1", false),
        ("level 40 0:30 0", true),
        ("level x", false),
        ("st 0.2", true),
        ("st -1", false),
        ("sd 0", true),
        ("time 1000", true),
        ("otim x", false),
        ("post", true),
        ("nopost", true),
        ("hard", true),
        ("easy", true),
        ("computer", true),
        ("random", true),
        ("accepted setboard", true),
    ] {
        let out = ask(&mut e, cmd);
        assert_eq!(out.is_empty(), ok, "{cmd}: {out:?}");
        if !ok {
            assert!(out[0].starts_with("Error ("), "{cmd}: {out:?}");
        }
    }
    e.send("quit");
    e.expect_exit(SOON, "quit");
}

#[test]
fn claims_game_ends() {
    let mut e = xboard();
    ask(&mut e, "new");
    ask(&mut e, "force");
    ask(&mut e, "sd 3");
    // The engine mates in one and says so.
    ask(&mut e, "setboard 3k5/9/4R4/9/9/9/9/9/4R4/4K4 w - - 0 1");
    e.send("go");
    let lines = e.until(SOON, |l| l.starts_with("1-0 {"));
    let mate = lines
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_default()
        .to_string();
    assert!(!mate.is_empty(), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1-0 {Red/Cho wins by checkmate}")
    );
    // The GUI's move ends the game: the engine claims it, plays nothing.
    ask(&mut e, "new");
    ask(&mut e, "force");
    ask(&mut e, "setboard 3k5/9/4R4/9/9/9/9/9/4R4/4K4 w - - 0 1");
    ask(&mut e, "playother");
    let out = ask(&mut e, &format!("usermove {mate}"));
    assert_eq!(out, ["1-0 {Red/Cho wins by checkmate}"]);
    // Repetition verdict by the rules (perpetual check loses).
    ask(&mut e, "new");
    ask(&mut e, "force");
    ask(&mut e, "setboard 4k4/9/R8/9/8p/9/9/9/9/3K5 w - - 0 1");
    let mut all = Vec::new();
    for m in [
        "a7a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9",
    ] {
        all.extend(ask(&mut e, &format!("usermove {m}")));
    }
    assert!(
        all.iter()
            .any(|l| l == "0-1 {Black/Han wins by perpetual check}"),
        "{all:?}"
    );
    assert_eq!(
        ask(&mut e, "result"),
        ["info string result 0-1 reason perpetual-check"]
    );
    assert!(ask(&mut e, "result 0-1 {perpetual check}").is_empty());
    // With a resign threshold, a lost position is resigned.
    ask(&mut e, "new");
    ask(&mut e, "option Resign Score=500");
    ask(&mut e, "force");
    ask(&mut e, "sd 3");
    ask(&mut e, "setboard 3k5/9/4R4/9/9/9/9/9/4R4/4K4 b - - 0 1");
    e.send("go");
    e.until_line("resign");
}

#[test]
fn janggi_setup_and_pass() {
    let mut e = xboard();
    ask(&mut e, "new");
    let out = ask(&mut e, "variant janggi");
    assert!(
        out.first()
            .is_some_and(|l| l.starts_with("setup (") && l.contains(" 9x10+0_xiangqi ")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("piece ")), "{out:?}");
    ask(&mut e, "force");
    assert!(ask(&mut e, "usermove @@@@").is_empty());
    let end = ask(&mut e, "usermove @@@@");
    assert_eq!(end, ["0-1 {Black/Han wins by double pass}"]);
    // The engine passes as @@@@ when that is its move: a lone general
    // that cannot move.
    ask(&mut e, "new");
    ask(&mut e, "variant janggicasual");
    ask(&mut e, "sd 2");
    e.send("usermove a3a4");
    let m = engine_move(&mut e);
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/P8/2P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1";
    let ok = m == "@@@@" || legal_in(fen, Variant::JanggiCasual, &m, Ranks::ZeroBased);
    assert!(ok, "{m}");
    ask(&mut e, "force");
    assert!(ask(&mut e, "setboard 3k5/9/9/9/9/9/9/9/9/3AKA3 w - - 0 1").is_empty());
    e.send("go");
    let m = engine_move(&mut e);
    assert!(m == "@@@@" || m.len() == 4, "{m}");
    assert_eq!(
        ask(&mut e, "variant chess"),
        ["Error (unsupported variant): chess"]
    );
}

#[test]
fn analyze_clock_and_move_now() {
    let mut e = xboard();
    ask(&mut e, "new");
    ask(&mut e, "post");
    e.send("analyze");
    let first = e.until(SOON, |l| l.split_whitespace().count() >= 5);
    let w: Vec<&str> = first
        .last()
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    assert!(w[..4].iter().all(|x| x.parse::<i64>().is_ok()), "{first:?}");
    let stat = ask(&mut e, ".");
    assert!(stat.iter().any(|l| l.starts_with("stat01: ")), "{stat:?}");
    // A move during analysis restarts it on the new position.
    e.send("usermove h2e2");
    e.quiet(Duration::from_millis(200));
    e.send("exit");
    e.quiet(Duration::from_millis(100));
    let fen = fen_now(&mut e);
    assert!(fen.contains("1C2C4") && fen.contains(" b "), "{fen}");
    // Clock: level and time; the move comes in time.
    ask(&mut e, "new");
    ask(&mut e, "level 40 0:10 0");
    ask(&mut e, "time 1000");
    ask(&mut e, "otim 1000");
    let t = Instant::now();
    e.send("go");
    engine_move(&mut e);
    assert!(t.elapsed() < Duration::from_secs(5));
    // `?` moves at once.
    ask(&mut e, "force");
    ask(&mut e, "st 60");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("?");
    engine_move(&mut e);
    assert!(t.elapsed() < Duration::from_secs(2));
    // Pondering (hard) keeps the game going.
    ask(&mut e, "new");
    ask(&mut e, "hard");
    ask(&mut e, "st 0.2");
    e.send("usermove h2e2");
    engine_move(&mut e);
    let fen = fen_now(&mut e);
    let pos = movegen::Position::from_fen(&fen, Variant::Xiangqi).expect("fen");
    let reply = movegen::move_text(pos.legal_moves()[0], Ranks::ZeroBased);
    e.send(&format!("usermove {reply}"));
    engine_move(&mut e);
    e.send("quit");
    e.expect_exit(SOON, "quit");
}
