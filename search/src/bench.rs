//! `bench`: a fixed-depth search over fixed positions of both games.
//!
//! With one thread the node count is a fingerprint of the search: any
//! change that alters the search changes it (commit messages state it as
//! `Bench: N`), and it is identical on every run.

use crate::{Engine, Limits};
use movegen::{ByGame, Game, Position, Variant};
use nnue::Network;
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;
/// The deepest bench either front end accepts (`jiang bench` and the
/// protocols' `bench`, which blocks its command loop while it runs).
pub const MAX_DEPTH: u32 = 30;

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
pub const XIANGQI_POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabr1/9/4c1n2/p1p1p1p1p/6c2/2P6/P3P1P1P/C1N1B2C1/7R1/1RBAKA1N1 b - - 13 7",
    "1rbakab2/4n4/2n6/p1p1p1Ccp/5N3/2P3P2/P4R2P/B3B4/4A4/3AK2N1 b - - 6 19",
    "2C2a1n1/3Ra4/c3k4/p1p2P2p/7r1/2P2N3/P7P/B3B4/4A4/3AK4 b - - 10 36",
    "1nbaka3/8r/4b1nc1/p1p1p1p1p/3r5/9/P1P1P1P1P/4C4/9/1RBAKABNR w - - 0 8",
    "2baka3/7r1/4b1n2/2C1p3p/6p2/1R7/4P3P/4B1N1R/4A2c1/r3KAB2 w - - 2 20",
    "2bak4/4a4/4b4/7R1/4C1pnp/9/4Nr3/4B2r1/4A2cR/4KAB2 w - - 0 37",
    "2bk1a3/9/3abc3/6N2/4C1p2/9/3R5/4K4/9/5rB2 w - - 2 57",
    "1nbakab2/8r/6nc1/p1P1p1p1p/9/2C6/P3P1P1P/7C1/9/1cBAKABNR b - - 0 8",
    "2nakab2/9/2n1b2c1/p1P4Cp/6p2/2C1p4/PR2P3r/9/4A4/2B1KAB2 b - - 7 20",
    "2bak4/4a4/3n5/2R6/p3r3p/5pp2/P3c4/4B4/4A4/3CKAB2 b - - 3 37",
    "2baka3/9/9/9/8p/p8/9/4p3B/5c3/3nK4 b - - 1 57",
    "4kabnr/4a4/2n1b2c1/p1p3p1p/9/4C4/P1P1r1P1P/1C2B4/9/R3KABNR w - - 0 9",
    "4kab2/4a4/2n1b3n/p5p1p/4c4/2p3P2/2r1C3P/3CB1N2/4A4/1r1RK1B2 w - - 0 21",
    "4kab2/4a4/4b4/p5p2/4C4/6P2/3n5/8B/4A2R1/5K2c w - - 4 38",
    "4k1b2/4a4/3ab4/4P4/7R1/9/3n5/5A3/9/5KB2 w - - 17 58",
    "2bakabn1/8r/9/p1p1p1p1p/4c4/2P6/P3c1P1P/BC2B3R/4A4/1N1AK2N1 b - - 4 9",
    "3akab2/9/1c2b4/p6rp/2p3pn1/4p2R1/P5P1P/2N1B1N2/4A4/2BAK4 b - - 9 21",
    "3akab2/9/4b4/9/1Pp6/5RP2/2r5p/4B4/4A4/3AK4 b - - 0 38",
    "5kb2/4a4/3ab4/4P4/9/6P2/5p3/9/4Ap3/2BAK4 b - - 21 58",
    "r1bakab2/5r3/2n5n/p1p1p1p1p/8c/2P1P4/P5P1P/2N1B3C/9/1RBAKA1NR w - - 5 10",
    "2bakab2/9/n8/2prN1p2/R7C/2P1P1P1P/P5n2/4B1N2/3cA4/2B1K4 w - - 1 22",
    "2Rakab2/9/n5N2/6p2/4C4/4P1P1P/P8/B3BAN2/c5n2/3r1K3 w - - 17 39",
    "1rb1kabnr/4a4/2n4c1/p3p1pCp/2p6/9/P1P1P1P1P/N8/3R5/2BAKABNR b - - 1 7",
    "2b1ka3/4a4/4br3/nnR4Rp/6p2/9/P1P3P1P/N3B4/1r7/2BAKA3 b - - 1 22",
    "2b1ka3/4a4/b8/4P4/6p2/2P6/r5nR1/N2AB4/9/2BAK4 b - - 20 39",
    "2b1k4/4a4/2P6/3Nn4/2b6/6B2/9/3KB4/9/5A3 b - - 0 59",
    "1rbakab2/5r3/n5nc1/p1p3p1p/4C4/9/P1P1c1P1P/N4CN2/9/1RBAKAB1R w - - 6 8",
    "1nbaka1R1/9/4b4/p7p/6p2/2Pr5/P5P1P/B8/4A4/4KAB2 w - - 2 23",
    "2b1ka3/4a4/4b4/5R3/6p2/1nP6/r8/4B4/4A4/2BAK4 w - - 15 40",
    "2b1ka3/4a4/4b4/9/9/2P6/5n1r1/4B4/5R3/2B1KA3 w - - 19 60",
    "1rbakab2/8r/2n3n2/p1p1p1p1p/7c1/P3P4/2P3P1P/4C1N2/9/RNBAKAB1R b - - 6 8",
    "5abR1/4k4/2n6/P1p1n1p1p/9/9/2P3P1P/9/4A4/2rAKCB2 b - - 1 23",
    "3k5/9/2n2r3/4n4/9/3p5/6R2/3C4B/4A4/3AK4 b - - 22 40",
    "3k5/9/2n2r3/9/9/2p2n3/3R5/3C4B/4A4/3AK4 b - - 62 60",
    "2baka2r/3r5/c1n1b1n2/p1p1p1pCp/9/9/P1P1P1c1P/2N1C1N1B/8R/1RBAKA3 w - - 6 9",
    "2bnka3/4a4/cR2b4/p3p3p/2pP1n3/1N4R2/c6r1/B3C1NC1/4A4/1r1AK1B2 w - - 2 24",
    "2P1k4/4a4/4ban2/p3C3p/r1Rn5/4N4/9/7r1/2R1A4/3AKN3 w - - 1 41",
    "3P5/1C4R2/4ka3/3n4p/3N5/7r1/1p2N4/9/9/3AKA3 w - - 11 61",
    "2bakabn1/r7r/1Cn1c4/p1p1p1p1p/4c4/2P6/P3P1P1P/2N1B2CN/8R/1R1AKAB2 b - - 17 9",
    "2bakab2/9/2n1c3n/p1p5p/4p1C2/2P6/P3P1P1P/2N1B3N/9/3AKAB2 b - - 2 19",
];

