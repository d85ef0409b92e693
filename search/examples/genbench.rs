//! Generate candidate bench positions by engine self-play (used once to
//! write the lists in `src/bench.rs`; kept to regenerate them).
//! `cargo run --release -p jiang-search --example genbench -- xiangqi 12`

use movegen::{Position, Variant};
use search::{Engine, Limits};
use std::sync::mpsc;

fn main() {
    let variant: Variant = std::env::args()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(Variant::Xiangqi);
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let mut engine = Engine::new();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let names = movegen::setups::janggi_setup_names();
    for g in 0..games {
        let mut pos = if variant.is_janggi() {
            let name = &names[(rnd() % names.len() as u64) as usize];
            match movegen::setups::janggi_setup(name, variant) {
                Some(p) => p,
                None => Position::startpos(variant),
            }
        } else {
            Position::startpos(variant)
        };
        engine.new_game();
        let keep = [12 + g % 6, 36 + g % 10, 70 + g % 20, 110 + g % 20];
        for ply in 0..140u64 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if ply < 3 {
                moves[(rnd() % moves.len() as u64) as usize]
            } else {
                let (tx, rx) = mpsc::channel();
                let limits = Limits {
                    nodes: Some(30_000 + rnd() % 20_000),
                    ..Limits::default()
                };
                engine.go(
                    &pos,
                    limits,
                    Box::new(|_| {}),
                    Box::new(move |b| drop(tx.send(b))),
                );
                engine.wait();
                match rx.recv().ok().and_then(|b| b.best) {
                    Some(m) => m,
                    None => break,
                }
            };
            pos.make_move(m);
            if keep.contains(&ply) {
                println!("    \"{}\",", pos.to_fen());
            }
        }
    }
}
