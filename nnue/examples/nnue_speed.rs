//! Time the network's inner loops on a random network of the default
//! size (or of the hidden size given as the argument), once for each
//! input set and each instruction set this CPU runs: an incremental
//! update (quiet and capture), a general's move (which refreshes its
//! side's perspective under the general buckets), a full refresh and an
//! evaluation.
//! `cargo run --release -p jiang-nnue --example nnue_speed [HIDDEN]`.

use movegen::{Game, PieceKind, Position, Variant};
use nnue::{Accumulator, Arch, Delta, InputSet, Isa, Network, DEFAULT_BUCKETS, DEFAULT_HIDDEN};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let hidden = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(DEFAULT_HIDDEN);
    println!("hidden {hidden}, detected {}", Isa::detected().name());
    for inputs in InputSet::ALL {
        let arch = Arch {
            inputs,
            hidden,
            buckets: DEFAULT_BUCKETS,
        };
        let Some(net) = Network::random_of(Game::Xiangqi, arch, 1) else {
            eprintln!("no network of hidden size {hidden}");
            return;
        };
        for isa in Isa::supported() {
            println!("{} inputs, {}:", inputs.name(), isa.name());
            time(&net.clone().with_isa(isa));
        }
    }
}

/// Time each inner loop of `net`.
fn time(net: &Network) {
    let pos = Position::startpos(Variant::Xiangqi);
    let moves = pos.legal_moves();
    // Quiet moves other than the general's (timed on their own below).
    let quiet: Vec<Delta> = moves
        .iter()
        .filter(|m| pos.piece_at(m.from()).map(|p| p.kind()) != Some(PieceKind::General))
        .map(|&m| Delta::of(&pos, m))
        .collect();
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
    // The general's step e1-e2 from the start: a new bucket.
    let general = pos
        .parse_move("e0e1", movegen::Ranks::ZeroBased)
        .ok()
        .map(|m| Delta::of(&pos, m));
    let a = Accumulator::refresh(net, &pos);
    let mut b = a.clone();
    let n = 2_000_000;

    let t = Instant::now();
    for i in 0..n {
        b.update_from(black_box(&a), net, &quiet[i % quiet.len()], pos.board());
        black_box(&b);
    }
    println!(
        "update (quiet):   {:6.1} ns",
        t.elapsed().as_nanos() as f64 / n as f64
    );

    if let Some(d) = capture {
        let t = Instant::now();
        for _ in 0..n {
            b.update_from(black_box(&a), net, &d, pos.board());
            black_box(&b);
        }
        println!(
            "update (capture): {:6.1} ns",
            t.elapsed().as_nanos() as f64 / n as f64
        );
    }

    if let Some(d) = general {
        let after = d.board_after(pos.board());
        let m = n / 10;
        let t = Instant::now();
        for _ in 0..m {
            b.update_from(black_box(&a), net, &d, &after);
            black_box(&b);
        }
        println!(
            "update (general): {:6.1} ns",
            t.elapsed().as_nanos() as f64 / m as f64
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
