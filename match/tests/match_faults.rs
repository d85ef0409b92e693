//! `jiang match` fault paths, proven with scripted fake engines
//! (tests/fixtures/fake_engine.py): illegal moves, crashes, hangs, losses on
//! time, false claims, start failures, XBoard rejections — each must lose
//! the game for the engine at fault, be counted, and never hang the runner.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use jiang_match::ending::{Adjudication, Ending, Fault};
use jiang_match::openings::parse_pgn;
use jiang_match::tournament::{run, Summary};
use jiang_match::{cli, main as match_main};
use movegen::{Reason, Variant};

/// The `cmd=` word of a fake engine playing `mode`.
fn fake(mode: &str) -> String {
    require_python();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    format!("cmd=python3 {} {mode}", script.display())
}

/// Arguments for a match between two fake engines, then `rest`.
fn two_fakes(first: &str, second: &str, rest: &[&str]) -> Vec<String> {
    let mut args = vec![
        "-engine".into(),
        fake(first),
        "-engine".into(),
        fake(second),
    ];
    args.extend(rest.iter().map(|a| a.to_string()));
    args
}

/// The fake engines are Python scripts. Without python3 every game would
/// be a start failure, so a test stops here and names what is missing
/// instead of failing obscurely or passing without having played.
fn require_python() {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let found = *FOUND.get_or_init(|| {
        std::process::Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    assert!(
        found,
        "python3 is missing: the fake engines (match/tests/fixtures/fake_engine.py) need it on PATH"
    );
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
    let args = two_fakes(
        "hang",
        "good",
        &[
            "-each",
            "depth=3",
            "-hangtimeout",
            "1",
            "-randomplies",
            "0",
            "-recover",
        ],
    );
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
    let (s, _) = run_match("crash", "good", &["-games", "2", "-rounds", "5"]);
    assert!(s.aborted);
    assert!(s.games < 10);
    assert_eq!(faults(&s, 0, Fault::Crash), s.games);
}

#[test]
fn clean_game_ends_by_repetition_and_pgn_reads_back() {
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
    assert!(text.contains("[Format \"ICCS\"]"));
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
    let (s, _) = run_match(
        "doomed",
        "good",
        &["-games", "2", "-resign", "movecount=2", "score=1000"],
    );
    let sc = s.encounters[0].1;
    assert_eq!((sc.wins, sc.draws, sc.losses), (0, 0, 2));
    assert_eq!(
        s.reasons.get(&Ending::Adjudication(Adjudication::Resign)),
        Some(&2)
    );
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
    assert_eq!(s.reasons.get(&Ending::Rule(Reason::Repetition)), Some(&2));
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
    assert_eq!(
        s.reasons.get(&Ending::Adjudication(Adjudication::Draw)),
        Some(&2)
    );
}

#[test]
fn sprt_stops_the_match() {
    let (s, _) = run_match(
        "good",
        "illegal",
        &[
            "-games", "2", "-rounds", "200", "-repeat", "-sprt", "elo0=0", "elo1=10", "-recover",
        ],
    );
    assert_eq!(s.sprt, Some(jiang_match::stats::SprtResult::H1));
    assert!(s.games < 400, "stopped early after {} games", s.games);
    assert!(
        s.games >= 4,
        "no decision on a handful of games: {}",
        s.games
    );
}

/// A real 433-ply Jiang vs Fairy-Stockfish game (ends in stalemate), for
/// timing the referee with engines that answer instantly.
const LONG_GAME: &str = concat!(
    "h0g2 i9i7 g0i2 h7h8 h2h4 h8c8 h4e4 c9e7 i0h0 i7i9 h0h8 d9e8 h8h6 c8c3 ",
    "b0c2 h9i7 e4a4 b7a7 a0b0 c3g3 b2a2 a6a5 a4a7 b9a7 b0b7 a7b9 c2d4 i9h9 ",
    "h6h9 i7h9 d4c6 g3a3 b7b8 a5a4 a2b2 g6g5 b2b9 i6i5 b8b1 h9g7 e3e4 g7f5 ",
    "b9b6 a9b9 e4e5 e6e5 c6e5 b9d9 b6g6 a3c3 b1f1 c3c5 e5f7 e8f7 f1f5 d9d6 ",
    "g2f4 d6g6 f5c5 g6e6 f4e6 e7c5 d0e1 g9e7 e6f4 a4b4 f4g6 b4b3 g6i5 b3b2 ",
    "i5g6 f9e8 i3i4 b2b1 i4i5 b1c1 c0e2 e7g9 e0d0 e9f9 i5i6 c1b1 g6h8 f9e9 ",
    "i6h6 c5e7 h6h7 b1c1 h7g7 c1b1 g7f7 e8f7 h8f7 e9e8 f7h6 b1c1 e1d2 e8d8 ",
    "h6i8 d8d7 i2g0 d7d8 i8h6 e7c5 h6g8 g9e7 g8f6 c1b1 f6e4 d8d9 g0i2 d9d8 ",
    "d0d1 b1c1 d1e1 c1b1 e4d6 c5a7 d6b5 a7c9 e1d1 d8d9 b5c7 d9e9 d1d0 b1c1 ",
    "c7d5 e9e8 d5f6 e8f8 d2e1 f8f9 e1f2 f9f8 f6e4 f8f7 e4d6 f7f8 d6c8 f8e8 ",
    "i2g0 e7g9 c8d6 e8d8 f2e1 d8d9 e1d2 g9e7 f0e1 d9e9 g0i2 e9f9 e1f2 c9a7 ",
    "i2g0 a7c9 d2e1 f9e9 d6e4 e9e8 e4f6 e8f8 e1f0 c9a7 f6d5 f8f7 f2e1 c1b1 ",
    "d5f4 f7f8 f4d3 f8f9 d0e0 f9e9 e1d0 e9e8 f0e1 e8f8 g0i2 e7c9 d3e5 b1c1 ",
    "e5g6 f8e8 g6i7 c9e7 i7g8 e7c5 g8f6 e8d8 f6d5 c1d1 d5c3 g5g4 c3d1 g4g3 ",
    "d1e3 g3h3 e3f5 h3h2 i2g4 d8e8 e2c0 h2g2 f5e3 g2g1 e0f0 c5e7 e3f5 a7c5 ",
    "f5d6 e8e9 g4e2 e7g9 e1f2 g9i7 d0e1 g1h1 e1d2 h1g1 f2e1 i7g5 d6e4 c5e7 ",
    "e4f6 e7g9 f6g8 e9d9 e1d0 g5e7 g8f6 d9e9 f6d7 e9e8 d7b6 e7g5 b6d5 g9e7 ",
    "d2e1 e7c5 d5f6 e8f8 e1f2 f8f9 f6g8 f9f8 d0e1 c5e7 g8f6 f8f9 f6d5 f9e9 ",
    "c0a2 e9e8 e1d2 e8f8 d5e3 f8f9 e3f5 e7c5 f5d6 g5e7 d2e1 f9f8 a2c0 c5a7 ",
    "d6f5 e7g5 f5g7 a7c9 e2c4 f8f7 c0e2 f7e7 g7e6 g5i7 e6c7 i7g9 c4a2 e7d7 ",
    "a2c0 g9i7 c7d5 d7d8 e1d0 d8d7 f2e1 g1h1 d5b6 d7d8 b6c4 d8d9 c4e5 h1g1 ",
    "e5g6 g1g0 f0e0 g0f0 e1f0 i7g5 g6f8 d9d8 f8e6 g5e7 e6c7 c9a7 e2g4 d8d7 ",
    "d0e1 a7c5 g4e2 e7g9 e2g0 c5a7 e1d0 a7c5 c7b9 g9e7 b9c7 e7g9 g0e2 d7e7 ",
    "c7e6 c5a7 e6g7 e7f7 g7f5 g9e7 e2g0 f7f8 f5g7 a7c9 c0e2 f8f7 f0e1 f7f8 ",
    "g7f5 e7g5 f5e3 g5e7 e3d5 e7c5 d5f6 f8f9 e2c0 c5e7 g0e2 e7g9 f6e8 c9e7 ",
    "e8g7 f9e9 g7f5 e7g5 f5d6 e9f9 e2g0 g9i7 d6e8 g5e7 e8g7 f9e9 g7f5 e7g9 ",
    "f5e3 e9f9 e3d5 i7g5 d5f6 g9e7 f6g8 f9f8 g8h6 f8f9 h6f5 f9e9 f5d6 e9f9 ",
    "c0e2 e7g9 e1f2 g5i7 d6c8 i7g5 f2e1 g9i7 e2c0 i7g9 g0e2 g5i7 e2g0 i7g5 ",
    "e1f2 f9f8 c8d6 g9i7 d0e1 i7g9 e1f0 g9i7 f2e1 i7g9 d6e4 g9i7 e4f6 i7g9 ",
    "f6h7 f8f7 h7g5 f7e7 g5h7 g9i7 e0d0 e7f7 d0d1 f7e7 e1d0 e7e8 h7f6 e8e7 ",
    "f6g8 e7e8 g8i7 e8e7 i7h5 e7e8 h5f6 e8e7 d0e1 e7f7 f6h7 f7e7 h7g9",
);

#[test]
fn referee_overhead_per_move_is_small() {
    let args = two_fakes(
        "replay",
        "replay",
        &["-each", "st=1", "-randomplies", "0", "-ratinginterval", "0"],
    );
    std::env::set_var("FAKE_LINE", LONG_GAME);
    let cfg = cli::parse(&args).expect("valid");
    let s = run(&cfg).expect("runs");
    assert!(s.faults.is_empty(), "{:?}", s.faults);
    assert_eq!(
        s.reasons.get(&Ending::Rule(Reason::Stalemate)),
        Some(&1),
        "{:?}",
        s.reasons
    );
    // Measured around 50 us on a loaded two-core machine; a 100 ms search
    // makes anything under a few milliseconds negligible.
    assert!(
        s.overhead_us.is_some_and(|us| us < 5000.0),
        "overhead {:?} us per move",
        s.overhead_us
    );
}

#[test]
fn openings_from_epd_and_pgn_files() {
    let dir = std::env::temp_dir().join(format!("jiang-match-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let epd = dir.join("book.epd");
    std::fs::write(
        &epd,
        "# a comment\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h0g2 b9c7\n",
    )
    .expect("write epd");
    let pgn_book = dir.join("book.pgn");
    std::fs::write(&pgn_book, "[Event \"x\"]\n\n1. h0g2 b9c7 *\n").expect("write pgn");
    for (file, format) in [(&epd, "epd"), (&pgn_book, "pgn")] {
        let out = dir.join(format!("out-{format}.pgn"));
        let book = format!("file={}", file.display());
        let fmt = format!("format={format}");
        let out_s = out.display().to_string();
        let (s, _) = run_match(
            "good",
            "good",
            &[
                "-games",
                "2",
                "-openings",
                &book,
                &fmt,
                "order=random",
                "-pgnout",
                &out_s,
            ],
        );
        assert!(s.faults.is_empty(), "{format}: {:?}", s.faults);
        assert_eq!(
            s.reasons.get(&Ending::Rule(Reason::Repetition)),
            Some(&2),
            "{format}: {:?}",
            s.reasons
        );
        let text = std::fs::read_to_string(&out).expect("pgn");
        assert_eq!(text.matches("1. h0g2 b9c7 {book}").count(), 2, "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn janggi_move_cap_is_decided_by_counting() {
    // The fake engines know only the standard setup (random openings would
    // also randomise the horses and elephants): give it as a book.
    let dir = std::env::temp_dir().join(format!("jiang-match-janggi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let book = dir.join("start.epd");
    std::fs::write(&book, "startpos\n").expect("write book");
    let book_arg = format!("file={}", book.display());
    // After two full moves the cap ends the game: under `janggi` counting
    // gives it to Han (1.5 bonus points), under `janggicasual` it is a draw.
    let (s, _) = run_match(
        "good",
        "good",
        &[
            "-variant",
            "janggi",
            "-maxmoves",
            "2",
            "-games",
            "2",
            "-openings",
            &book_arg,
        ],
    );
    let sc = s.encounters[0].1;
    assert_eq!((sc.wins, sc.losses, sc.draws), (1, 1, 0), "{:?}", s.reasons);
    assert_eq!(
        s.reasons.get(&Ending::Adjudication(Adjudication::MaxMoves)),
        Some(&2)
    );
    let (s, _) = run_match(
        "good",
        "good",
        &[
            "-variant",
            "janggicasual",
            "-maxmoves",
            "2",
            "-games",
            "2",
            "-openings",
            &book_arg,
        ],
    );
    assert_eq!(s.encounters[0].1.draws, 2, "{:?}", s.reasons);
    assert_eq!(
        s.reasons.get(&Ending::Adjudication(Adjudication::MaxMoves)),
        Some(&2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary file path for an engine's command log.
fn temp_log(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "jiang-match-ponder-{tag}-{}.log",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// Two games with `-pondering` (unless `pondering` is false) between fake
/// engines `first` (logging its commands to `log`) and `second`, both
/// speaking `proto`.
fn ponder_match(
    first: &str,
    second: &str,
    proto: &str,
    pondering: bool,
    log: &std::path::Path,
) -> Summary {
    let xb = if proto == "xboard" { " xboard" } else { "" };
    let mut args: Vec<String> = vec![
        "-engine".into(),
        format!("{}{xb} log={}", fake(first), log.display()),
        "name=first".into(),
        "-engine".into(),
        format!("{}{xb}", fake(second)),
        "name=second".into(),
        "-each".into(),
        format!("proto={proto}"),
    ];
    for a in [
        "tc=5+0.1",
        "-games",
        "2",
        "-recover",
        "-randomplies",
        "0",
        "-ratinginterval",
        "0",
        "-hangtimeout",
        "2",
    ] {
        args.push(a.into());
    }
    if pondering {
        args.push("-pondering".into());
    }
    run(&cli::parse(&args).expect("valid command line")).expect("match runs")
}

/// Every ponder search ended exactly once, with no stray or unanswered
/// answer.
fn assert_ponder_accounts(s: &Summary) {
    let p = s.ponder;
    assert_eq!(p.searches, p.hits + p.misses + p.game_end_stops, "{p:?}");
    assert_eq!((p.stray_moves, p.unanswered_stops), (0, 0), "{p:?}");
}

/// The commands a pondering UCI/UCCI engine got, checked in order: each
/// `go ponder` follows the `position` that ends with the predicted move and
/// is followed by `ponderhit` or `stop`; a `ponderhit` by the next search
/// or game, never a `stop`; a `stop` by a new `position` and plain `go` (a
/// miss) or by the next game. `isready` (the referee's check for stray
/// answers around ponder searches) is left out. Returns (hits, misses)
/// seen.
fn check_ponder_log(log: &str) -> (u32, u32) {
    let lines: Vec<&str> = log.lines().filter(|l| *l != "isready").collect();
    let (mut hits, mut misses) = (0, 0);
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("go ponder") {
            continue;
        }
        assert!(lines[i - 1].starts_with("position"), "{}", lines[i - 1]);
        let next = lines.get(i + 1).copied().unwrap_or("");
        let after = lines.get(i + 2).copied().unwrap_or("");
        let new_game = |l: &str| ["ucinewgame", "quit"].contains(&l);
        match next {
            "ponderhit" => {
                hits += 1;
                assert!(after.starts_with("position") || new_game(after), "{after}");
            }
            "stop" if after.starts_with("position") => {
                misses += 1;
                let go = lines.get(i + 3).copied().unwrap_or("");
                assert!(go.starts_with("go ") && !go.contains("ponder"), "{go}");
            }
            "stop" => assert!(new_game(after), "{after}"),
            other => panic!("go ponder followed by {other:?}"),
        }
    }
    (hits, misses)
}

/// Two well-behaved pondering engines speaking `proto`: clean games, hits
/// and misses with no early answers, the ponder option set (`setoption`)
/// and `go ponder` in the protocol's words (`go_ponder`), and the command
/// order of [`check_ponder_log`].
fn assert_clean_pondering(proto: &str, setoption: &str, go_ponder: &str) {
    let log = temp_log(proto);
    let s = ponder_match("ponder", "ponder", proto, true, &log);
    assert!(s.faults.is_empty(), "{proto}: {:?}", s.faults);
    assert_eq!(s.reasons.get(&Ending::Rule(Reason::Repetition)), Some(&2));
    assert_ponder_accounts(&s);
    let p = s.ponder;
    assert!(p.hits > 0 && p.misses > 0, "{proto}: {p:?}");
    assert_eq!((p.early_hits, p.early_misses), (0, 0), "{proto}: {p:?}");
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(
        text.contains(setoption) && text.contains(go_ponder),
        "{text}"
    );
    let (hits, misses) = check_ponder_log(&text);
    assert!(hits > 0 && misses > 0, "{text}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn pondering_uci_hits_and_misses() {
    assert_clean_pondering(
        "uci",
        "setoption name Ponder value true",
        "go ponder wtime ",
    );
    // Without -pondering: plain searches only.
    let log = temp_log("off");
    let s = ponder_match("ponder", "ponder", "uci", false, &log);
    assert!(s.faults.is_empty(), "{:?}", s.faults);
    assert_eq!(s.ponder, Default::default());
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(!text.contains("ponder"), "{text}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn pondering_ucci_hits_and_misses() {
    assert_clean_pondering("ucci", "setoption ponder true", "go ponder time ");
}

#[test]
fn pondering_early_bestmoves_are_counted_not_faulted() {
    // The opponent (`slow`) predicts nothing, so it never ponders; it
    // takes 200 ms a move, so the early answers come before its moves
    // even on a loaded machine (with `good` the two answers raced).
    let log = temp_log("early");
    let s = ponder_match("ponder-early", "slow", "uci", true, &log);
    assert!(s.faults.is_empty(), "{:?}", s.faults);
    assert_ponder_accounts(&s);
    let p = s.ponder;
    assert!(p.searches > 0, "{p:?}");
    // Most answers come before the opponent's move, so before the
    // `ponderhit` or `stop`; one that crosses it is a plain hit or miss.
    assert!(
        p.early_hits <= p.hits && p.early_misses <= p.misses,
        "{p:?}"
    );
    assert!(p.early_hits + p.early_misses > 0, "{p:?}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn pondering_two_bestmoves_for_one_search_is_a_fault() {
    let log = temp_log("double");
    let s = ponder_match("ponder-double", "good", "uci", true, &log);
    assert_eq!(faults(&s, 0, Fault::StrayMove), 2, "{:?}", s.faults);
    assert_eq!(faults(&s, 1, Fault::StrayMove), 0);
    assert_eq!(s.ponder.stray_moves, 2, "{:?}", s.ponder);
    assert_eq!(
        s.reasons.get(&Ending::Fault(Fault::StrayMove)),
        Some(&2),
        "{:?}",
        s.reasons
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn pondering_engine_that_ignores_stop_hangs() {
    let log = temp_log("mute");
    let t = Instant::now();
    let s = ponder_match("ponder-mute", "good", "uci", true, &log);
    assert_eq!(faults(&s, 0, Fault::Hang), 2, "{:?}", s.faults);
    assert_eq!(s.ponder.unanswered_stops, 2, "{:?}", s.ponder);
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    let _ = std::fs::remove_file(&log);
}

#[test]
fn pondering_xboard_sends_hard_or_easy() {
    for (pondering, word) in [(true, "hard"), (false, "easy")] {
        let log = temp_log(word);
        let s = ponder_match("good", "good", "xboard", pondering, &log);
        assert!(s.faults.is_empty(), "{:?}", s.faults);
        // XBoard engines ponder by themselves: the referee runs none.
        assert_eq!(s.ponder, Default::default());
        let text = std::fs::read_to_string(&log).expect("log");
        assert_eq!(text.lines().filter(|l| *l == word).count(), 2, "{text}");
        let _ = std::fs::remove_file(&log);
    }
}
