//! Helpers shared by the search test files.

// Each test file includes this module and uses only some of it.
#![allow(dead_code)]

use movegen::{Position, Variant};
use search::{BestMove, Engine, Limits, SearchInfo};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Search `pos` (with its history) on a fresh engine under `limits`.
pub fn search_with(pos: &Position, limits: Limits) -> BestMove {
    let mut engine = Engine::new();
    engine.set_hash_mb(8);
    let (tx, rx) = mpsc::channel();
    engine.go(
        pos,
        limits,
        Box::new(|_| {}),
        Box::new(move |b| {
            // The receiver lives until the result arrives; a failed send
            // can only mean the test already gave up.
            let _ = tx.send(b);
        }),
    );
    let got = rx.recv_timeout(Duration::from_secs(60));
    engine.wait();
    match got {
        Ok(b) => b,
        Err(e) => panic!("search gave no result: {e}"),
    }
}

/// Search `pos` on `engine` under `limits` to the end: the result (which
/// must be reported exactly once) and every info line.
pub fn run(engine: &mut Engine, pos: &Position, limits: Limits) -> (BestMove, Vec<SearchInfo>) {
    let infos = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&infos);
    let (tx, rx) = mpsc::channel();
    engine.go(
        pos,
        limits,
        Box::new(move |i| sink.lock().unwrap().push(i.clone())),
        Box::new(move |b| drop(tx.send(b))),
    );
    engine.wait();
    let b = rx.recv().expect("on_done ran");
    assert!(rx.try_recv().is_err(), "on_done ran once");
    let v = infos.lock().unwrap().clone();
    (b, v)
}

/// Every `step`-th position of the reference list `tests/data/moves.txt`,
/// both games.
pub fn reference_positions(step: usize) -> Vec<Position> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/moves.txt"
    ))
    .expect("moves.txt");
    text.lines()
        .step_by(step)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Position::from_fen(f[1], f[0].parse::<Variant>().expect("variant")).expect("fen")
        })
        .collect()
}
