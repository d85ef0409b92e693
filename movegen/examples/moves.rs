//! Print the legal moves of a FEN (ranks 1–10): `moves <variant> <fen...>`.
use movegen::{move_text, Position, Ranks};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(v) = args.first().and_then(|v| v.parse().ok()) else {
        eprintln!("usage: moves <variant> <fen>");
        return;
    };
    match Position::from_fen(&args[1..].join(" "), v) {
        Ok(pos) => {
            let mut l: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|&m| move_text(m, Ranks::OneBased))
                .collect();
            l.sort();
            println!("{} {}", l.len(), l.join(" "));
        }
        Err(e) => eprintln!("{e}"),
    }
}
