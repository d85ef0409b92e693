//! Search speed benchmark: Jiang's single-thread nodes per second against
//! Debian's `fairy-stockfish` in the same run; Jiang's nodes per second
//! with its embedded network, on each instruction set the CPU runs,
//! against its classical evaluation; and Jiang's time to depth with all
//! threads against one thread.
//!
//! Run with `cargo bench -p jiang-bench --bench search` (add `-- --quick`
//! for shorter searches). For each game, both engines search the start
//! position for a fixed time with their default hash, alternately, several
//! times; the median and best ratios are printed (shared machines are noisy:
//! read the ratios). Then `jiang bench` runs at one thread and at all
//! threads, alternately, and the time-to-depth ratio is printed per pair.
//!
//! The peer is found as `$FAIRY_STOCKFISH`, then `fairy-stockfish` on
//! `PATH`, then `/usr/games/fairy-stockfish`; without it only Jiang's
//! figures are printed.

use std::sync::Arc;
use std::time::Instant;

use jiang_bench::{search_blocking, Peer};
use movegen::{ByGame, Position, Variant};
use nnue::{Isa, Network};
use search::{Engine, Limits};

/// Nodes per second the peer reports at the end of a fixed-time search
/// from the start position (a fresh game each time).
fn peer_nps(peer: &mut Peer, variant: Variant, ms: u64) -> Option<f64> {
    peer.set_variant(variant);
    peer.send("ucinewgame");
    peer.send("position startpos");
    peer.send("isready");
    peer.read_until("readyok")?;
    peer.send(&format!("go movetime {ms}"));
    let lines = peer.read_until("bestmove")?;
    let last = lines.iter().rev().find(|l| l.contains(" nps "))?;
    let mut words = last.split_whitespace();
    words.find(|w| *w == "nps")?;
    words.next()?.parse().ok()
}

fn game(v: Variant) -> &'static str {
    if v.is_janggi() {
        "janggi"
    } else {
        "xiangqi"
    }
}

/// Jiang's nodes per second over a fixed-time single-thread search from
/// the start position, with a fresh hash.
fn jiang_nps(engine: &mut Engine, variant: Variant, ms: u64) -> f64 {
    let pos = Position::startpos(variant);
    engine.new_game();
    let t = Instant::now();
    let limits = Limits {
        movetime_ms: Some(ms),
        ..Limits::default()
    };
    let nodes = search_blocking(engine, &pos, limits);
    nodes as f64 / t.elapsed().as_secs_f64().max(1e-9)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (ms, runs, depth) = if quick { (1000, 3, 9) } else { (5000, 5, 11) };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut peer = Peer::start();
    if peer.is_none() {
        println!("fairy-stockfish not found: printing Jiang's figures only");
    }
    let mut engine = Engine::new();
    engine.set_threads(1);
    // Jiang as it plays by default: each game's embedded network.
    for variant in [Variant::Xiangqi, Variant::Janggi] {
        engine.set_network(variant.game(), Network::embedded(variant.game()));
    }

    println!(
        "Single-thread nodes/s from the start position, go movetime {ms}, {runs} runs each \
         (Jiang with its network, {}):",
        Isa::detected().name()
    );
    println!(
        "{:<8} {:>12} {:>12} {:>8} {:>8}",
        "game", "jiang", "fsf", "median", "best"
    );
    for variant in [Variant::Xiangqi, Variant::Janggi] {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut ratios = Vec::new();
        for _ in 0..runs {
            let j = jiang_nps(&mut engine, variant, ms);
            ours.push(j);
            if let Some(f) = peer.as_mut().and_then(|p| peer_nps(p, variant, ms)) {
                theirs.push(f);
                ratios.push(j / f.max(1.0));
            }
        }
        let best = ratios.iter().copied().fold(0.0, f64::max);
        println!(
            "{:<8} {:>12.0} {:>12.0} {:>7.2}x {:>7.2}x",
            game(variant),
            median(ours),
            median(theirs),
            median(ratios.clone()),
            best
        );
    }

    println!(
        "\nJiang's network on each instruction set against its classical evaluation \
         (nodes/s, go movetime {ms}, median of {runs} alternating runs):"
    );
    for variant in [Variant::Xiangqi, Variant::Janggi] {
        let Some(net) = Network::embedded(variant.game()) else {
            println!("{:<8} no embedded network", game(variant));
            continue;
        };
        let isas = Isa::supported();
        let mut classical = Vec::new();
        let mut with_net = vec![Vec::new(); isas.len()];
        for _ in 0..runs {
            engine.set_network(variant.game(), None);
            classical.push(jiang_nps(&mut engine, variant, ms));
            for (i, &isa) in isas.iter().enumerate() {
                let n = Arc::new(Network::clone(&net).with_isa(isa));
                engine.set_network(variant.game(), Some(n));
                with_net[i].push(jiang_nps(&mut engine, variant, ms));
            }
        }
        let base = median(classical);
        println!("{:<8} classical {base:>10.0}", game(variant));
        for (isa, v) in isas.iter().zip(with_net) {
            let m = median(v);
            println!(
                "{:<8} {:<9} {m:>10.0} {:>6.2}x of classical",
                "",
                isa.name(),
                m / base.max(1.0)
            );
        }
        engine.set_network(variant.game(), Some(net));
    }

    if threads > 1 {
        println!(
            "\nTime to depth {depth} over the bench positions with the networks, {threads} threads vs 1:"
        );
        let nets = ByGame::from_fn(Network::embedded);
        let bench =
            |t| search::bench_with_networks(Some(depth), t, 16, nets.clone(), &mut std::io::sink());
        let mut ratios = Vec::new();
        for _ in 0..runs.min(4) {
            let one = bench(1);
            let all = bench(threads);
            let r = all.time_ms as f64 / one.time_ms.max(1) as f64;
            println!(
                "  1 thread {:>6} ms, {threads} threads {:>6} ms: {r:.3}x",
                one.time_ms, all.time_ms
            );
            ratios.push(r);
        }
        println!("  median {:.3}x", median(ratios));
    }
}
