//! `bench`: a fixed-depth search over fixed positions of both games.
//!
//! With one thread the node count is a fingerprint of the search: any
//! change that alters the search changes it (commit messages state it as
//! `Bench: N`), and it is identical on every run.

use crate::{Engine, Limits};
use movegen::{Position, Variant};
use std::sync::mpsc;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Xiangqi bench positions (written for Jiang from engine self-play).
pub const XIANGQI_POSITIONS: &[&str] =
    &["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"];

/// Janggi bench positions (written for Jiang from engine self-play).
pub const JANGGI_POSITIONS: &[&str] =
    &["rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"];

/// Every bench position with its variant.
pub fn positions() -> impl Iterator<Item = (Variant, &'static str)> {
    XIANGQI_POSITIONS
        .iter()
        .map(|f| (Variant::Xiangqi, *f))
        .chain(JANGGI_POSITIONS.iter().map(|f| (Variant::Janggi, *f)))
}

/// Run the bench: search each position to `depth` (default
/// [`DEFAULT_DEPTH`]) with a fresh hash and history, print one line per
/// position and Stockfish's three closing lines to `out`.
pub fn bench(
    depth: Option<u32>,
    threads: usize,
    hash_mb: usize,
    out: &mut dyn std::io::Write,
) -> BenchResult {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_hash_mb(hash_mb);
    let mut nodes = 0;
    let start = Instant::now();
    for (i, (variant, fen)) in positions().enumerate() {
        let Ok(pos) = Position::from_fen(fen, variant) else {
            let _ = writeln!(out, "Position {}: bad FEN {fen}", i + 1);
            continue;
        };
        engine.new_game();
        let (tx, rx) = mpsc::channel();
        let t0 = Instant::now();
        engine.go(
            &pos,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            Box::new(|_| {}),
            Box::new(move |b| {
                let _ = tx.send(b);
            }),
        );
        engine.wait();
        let best = rx.recv().ok().and_then(|b| b.best);
        let n = engine.last_search_nodes();
        nodes += n;
        let _ = writeln!(
            out,
            "Position {:>2} {:<8} nodes {:>10} time {:>6} ms best {}",
            i + 1,
            variant.name(),
            n,
            t0.elapsed().as_millis(),
            best.map_or("(none)".to_string(), |m| m.to_string())
        );
    }
    let time_ms = start.elapsed().as_millis() as u64;
    let nps = nodes * 1000 / time_ms.max(1);
    let _ = writeln!(out, "\n===========================");
    let _ = writeln!(out, "Total time (ms) : {time_ms}");
    let _ = writeln!(out, "Nodes searched  : {nodes}");
    let _ = writeln!(out, "Nodes/second    : {nps}");
    BenchResult {
        nodes,
        time_ms,
        nps,
    }
}
