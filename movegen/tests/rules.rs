//! Published perft counts, the test positions of docs/RULES.md §4, FEN
//! round trips and errors, and the 16-bit move-code legality check.

use movegen::{move_text, perft, setups, Move, Position, Ranks, Square, Variant};
#[cfg(feature = "parallel")]
use movegen::{perft_parallel, PerftOptions};

const XQ_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn data(name: &str) -> String {
    let path = format!("{}/../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pos(fen: &str, v: Variant) -> Position {
    Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| move_text(m, Ranks::OneBased))
        .collect();
    v.sort();
    v
}

#[test]
fn xiangqi_start_perft_to_depth_5() {
    let mut p = Position::startpos(Variant::Xiangqi);
    let expected = [44, 1_920, 79_666, 3_290_240, 133_312_995];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "5.4 billion nodes: run with --ignored in release"]
fn xiangqi_start_perft_depth_6() {
    let p = Position::startpos(Variant::Xiangqi);
    // All cores with the `parallel` feature (as `cargo test --workspace`
    // builds the crate), one without it.
    #[cfg(feature = "parallel")]
    let n = {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        perft_parallel(&p, 6, threads, PerftOptions::default())
    };
    #[cfg(not(feature = "parallel"))]
    let n = perft(&mut p.clone(), 6);
    assert_eq!(n, 5_392_831_844);
}

#[test]
fn published_positions() {
    let cases = [
        (
            Variant::Xiangqi,
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4,
            4_485_547,
        ),
        (
            Variant::Xiangqi,
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
            4,
            92_741,
        ),
        (
            Variant::Janggi,
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            4,
            1_065_277,
        ),
        (
            Variant::Janggi,
            "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
            4,
            76_763,
        ),
        (
            Variant::Janggi,
            "1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23",
            4,
            151_202,
        ),
    ];
    for (v, fen, d, n) in cases {
        assert_eq!(perft(&mut pos(fen, v), d), n, "{v} {fen}");
    }
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_perft_agrees() {
    for v in [Variant::Xiangqi, Variant::Janggi] {
        let mut p = Position::startpos(v);
        let single = perft(&mut p, 4);
        for threads in [1, 2, 3] {
            assert_eq!(
                perft_parallel(&p, 4, threads, PerftOptions::default()),
                single
            );
        }
    }
}

#[test]
fn janggi_setups_all_have_32_moves() {
    for name in setups::janggi_setup_names() {
        let mut p = setups::janggi_setup(&name, Variant::Janggi).unwrap();
        assert_eq!(perft(&mut p, 1), 32, "{name}");
        assert_eq!(perft(&mut p, 2), 1024, "{name}");
    }
}

/// docs/RULES.md §4 (ranks 1–10).
#[test]
fn rules_section_4_positions() {
    // Flying-general mate.
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", Variant::Xiangqi);
    let m = p.parse_move("a1d1", Ranks::OneBased).unwrap();
    p.make_move(m);
    assert!(p.in_check() && p.legal_moves().is_empty());
    // Stalemate: no legal move (it loses; judged elsewhere).
    let p = pos("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Variant::Xiangqi);
    assert!(!p.in_check() && p.legal_moves().is_empty());
    // Horse leg.
    let p = pos("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1", Variant::Xiangqi);
    let horse: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("b1"))
        .collect();
    assert_eq!(horse, ["b1a3", "b1c3", "b1d2"]);
    // Lone screen between generals: the horse is pinned.
    let p = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    assert!(legal(&p).iter().all(|m| !m.starts_with("e5")));
    // Janggi palace diagonal.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1", Variant::Janggi);
    let l = legal(&p);
    assert!(
        l.contains(&"d1e2".into()) && l.contains(&"d1f3".into()),
        "{l:?}"
    );
    // Janggi cannon: jumps a soldier, never takes a cannon.
    let p = pos("3k5/9/9/9/4c4/9/4P4/9/9/4CK3 w - - 0 1", Variant::Janggi);
    let l = legal(&p);
    assert!(
        l.contains(&"e1e5".into()) && !l.contains(&"e1e6".into()),
        "{l:?}"
    );
    // Janggi soldier in the palace.
    let p = pos("5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1", Variant::Janggi);
    assert!(legal(&p).contains(&"d8e9".into()));
    // Janggi: no pass in check.
    let p = pos("4k3R/9/9/9/9/9/9/9/3K5/9 b - - 0 1", Variant::Janggi);
    assert_eq!(legal(&p), ["e10e9"]);
    // Bikjang: only moves that break it, or the pass (which ends the game).
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1", Variant::Janggi);
    assert_eq!(legal(&p), ["e10d10", "e10e10", "e10f10"]);
    p.make_move(p.parse_move("e10e10", Ranks::OneBased).unwrap());
    assert!(p.janggi_game_ended() && p.legal_moves().is_empty());
    // Rule sets without bikjang: facing generals are harmless.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1", Variant::JanggiModern);
    assert!(legal(&p).contains(&"e10e9".into()));
}

#[test]
fn janggi_double_pass_ends_the_game() {
    let mut p = Position::startpos(Variant::Janggi);
    p.make_move(p.parse_move("0000", Ranks::OneBased).unwrap());
    assert!(!p.janggi_game_ended() && p.legal_moves().len() == 32);
    p.make_move(p.parse_move("@@@@", Ranks::OneBased).unwrap());
    assert!(p.janggi_game_ended() && p.legal_moves().is_empty());
    p.unmake_move();
    assert!(!p.janggi_game_ended());
}

#[test]
fn fen_round_trips() {
    for line in data("moves.txt").lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let v: Variant = f[0].parse().unwrap();
        let p = pos(f[1], v);
        assert_eq!(p.to_fen(), f[1]);
        assert_eq!(pos(&p.to_fen_with(true), v).to_fen(), f[1]);
    }
    // Missing trailing fields take defaults; w/r both mean the first player.
    let p = pos(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        Variant::Xiangqi,
    );
    assert_eq!(p.to_fen(), XQ_START);
    let p = pos(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 3",
        Variant::Xiangqi,
    );
    assert_eq!(p.rule_plies(), 3);
    // Unusual but rule-handled placements are accepted.
    for fen in [
        "3k5/9/9/9/9/9/9/9/9/3PK4 w - - 0 1", // soldier behind its start rank
        "3ak4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", // advisor off its points
        "3k5/9/9/9/4B4/9/9/9/9/4K4 w - - 0 1", // elephant off its points
    ] {
        assert!(Position::from_fen(fen, Variant::Xiangqi).is_ok(), "{fen}");
    }
}

