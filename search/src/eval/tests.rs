//! Tests of the evaluation.

use super::*;
use movegen::Variant;

/// The position rotated by 180 degrees with colours and side swapped:
/// the same game from the other player's seat.
fn colour_swapped(pos: &Position) -> Position {
    mirrored(&pos_flip(pos))
}

fn pos_flip(pos: &Position) -> Position {
    transform(pos, |s| s.flip_rank(), true)
}

fn mirrored(pos: &Position) -> Position {
    transform(pos, |s| s.mirror(), false)
}

fn transform(pos: &Position, f: impl Fn(Square) -> Square, swap: bool) -> Position {
    let mut board = [None; 90];
    for s in Square::all() {
        if let Some(p) = pos.piece_at(s) {
            let c = if swap { !p.color() } else { p.color() };
            board[f(s).index()] = Some(Piece::new(c, p.kind()));
        }
    }
    let mut fen = String::new();
    for r in (0..10).rev() {
        let mut empty = 0;
        for fl in 0..9 {
            match board[r * 9 + fl] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if r > 0 {
            fen.push('/');
        }
    }
    let side = if swap {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    fen.push_str(&format!(" {} - - 0 1", side.fen_char()));
    Position::from_fen(&fen, pos.variant()).unwrap()
}

#[test]
fn symmetric_under_mirror_and_colour_swap() {
    let fens = [
        (
            Variant::Xiangqi,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ),
        (
            Variant::Xiangqi,
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 6",
        ),
        (
            Variant::Xiangqi,
            "3k5/4a4/4b4/9/2p6/9/9/4C4/4A4/3AK4 w - - 0 40",
        ),
        (
            Variant::Janggi,
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        ),
        (
            Variant::Janggi,
            "r1ba1a1nr/4k4/1cn2b1c1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1B1NC1/4K4/R1BA1A2R b - - 0 1",
        ),
    ];
    for (v, fen) in fens {
        let pos = Position::from_fen(fen, v).unwrap();
        let e = evaluate(&pos);
        assert_eq!(evaluate(&mirrored(&pos)), e, "mirror {fen}");
        assert_eq!(evaluate(&colour_swapped(&pos)), e, "colour swap {fen}");
        assert!(eval_trace(&pos).contains(&format!("Final evaluation: {e} cp")));
    }
}

#[test]
fn incremental_psq_matches() {
    for v in [Variant::Xiangqi, Variant::Janggi] {
        let mut pos = Position::startpos(v);
        let mut acc = psq(&pos);
        for i in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures so that the capture path is exercised.
            let m = moves
                .iter()
                .copied()
                .find(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
                .unwrap_or(moves[(i * 7) % moves.len()]);
            let d = psq_delta(&pos, m);
            acc = [acc[0] + d[0], acc[1] + d[1]];
            pos.make_move(m);
            assert_eq!(acc, psq(&pos));
            assert_eq!(evaluate_with_psq(&pos, acc), evaluate(&pos));
        }
    }
}

#[test]
fn material_matters() {
    let full = Position::startpos(Variant::Xiangqi);
    let no_rook = Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        Variant::Xiangqi,
    )
    .unwrap();
    assert!(evaluate(&no_rook) < evaluate(&full) - 400);
}

#[test]
fn a_horse_attacking_a_chariot_is_a_threat() {
    // Red's horse on c3 attacks Black's chariot on d5 (its leg c4 is
    // free); the chariot attacks nothing worth more than itself.
    let fen = "9/4k4/9/9/9/3r5/9/2N6/4K4/9 w - - 0 1";
    let pos = Position::from_fen(fen, Variant::Janggi).unwrap();
    let mut p = params::JANGGI;
    p.threat = [[0, 0]; 8];
    let without = Weights::new(p);
    p.threat[PieceKind::Chariot.index()] = [40, 40];
    let with = Weights::new(p);
    assert_eq!(
        evaluate_with(&pos, &with) - evaluate_with(&pos, &without),
        40
    );
    // A threat on a horse is none from a chariot: only the horse's
    // attack on the chariot counts.
    p.threat[PieceKind::Horse.index()] = [25, 25];
    let both = Weights::new(p);
    assert_eq!(evaluate_with(&pos, &both), evaluate_with(&pos, &with));
    assert!(eval_trace(&pos).contains("Threats"));
}

#[test]
fn soldiers_side_by_side_count_once_per_pair() {
    // Red soldiers on a4 b4 c4 (two pairs) and e4; Black's on a7.
    let fen = "9/4k4/9/p8/9/9/PPP1P4/9/4K4/9 w - - 0 1";
    let pos = Position::from_fen(fen, Variant::Janggi).unwrap();
    let red = pos.pieces(Color::Red, PieceKind::Soldier);
    assert_eq!(soldier_pairs(pos.board(), Color::Red, red), 2);
    let mut p = params::JANGGI;
    p.soldier_pair = [0, 0];
    let without = Weights::new(p);
    p.soldier_pair = [15, 15];
    let with = Weights::new(p);
    assert_eq!(
        evaluate_with(&pos, &with) - evaluate_with(&pos, &without),
        30
    );
}
