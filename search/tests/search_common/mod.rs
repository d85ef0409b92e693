//! Helpers shared by the search test files.

use movegen::Position;
use search::{BestMove, Engine, Limits};
use std::sync::mpsc;
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