#[test]
fn invalid_fen_corpus() {
    let text = data("invalid_fens.txt");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let v: Variant = f[0].parse().unwrap();
        match Position::from_fen(f[1], v) {
            Ok(p) => panic!("accepted invalid FEN {}: {}", f[1], p.to_fen()),
            Err(e) => assert!(
                e.to_string().contains(f[2]),
                "{}: got '{e}', expected '{}'",
                f[1],
                f[2]
            ),
        }
        n += 1;
    }
    assert!(n >= 25);
}

/// Every 16-bit code: `Move::from_code` + `is_legal` (what a transposition
/// table's move check relies on) agrees exactly with the generator.
#[test]
fn every_move_code_against_the_generator() {
    let text = data("moves.txt");
    let mut positions: Vec<Position> = text
        .lines()
        .step_by(20)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            pos(f[1], f[0].parse().unwrap())
        })
        .collect();
    positions.push(Position::startpos(Variant::Xiangqi));
    let mut j = Position::startpos(Variant::Janggi);
    j.make_move(j.parse_move("0000", Ranks::OneBased).unwrap());
    positions.push(j.clone());
    j.make_move(j.parse_move("0000", Ranks::OneBased).unwrap());
    positions.push(j); // game over: nothing is legal
    for p in &positions {
        let list = p.legal_moves();
        let mut found = 0;
        for code in 0..=u16::MAX {
            if let Some(m) = Move::from_code(code) {
                let legal = p.is_legal(m);
                assert_eq!(legal, list.contains(&m), "{} {m}", p.to_fen());
                found += usize::from(legal);
            }
        }
        assert_eq!(found, list.len(), "{}", p.to_fen());
    }
}

