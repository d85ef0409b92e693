//! Strength levels through the protocols: `Skill Level`,
//! `UCI_LimitStrength`, `UCI_Elo` and `Skill Seed` are listed by UCI,
//! UCCI and XBoard, bad values are refused and the old value stays, a
//! weakened level plays legal moves that are not always the best, the
//! same seed gives the same move, and `bestmove`, its last `info` line and
//! its ponder move agree.

mod protocol_common;

use movegen::{Position, Ranks, Variant};
use protocol_common::{legal_in, Jiang};

/// Every `step`-th Xiangqi position of the reference list with a choice
/// of moves, as FEN.
fn fens(step: usize) -> Vec<String> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/moves.txt"))
            .expect("moves.txt");
    text.lines()
        .step_by(step)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let pos = Position::from_fen(f[1], Variant::Xiangqi).ok()?;
            (f[0] == "xiangqi" && pos.legal_moves().len() > 1).then(|| f[1].to_string())
        })
        .collect()
}

/// A UCI engine with these options set (ranks 0–9: no `UCI_Variant`).
fn uci_with(options: &[(&str, &str)]) -> Jiang {
    let mut e = Jiang::start();
    e.uci("uci");
    for (name, value) in options {
        let out = e.uci(&format!("setoption name {name} value {value}"));
        assert!(out.is_empty(), "{name}={value}: {out:?}");
    }
    e
}

/// `go nodes N` in `fen`: the `info` lines and the `bestmove` line.
fn go(e: &mut Jiang, fen: &str, go: &str) -> (Vec<String>, String) {
    e.uci("ucinewgame");
    e.uci(&format!("position fen {fen}"));
    e.send(go);
    let mut lines = e.until(protocol_common::SOON, |l| l.starts_with("bestmove"));
    let best = lines.pop().unwrap_or_default();
    (lines, best)
}

fn word(line: &str, i: usize) -> &str {
    line.split_whitespace().nth(i).unwrap_or("")
}

#[test]
fn every_protocol_lists_the_strength_options() {
    let mut e = Jiang::start();
    let uci = e.uci("uci");
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(uci.iter().any(|l| l == want), "{want}: {uci:?}");
    }
    let elo = uci
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo type spin "))
        .expect("UCI_Elo");
    let max = elo.split_whitespace().last().unwrap_or("");
    assert!(elo.contains(&format!("default {max} ")), "{elo}");

    let mut e = Jiang::start();
    let ucci = e.uci("ucci");
    for want in [
        "option skilllevel type spin min 0 max 20 default 20",
        "option limitstrength type check default false",
        "option skillseed type spin min 0 max 2147483647 default 0",
    ] {
        assert!(ucci.iter().any(|l| l == want), "{want}: {ucci:?}");
    }
    assert!(ucci.iter().any(|l| l.starts_with("option elo type spin")));

    let (_, features) = Jiang::start_xboard();
    for want in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"Skill Seed -spin 0 0 2147483647\"",
    ] {
        assert!(features.iter().any(|l| l == want), "{want}: {features:?}");
    }
    assert!(features
        .iter()
        .any(|l| l.starts_with("feature option=\"UCI_Elo -spin ")));
}

#[test]
fn bad_values_are_refused_and_the_old_value_stays() {
    let (mut e, _) = Jiang::start_xboard();
    assert!(e.ask("option Skill Level=5", "ping 1", "pong 1").is_empty());
    for (i, bad) in [
        "Skill Level=21",
        "Skill Level=-1",
        "Skill Level=five",
        "Skill Level=2.5",
    ]
    .iter()
    .enumerate()
    {
        let ping = format!("ping {}", i + 2);
        let pong = format!("pong {}", i + 2);
        let out = e.ask(&format!("option {bad}"), &ping, &pong);
        assert!(
            out.len() == 1 && out[0].starts_with("Error (bad option)"),
            "{bad}: {out:?}"
        );
    }
    let out = e.ask("option UCI_Elo=1", "ping 9", "pong 9");
    assert!(out.len() == 1, "{out:?}");
    e.send("protover 2");
    let again = e.until_line("feature done=1");
    assert!(
        again
            .iter()
            .any(|l| l == "feature option=\"Skill Level -spin 5 0 20\""),
        "{again:?}"
    );

    let mut e = Jiang::start();
    e.uci("uci");
    for bad in [
        "Skill Level value 99",
        "Skill Level value x",
        "Skill Seed value -4",
        "UCI_LimitStrength value maybe",
        "UCI_Elo value 99999",
        "UCI_Elo value",
    ] {
        let out = e.uci(&format!("setoption name {bad}"));
        assert!(
            out.len() == 1 && out[0].starts_with("info string error: option"),
            "{bad}: {out:?}"
        );
    }
    let mut e = Jiang::start();
    e.uci("ucci");
    let out = e.uci("setoption skilllevel 30");
    assert!(out.len() == 1 && out[0].contains("skilllevel"), "{out:?}");
}

