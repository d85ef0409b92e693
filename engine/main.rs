//! The `jiang` binary: `jiang` alone speaks UCI, UCCI or XBoard on stdin;
//! `jiang perft …`, `jiang bench …` and `jiang match …` are command-line
//! tools (see `jiang help`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(jiang::cli::main(&args));
}
