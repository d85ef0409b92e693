//! Cost of the repetition rules in search (docs/RULES.md §1.3).
//!
//! Run with `cargo bench -p jiang-bench --bench repetition` (add
//! `-- --quick` for shorter runs). The search code cannot be switched off
//! from outside, so the cost is measured three ways:
//!
//! 1. **Search speed** (nodes/s) at a fixed depth on the ordinary bench
//!    positions and on repetition-rich ones (the reference repetition cases
//!    after their first cycle, with that history), and on the same
//!    repetition-rich positions with the history cleared (the search then
//!    scans a shorter window and meets fewer game-history repetitions).
//! 2. **Direct costs**: the search's per-node repetition scan (the same
//!    loop as `search::search::repetition_score`, rebuilt here from the
//!    public state stack), `cycle_verdict`, `judge()` and
//!    `move_limit_count`, in calls per second.
//! 3. **Frequency**: a full-width walk from the repetition-rich positions
//!    counts how many nodes find a repetition (and so call
//!    `cycle_verdict`). Per-node overhead = scan + hit rate × verdict; its
//!    share of a search node is overhead × search nodes/s. The search scans
//!    only at full-width nodes, not in quiescence, so this share is an upper
//!    bound.
//!
//! Times on shared machines are noisy: each figure is the best of a few
//! repeats.

use std::hint::black_box;
use std::time::Instant;

use jiang_bench::search_blocking;
use movegen::{cycle_verdict, move_limit_count, CycleVerdict, Position, Ranks, Variant};
use search::{Engine, Limits};

const CHASE: &str = include_str!("../tests/data/xiangqi_chase_cases.tsv");
const ENDS: &str = include_str!("../tests/data/ends.txt");

/// A repetition case: the position after all its moves with the length of
/// its last cycle in plies, and the position after its first cycle only.
struct Case {
    full: Position,
    first_cycle: Position,
    cycle: usize,
}

/// Set up `fen` and play `moves` (ranks 1–10); `None` if anything fails.
fn play(variant: Variant, fen: &str, moves: &[&str]) -> Option<Position> {
    let mut p = Position::from_fen(fen, variant).ok()?;
    p.play_text_moves(moves.iter().copied(), Ranks::OneBased)
        .ok()?;
    Some(p)
}

/// The reference repetition cases (chase cases and `ends.txt` repetition
/// lines), each with the position after its first cycle.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut add = |variant: Variant, fen: &str, moves: &str| {
        let mv: Vec<&str> = moves.split_whitespace().collect();
        let Some(full) = play(variant, fen, &mv) else {
            return;
        };
        let Some(cycle) = full.repetitions().next() else {
            return;
        };
        // The first cycle ends at the first ply whose position repeats.
        let Some(mut p) = Position::from_fen(fen, variant).ok() else {
            return;
        };
        for m in &mv {
            let Ok(m) = p.parse_move(m, Ranks::OneBased) else {
                return;
            };
            p.make_move(m);
            if p.repetitions().next().is_some() {
                out.push(Case {
                    full,
                    first_cycle: p,
                    cycle,
                });
                return;
            }
        }
    };
    for line in CHASE.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if let [idx, _, fen, moves, _, _, _] = f[..] {
            if idx.parse::<u32>().is_ok() {
                add(Variant::Xiangqi, fen, moves);
            }
        }
    }
    for line in ENDS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if let [variant, fen, moves, outcome] = f[..] {
            let repetition = outcome.starts_with("perpetual") || outcome.starts_with("repetition");
            if let (true, Ok(v)) = (repetition, variant.parse::<Variant>()) {
                add(v, fen, moves);
            }
        }
    }
    out
}

/// Search every position to `depth` on one thread; (nodes, seconds).
fn search_all(positions: &[Position], depth: u32) -> (u64, f64) {
    // The engine's default hash size, as `jiang bench` uses.
    let mut engine = Engine::new();
    let mut nodes = 0;
    let start = Instant::now();
    for p in positions {
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        nodes += search_blocking(&mut engine, p, limits);
    }
    (nodes, start.elapsed().as_secs_f64())
}

