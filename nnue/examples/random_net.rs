//! Write a network of random weights, for speed measurements and protocol
//! tests only (it plays nothing well):
//! `cargo run --release -p jiang-nnue --example random_net -- OUT [xiangqi|janggi] [H] [B] [SEED]`.

use movegen::Game;
use nnue::Network;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: random_net OUT [xiangqi|janggi] [H] [B] [SEED]");
        std::process::exit(2);
    };
    let game = match args.get(1).map(String::as_str) {
        Some("janggi") => Game::Janggi,
        _ => Game::Xiangqi,
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (h, b, seed) = (num(2, 256), num(3, 8), num(4, 1));
    let Some(net) = Network::random(game, h as usize, b as usize, seed) else {
        eprintln!("sizes out of range: H {h}, B {b}");
        std::process::exit(2);
    };
    if let Err(e) = std::fs::write(out, net.to_bytes()) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(1);
    }
}
