//! Time the network's inner loops on a random network of the default
//! size (or of the hidden size given as the argument), once for each
//! instruction set this CPU runs: an incremental update (quiet and
//! capture), a full refresh and an evaluation.
//! `cargo run --release -p jiang-nnue --example nnue_speed [HIDDEN]`.

use movegen::{Game, Position, Variant};
use nnue::{Accumulator, Delta, Isa, Network, DEFAULT_BUCKETS, DEFAULT_HIDDEN};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let hidden = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(DEFAULT_HIDDEN);
    let Some(net) = Network::random(Game::Xiangqi, hidden, DEFAULT_BUCKETS, 1) else {
        eprintln!("no network of hidden size {hidden}");
        return;
    };
    println!("hidden {hidden}, detected {}", Isa::detected().name());
    for isa in Isa::supported() {
        println!("{}:", isa.name());
        time(&net.clone().with_isa(isa));
    }
}

/// Time each inner loop of `net`.
fn time(net: &Network) {
    let pos = Position::startpos(Variant::Xiangqi);
    let moves = pos.legal_moves();
    let quiet: Vec<Delta> = moves.iter().map(|&m| Delta::of(&pos, m)).collect();
    // A capture: the cannon takes the horse (h2h9 from the start).
    let capture = Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        Variant::Xiangqi,
    )
    .ok()
    .and_then(|p| {
        p.parse_move("h2h9", movegen::Ranks::ZeroBased)
            .ok()
            .map(|m| Delta::of(&p, m))
    });
    let a = Accumulator::refresh(net, &pos);
    let mut b = a.clone();
    let n = 2_000_000;

    let t = Instant::now();
    for i in 0..n {
        b.update_from(black_box(&a), net, &quiet[i % quiet.len()]);
        black_box(&b);
    }
    println!(
        "update (quiet):   {:6.1} ns",
        t.elapsed().as_nanos() as f64 / n as f64
    );

    if let Some(d) = capture {
        let t = Instant::now();
        for _ in 0..n {
            b.update_from(black_box(&a), net, &d);
            black_box(&b);
        }
        println!(
            "update (capture): {:6.1} ns",
            t.elapsed().as_nanos() as f64 / n as f64
        );
    }

    let t = Instant::now();
    let mut sum = 0i64;
    for i in 0..n {
        sum += i64::from(net.evaluate(black_box(&a), movegen::Color::Red, 2 + i % 31));
    }
    black_box(sum);
    println!(
        "evaluate:         {:6.1} ns",
        t.elapsed().as_nanos() as f64 / n as f64
    );

    let m = n / 50;
    let t = Instant::now();
    for _ in 0..m {
        black_box(Accumulator::refresh(net, black_box(&pos)));
    }
    println!(
        "refresh:          {:6.1} ns",
        t.elapsed().as_nanos() as f64 / m as f64
    );
}
