//! The rules core against the reference data in `tests/data/` (see its
//! README for the origin): perft counts, perft without the Janggi game-end
//! cut-off, and full legal-move lists.

use movegen::{move_text, perft_with, PerftOptions, Position, Ranks, Variant};
use std::collections::HashMap;

fn data(name: &str) -> String {
    let path = format!("{}/../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rows(name: &str) -> Vec<Vec<String>> {
    data(name)
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn variant(name: &str) -> Variant {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// One reference line we knowingly do not reproduce. Black passes to accept
/// bikjang while in check (the game is over); without the game-end cut-off
/// White may then capture the black general (`f1f9`). In that kingless
/// position the oracle (pyffish, from the FEN alone) lists 27 moves, one of
/// them a "pass" written `c7c7` by a side that has no general to pass with;
/// we list the 26 real moves. Every other node of this tree agrees (checked
/// node by node against pyffish), so the depth-3 total differs by one.
const KNOWN_ARTEFACT: (&str, u32) = (
    "2ra2r2/5k3/7n1/2pbB1pp1/9/9/8P/3N2N2/4AK3/3A1CB1R b - - 2 25",
    3,
);

/// Why each perft position was chosen (`perft_tags.txt`), by FEN.
fn perft_tags() -> HashMap<String, String> {
    rows("perft_tags.txt")
        .into_iter()
        .map(|r| (r[1].clone(), r[2].clone()))
        .collect()
}

fn check_perft(file: &str, game_end: bool) {
    let mut failures = Vec::new();
    let rows = rows(file);
    let tags = perft_tags();
    for r in &rows {
        if !game_end && r[1] == KNOWN_ARTEFACT.0 && r[2] == KNOWN_ARTEFACT.1.to_string() {
            continue;
        }
        let (v, fen, depth, expected) = (
            variant(&r[0]),
            &r[1],
            r[2].parse::<u32>().unwrap(),
            r[3].parse::<u64>().unwrap(),
        );
        let mut pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = perft_with(&mut pos, depth, PerftOptions { game_end });
        if got != expected {
            let why = tags.get(fen.as_str()).map_or("untagged", String::as_str);
            failures.push(format!(
                "{v} {fen} depth {depth} ({why}): expected {expected}, got {got}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_reference() {
    check_perft("perft.txt", true);
}

#[test]
fn perft_reference_without_game_end() {
    check_perft("perft_nogameend.txt", false);
}

/// The tag file describes every perft position (a perft failure names the
/// position's tags), and the tags that are facts about the position and
/// easy to state hold: a `check` position is in check, a `startpos` one is
/// the variant's start.
#[test]
fn perft_tags_describe_the_perft_positions() {
    let tags = perft_tags();
    for r in rows("perft.txt") {
        assert!(
            tags.contains_key(&r[1]),
            "perft position untagged: {}",
            r[1]
        );
    }
    let tagged = rows("perft_tags.txt");
    for r in &tagged {
        let (v, fen, tags) = (variant(&r[0]), &r[1], &r[2]);
        let pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let tags: Vec<&str> = tags.split(',').collect();
        if tags.contains(&"check") {
            assert!(pos.in_check(), "tagged check, not in check: {fen}");
        }
        if tags.contains(&"startpos") {
            assert_eq!(
                pos.to_fen(),
                Position::startpos(v).to_fen(),
                "tagged startpos: {fen}"
            );
        }
    }
}

#[test]
fn legal_move_lists() {
    let mut failures = Vec::new();
    let rows = rows("moves.txt");
    assert_eq!(rows.len(), 3000);
    for r in &rows {
        let (v, fen) = (variant(&r[0]), &r[1]);
        let expected: Vec<&str> = r
            .get(2)
            .map(|s| s.split_whitespace().collect())
            .unwrap_or_default();
        let pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut got: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| move_text(m, Ranks::OneBased))
            .collect();
        got.sort();
        let mut exp: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        exp.sort();
        if got != exp {
            let missing: Vec<_> = exp.iter().filter(|m| !got.contains(m)).collect();
            let extra: Vec<_> = got.iter().filter(|m| !exp.contains(m)).collect();
            failures.push(format!("{v} {fen}: missing {missing:?} extra {extra:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// `gives_check` agrees with the check flag that `make_move` computes, both
/// from a position set up by FEN (full test) and one ply later, where the
/// mask shortcut applies (the last move was an ordinary move); `key_after`
/// agrees with the key `make_move` computes.
#[test]
fn gives_check_and_key_after_match_make_move() {
    let rows = rows("moves.txt");
    let mut checked = 0usize;
    for r in rows.iter().step_by(5) {
        let (v, fen) = (variant(&r[0]), &r[1]);
        let mut pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for m in pos.legal_moves() {
            let predicted = pos.gives_check(m);
            let key = pos.key_after(m);
            pos.make_move(m);
            assert_eq!(predicted, pos.in_check(), "{v} {fen} {m}");
            assert_eq!(key, pos.hash_key(), "key_after {v} {fen} {m}");
            for reply in pos.legal_moves() {
                let predicted = pos.gives_check(reply);
                pos.make_move(reply);
                assert_eq!(predicted, pos.in_check(), "{v} {fen} {m} {reply}");
                pos.unmake_move();
                checked += 1;
            }
            pos.unmake_move();
        }
    }
    assert!(checked > 100_000, "only {checked} replies checked");
}

/// Captures and quiet moves split the legal moves exactly: every legal
/// move is in one of the two lists, each list holds only its own kind.
#[test]
fn captures_and_quiets_partition_legal_moves() {
    for r in &rows("moves.txt") {
        let (v, fen) = (variant(&r[0]), &r[1]);
        let pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let captures = pos.legal_captures();
        let quiets = pos.legal_quiets();
        let is_capture = |m: &movegen::Move| !m.is_pass() && pos.piece_at(m.to()).is_some();
        assert!(captures.iter().all(is_capture), "{fen}");
        assert!(!quiets.iter().any(is_capture), "{fen}");
        let mut split: Vec<_> = captures
            .iter()
            .chain(quiets.iter())
            .map(|m| m.code())
            .collect();
        let mut all: Vec<_> = pos.legal_moves().iter().map(|m| m.code()).collect();
        split.sort_unstable();
        all.sort_unstable();
        assert_eq!(split, all, "{v} {fen}");
    }
}