/// Best nodes/s of `repeats` runs of [`search_all`], with the node count.
fn best_nps(positions: &[Position], depth: u32, repeats: usize) -> (u64, f64) {
    let mut best = (0, 0.0f64);
    for _ in 0..repeats {
        let (n, s) = search_all(positions, depth);
        let nps = n as f64 / s.max(1e-9);
        if nps > best.1 {
            best = (n, nps);
        }
    }
    best
}

/// Best time per call, in nanoseconds, of `f` over `calls` calls.
fn per_call_ns(calls: usize, repeats: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..repeats {
        let t = Instant::now();
        for i in 0..calls {
            f(i);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    best
}

/// Full-width walk to `depth`: (nodes, nodes that found a repetition,
/// seconds spent in the scan, seconds spent in `cycle_verdict`).
fn walk(pos: &mut Position, depth: u32, acc: &mut (u64, u64, f64, f64)) {
    acc.0 += 1;
    let t = Instant::now();
    let back = black_box(pos.repetitions().next());
    acc.2 += t.elapsed().as_secs_f64();
    if let Some(back) = back {
        acc.1 += 1;
        let t = Instant::now();
        black_box(cycle_verdict(pos, back));
        acc.3 += t.elapsed().as_secs_f64();
        // A repetition ends the line in search.
        return;
    }
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        pos.make_move(m);
        walk(pos, depth - 1, acc);
        pos.unmake_move();
    }
}

/// How the mini search treats a repetition below the root.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No repetition detection at all.
    Off,
    /// Run the scan but ignore what it finds (same tree as `Off`).
    ScanOnly,
    /// Detect repetitions and score them as draws (no verdict).
    Draw,
    /// Detect repetitions and score them by `cycle_verdict`, as Jiang does.
    Verdict,
}

/// Counters of one mini-search run.
#[derive(Default)]
struct Stats {
    /// Full-width nodes (where the scan runs).
    nodes: u64,
    /// Quiescence nodes.
    qnodes: u64,
    /// Full-width nodes that found a repetition.
    hits: u64,
    /// Seconds spent inside `cycle_verdict`.
    verdict_s: f64,
}

const MATE: i32 = 30_000;

/// Material only, from the side to move's view.
fn material(pos: &Position) -> i32 {
    use movegen::PieceKind::*;
    let value = |k| match k {
        Chariot => 900,
        Cannon => 450,
        Horse => 400,
        Advisor | Elephant => 200,
        Soldier => 100,
        General => 0,
    };
    let us = pos.side_to_move();
    movegen::PieceKind::ALL
        .iter()
        .map(|&k| value(k) * (pos.count(us, k) as i32 - pos.count(!us, k) as i32))
        .sum()
}

/// Moves with captures first, most valuable victim first.
fn ordered(pos: &Position) -> Vec<movegen::Move> {
    let mut v: Vec<(i32, movegen::Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let victim = pos.piece_at(m.to()).map_or(0, |p| 1 + p.kind() as i32);
            (-victim, m)
        })
        .collect();
    v.sort_by_key(|e| e.0);
    v.into_iter().map(|e| e.1).collect()
}

fn qsearch(pos: &mut Position, mut alpha: i32, beta: i32, st: &mut Stats) -> i32 {
    st.qnodes += 1;
    let stand = material(pos);
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    for m in pos.legal_captures() {
        pos.make_move(m);
        let s = -qsearch(pos, -beta, -alpha, st);
        pos.unmake_move();
        if s >= beta {
            return s;
        }
        alpha = alpha.max(s);
    }
    alpha
}

