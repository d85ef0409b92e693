//! The mate suite (`tests/data/mates.txt`): every mate must be found at
//! its reference distance or shorter (shorter only where the last move
//! stalemates, which loses in both games; the reference engine counts
//! those as one move longer), and no control may be reported as a short
//! mate. Budgets fit the dev profile.

use movegen::{Position, Ranks, Variant};
use search::{BestMove, Engine, Limits, Score};
use std::sync::mpsc;

fn run(engine: &mut Engine, pos: &Position, limits: Limits) -> BestMove {
    let (tx, rx) = mpsc::channel();
    engine.go(
        pos,
        limits,
        Box::new(|_| {}),
        Box::new(move |b| drop(tx.send(b))),
    );
    engine.wait();
    rx.recv().expect("on_done must run")
}

#[test]
fn mate_suite() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/mates.txt"
    ))
    .expect("mates.txt");
    let mut engine = Engine::new();
    let (mut mates, mut found, mut controls) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "{line}");
        let variant: Variant = f[0].parse().expect("variant");
        let pos = Position::from_fen(f[1], variant).expect("fen");
        let n: i32 = f[2].parse().expect("N");
        engine.new_game();
        if n > 0 {
            mates += 1;
            let b = run(
                &mut engine,
                &pos,
                Limits {
                    mate: Some(n as u32),
                    nodes: Some(400_000),
                    ..Limits::default()
                },
            );
            let best = b.best.expect("a move");
            assert!(pos.is_legal(best));
            match b.score {
                Score::Mate(k) if k >= 1 && k <= n => found += 1,
                s => failures.push(format!(
                    "{} mate {n} ({}): got {s:?} {}",
                    f[1],
                    f[3],
                    movegen::move_text(best, Ranks::OneBased)
                )),
            }
        } else {
            controls += 1;
            let b = run(
                &mut engine,
                &pos,
                Limits {
                    depth: Some(6),
                    ..Limits::default()
                },
            );
            assert!(b.best.is_some_and(|m| pos.is_legal(m)), "{line}");
            assert!(
                !matches!(b.score, Score::Mate(k) if k > 0 && k <= 5),
                "false mate {:?} in control {}",
                b.score,
                f[1]
            );
        }
    }
    assert_eq!(controls, 60);
    // Nearly all: at most 2% may be missed within the debug budget.
    assert!(
        found * 100 >= mates * 98,
        "found {found}/{mates}:\n{}",
        failures.join("\n")
    );
}
