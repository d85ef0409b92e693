//! Print what each move of a line checks, threatens (mate) and chases,
//! and the verdict after it (a debugging aid for repetition verdicts):
//! `chased <variant> '<fen>' '<moves>'` (ranks 1–10).
use movegen::{
    chased_by_last_move, last_move_is_kill, move_text, notation::square_text, Position, Ranks,
};
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
        let k = last_move_is_kill(&pos);
        println!(
            "{} check={} kill={k} chases {:?}  -> {}",
            move_text(m, Ranks::OneBased),
            pos.in_check(),
            c,
            pos.judge()
        );
    }
}
