//! Time a perft: `perft <variant> <depth> [fen...]`.
use movegen::{perft, Position};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let v = args
        .first()
        .and_then(|v| v.parse().ok())
        .unwrap_or_default();
    let d = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let mut pos = if args.len() > 2 {
        Position::from_fen(&args[2..].join(" "), v).expect("fen")
    } else {
        Position::startpos(v)
    };
    let t = std::time::Instant::now();
    let n = perft(&mut pos, d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
}
