//! The command line: `jiang perft`, `jiang bench`, `--version` and help,
//! bad arguments, and a protocol-mode perft piped in by a script.

use std::io::Write;
use std::process::{Command, Stdio};

fn jiang(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args(args)
        .output()
        .expect("run jiang");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_counts() {
    let (code, out, _) = jiang(&["perft", "3"]);
    assert_eq!((code, out.trim()), (0, "Nodes searched: 79666"));
    let (code, out, _) = jiang(&["perft", "2", "--threads", "1", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 44 + 2);
    assert_eq!(lines.last(), Some(&"Nodes searched: 1920"));
    assert!(lines.contains(&"h2e2: 45"), "{out}");
    let (_, out, _) = jiang(&["perft", "2", "--divide", "--ranks", "1"]);
    assert!(out.lines().any(|l| l == "h3e3: 45"), "{out}");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let (code, out, _) = jiang(&["perft", "1", "--fen", fen]);
    assert_eq!((code, out.trim()), (0, "Nodes searched: 45"));
}

#[test]
fn janggi_setups() {
    // Every setup has the pass plus the same 32 first moves... except that
    // the horse/elephant arrangement changes them; compare with the rules
    // core directly.
    for name in movegen::setups::janggi_setup_names() {
        let pos = movegen::setups::janggi_setup(&name, movegen::Variant::Janggi).expect("setup");
        let want = movegen::perft(&mut pos.clone(), 2);
        let (code, out, err) = jiang(&["perft", "2", "--variant", "janggi", "--setup", &name]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), format!("Nodes searched: {want}"), "{name}");
    }
}

#[test]
fn bad_arguments() {
    for args in [
        &["perft"][..],
        &["perft", "zero"],
        &["perft", "0"],
        &["perft", "2", "--threads", "0"],
        &["perft", "2", "--variant", "chess"],
        &["perft", "2", "--setup", "nbbn-nbbn"],
        &["perft", "2", "--variant", "janggi", "--setup", "xxxx-nbbn"],
        &["perft", "2", "--fen", "9/9 w"],
        &["perft", "2", "--bogus"],
        &["bench", "x"],
        &["frobnicate"],
    ] {
        let (code, out, err) = jiang(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains("jiang: "), "{args:?}: {err}");
    }
    // A bad argument names the command and shows its usage.
    let (_, _, err) = jiang(&["perft", "2", "--bogus"]);
    assert!(
        err.contains("jiang: perft: unknown argument '--bogus'"),
        "{err}"
    );
    assert!(err.contains("usage: jiang perft N"), "{err}");
    for args in [&["help", "frobnicate"][..], &["--frobnicate"]] {
        let (code, _, err) = jiang(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("unknown command"), "{args:?}: {err}");
    }
}

#[test]
fn version_and_help() {
    let version = format!("Jiang {}", env!("CARGO_PKG_VERSION"));
    for flag in ["--version", "-V", "version"] {
        let (code, out, _) = jiang(&[flag]);
        assert_eq!((code, out.trim()), (0, version.as_str()), "{flag}");
    }
    for args in [&["help"][..], &["--help"], &["-h"]] {
        let (code, out, _) = jiang(args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.starts_with(&version), "{args:?}: {out}");
        for command in ["perft", "bench", "match", "tune"] {
            assert!(out.contains(&format!("\n  {command} ")), "{command}: {out}");
        }
    }
    // `jiang help COMMAND` and `jiang COMMAND --help` print the same text.
    for (command, usage) in [
        ("perft", "usage: jiang perft N"),
        ("bench", "usage: jiang bench"),
        ("tune", "usage: jiang tune"),
        ("match", "usage: jiang match"),
    ] {
        let (code, help, _) = jiang(&["help", command]);
        assert_eq!(code, 0, "{command}");
        assert!(help.contains(usage), "{command}: {help}");
        let (code, own, _) = jiang(&[command, "--help"]);
        assert_eq!(code, 0, "{command}");
        assert!(own.contains(usage), "{command}: {own}");
    }
}

#[test]
fn bench_is_deterministic() {
    let nodes = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
    };
    let (c1, o1, _) = jiang(&["bench", "2"]);
    let (c2, o2, _) = jiang(&["bench", "2"]);
    assert_eq!((c1, c2), (0, 0));
    assert!(nodes(&o1).is_some(), "{o1}");
    assert_eq!(nodes(&o1), nodes(&o2));
}

/// Run the binary in protocol mode with `input` on stdin (closed after
/// it); returns its exit code and stdout.
fn piped(input: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start jiang");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("write input");
    }
    let out = child.wait_with_output().expect("wait for jiang");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `go perft N` (or `perft N`) followed at once by `quit` or by the end
/// of input prints the whole result before the process exits, in every
/// protocol, as `printf 'go perft 4\nquit\n' | jiang` scripts expect.
#[test]
fn perft_then_quit_prints_the_total() {
    const TOTAL: &str = "Nodes searched: 3290240";
    for input in [
        "go perft 4\nquit\n",
        "go perft 4\n",
        "uci\ngo perft 4\nquit\n",
        "uci\nperft 4\nquit\n",
        "ucci\ngo perft 4\nquit\n",
        "ucci\nperft 4\n",
        "xboard\nprotover 2\nperft 4\nquit\n",
        "xboard\nperft 4\n",
    ] {
        let (code, out) = piped(input);
        assert_eq!(code, 0, "{input:?}");
        let lines: Vec<&str> = out.lines().collect();
        let total = lines.iter().position(|l| *l == TOTAL);
        assert!(total.is_some(), "{input:?}: {out}");
        // All 44 root moves came before the total.
        let moves = lines
            .iter()
            .filter(|l| l.ends_with(|c: char| c.is_ascii_digit()) && l.contains(": "))
            .count();
        assert_eq!(moves, 44 + 1, "{input:?}: {out}");
        if input.starts_with("ucci") {
            // UCCI's goodbye comes last: a script reads up to it.
            assert_eq!(lines.last(), Some(&"bye"), "{input:?}: {out}");
        }
    }
}
