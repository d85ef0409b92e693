//! The Engine API: legal best moves, reproducibility, stop, infinite,
//! MultiPV, searchmoves, no-move positions and multi-threaded stress.

mod search_common;

use movegen::{Position, Ranks, Variant};
use search::{BestMove, Engine, Limits, SearchInfo};
use search_common::{reference_positions, run};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Start a search and return at once; the receiver gets the result and the
/// moment it was reported.
fn start(
    engine: &mut Engine,
    pos: &Position,
    limits: Limits,
) -> mpsc::Receiver<(BestMove, Instant)> {
    let (tx, rx) = mpsc::channel();
    engine.go(
        pos,
        limits,
        Box::new(|_| {}),
        Box::new(move |b| drop(tx.send((b, Instant::now())))),
    );
    rx
}

fn infinite() -> Limits {
    Limits {
        infinite: true,
        ..Limits::default()
    }
}

#[test]
fn best_move_is_legal_in_reference_positions() {
    let mut engine = Engine::new();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/moves.txt"
    ))
    .expect("moves.txt");
    for l in text.lines().step_by(10) {
        let f: Vec<&str> = l.split('\t').collect();
        let pos = Position::from_fen(f[1], f[0].parse::<Variant>().unwrap()).unwrap();
        let (b, _) = run(
            &mut engine,
            &pos,
            Limits {
                nodes: Some(2_000),
                ..Limits::default()
            },
        );
        let legal: Vec<String> = f
            .get(2)
            .map_or(vec![], |s| s.split_whitespace().map(String::from).collect());
        match b.best {
            Some(m) => {
                let text = movegen::move_text(m, Ranks::OneBased);
                assert!(pos.is_legal(m), "{}: {text}", f[1]);
                assert!(
                    legal.contains(&text)
                        || (m.is_pass()
                            && legal
                                .iter()
                                .any(|t| t.ends_with("@@@@") || t.len() == 4 && t[..2] == t[2..])),
                    "{}: {text} not in reference list",
                    f[1]
                );
                if let Some(p) = b.ponder {
                    let mut after = pos.clone();
                    after.make_move(m);
                    assert!(after.is_legal(p));
                }
            }
            None => assert!(
                legal.is_empty(),
                "{}: no move but the reference has {legal:?}",
                f[1]
            ),
        }
    }
}