#[test]
fn level_zero_is_legal_reproducible_and_not_always_best() {
    let weak_opts = [("Skill Level", "0"), ("Skill Seed", "12345")];
    let mut weak = uci_with(&weak_opts);
    let mut again = uci_with(&weak_opts);
    let mut other_seed = uci_with(&[("Skill Level", "0"), ("Skill Seed", "777")]);
    let mut full = uci_with(&[]);
    let all = fens(100);
    let (mut differs, mut seed_differs) = (0, 0);
    for fen in &all {
        let (infos, best) = go(&mut weak, fen, "go depth 30");
        let m = word(&best, 1);
        assert!(
            legal_in(fen, Variant::Xiangqi, m, Ranks::ZeroBased),
            "{fen}: {best}"
        );
        // The last line shown is the one played, its second move the
        // ponder move, which is legal after it.
        let last = infos
            .iter()
            .rev()
            .find(|l| l.contains(" pv "))
            .expect("an info line");
        let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap_or("").split(' ').collect();
        assert_eq!(pv[0], m, "{fen}: {last} / {best}");
        if word(&best, 2) == "ponder" {
            assert_eq!(pv.get(1).copied(), Some(word(&best, 3)), "{last} / {best}");
            let mut pos = Position::from_fen(fen, Variant::Xiangqi).expect("fen");
            let mv = pos.parse_move(m, Ranks::ZeroBased).expect("move");
            pos.make_move(mv);
            assert!(pos.parse_move(word(&best, 3), Ranks::ZeroBased).is_ok());
        }
        assert!(
            infos.iter().all(|l| !l.contains("multipv 2")),
            "one line asked for"
        );
        let (_, same) = go(&mut again, fen, "go depth 30");
        assert_eq!(same, best, "same seed, same limits: {fen}");
        let (_, other) = go(&mut other_seed, fen, "go depth 30");
        seed_differs += usize::from(word(&other, 1) != m);
        let (_, strong) = go(&mut full, fen, "go nodes 60000");
        differs += usize::from(word(&strong, 1) != m);
    }
    assert!(
        differs * 5 >= all.len() && differs < all.len(),
        "level 0 differs from full strength in {differs} of {}",
        all.len()
    );
    assert!(seed_differs > 0, "the seed changed nothing");
}

#[test]
fn limit_strength_weakens_and_ucci_and_xboard_play_the_level() {
    let fen = fens(100).into_iter().nth(3).expect("a position");
    // UCI_LimitStrength at the lowest Elo plays level 0's move (both are
    // level 0 with the same seed); UCI_Elo alone changes nothing.
    let mut by_level = uci_with(&[("Skill Level", "0"), ("Skill Seed", "9")]);
    let (_, level0) = go(&mut by_level, &fen, "go depth 30");
    let mut e = Jiang::start();
    let uci = e.uci("uci");
    let elo_line = uci
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo"))
        .expect("UCI_Elo");
    let min = elo_line
        .split(" min ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .expect("min");
    let mut by_elo = uci_with(&[
        ("UCI_LimitStrength", "true"),
        ("UCI_Elo", min),
        ("Skill Seed", "9"),
    ]);
    let (_, elo0) = go(&mut by_elo, &fen, "go depth 30");
    assert_eq!(level0, elo0);

    // UCCI: the same level and seed, the same move.
    let mut u = Jiang::start();
    u.uci("ucci");
    u.uci("setoption skilllevel 0");
    u.uci("setoption skillseed 9");
    u.uci(&format!("position fen {fen}"));
    u.send("go depth 30");
    let best = u.until_prefix("bestmove");
    assert_eq!(word(&best, 1), word(&level0, 1), "{best} / {level0}");

    // XBoard: a legal move at level 0.
    let (mut x, _) = Jiang::start_xboard();
    for cmd in [
        "new",
        "force",
        "option Skill Level=0",
        "option Skill Seed=9",
    ] {
        x.send(cmd);
    }
    x.send(&format!("setboard {fen}"));
    x.send("go");
    let mv = x.until_prefix("move ");
    assert!(
        legal_in(&fen, Variant::Xiangqi, word(&mv, 1), Ranks::ZeroBased),
        "{mv}"
    );
}
