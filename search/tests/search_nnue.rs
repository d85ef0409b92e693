//! The search with a network: a random small network (it plays nothing
//! well, but it exercises every path). In the test profile debug
//! assertions are on, so every make and unmake inside these searches
//! checks the incremental accumulator against a full refresh.

use movegen::{ByGame, Game, Position, Variant};
use search::{Engine, Limits, Network};
use std::sync::Arc;

fn net(game: Game, hidden: usize, buckets: usize, seed: u64) -> Arc<Network> {
    Arc::new(Network::random(game, hidden, buckets, seed).expect("valid sizes"))
}

/// Search to the end. The engine catches a panic in its search (a failed
/// debug assertion included) and answers with depth 0, so a search that
/// does not reach its depth is a failure here.
fn search(engine: &mut Engine, pos: &Position, limits: Limits) -> (search::BestMove, u64) {
    let want = limits.depth;
    let best = engine.search_to_end(pos, limits).expect("on_done ran");
    if let Some(d) = want {
        assert_eq!(best.depth, d, "the search failed at {}", pos.to_fen());
    }
    (best, engine.last_search_nodes())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn searches_with_a_network_in_both_games() {
    let mut engine = Engine::new();
    engine.set_network(Game::Xiangqi, Some(net(Game::Xiangqi, 16, 2, 1)));
    engine.set_network(Game::Janggi, Some(net(Game::Janggi, 16, 2, 2)));
    let fens = search::bench::XIANGQI_POSITIONS
        .iter()
        .step_by(5)
        .map(|f| (Variant::Xiangqi, *f))
        .chain(
            search::bench::JANGGI_POSITIONS
                .iter()
                .step_by(5)
                .map(|f| (Variant::Janggi, *f)),
        );
    for (variant, fen) in fens {
        let pos = Position::from_fen(fen, variant).expect("bench FEN");
        engine.new_game();
        let (best, nodes) = search(&mut engine, &pos, depth(6));
        assert!(best.best.is_some_and(|m| pos.is_legal(m)), "{fen}");
        assert!(nodes > 0);
    }
}

#[test]
fn threads_with_a_network() {
    let mut engine = Engine::new();
    engine.set_threads(3);
    engine.set_network(Game::Xiangqi, Some(net(Game::Xiangqi, 32, 8, 3)));
    let pos = Position::startpos(Variant::Xiangqi);
    let (best, _) = search(&mut engine, &pos, depth(7));
    assert!(best.best.is_some_and(|m| pos.is_legal(m)));
}

#[test]
fn a_network_changes_only_its_own_game() {
    let pos = Position::startpos(Variant::Janggi);
    let mut classical = Engine::new();
    let (_, base) = search(&mut classical, &pos, depth(5));
    let mut engine = Engine::new();
    engine.set_network(Game::Xiangqi, Some(net(Game::Xiangqi, 16, 2, 4)));
    assert_eq!(search(&mut engine, &pos, depth(5)).1, base);
    engine.set_network(Game::Janggi, Some(net(Game::Janggi, 16, 2, 5)));
    engine.new_game();
    assert_ne!(search(&mut engine, &pos, depth(5)).1, base);
    // Taking the network away restores the classical search exactly.
    engine.set_network(Game::Janggi, None);
    engine.new_game();
    assert_eq!(search(&mut engine, &pos, depth(5)).1, base);
}

#[test]
fn bench_with_a_network_is_deterministic() {
    let nets = || {
        ByGame::new(
            Some(net(Game::Xiangqi, 16, 2, 6)),
            Some(net(Game::Janggi, 16, 2, 7)),
        )
    };
    let mut out = Vec::new();
    let a = search::bench_with_networks(Some(3), 1, 4, nets(), &mut out);
    let b = search::bench_with_networks(Some(3), 1, 4, nets(), &mut Vec::new());
    assert_eq!(a.nodes, b.nodes);
    let classical = search::bench(Some(3), 1, 4, &mut Vec::new());
    assert_ne!(a.nodes, classical.nodes);
    let text = String::from_utf8(out).expect("text");
    assert!(text.contains(&format!("Nodes searched  : {}", a.nodes)));
}