#[test]
fn go_nodes_is_reproducible() {
    for pos in reference_positions(300) {
        let mut a = Engine::new();
        let (b1, i1) = run(
            &mut a,
            &pos,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        let mut b = Engine::new();
        let (b2, i2) = run(
            &mut b,
            &pos,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        assert_eq!(b1, b2, "{}", pos.to_fen());
        let nodes = |v: &Vec<SearchInfo>| v.iter().map(|i| i.nodes).collect::<Vec<_>>();
        assert_eq!(nodes(&i1), nodes(&i2));
        // Same engine again after new_game: same answer.
        a.new_game();
        let (b3, _) = run(
            &mut a,
            &pos,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        assert_eq!(b1.best, b3.best);
    }
}

#[test]
fn stop_during_infinite_returns_promptly() {
    for variant in [Variant::Xiangqi, Variant::Janggi] {
        let mut engine = Engine::new();
        let pos = Position::startpos(variant);
        let rx = start(&mut engine, &pos, infinite());
        std::thread::sleep(Duration::from_millis(300));
        assert!(engine.is_searching());
        assert!(
            rx.try_recv().is_err(),
            "infinite search must not end on its own"
        );
        let t = Instant::now();
        engine.stop();
        let (b, at) = rx
            .recv_timeout(Duration::from_secs(2))
            .expect("bestmove after stop");
        // The bound leaves room for a loaded test machine (other tests'
        // searches share the cores); a search that ignored `stop` would
        // run on to the 2 s deadline.
        assert!(
            at.duration_since(t) < Duration::from_millis(500),
            "took {:?}",
            at.duration_since(t)
        );
        assert!(pos.is_legal(b.best.unwrap()));
        engine.wait();
        assert!(!engine.is_searching());
    }
}

#[test]
fn infinite_waits_for_stop_even_at_max_depth() {
    let mut engine = Engine::new();
    // A mate in one: the search reaches its depth cap quickly.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", Variant::Xiangqi).unwrap();
    let rx = start(
        &mut engine,
        &pos,
        Limits {
            depth: Some(3),
            ..infinite()
        },
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(rx.try_recv().is_err());
    engine.ponderhit();
    // ponderhit does not end an infinite search... but it is no longer
    // waiting; infinite keeps waiting only for stop. (A ponder search
    // ends on ponderhit when done.)
    engine.stop();
    let (b, _) = rx.recv_timeout(Duration::from_secs(2)).expect("bestmove");
    assert_eq!(
        b.best
            .map(|m| movegen::move_text(m, Ranks::OneBased))
            .as_deref(),
        Some("a1d1")
    );
    engine.wait();
}

#[test]
fn ponder_finishes_after_ponderhit() {
    let mut engine = Engine::new();
    let pos = Position::startpos(Variant::Xiangqi);
    let limits = Limits {
        ponder: true,
        time_ms: [Some(1_000), Some(1_000)],
        ..Limits::default()
    };
    let rx = start(&mut engine, &pos, limits);
    std::thread::sleep(Duration::from_millis(400));
    assert!(rx.try_recv().is_err(), "pondering must not end on its own");
    engine.ponderhit();
    let (b, _) = rx
        .recv_timeout(Duration::from_millis(1_000))
        .expect("bestmove within the clock after ponderhit");
    assert!(pos.is_legal(b.best.unwrap()));
    engine.wait();
}

#[test]
fn ponder_and_infinite_wait_after_a_node_limit() {
    // A node limit ends the searching, not the wait: UCI allows no
    // `bestmove` before `ponderhit` (ponder) or `stop` (infinite).
    let pos = Position::startpos(Variant::Xiangqi);
    for ponder in [true, false] {
        let mut engine = Engine::new();
        let limits = Limits {
            ponder,
            infinite: !ponder,
            nodes: Some(3_000),
            ..Limits::default()
        };
        let rx = start(&mut engine, &pos, limits);
        std::thread::sleep(Duration::from_millis(300));
        assert!(rx.try_recv().is_err(), "no answer before the GUI's word");
        if ponder {
            engine.ponderhit();
        } else {
            engine.stop();
        }
        let (b, _) = rx
            .recv_timeout(Duration::from_secs(2))
            .expect("an answer once released");
        assert!(pos.is_legal(b.best.expect("a move")));
        engine.wait();
    }
}

#[test]
fn immediate_stop_and_no_moves() {
    let mut engine = Engine::new();
    let pos = Position::startpos(Variant::Janggi);
    let rx = start(&mut engine, &pos, infinite());
    engine.stop();
    engine.wait();
    let (b, _) = rx.recv().unwrap();
    assert!(pos.is_legal(b.best.unwrap()));

    // Stalemated Black (a loss in Xiangqi): no move.
    let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Variant::Xiangqi).unwrap();
    let (b, _) = run(
        &mut engine,
        &pos,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert_eq!(b.best, None);
    assert_eq!(b.score, search::Score::Mate(0));
}

#[test]
fn multipv_and_searchmoves() {
    let mut engine = Engine::new();
    engine.set_multipv(3);
    let pos = Position::startpos(Variant::Xiangqi);
    let (_, infos) = run(
        &mut engine,
        &pos,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    engine.set_multipv(1);
    let only = pos.parse_move("a1a2", Ranks::OneBased).unwrap();
    let (b, _) = run(
        &mut engine,
        &pos,
        Limits {
            depth: Some(4),
            searchmoves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(b.best, Some(only));
}

#[test]
fn go_mate_finds_the_mate() {
    let mut engine = Engine::new();
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", Variant::Xiangqi).unwrap();
    let (b, _) = run(
        &mut engine,
        &pos,
        Limits {
            mate: Some(1),
            ..Limits::default()
        },
    );
    assert_eq!(b.score, search::Score::Mate(1));
}

#[test]
fn clock_is_respected() {
    let mut engine = Engine::new();
    let pos = Position::startpos(Variant::Xiangqi);
    // Generous clocks: the test machine may be heavily loaded; the bounds
    // arithmetic itself is unit-tested in timeman.
    for (t, inc) in [(300u64, 0u64), (1_000, 0), (2_000, 100)] {
        let t0 = Instant::now();
        let (b, _) = run(
            &mut engine,
            &pos,
            Limits {
                time_ms: [Some(t), Some(t)],
                inc_ms: [Some(inc), Some(inc)],
                ..Limits::default()
            },
        );
        assert!(b.best.is_some());
        assert!(
            t0.elapsed() < Duration::from_millis(t),
            "{t} ms clock: took {:?}",
            t0.elapsed()
        );
    }
    let t0 = Instant::now();
    run(
        &mut engine,
        &pos,
        Limits {
            movetime_ms: Some(300),
            ..Limits::default()
        },
    );
    let took = t0.elapsed();
    // Twice the movetime: room for a loaded machine, while a search that
    // ignored movetime would run on to the depth cap.
    assert!(
        took < Duration::from_millis(600),
        "movetime 300: took {took:?}"
    );
    assert!(
        took >= Duration::from_millis(200),
        "movetime 300 should be used: {took:?}"
    );
}

#[test]
fn threads_stress() {
    let mut engine = Engine::new();
    engine.set_threads(4);
    engine.set_hash_mb(4);
    for (i, pos) in reference_positions(40).into_iter().enumerate() {
        let limits = if i % 2 == 0 {
            Limits {
                nodes: Some(3_000),
                ..Limits::default()
            }
        } else {
            Limits {
                depth: Some(4),
                ..Limits::default()
            }
        };
        let (b, _) = run(&mut engine, &pos, limits);
        if let Some(m) = b.best {
            assert!(pos.is_legal(m), "{}", pos.to_fen());
        } else {
            assert!(pos.legal_moves().is_empty());
        }
        if i % 10 == 0 {
            engine.set_threads(1 + i % 5);
        }
    }
}

/// With several threads a depth limit is a promise: whichever thread
/// completes it first ends the search, and the result comes from a search
/// of exactly that depth.
#[test]
fn threads_honour_the_depth_limit() {
    let mut engine = Engine::new();
    engine.set_threads(3);
    engine.set_hash_mb(4);
    for pos in reference_positions(250) {
        if pos.legal_moves().is_empty() {
            continue;
        }
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let (b, _) = run(&mut engine, &pos, limits);
        assert_eq!(b.depth, 6, "{}", pos.to_fen());
        assert!(b.best.is_some_and(|m| pos.is_legal(m)), "{}", pos.to_fen());
    }
}

#[test]
fn bench_is_deterministic() {
    let mut out = Vec::new();
    let a = search::bench(Some(3), 1, 4, &mut out);
    let b = search::bench(Some(3), 1, 4, &mut Vec::new());
    assert_eq!(a.nodes, b.nodes);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&format!("Nodes searched  : {}", a.nodes)));
    assert!(text.contains("Total time (ms) : ") && text.contains("Nodes/second    : "));
}

#[test]
fn go_or_setters_during_a_search_end_it() {
    let mut engine = Engine::new();
    let pos = Position::startpos(Variant::Xiangqi);
    let first = start(&mut engine, &pos, infinite());
    std::thread::sleep(Duration::from_millis(50));
    // A second go stops the first (which still reports its move).
    let second = start(
        &mut engine,
        &pos,
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    engine.set_hash_mb(2);
    assert_eq!(engine.hash_mb(), 2);
    for rx in [first, second] {
        let (b, _) = rx.recv_timeout(Duration::from_secs(5)).expect("bestmove");
        assert!(b.best.is_some_and(|m| pos.is_legal(m)));
    }
}
