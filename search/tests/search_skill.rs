//! Weakened levels ([`search::Skill`]): legal moves that are not always
//! the best, reproducible draws, the reported line and pondering.

mod search_common;

use movegen::{Position, Variant};
use search::{Engine, Limits, SearchInfo, Skill};
use search_common::{reference_positions, run};
use std::sync::mpsc;
use std::time::Duration;

/// Every `step`-th reference position with a choice of moves.
fn positions(step: usize) -> Vec<Position> {
    reference_positions(step)
        .into_iter()
        .filter(|p| p.legal_moves().len() > 1)
        .collect()
}

fn weak(level: f64, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_skill(Skill::new(level, seed));
    e
}

#[test]
fn level_zero_plays_legal_moves_not_always_the_best() {
    let mut differs = 0;
    let all = positions(60);
    for pos in &all {
        let (full, _) = run(
            &mut Engine::new(),
            pos,
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
        );
        let (b, infos) = run(&mut weak(0.0, 11), pos, Limits::default());
        let m = b.best.expect("a move");
        assert!(pos.is_legal(m), "{}", pos.to_fen());
        if let Some(p) = b.ponder {
            let mut after = pos.clone();
            after.make_move(m);
            assert!(after.is_legal(p), "ponder move legal after the played one");
        }
        // The last line reported starts with the move played and goes on
        // with the ponder move.
        let last = infos.last().expect("info lines");
        assert_eq!(last.pv.first().copied(), Some(m), "{}", pos.to_fen());
        assert_eq!(last.pv.get(1).copied(), b.ponder);
        // The user asked for one line: no others are shown.
        assert!(infos.iter().all(|i| i.multipv == 1));
        if full.best != b.best {
            differs += 1;
        }
    }
    assert!(
        differs * 5 >= all.len(),
        "level 0 differed from full strength in {differs} of {} positions",
        all.len()
    );
    assert!(
        differs < all.len(),
        "level 0 never agreed with full strength"
    );
}

#[test]
fn same_seed_same_move_and_seeds_differ() {
    let all = positions(150);
    let mut seed_matters = false;
    for pos in &all {
        let (a, _) = run(&mut weak(3.5, 42), pos, Limits::default());
        let (b, _) = run(&mut weak(3.5, 42), pos, Limits::default());
        assert_eq!(a, b, "{}", pos.to_fen());
        for seed in 1..6 {
            let (c, _) = run(&mut weak(3.5, seed), pos, Limits::default());
            seed_matters |= c.best != a.best;
        }
    }
    assert!(seed_matters, "no seed changed any move");
}

#[test]
fn the_node_budget_binds() {
    let pos = Position::startpos(Variant::Xiangqi);
    let mut e = weak(0.0, 1);
    let _ = run(&mut e, &pos, Limits::default());
    // Nodes are checked every 1024 per thread, and root moves count
    // without a check, so a check can be skipped once.
    let slack = 2048;
    let n = e.last_search_nodes();
    assert!(n <= Skill::new(0.0, 1).node_budget() + slack, "{n}");
    let mut e = weak(0.0, 1);
    let _ = run(
        &mut e,
        &pos,
        Limits {
            nodes: Some(600),
            ..Limits::default()
        },
    );
    let n = e.last_search_nodes();
    assert!(n <= 600 + slack, "a tighter GUI limit wins: {n}");
}

#[test]
fn weakened_pondering_waits_and_answers_from_the_line() {
    let pos = Position::startpos(Variant::Xiangqi);
    let mut e = weak(2.0, 5);
    let (tx, rx) = mpsc::channel();
    e.go(
        &pos,
        Limits {
            ponder: true,
            time_ms: [Some(5_000), Some(5_000)],
            ..Limits::default()
        },
        Box::new(|_| {}),
        Box::new(move |b| drop(tx.send(b))),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(rx.try_recv().is_err(), "no answer before ponderhit");
    e.ponderhit();
    let b = rx
        .recv_timeout(Duration::from_secs(2))
        .expect("answer after ponderhit");
    let m = b.best.expect("a move");
    assert!(pos.is_legal(m));
    let mut after = pos.clone();
    after.make_move(m);
    assert!(after.is_legal(b.ponder.expect("a ponder move")));
    e.wait();
}

#[test]
fn full_strength_skill_changes_nothing() {
    for pos in positions(400) {
        let limits = || Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let (a, ia) = run(&mut Engine::new(), &pos, limits());
        let mut e = Engine::new();
        e.set_skill(Skill::new(20.0, 99));
        let (b, ib) = run(&mut e, &pos, limits());
        assert_eq!(a, b);
        let pvs = |v: &[SearchInfo]| v.iter().map(|i| i.pv.clone()).collect::<Vec<_>>();
        assert_eq!(pvs(&ia), pvs(&ib));
    }
}