/// Janggi bench positions (written for Jiang from engine self-play).
pub const JANGGI_POSITIONS: &[&str] = &[
    "r1b1aa1br/4k4/1cn4c1/1pp3p1p/4p1n2/9/P2PP1PP1/1C1N3CR/R3K4/1B2AANB1 b - - 13 7",
    "r3aa1b1/4k2c1/2n1c4/1pp1b3p/5p3/3N5/P2PP2P1/1C2CN3/2R1K4/1B2AA3 b - - 5 19",
    "Nn2aa3/2c1k4/5b3/r4b1R1/B2PC4/5P2p/4N1P2/9/4K4/4AA3 b - - 24 36",
    "R4a3/3ka4/5b3/4P4/9/5PP2/3r5/9/3AK4/4CA3 b - - 6 56",
    "rbna1a2r/3k5/1c4n1c/1pp1bpp1p/9/P1P4R1/4PP1P1/1C5C1/5K3/RBNA1ANB1 w - - 14 8",
    "rb1a1an2/3k5/1c6c/1p3p2p/9/P1N1nN3/R1b4P1/1C2B2C1/5K3/3A1A1B1 w - - 3 20",
    "3k5/9/1c2a3c/9/8R/P7n/7P1/4B1N2/4bK3/3A1A1B1 w - - 1 37",
    "rnba1ab1r/4k4/1cc3C2/1pp5p/3p1p3/9/P2PP1P1P/5N1C1/4KA3/R1BA3BR b - - 1 8",
    "1n1akab2/3r5/1c7/2p1b3p/1pP1pp3/9/P3P1PP1/R4NCC1/4K4/2BA1A1B1 b - - 0 20",
    "3akabC1/4n4/9/2P1bc1p1/1p3p3/1p7/6PP1/4R4/4K1C2/3A1A1B1 b - - 4 37",
    "rbna1a1n1/3r5/1c3k2c/p1p2pppb/9/8C/P1P1PP2P/1C3K3/8R/RBNA1ANB1 w - - 16 9",
    "1b1a1a1n1/1r7/2n2k1c1/p4pp1b/7pc/2p5C/NPP1PP2P/5N1C1/3R1K3/1B1A1A1B1 w - - 6 21",
    "3a1a3/5k3/9/pn1b1pp1b/9/2PNP2p1/5c2P/4BN2c/4K1C2/3C1A3 w - - 2 38",
    "5a3/5k3/9/5p2C/1N2n4/4c4/9/6p2/1C1K5/9 w - - 0 58",
    "2b2abnr/3ak4/2nc3c1/1pp1p1p2/8r/2C3P1p/P1PBP2P1/1C1N2N2/3KA4/R2A2B1R b - - 17 9",
    "2ba1ab2/1C1ck4/2C3n2/1Bp1pp3/6P2/4PN3/P1P1B2p1/3c5/3KA3r/R4A3 b - - 0 21",
    "5ab2/3ck4/3c2n2/9/4pp3/R8/1PPN2rp1/2CAA4/3KC4/9 b - - 7 38",
    "5a3/4kc3/2R1c4/9/6n2/9/CP4bp1/5p3/9/3K5 b - - 13 58",
    "r4a1br/3ak4/1c2cn3/1ppb3pp/4n4/5R3/P1P1B1PP1/3NC1NC1/4K4/RB1A1A3 w - - 8 10",
    "2r2a1b1/3a2b2/1c2k2c1/1p1p3pp/4n4/P8/1P2BP1P1/3N1CN2/R2K5/1B1A1A3 w - - 2 22",
    "R6b1/3ka1b2/2r4c1/1p1p3p1/8p/1P3N1P1/1P1nB4/3N1C3/4AA3/3K2c2 w - - 11 39",
    "rb1a1ab1r/4k4/1c1n2nc1/2p5p/p3pp3/5PP2/P1P1N2P1/1C1N3C1/4K4/RB1A1AB1R b - - 13 7",
    "1b1a1a3/4k1c2/3nc1n1r/r1C5b/1p3p2R/P1PP5/R3B2P1/3NC4/4K4/1B2AA3 b - - 4 22",
    "3aca3/1c2kb3/1r2b4/R8/9/P3NP3/2R4P1/r8/5KB2/4AA3 b - - 9 39",
    "3aka3/5c3/1r7/9/9/1rb1N4/3R3P1/4Kb3/4A4/4A4 b - - 1 59",
    "rb1a1a1n1/5k2r/1c1n3c1/p3bppp1/2p6/3N5/PP1BP2PP/1C3N1C1/4K4/R2A1A1BR w - - 14 8",
    "rb1a1a1n1/5k3/3n1c1c1/p3p1pp1/9/4p4/PP1P1NbNP/4C4/B3KC3/R2A1A1B1 w - - 22 23",
    "1b1a3n1/4ak3/5c3/1p2b1pp1/4n2c1/2B1p4/P4P2P/4N4/4KCN2/C2A1A1B1 w - - 1 40",
    "7n1/3aak3/5c3/6pp1/1pP1P2c1/6b2/9/4BA3/B2K1C3/5AC2 w - - 8 60",
    "r1ba1ab1r/4k4/2n1c2c1/p3n1pp1/2p1p4/5P3/1PP2BP1P/1C1NCN3/R3K4/1B1A1A2R b - - 15 8",
    "2bakab2/9/4c2c1/p3n1pp1/1p1p5/5PPP1/1P1P1N3/R4N2r/4AC3/1B1KCA3 b - - 12 23",
    "3a1kb2/8r/4canc1/7p1/4P4/6RP1/1P1P5/5N3/4A1C2/3KCA3 b - - 0 40",
    "3k2N2/9/1r2a1R2/9/7p1/9/2P2P2n/9/4KC3/5AC2 b - - 2 60",
    "2na1ab2/r7r/3kc1nc1/1ppb1pp1p/9/9/P1PP2PP1/1C1K3C1/R7R/1NB1AABN1 w - - 16 9",
    "2naa1b2/5r3/3kc4/1ppb4p/3c1n3/4R1p2/1PPPB1PP1/3K1B1C1/4A4/CN2A2N1 w - - 3 24",
    "4a4/9/3k5/3bb3p/3B1n3/2p6/2P1P2r1/3K5/4A4/1N1C1A2N w - - 0 41",
    "4a4/4k4/9/8p/9/1b3n3/2r6/1b3B3/4AN3/3C1K3 w - - 8 61",
    "1bna1ab2/8r/1c2k1nc1/1ppp3pp/9/R8/1PPP2P1P/1C2C1N2/4K4/1NBA1AB2 b - - 0 9",
    "1bna1ab2/4k1r2/4c1R2/1p1p3pp/3c1N3/P1p6/2P3P1P/2NCC4/4K4/2BA1AB2 b - - 0 19",
    "1b1C2b2/9/5kn2/6pp1/3N5/9/B4P2P/4C4/4K4/3A1A3 b - - 0 41",
];

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
    bench_with_networks(depth, threads, hash_mb, ByGame::default(), out)
}

/// [`bench`] evaluating each game with its network in `networks` where
/// given (the classical evaluation elsewhere).
pub fn bench_with_networks(
    depth: Option<u32>,
    threads: usize,
    hash_mb: usize,
    networks: ByGame<Option<Arc<Network>>>,
    out: &mut dyn std::io::Write,
) -> BenchResult {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, MAX_DEPTH);
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_hash_mb(hash_mb);
    engine.set_network(Game::Xiangqi, networks.xiangqi);
    engine.set_network(Game::Janggi, networks.janggi);
    let mut nodes = 0;
    // Searching time only: clearing the hash between positions is set-up
    // (Stockfish's bench also restarts its clock after clearing).
    let mut time_us = 0u64;
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
        let elapsed = t0.elapsed();
        time_us += elapsed.as_micros() as u64;
        let n = engine.last_search_nodes();
        nodes += n;
        let _ = writeln!(
            out,
            "Position {:>2} {:<8} nodes {:>10} time {:>6} ms best {}",
            i + 1,
            variant.name(),
            n,
            elapsed.as_millis(),
            best.map_or("(none)".to_string(), |m| m.to_string())
        );
    }
    let time_ms = time_us / 1000;
    let nps = nodes * 1_000_000 / time_us.max(1);
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
