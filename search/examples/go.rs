//! Search one position from the command line and print the info lines:
//! `go <variant> <depth|movetime_ms> [fen...]` (for quick experiments).
//! Example: `cargo run --release -p jiang-search --example go -- xiangqi d12`.

use movegen::{Position, Variant};
use search::{Engine, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args
        .first()
        .and_then(|v| v.parse().ok())
        .unwrap_or(Variant::Xiangqi);
    let limit = args.get(1).cloned().unwrap_or_else(|| "d8".into());
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let fen = args[2.min(args.len())..].join(" ");
    let pos = if fen.is_empty() {
        Position::startpos(variant)
    } else {
        match Position::from_fen(&fen, variant) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad fen: {e}");
                return;
            }
        }
    };
    let mut limits = Limits::default();
    if let Some(d) = limit.strip_prefix('d') {
        limits.depth = d.parse().ok();
    } else if let Some(n) = limit.strip_prefix('n') {
        limits.nodes = n.parse().ok();
    } else {
        limits.movetime_ms = limit.parse().ok();
    }
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_hash_mb(64);
    engine.go(
        &pos,
        limits,
        Box::new(|i| {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            println!(
                "info depth {} seldepth {} score {:?} {:?} nodes {} nps {} hashfull {} time {} pv {}",
                i.depth, i.seldepth, i.score, i.bound, i.nodes, i.nps, i.hashfull, i.time_ms, pv.join(" ")
            );
        }),
        Box::new(|b| println!("bestmove {:?} ponder {:?} score {:?} depth {}", b.best, b.ponder, b.score, b.depth)),
    );
    engine.wait();
}
