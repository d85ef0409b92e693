//! `jiang match` fault paths, proven with scripted fake engines
//! (tests/fixtures/fake_engine.py): illegal moves, crashes, hangs, losses on
//! time, false claims, start failures, XBoard rejections — each must lose
//! the game for the engine at fault, be counted, and never hang the runner.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jiang::matchrunner::game::Fault;
use jiang::matchrunner::openings::parse_pgn;
use jiang::matchrunner::tournament::{run, Summary};
use jiang::matchrunner::{cli, main as match_main};
use movegen::Variant;

fn fake(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    format!("cmd=python3 {} {mode}", script.display())
}

fn python_available() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run a match of `bad` (engine 1) against `good` (engine 2) from the
/// start position; returns the summary and the wall time.
fn run_match(bad: &str, good: &str, extra: &[&str]) -> (Summary, Duration) {
    run_match_tc(bad, good, "st=0.1", extra)
}

/// [`run_match`] with a given time control word for both engines.
fn run_match_tc(bad: &str, good: &str, tc: &str, extra: &[&str]) -> (Summary, Duration) {
    let mut args: Vec<String> = vec![
        "-engine".into(),
        fake(bad),
        "name=bad".into(),
        "-engine".into(),
        fake(good),
        "name=good".into(),
    ];
    let defaults = [
        "-each",
        tc,
        "-randomplies",
        "0",
        "-ratinginterval",
        "0",
        "-hangtimeout",
        "2",
    ];
    args.extend(defaults.iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let cfg = cli::parse(&args).expect("valid command line");
    let t = Instant::now();
    let s = run(&cfg).expect("match runs");
    (s, t.elapsed())
}

fn faults(s: &Summary, engine: usize, f: Fault) -> u32 {
    s.faults.get(&(engine, f)).copied().unwrap_or(0)
}

/// Bad engine loses every game by `f`, in both colours, and is restarted
/// when the fault requires it.
fn assert_fault(mode: &str, f: Fault, extra: &[&str]) {
    assert_fault_tc(mode, f, "st=0.1", extra);
}

/// [`assert_fault`] with a given time control.
fn assert_fault_tc(mode: &str, f: Fault, tc: &str, extra: &[&str]) {
    if !python_available() {
        eprintln!("python3 missing: skipped");
        return;
    }
    let mut args = vec!["-games", "2", "-rounds", "2", "-recover"];
    args.extend_from_slice(extra);
    let (s, took) = run_match_tc(mode, "good", tc, &args);
    assert_eq!(s.games, 4, "{mode}: all games played");
    let sc = s.encounters[0].1;
    assert_eq!(
        (sc.wins, sc.draws, sc.losses),
        (0, 0, 4),
        "{mode}: bad loses all"
    );
    assert_eq!(faults(&s, 0, f), 4, "{mode}: {:?}", s.faults);
    assert_eq!(faults(&s, 1, f), 0);
    assert!(!s.aborted);
    assert!(took < Duration::from_secs(60), "{mode}: took {took:?}");
}

#[test]
fn illegal_move_loses() {
    assert_fault("illegal", Fault::IllegalMove, &[]);
}

#[test]
fn unreadable_move_loses() {
    assert_fault("garbage", Fault::IllegalMove, &[]);
}

#[test]
fn crash_loses_and_engine_is_restarted() {
    // Four games: the crashed process is replaced before each next game.
    assert_fault("crash", Fault::Crash, &["-concurrency", "2"]);
}

#[test]
fn hang_loses_and_runner_does_not_hang() {
    assert_fault("hang", Fault::Hang, &[]);
}

#[test]
fn hang_without_clock_hits_hang_timeout() {
    if !python_available() {
        return;
    }
    let mut args: Vec<String> = vec![
        "-engine".into(),
        fake("hang"),
        "-engine".into(),
        fake("good"),
    ];
    for a in [
        "-each",
        "depth=3",
        "-hangtimeout",
        "1",
        "-randomplies",
        "0",
        "-recover",
    ] {
        args.push(a.into());
    }
    let cfg = cli::parse(&args).expect("valid");
    let t = Instant::now();
    let s = run(&cfg).expect("runs");
    assert_eq!(faults(&s, 0, Fault::Hang), 1);
    assert!(t.elapsed() < Duration::from_secs(10));
}

#[test]
fn slow_engine_loses_on_time() {
    assert_fault("flag", Fault::TimeForfeit, &[]);
}

#[test]
fn slow_engine_loses_on_clock() {
    assert_fault_tc("flag", Fault::TimeForfeit, "tc=0.3+0.05", &[]);
}

#[test]
fn no_move_in_live_position_loses() {
    assert_fault("nomove", Fault::FalseClaim, &[]);
}

#[test]
fn start_failure_loses() {
    assert_fault("startfail", Fault::StartFailure, &[]);
}

#[test]
fn xboard_faults() {
    if !python_available() {
        return;
    }
    for (mode, f) in [
        ("illegal", Fault::IllegalMove),
        ("claim", Fault::FalseClaim),
        ("reject", Fault::RejectedMove),
    ] {
        let mut args: Vec<String> = vec![
            "-engine".into(),
            format!("{} xboard", fake(mode)),
            "proto=xboard".into(),
            "-engine".into(),
            format!("{} xboard", fake("good")),
            "proto=xboard".into(),
        ];
        for a in [
            "-each",
            "tc=5+0.1",
            "-randomplies",
            "0",
            "-games",
            "2",
            "-recover",
            "-ratinginterval",
            "0",
        ] {
            args.push(a.into());
        }
        let cfg = cli::parse(&args).expect("valid");
        let s = run(&cfg).expect("runs");
        assert_eq!(s.games, 2);
        if f == Fault::RejectedMove {
            // The rejecting engine refuses the opponent's first move, so
            // it can only fault when it plays Black.
            assert_eq!(faults(&s, 0, f), 1, "{mode}: {:?}", s.faults);
        } else {
            assert_eq!(faults(&s, 0, f), 2, "{mode}: {:?}", s.faults);
        }
        assert_eq!(
            faults(&s, 1, Fault::IllegalMove),
            0,
            "{mode}: {:?}",
            s.faults
        );
    }
}

#[test]
fn crash_without_recover_stops_the_match() {
    if !python_available() {
        return;
    }
    let (s, _) = run_match("crash", "good", &["-games", "2", "-rounds", "5"]);
    assert!(s.aborted);
    assert!(s.games < 10);
    assert_eq!(faults(&s, 0, Fault::Crash), s.games);
}

#[test]
fn clean_game_ends_by_repetition_and_pgn_reads_back() {
    if !python_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("jiang-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let pgn_s = pgn.display().to_string();
    let (s, _) = run_match(
        "good",
        "good",
        &["-games", "2", "-repeat", "-pgnout", &pgn_s],
    );
    let sc = s.encounters[0].1;
    assert_eq!((sc.games(), sc.draws), (2, 2));
    assert_eq!(sc.penta, [0, 0, 1, 0, 0]);
    assert!(s.faults.is_empty());
    let text = std::fs::read_to_string(&pgn).expect("pgn written");
    assert_eq!(text.matches("[Result \"1/2-1/2\"]").count(), 2);
    assert_eq!(
        text.matches("[TerminationDetails \"repetition\"]").count(),
        2
    );
    assert!(text.contains("[Variant \"xiangqi\"]"));
    assert!(text.contains("[TimeControl \"0.1/move\"]"));
    assert!(text.contains("1. h0g2"));
    // The games read back as legal move sequences.
    let games = parse_pgn(&text, Variant::Xiangqi).expect("readable PGN");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_line_is_an_error_not_a_panic() {
    assert_eq!(match_main(&["-engine".into(), "cmd=x".into()]), 2);
    assert_eq!(match_main(&["-nonsense".into()]), 2);
    assert_eq!(match_main(&["-help".into()]), 0);
}

#[test]
fn resign_and_draw_adjudication() {
    if !python_available() {
        return;
    }
    let (s, _) = run_match(
        "doomed",
        "good",
        &["-games", "2", "-resign", "movecount=2", "score=1000"],
    );
    let sc = s.encounters[0].1;
    assert_eq!((sc.wins, sc.draws, sc.losses), (0, 0, 2));
    assert_eq!(s.reasons.get("adjudication-resign"), Some(&2));
    assert!(s.faults.is_empty());
    // Two-sided resignation needs the winner to agree: `good` reports 0.
    let (s, _) = run_match(
        "doomed",
        "good",
        &[
            "-games",
            "2",
            "-resign",
            "movecount=2",
            "score=1000",
            "twosided=true",
        ],
    );
    assert_eq!(s.encounters[0].1.draws, 2, "ends by repetition instead");
    assert_eq!(s.reasons.get("repetition"), Some(&2));
    let (s, _) = run_match(
        "good",
        "good",
        &[
            "-games",
            "2",
            "-draw",
            "movenumber=1",
            "movecount=1",
            "score=5",
        ],
    );
    assert_eq!(s.encounters[0].1.draws, 2);
    assert_eq!(s.reasons.get("adjudication-draw"), Some(&2));
}

#[test]
fn sprt_stops_the_match() {
    if !python_available() {
        return;
    }
    let (s, _) = run_match(
        "good",
        "illegal",
        &[
            "-games", "2", "-rounds", "200", "-repeat", "-sprt", "elo0=0", "elo1=10", "-recover",
        ],
    );
    assert_eq!(s.sprt, Some(jiang::matchrunner::stats::SprtResult::H1));
    assert!(s.games < 400, "stopped early after {} games", s.games);
    assert!(
        s.games >= 4,
        "no decision on a handful of games: {}",
        s.games
    );
}
