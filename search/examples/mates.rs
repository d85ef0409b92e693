//! Mate-suite measurement: for every row of `tests/data/mates.txt`, search
//! with a time limit (default 1000 ms, first argument) and report how many
//! mates are found at the true distance and whether any no-mate control is
//! reported as a short mate. Run in release:
//! `cargo run --release -p jiang-search --example mates -- 1000`.

use movegen::{Position, Ranks, Variant};
use search::{Engine, Limits, Score};
use std::sync::mpsc;

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/mates.txt");
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {path}");
        return;
    };
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_hash_mb(64);
    let (mut found, mut mates, mut false_mates, mut controls, mut shorter) = (0, 0, 0, 0, 0);
    let mut total_ms = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 {
            continue;
        }
        let Ok(variant) = f[0].parse::<Variant>() else {
            continue;
        };
        let Ok(pos) = Position::from_fen(f[1], variant) else {
            continue;
        };
        let n: i32 = f[2].parse().unwrap_or(0);
        engine.new_game();
        let (tx, rx) = mpsc::channel();
        let t0 = std::time::Instant::now();
        let limits = Limits {
            movetime_ms: Some(ms),
            mate: if n > 0 { Some(n as u32) } else { None },
            ..Limits::default()
        };
        engine.go(
            &pos,
            limits,
            Box::new(|_| {}),
            Box::new(move |b| drop(tx.send(b))),
        );
        engine.wait();
        let el = t0.elapsed().as_millis();
        let Ok(b) = rx.recv() else { continue };
        let mv = b
            .best
            .map(|m| movegen::move_text(m, Ranks::OneBased))
            .unwrap_or_default();
        if n > 0 {
            mates += 1;
            total_ms += el;
            if b.score == Score::Mate(n) {
                found += 1;
            } else if matches!(b.score, Score::Mate(k) if k >= 1 && k < n) {
                found += 1;
                shorter += 1;
                println!(
                    "SHORTER {} mate {n} ({}) got {:?} {mv}",
                    f[1], f[3], b.score
                );
            } else {
                println!(
                    "MISS {} mate {n} ({}) got {:?} {mv} depth {} in {el} ms",
                    f[1], f[3], b.score, b.depth
                );
            }
        } else {
            controls += 1;
            if matches!(b.score, Score::Mate(k) if k > 0 && k <= 5) {
                false_mates += 1;
                println!("FALSE MATE {} got {:?} {mv}", f[1], b.score);
            }
        }
    }
    println!(
        "mates found at the reference distance or shorter: {found}/{mates} ({:.1}%, {shorter} shorter), avg {} ms; false short mates: {false_mates}/{controls}",
        100.0 * found as f64 / mates.max(1) as f64,
        total_ms / mates.max(1) as u128
    );
}
