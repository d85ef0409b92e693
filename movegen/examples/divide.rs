//! Divide (ranks 1–10): `divide <variant> <depth> <nogameend 0|1> <fen...>`.
use movegen::{divide, move_text, PerftOptions, Position, Ranks};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: divide <variant> <depth> <0|1 game end> <fen>");
        return;
    }
    let (Ok(v), Ok(d)) = (args[0].parse(), args[1].parse()) else {
        return;
    };
    let opts = PerftOptions {
        game_end: args[2] == "1",
    };
    match Position::from_fen(&args[3..].join(" "), v) {
        Ok(mut pos) => {
            let mut total = 0;
            for (m, n) in divide(&mut pos, d, opts) {
                println!("{}: {n}", move_text(m, Ranks::OneBased));
                total += n;
            }
            println!("total {total}");
        }
        Err(e) => eprintln!("{e}"),
    }
}
