//! Perft speed benchmark: Jiang's rules core against Debian's
//! `fairy-stockfish` in the same run, on the same positions.
//!
//! Run with `cargo bench --bench perft` (add `-- --quick` for depth 4
//! everywhere). The peer is found as `$FAIRY_STOCKFISH`, then
//! `fairy-stockfish` on `PATH`, then `/usr/games/fairy-stockfish`; without it
//! only Jiang's figures are printed. Absolute times on shared machines are
//! noise: read the ratios, which both engines share.
//!
//! The peer's time is measured from sending `go perft` to reading its
//! `Nodes searched` line, so process start-up and option handling are not
//! counted against it.

use std::time::Instant;

use jiang_bench::Peer;
use movegen::{perft, perft_parallel, PerftOptions, Position, Variant};

struct Case {
    variant: Variant,
    name: &'static str,
    fen: &'static str,
    depth: u32,
}

const CASES: &[Case] = &[
    Case {
        variant: Variant::Xiangqi,
        name: "xiangqi start",
        fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        depth: 5,
    },
    Case {
        variant: Variant::Xiangqi,
        name: "xiangqi middlegame 1",
        fen: "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        depth: 5,
    },
    Case {
        variant: Variant::Xiangqi,
        name: "xiangqi middlegame 2",
        fen: "r1baka1n1/9/4b1r2/p1n1p4/2p3p1P/P1B3C2/C1P3P2/2N1c4/4K4/R1BA1A1NR b - - 0 19",
        depth: 5,
    },
    Case {
        variant: Variant::Janggi,
        name: "janggi start d4",
        fen: "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        depth: 4,
    },
    Case {
        variant: Variant::Janggi,
        name: "janggi start d5",
        fen: "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        depth: 5,
    },
    Case {
        variant: Variant::Janggi,
        name: "janggi middlegame",
        fen: "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
        depth: 5,
    },
];

/// Perft on the peer: (nodes, seconds), timed from `go perft` to its
/// `Nodes searched` line.
fn peer_perft(peer: &mut Peer, variant: Variant, fen: &str, depth: u32) -> Option<(u64, f64)> {
    peer.set_variant(variant);
    peer.send(&format!("position fen {fen}"));
    peer.send("isready");
    peer.read_until("readyok")?;
    let t = Instant::now();
    peer.send(&format!("go perft {depth}"));
    let lines = peer.read_until("Nodes searched")?;
    let secs = t.elapsed().as_secs_f64();
    let nodes = lines.last()?.rsplit(' ').next()?.parse().ok()?;
    Some((nodes, secs))
}

/// Peak resident memory of this process in KiB (Linux), if known.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rss_before = peak_rss_kib();
    let mut peer = Peer::start();
    if peer.is_none() {
        println!("fairy-stockfish not found: printing Jiang's figures only");
    }
    println!(
        "{:<22} {:>2} {:>12} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "position", "d", "nodes", "jiang 1T", "jiang NT", "fsf", "1T/fsf", "NT/1T"
    );
    println!(
        "{:<22} {:>2} {:>12} {:>10} {:>10} {:>10}",
        "",
        "",
        "",
        "Mnps",
        format!("{threads} thr"),
        "Mnps"
    );
    for case in CASES {
        let depth = if quick { case.depth.min(4) } else { case.depth };
        let Ok(mut pos) = Position::from_fen(case.fen, case.variant) else {
            println!("{}: bad FEN", case.name);
            continue;
        };
        // Short runs are repeated and the fastest kept, for both engines:
        // a run of a few tens of milliseconds is dominated by warm-up.
        let repeats = if case.depth >= 5 && !quick { 1 } else { 5 };
        let best = |f: &mut dyn FnMut() -> u64| {
            (0..repeats)
                .map(|_| {
                    let t = Instant::now();
                    let n = f();
                    (n, t.elapsed().as_secs_f64())
                })
                .fold((0, f64::MAX), |a, b| if b.1 < a.1 { b } else { a })
        };
        let (nodes, single) = best(&mut || perft(&mut pos, depth));
        let (nodes_mt, multi) =
            best(&mut || perft_parallel(&pos, depth, threads, PerftOptions::default()));
        assert_eq!(nodes, nodes_mt, "parallel perft disagrees");
        let mnps = |n: u64, s: f64| n as f64 / s.max(1e-9) / 1e6;
        let peer_result = peer
            .as_mut()
            .and_then(|p| peer_perft(p, case.variant, case.fen, depth));
        let (fsf, ratio) = match peer_result {
            Some((n, s)) => {
                if n != nodes {
                    println!("  !! node counts differ: jiang {nodes}, fairy-stockfish {n}");
                }
                (
                    format!("{:.1}", mnps(n, s)),
                    format!("{:.2}x", mnps(nodes, single) / mnps(n, s)),
                )
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<22} {:>2} {:>12} {:>10.1} {:>10.1} {:>10} {:>8} {:>7.2}x",
            case.name,
            depth,
            nodes,
            mnps(nodes, single),
            mnps(nodes, multi),
            fsf,
            ratio,
            single / multi.max(1e-9)
        );
    }
    if let (Some(a), Some(b)) = (rss_before, peak_rss_kib()) {
        println!(
            "peak memory: {b} KiB resident ({} KiB above the start of the run)",
            b.saturating_sub(a)
        );
    }
}