/// A plain alpha-beta with quiescence: a stand-in with the shape of a
/// real search tree, in which the repetition handling can be switched.
fn alphabeta(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    mode: Mode,
    st: &mut Stats,
) -> i32 {
    if depth == 0 {
        return qsearch(pos, alpha, beta, st);
    }
    st.nodes += 1;
    if ply > 0 && mode == Mode::ScanOnly {
        black_box(pos.repetitions().next());
    } else if ply > 0 && mode != Mode::Off {
        if let Some(back) = pos.repetitions().next() {
            st.hits += 1;
            return match mode {
                Mode::Verdict => {
                    let t = Instant::now();
                    let v = cycle_verdict(pos, back);
                    st.verdict_s += t.elapsed().as_secs_f64();
                    match v {
                        CycleVerdict::Draw => 0,
                        CycleVerdict::SideToMoveWins => MATE / 2,
                        CycleVerdict::SideToMoveLoses => -MATE / 2,
                    }
                }
                _ => 0,
            };
        }
    }
    let moves = ordered(pos);
    if moves.is_empty() {
        return -MATE + ply as i32;
    }
    let mut best = -MATE;
    for m in moves {
        pos.make_move(m);
        let s = -alphabeta(pos, depth - 1, -beta, -alpha, ply + 1, mode, st);
        pos.unmake_move();
        if s > best {
            best = s;
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Mini search of every root to `depth` in `mode`: (stats, seconds).
fn mini_all(roots: &[Position], depth: u32, mode: Mode) -> (Stats, f64) {
    let mut st = Stats::default();
    let t = Instant::now();
    for r in roots {
        let mut p = r.clone();
        black_box(alphabeta(&mut p, depth, -MATE, MATE, 0, mode, &mut st));
    }
    (st, t.elapsed().as_secs_f64())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (depth, repeats, walk_depth) = if quick { (7, 1, 2) } else { (9, 3, 3) };
    let cases = cases();
    println!("{} repetition cases", cases.len());

    // 1. Search speed.
    let normal: Vec<Position> = search::bench::XIANGQI_POSITIONS
        .iter()
        .filter_map(|f| Position::from_fen(f, Variant::Xiangqi).ok())
        .collect();
    let rich: Vec<Position> = cases.iter().map(|c| c.first_cycle.clone()).collect();
    let cleared: Vec<Position> = rich
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.clear_history();
            p
        })
        .collect();
    println!("\n1. Search, depth {depth}, 1 thread (best of {repeats}):");
    let mut search_nps = Vec::new();
    for (name, set) in [
        ("bench positions (xiangqi)", &normal),
        ("repetition cases, with history", &rich),
        ("repetition cases, history cleared", &cleared),
    ] {
        let (n, nps) = best_nps(set, depth, repeats);
        println!("   {name:<36} nodes {n:>10}  nps {nps:>10.0}");
        search_nps.push(nps);
    }

    // 2. Direct costs.
    println!("\n2. Direct costs (best of 5):");
    let fulls: Vec<&Case> = cases.iter().collect();
    let verdict_ns = per_call_ns(20_000, 5, |i| {
        let c = fulls[i % fulls.len()];
        black_box(cycle_verdict(&c.full, c.cycle));
    });
    let chase_only: Vec<&Case> = cases
        .iter()
        .filter(|c| c.full.variant() == Variant::Xiangqi)
        .collect();
    let verdict_x_ns = per_call_ns(20_000, 5, |i| {
        let c = chase_only[i % chase_only.len()];
        black_box(cycle_verdict(&c.full, c.cycle));
    });
    let judge_ns = per_call_ns(20_000, 5, |i| {
        black_box(fulls[i % fulls.len()].full.judge());
    });
    let scan_ns = per_call_ns(200_000, 5, |i| {
        black_box(fulls[i % fulls.len()].full.repetitions().next());
    });
    let limit_ns = per_call_ns(200_000, 5, |i| {
        black_box(move_limit_count(&fulls[i % fulls.len()].full));
    });
    for (name, ns) in [
        ("cycle_verdict (all cases)", verdict_ns),
        ("cycle_verdict (xiangqi, chase)", verdict_x_ns),
        ("judge()", judge_ns),
        ("repetition scan (search's loop)", scan_ns),
        ("move_limit_count", limit_ns),
    ] {
        println!(
            "   {name:<34} {ns:>9.1} ns/call  {:>12.0} calls/s",
            1e9 / ns
        );
    }

    // 3. Frequency in a full-width walk, and the estimated share.
    let mut acc = (0u64, 0u64, 0.0f64, 0.0f64);
    for c in &cases {
        // The root is not judged (the search scores only repetitions
        // below it): walk from each root move.
        let mut p = c.first_cycle.clone();
        for m in p.legal_moves() {
            p.make_move(m);
            walk(&mut p, walk_depth - 1, &mut acc);
            p.unmake_move();
        }
    }
    let (nodes, hits, scan_s, verdict_s) = acc;
    let hit_rate = hits as f64 / nodes.max(1) as f64;
    println!("\n3. Full-width walk, depth {walk_depth}, from the repetition cases:");
    println!(
        "   nodes {nodes}, repetitions found {hits} ({:.2}% of nodes)",
        100.0 * hit_rate
    );
    println!(
        "   measured in the walk: scan {:.1} ns/node, verdict {:.0} ns/hit",
        scan_s * 1e9 / nodes.max(1) as f64,
        verdict_s * 1e9 / hits.max(1) as f64
    );
    let overhead_ns = scan_ns + hit_rate * verdict_ns;
    let (direct_scan_ns, direct_verdict_ns) = (scan_ns, verdict_ns);
    println!("   estimated overhead per node: {overhead_ns:.1} ns");
    for (name, nps) in [
        ("bench positions", search_nps[0]),
        ("repetition cases", search_nps[1]),
    ] {
        println!(
            "   share of a search node at {nps:.0} nps ({name}): {:.2}% (upper bound)",
            100.0 * overhead_ns * nps / 1e9
        );
    }

    // 4. The mini search with the repetition handling switched.
    let mini_depth = if quick { 4 } else { 5 };
    println!("\n4. Mini alpha-beta, depth {mini_depth} + captures, repetition cases (best of {repeats}):");
    let mut secs_of = Vec::new();
    for (name, mode) in [
        ("no repetition detection", Mode::Off),
        ("scan only (same tree)", Mode::ScanOnly),
        ("repetition = draw", Mode::Draw),
        ("repetition = cycle_verdict", Mode::Verdict),
    ] {
        let mut best: Option<(Stats, f64)> = None;
        for _ in 0..repeats.max(2) {
            let r = mini_all(&rich, mini_depth, mode);
            if best.as_ref().map_or(true, |b| r.1 < b.1) {
                best = Some(r);
            }
        }
        let Some((st, secs)) = best else { continue };
        let total = st.nodes + st.qnodes;
        println!(
            "   {name:<28} {:>7.1} ms  nodes {total:>9} (full-width {:>8}; repetitions {:>6} = {:.2}% of full-width)",
            secs * 1e3,
            st.nodes,
            st.hits,
            100.0 * st.hits as f64 / st.nodes.max(1) as f64,
        );
        secs_of.push((secs, st));
    }
    if let [(off, off_st), (scan, _), _, (verdict, v_st)] = &secs_of[..] {
        // Only "off" and "scan only" search the same tree; the runs that
        // act on repetitions search different trees, so their times are not
        // compared — the time inside `cycle_verdict` is measured instead.
        let scan_ns = (scan - off) * 1e9 / off_st.nodes.max(1) as f64;
        println!("   scan, timed on the same tree: {scan_ns:.1} ns per full-width node (noisy)");
        println!(
            "   time inside cycle_verdict: {:.2} ms = {:.0} ns per call, {:.2}% of that run",
            v_st.verdict_s * 1e3,
            v_st.verdict_s * 1e9 / v_st.hits.max(1) as f64,
            100.0 * v_st.verdict_s / verdict.max(1e-9)
        );
        let rate = v_st.hits as f64 / v_st.nodes.max(1) as f64;
        let direct_ns = direct_scan_ns + rate * direct_verdict_ns;
        println!(
            "   estimate: scan {direct_scan_ns:.1} ns + {:.2}% x verdict {direct_verdict_ns:.0} ns = {direct_ns:.1} ns per full-width node",
            100.0 * rate
        );
        for (name, nps) in [
            ("bench positions", search_nps[0]),
            ("repetition cases", search_nps[1]),
        ] {
            println!(
                "   share of Jiang's search at {nps:.0} nps ({name}), every node counted as full-width (upper bound): {:.2}%",
                100.0 * direct_ns * nps / 1e9
            );
        }
    }
}