#[test]
fn make_unmake_restores_everything() {
    for v in [Variant::Xiangqi, Variant::Janggi] {
        let mut p = Position::startpos(v);
        let before = (p.to_fen(), p.key());
        let mut seed = 12345u64;
        let mut played = 0;
        for _ in 0..200 {
            let list = p.legal_moves();
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.make_move(list[(seed >> 33) as usize % list.len()]);
            assert_eq!(p.key(), p.compute_key());
            p.check_consistency().unwrap();
            played += 1;
        }
        for _ in 0..played {
            p.unmake_move();
        }
        assert_eq!((p.to_fen(), p.key()), before);
    }
}

/// After a Janggi pass a second pass ends the game, so the hash key (used
/// by transposition tables) tells that state apart from the same board
/// with the same side to move reached by a move or by a null move, while
/// the position key (used for repetitions) stays the board's.
#[test]
fn hash_key_marks_the_state_after_a_pass() {
    let mut p = Position::startpos(Variant::Janggi);
    let pass = p.parse_move("0000", Ranks::OneBased).unwrap();
    let predicted = p.key_after(pass);
    p.make_move(pass);
    let after_pass = (p.key(), p.hash_key());
    assert_eq!(predicted, p.hash_key());
    p.unmake_move();
    p.make_null();
    assert_eq!(p.key(), after_pass.0, "same board, same side to move");
    assert_eq!(p.hash_key(), p.key());
    assert_ne!(p.hash_key(), after_pass.1, "a null move is not a pass");
    p.unmake_null();
    // A move after the pass leaves no mark.
    p.make_move(pass);
    let m = p.legal_moves().into_iter().find(|m| !m.is_pass()).unwrap();
    let predicted = p.key_after(m);
    p.make_move(m);
    assert_eq!(p.hash_key(), p.key());
    assert_eq!(predicted, p.hash_key());
}

/// `play` refuses what `is_legal` refuses and leaves the position as it
/// was; it plays what `legal_moves` lists, and `unmake_move` takes it back.
#[test]
fn play_checks_legality() {
    for variant in [Variant::Xiangqi, Variant::Janggi] {
        let mut pos = Position::startpos(variant);
        let fen = pos.to_fen();
        let legal = pos.legal_moves();
        for code in 0..=u16::MAX {
            let Some(m) = Move::from_code(code) else {
                continue;
            };
            match pos.play(m) {
                Ok(()) => {
                    assert!(legal.contains(&m), "{variant}: played illegal {m}");
                    pos.unmake_move();
                }
                Err(e) => {
                    assert_eq!(e, movegen::IllegalMove(m));
                    assert!(!legal.contains(&m), "{variant}: refused legal {m}");
                }
            }
            assert_eq!(pos.to_fen(), fen, "{variant}: after {m}");
        }
    }
}

/// The exported leap tables are the generator's: on an empty board but for
/// the piece and the generals, a horse's (Janggi: elephant's) legal moves
/// are exactly its leaps.
#[test]
fn exported_leaps_match_the_generator() {
    let p = pos("3k5/9/9/9/4N4/9/9/9/9/5K3 w - - 0 1", Variant::Xiangqi);
    let from = Square::from_coords(4, 5).expect("on the board");
    let mut targets: Vec<Square> = movegen::leaps::horse(from).iter().map(|l| l.to()).collect();
    let mut moves: Vec<Square> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to())
        .collect();
    targets.sort_by_key(|s| s.index());
    moves.sort_by_key(|s| s.index());
    assert_eq!(targets, moves);
    let p = pos("3k5/9/9/9/4B4/9/9/9/9/5K3 w - - 0 1", Variant::Janggi);
    let mut targets: Vec<Square> = movegen::leaps::janggi_elephant(from)
        .iter()
        .map(|l| l.to())
        .collect();
    let mut moves: Vec<Square> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from && !m.is_pass())
        .map(|m| m.to())
        .collect();
    targets.sort_by_key(|s| s.index());
    moves.sort_by_key(|s| s.index());
    assert_eq!(targets, moves);
}
