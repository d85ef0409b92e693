//! Print what each move of a line checks, threatens (mate) and chases,
//! and the verdict after it (a debugging aid for repetition verdicts):
//! `chased <variant> '<fen>' '<moves>'` (ranks 1–10).
use movegen::{chased_by_last_move, move_text, notation::square_text, Position, Ranks};
/// Whether the side that just moved (without check) would have a mating
/// move if it could move again, other than a capture on a point in
/// `chased` (docs/RULES.md §1.3, "kill").
fn kill(pos: &mut Position, chased: &[movegen::Square]) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.make_null();
    let mut found = false;
    for m in pos.legal_moves() {
        if !chased.contains(&m.to()) && pos.gives_check(m) {
            pos.make_move(m);
            found = pos.has_no_legal_move();
            pos.unmake_move();
            if found {
                break;
            }
        }
    }
    pos.unmake_null();
    found
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (Some(v), Some(fen), Some(moves)) = (a.first(), a.get(1), a.get(2)) else {
        eprintln!("usage: chased <variant> <fen> <moves>");
        return;
    };
    let Ok(v) = v.parse() else { return };
    let Ok(mut pos) = Position::from_fen(fen, v) else {
        return;
    };
    for t in moves.split_whitespace() {
        let Ok(m) = pos.parse_move(t, Ranks::OneBased) else {
            return;
        };
        pos.make_move(m);
        let chased = chased_by_last_move(&pos);
        let c: Vec<String> = chased
            .iter()
            .map(|&s| square_text(s, Ranks::OneBased))
            .collect();
        let k = kill(&mut pos, &chased);
        println!(
            "{} check={} kill={k} chases {:?}  -> {}",
            move_text(m, Ranks::OneBased),
            pos.in_check(),
            c,
            pos.judge()
        );
    }
}
