//! The repetition chapter of the Asian / World Xiangqi Federation rule book
//! (docs/RULES.md §1.3): every case of `tests/data/xiangqi_wxf_book.tsv`, a
//! diagram's position and move cycle played until its last position stands
//! a third time, judged by `Position::judge` (the referee's and the `result`
//! command's judgement) and by `cycle_verdict` (the search's), against the
//! book's ruling for the side to move.

use movegen::{cycle_verdict, CycleVerdict, GameResult, Position, Ranks, Variant};

const BOOK: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/xiangqi_wxf_book.tsv"
));

/// One case of the data file.
struct Case<'a> {
    id: &'a str,
    diagram: &'a str,
    title: &'a str,
    fen: &'a str,
    moves: &'a str,
    verdict: &'a str,
}

/// The cases, skipping comments and the column names.
fn cases() -> Vec<Case<'static>> {
    BOOK.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("case\t") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "malformed line: {l}");
            Case {
                id: f[0],
                diagram: f[2],
                title: f[3],
                fen: f[4],
                moves: f[5],
                verdict: f[6],
            }
        })
        .collect()
}

/// The verdict for the side to move, in the data file's words, by the
/// referee's judgement and by the search's cycle verdict; `Err` if the case
/// cannot be played.
fn judge(c: &Case) -> Result<(&'static str, &'static str), String> {
    let mut pos =
        Position::from_fen(c.fen, Variant::Xiangqi).map_err(|e| format!("fen {}: {e}", c.fen))?;
    pos.play_text_moves(c.moves.split_whitespace(), Ranks::OneBased)
        .map_err(|(i, e)| format!("move {i}: {e}"))?;
    let v = pos.judge();
    let referee = match v.result {
        GameResult::Ongoing => "ongoing",
        GameResult::Draw => "draw",
        r if r == GameResult::win_for(pos.side_to_move()) => "win",
        _ => "loss",
    };
    let cycle = pos.repetitions().next().unwrap_or(0);
    let search = match cycle_verdict(&pos, cycle) {
        CycleVerdict::Draw => "draw",
        CycleVerdict::SideToMoveWins => "win",
        CycleVerdict::SideToMoveLoses => "loss",
    };
    Ok((referee, search))
}

/// Cases the judgement does not yet rule as the book does (case numbers of
/// the data file). The test fails when one of them comes right without
/// being taken off this list, as when any other case goes wrong.
const KNOWN_DISAGREEMENTS: &[&str] = &[];

#[test]
fn wxf_book_repetition_diagrams() {
    let all = cases();
    assert!(all.len() >= 170, "only {} cases", all.len());
    let mut failures = Vec::new();
    for c in &all {
        let known = KNOWN_DISAGREEMENTS.contains(&c.id);
        match judge(c) {
            Ok((referee, search)) if referee == c.verdict && search == c.verdict => {
                if known {
                    failures.push(format!("case {}: now as the book rules it", c.id));
                }
            }
            Ok(_) if known => {}
            Ok((referee, search)) => failures.push(format!(
                "case {} (diagram {}, {}): judge {referee}, cycle_verdict {search}, book {}",
                c.id, c.diagram, c.title, c.verdict
            )),
            Err(e) => failures.push(format!("case {}: {e}", c.id)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} book cases changed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
