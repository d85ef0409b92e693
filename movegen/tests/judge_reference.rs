//! Game judgement against the reference data: every line of
//! `tests/data/ends.txt` and every case of
//! `tests/data/xiangqi_chase_cases.tsv` (docs/RULES.md §1.3–1.5, 2.2–2.3).

use movegen::{cycle_verdict, CycleVerdict, GameResult, Position, Ranks, Reason, Variant};

// The reference data is the workspace's (`tests/data/`, shared with the
// search tests and the benchmarks), so the path starts at this crate's root.
const ENDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/ends.txt"
));
const CHASE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/xiangqi_chase_cases.tsv"
));

/// Set up a position and play moves given with ranks 1–10.
fn play(variant: &str, fen: &str, moves: &str) -> Result<Position, String> {
    let v: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let mut pos = Position::from_fen(fen, v).map_err(|e| format!("fen {fen}: {e}"))?;
    pos.play_text_moves(moves.split_whitespace(), Ranks::OneBased)
        .map_err(|(i, e)| format!("move {i}: {e}"))?;
    Ok(pos)
}

/// The reasons an `ends.txt` kind may be reported as.
fn reasons_for(kind: &str, variant: &str) -> Vec<Reason> {
    match kind {
        "checkmate" => vec![Reason::Checkmate],
        "stalemate" => vec![Reason::Stalemate],
        "perpetual_check" => vec![Reason::PerpetualCheck],
        "repetition_draw" => vec![Reason::Repetition],
        // In `janggimodern` the oracle reports the shuttle loss under the
        // repetition kind when counting gives the same winner.
        "repetition_counting" if variant == "janggimodern" => {
            vec![Reason::Counting, Reason::Shuttle]
        }
        "repetition_counting" => vec![Reason::Counting],
        "repetition_other" => vec![Reason::Shuttle],
        "double_pass" => vec![Reason::DoublePass],
        "bikjang" => vec![Reason::Bikjang],
        "move_rule" => vec![Reason::MoveLimit],
        _ => vec![],
    }
}

/// Check one `ends.txt` line; `Err` describes the disagreement.
fn check_end(line: &str) -> Result<(), String> {
    let f: Vec<&str> = line.split('\t').collect();
    let [variant, fen, moves, outcome] = f[..] else {
        return Err("malformed line".into());
    };
    let mut parts = outcome.split(':');
    let (Some(kind), Some(_value), Some(winner)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err("malformed outcome".into());
    };
    let expected = match winner {
        "w" => GameResult::RedWins,
        "b" => GameResult::BlackWins,
        _ => GameResult::Draw,
    };
    let mut pos = play(variant, fen, moves)?;
    let v = pos.judge();
    if v.result != expected || !reasons_for(kind, variant).contains(&v.reason) {
        return Err(format!(
            "got {} {}, want {expected} {kind}",
            v.result, v.reason
        ));
    }
    // Not over before the last move.
    if pos.history_len() > 0 {
        pos.unmake_move();
        let before = pos.judge();
        // The oracle has no insufficient-material rule (docs/RULES.md §1.5): in
        // its drawn games of bare generals, advisors and elephants, we
        // already call the game drawn before the repetition.
        let material_draw = before.result == GameResult::Draw
            && before.reason == Reason::InsufficientMaterial
            && expected == GameResult::Draw;
        if before.is_over() && !material_draw {
            return Err(format!("already over before the last move: {before}"));
        }
    }
    Ok(())
}

#[test]
fn every_ends_line() {
    let mut failures = Vec::new();
    let mut total = 0;
    for line in ENDS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        total += 1;
        if let Err(e) = check_end(line) {
            failures.push(format!("{line}\n    {e}"));
        }
    }
    assert_eq!(total, 77, "ends.txt has 77 lines");
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The verdict of a chase case from the side to move's view, as the
/// reference words it.
fn side_to_move_word(pos: &Position) -> &'static str {
    let v = pos.judge();
    let us = pos.side_to_move();
    match v.result {
        GameResult::Draw => "Draw",
        GameResult::Ongoing => "Ongoing",
        r if r == GameResult::win_for(us) => "Win",
        _ => "Loss",
    }
}

#[test]
fn every_chase_case() {
    let mut failures = Vec::new();
    let mut total = 0;
    for line in CHASE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("idx"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 {
            continue;
        }
        total += 1;
        let (idx, fen, moves) = (f[0], f[2], f[3]);
        // Case 31 has no upstream expectation: docs/RULES.md §1.3 says draw.
        let expected = if f[4] == "(unspecified)" {
            "Draw"
        } else {
            f[4]
        };
        let pos = match play("xiangqi", fen, moves) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("case {idx}: {e}"));
                continue;
            }
        };
        let got = side_to_move_word(&pos);
        if got != expected {
            failures.push(format!(
                "case {idx} ({}): got {got} ({}), want {expected}",
                f[1],
                pos.judge()
            ));
            continue;
        }
        // The search's view of the same cycle agrees.
        let n = pos.history_len();
        let back = (1..=n).find(|&k| k % 2 == 0 && pos.states()[n - k].key == pos.key());
        let cycle = back.map(|k| cycle_verdict(&pos, k));
        let want_cycle = match expected {
            "Win" => CycleVerdict::SideToMoveWins,
            "Loss" => CycleVerdict::SideToMoveLoses,
            _ => CycleVerdict::Draw,
        };
        if let Some(c) = cycle {
            // The search judges the last cycle only; it must not contradict
            // the game verdict.
            if c != want_cycle {
                failures.push(format!(
                    "case {idx}: cycle_verdict {c:?}, want {want_cycle:?}"
                ));
            }
        }
    }
    assert_eq!(total, 33);
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
