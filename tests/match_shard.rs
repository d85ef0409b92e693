//! `jiang match -shard I/N` and `-merge`, end to end with the built binary
//! playing itself at a fixed depth (one thread, deterministic): two shards
//! play between them exactly the games of the unsharded match, move for
//! move, and their merged report equals the unsharded run's. Bad shards
//! and bad files are refused with a message, not a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use jiang_match::pgn::read::read_games;

/// A fresh path in the temporary directory.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("jiang-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Run `jiang match ARGS`: exit code, stdout, stderr.
fn jiang_match(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .arg("match")
        .args(args)
        .output()
        .expect("run jiang match");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// The tiny match: depth 3 against depth 1, one thread each, 2 openings
/// of 4 random plies, 4 games with reversed colours, at most 60 moves,
/// resignation adjudicated (the games end by mate, resignation and the
/// move cap, so the pairs are not all alike).
fn the_match(extra: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_jiang");
    words(&format!(
        "-engine cmd={bin} name=deep depth=3 -engine cmd={bin} name=shallow depth=1 \
         -each proto=uci option.Threads=1 option.Hash=1 \
         -games 2 -rounds 2 -repeat -randomplies 4 -seed 7 -maxmoves 60 \
         -resign movecount=3 score=500 -ratinginterval 0 -sprt elo0=0 elo1=50 {extra}"
    ))
}

/// Play the match (or a shard of it) into `pgn`; returns stdout.
fn play(pgn: &Path, extra: &str) -> String {
    let args = the_match(&format!("-pgnout {} {extra}", pgn.display()));
    let (code, out, err) = jiang_match(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    out
}

/// The final report's statistics: from `Results of` to `Faults:`.
fn report(out: &str) -> Vec<String> {
    let lines: Vec<String> = out
        .lines()
        .skip_while(|l| !l.starts_with("Results of"))
        .map(String::from)
        .collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with("Faults:"))
        .expect("a final report");
    lines[..=end].to_vec()
}

/// Each game of a PGN file by `Round`: players, result, moves.
fn games(pgn: &Path) -> BTreeMap<u32, String> {
    let text = std::fs::read_to_string(pgn).expect("the PGN is there");
    read_games(&text)
        .iter()
        .map(|g| {
            let tag = |n: &str| g.tag(n).unwrap_or("?").to_string();
            let moves: Vec<&str> = g.moves.iter().map(|m| m.text).collect();
            let round = tag("Round").parse().expect("Round is a number");
            let key = [tag("White"), tag("Black"), tag("Result"), moves.join(" ")];
            (round, key.join("|"))
        })
        .collect()
}

#[test]
fn two_shards_merge_to_the_unsharded_match() {
    let whole_pgn = temp("whole.pgn");
    let whole = play(&whole_pgn, "-concurrency 2");
    let shard_pgns = [temp("s0.pgn"), temp("s1.pgn")];
    for (i, pgn) in shard_pgns.iter().enumerate() {
        let out = play(pgn, &format!("-shard {i}/2"));
        assert!(
            out.contains(&format!("Shard {i}/2: 2 of the match's 4 games")),
            "{out}"
        );
        // A shard plays the games k = Round - 1 with k % 2 == i.
        let rounds: Vec<u32> = games(pgn).into_keys().collect();
        assert_eq!(rounds, [i as u32 + 1, i as u32 + 3]);
    }

    // Move for move the same games.
    let mut sharded = games(&shard_pgns[0]);
    sharded.extend(games(&shard_pgns[1]));
    assert_eq!(sharded, games(&whole_pgn));
    assert_eq!(sharded.len(), 4);

    // The same report: W/L/D, Elo, pentanomial, SPRT, game ends, faults.
    let mut args = words("-merge");
    args.extend(shard_pgns.iter().map(|p| p.display().to_string()));
    let (code, merged, err) = jiang_match(&args);
    assert_eq!(code, 0, "{merged}\n{err}");
    assert!(merged.starts_with("Merged 4 of 4 games"), "{merged}");
    let expected = report(&whole);
    assert!(
        expected.iter().any(|l| l.starts_with("Ptnml(0-2): ")),
        "{whole}"
    );
    assert!(
        expected.iter().any(|l| l.starts_with("SPRT (0.0, 50.0)")),
        "{whole}"
    );
    assert_eq!(report(&merged), expected);

    // One shard alone: a partial merge that says what is missing.
    let (code, part, _) = jiang_match(&words(&format!("-merge {}", shard_pgns[1].display())));
    assert_eq!(code, 0, "{part}");
    assert!(part.starts_with("Merged 2 of 4 games"), "{part}");
    assert!(part.contains("Missing 2 game(s), by Round: 1, 3"), "{part}");

    // A game of the match with other content: refused, naming both files.
    let text = std::fs::read_to_string(&shard_pgns[0]).expect("shard 0");
    let result = text
        .lines()
        .find(|l| l.starts_with("[Result "))
        .expect("a Result tag");
    let other = if result.contains("\"1-0\"") {
        "[Result \"0-1\"]"
    } else {
        "[Result \"1-0\"]"
    };
    let tampered = temp("tampered.pgn");
    std::fs::write(&tampered, text.replacen(result, other, 1)).expect("write");
    let (code, _, err) = jiang_match(&words(&format!(
        "-merge {} {}",
        whole_pgn.display(),
        tampered.display()
    )));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("with different content"), "{err}");
    assert!(err.contains("tampered.pgn, game 1"), "{err}");

    for p in shard_pgns.iter().chain([&whole_pgn, &tampered]) {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_shards_and_files_are_refused() {
    for bad in ["2/2", "0/0", "1", "a/b", "-1/2"] {
        let (code, out, err) = jiang_match(&the_match(&format!("-shard {bad}")));
        assert_eq!(code, 2, "{bad}: {out}{err}");
        assert!(err.contains("-shard: bad shard"), "{bad}: {err}");
    }
    let garbage = temp("garbage.pgn");
    std::fs::write(&garbage, "this is not a PGN file\n").expect("write");
    let (code, _, err) = jiang_match(&words(&format!("-merge {}", garbage.display())));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("garbage.pgn, game 1: not a game of a jiang match"),
        "{err}"
    );
    let (code, _, err) = jiang_match(&words("-merge /nonexistent/x.pgn"));
    assert!(code == 1 && err.contains("/nonexistent/x.pgn"), "{err}");
    let (code, _, err) = jiang_match(&words("-merge"));
    assert!(code == 2 && err.contains("at least one PGN file"), "{err}");
    let _ = std::fs::remove_file(&garbage);
}
