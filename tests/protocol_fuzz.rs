//! Seeded random and mutated input for each protocol: at least 10,000
//! lines per protocol, then the engine must still answer its sync command
//! (`isready` → `readyok`, `ping N` → `pong N`), never have panicked, and
//! have printed only well-formed answers. Searches are kept short (depth
//! 1–3, a few ms) so that the test stays fast; the long ones that random
//! input can start (`go`, `go infinite`) are stopped by the next `go` or
//! `stop`.

mod protocol_common;

use std::time::Duration;

use movegen::{move_text, Position, Ranks, SplitMix64, Variant};
use protocol_common::Jiang;

/// Lines per protocol.
const LINES: usize = 10_000;
/// A sync check every this many lines.
const SYNC_EVERY: usize = 500;

/// The project's SplitMix64, drawing by modulo (the streams this fuzz
/// test was written with).
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A random game from the start: its FENs along the way and the move
/// texts, so that inputs are often legal deep into a game.
struct Game {
    moves: Vec<String>,
    fens: Vec<String>,
}

fn random_game(rng: &mut Rng, variant: Variant, ranks: Ranks) -> Game {
    let mut pos = Position::startpos(variant);
    let mut g = Game {
        moves: Vec::new(),
        fens: vec![pos.to_fen()],
    };
    for _ in 0..rng.below(40) {
        let list = pos.legal_moves();
        if list.is_empty() {
            break;
        }
        let m = list[rng.below(list.len())];
        g.moves.push(move_text(m, ranks));
        pos.make_move(m);
        g.fens.push(pos.to_fen());
    }
    g
}

const JUNK_MOVES: &[&str] = &[
    "h2e2", "h9g7", "b0c2", "e1e1", "e2e2", "0000", "@@@@", "a10a9", "zz", "h2", "i9i10", "a0a0",
    "j1j2", "e0e1",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "abc",
    "99999999999999999999999",
    "4",
    "1.5",
    "",
];
const JUNK: &[&str] = &[
    "",
    " ",
    "\t",
    "???",
    "moves",
    "fen",
    "name",
    "value",
    "startpos",
    "go",
    "ÿ",
    "\u{1F600}",
    "--",
];

/// Input helpers shared by the three generators.
struct Gen {
    rng: Rng,
    games: Vec<Game>,
}

impl Gen {
    fn new(seed: u64, variants: &[Variant], ranks: Ranks) -> Gen {
        let mut rng = Rng(SplitMix64::new(seed));
        let games = (0..24)
            .map(|i| random_game(&mut rng, variants[i % variants.len()], ranks))
            .collect();
        Gen { rng, games }
    }

    fn game(&mut self) -> &Game {
        let i = self.rng.below(self.games.len());
        &self.games[i]
    }

    /// `startpos [moves …]` or `fen F [moves …]`, mostly legal.
    fn position_args(&mut self) -> String {
        let r = self.rng.below(10);
        let gi = self.rng.below(self.games.len());
        let g = &self.games[gi];
        let cut = self.rng.below(g.moves.len() + 1);
        let from = self.rng.below(cut + 1);
        let moves = g.moves[from..cut].join(" ");
        let fen = g.fens[from].clone();
        match r {
            0 => "startpos".into(),
            1..=4 => format!("startpos moves {}", g.moves[..cut].join(" ")),
            5..=7 => format!("fen {fen} moves {moves}"),
            8 => format!("fen {fen}"),
            _ => {
                // A damaged FEN.
                let mut f: Vec<char> = fen.chars().collect();
                if !f.is_empty() {
                    let i = self.rng.below(f.len());
                    f[i] = ['k', 'K', '9', '/', 'x', ' ', 'R', '0'][self.rng.below(8)];
                }
                format!("fen {}", f.into_iter().collect::<String>())
            }
        }
    }

    fn some_moves(&mut self) -> String {
        let n = self.rng.below(4) + 1;
        let mut v = Vec::new();
        for _ in 0..n {
            if self.rng.chance(60) {
                let g = self.game();
                if !g.moves.is_empty() {
                    let i = (g.moves.len() * 7 + 3) % g.moves.len();
                    v.push(g.moves[i].clone());
                    continue;
                }
            }
            v.push(self.rng.pick(JUNK_MOVES).to_string());
        }
        v.join(" ")
    }

    fn num(&mut self) -> String {
        self.rng.pick(NUMBERS).to_string()
    }

    /// Damage a line: drop, repeat, swap or replace words, insert junk,
    /// cut it short, change case.
    fn mutate(&mut self, line: &str) -> String {
        let mut w: Vec<String> = line.split(' ').map(str::to_string).collect();
        for _ in 0..self.rng.below(3) + 1 {
            let n = w.len();
            match self.rng.below(7) {
                0 if n > 1 => {
                    w.remove(self.rng.below(n));
                }
                1 => {
                    let i = self.rng.below(n);
                    let x = w[i].clone();
                    w.insert(i, x);
                }
                2 if n > 1 => {
                    let (a, b) = (self.rng.below(n), self.rng.below(n));
                    w.swap(a, b);
                }
                3 => {
                    let i = self.rng.below(n);
                    w[i] = self.rng.pick(JUNK).to_string();
                }
                4 => {
                    let i = self.rng.below(n);
                    w[i] = self.rng.pick(NUMBERS).to_string();
                }
                5 => {
                    let i = self.rng.below(n);
                    w[i] = w[i].to_uppercase();
                }
                _ => {
                    let s = w.join(" ");
                    let cut = self.rng.below(s.len() + 1);
                    let cut = (0..=cut)
                        .rev()
                        .find(|&c| s.is_char_boundary(c))
                        .unwrap_or(0);
                    w = s[..cut].split(' ').map(str::to_string).collect();
                }
            }
        }
        w.join(" ")
    }
}

fn uci_line(g: &mut Gen) -> String {
    let r = &mut g.rng;
    let opts = [
        "Threads",
        "Hash",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_Variant",
        "UCI_ShowWDL",
        "UCI_Ranks",
        "Nope",
    ];
    let vals = [
        "1",
        "2",
        "3",
        "true",
        "false",
        "xiangqi",
        "janggi",
        "janggimodern",
        "auto",
        "0-9",
        "1-10",
        "x",
        "",
    ];
    match r.below(24) {
        0 => "isready".into(),
        1 => "ucinewgame".into(),
        2 => "stop".into(),
        3 => "ponderhit".into(),
        4 => format!("setoption name {} value {}", r.pick(&opts), r.pick(&vals)),
        5 => format!("setoption {} {}", r.pick(&opts), r.pick(&vals)),
        6..=9 => format!("position {}", g.position_args()),
        10 => g.position_args(),
        11 => format!("go depth {}", r.below(3) + 1),
        12 => format!("go nodes {}", r.below(3000) + 1),
        13 => format!("go movetime {}", r.below(20) + 1),
        14 => "go infinite".into(),
        15 => format!("go ponder wtime {} btime {}", r.below(2000), r.below(2000)),
        16 => format!("go perft {}", r.below(3) + 1),
        17 => format!(
            "go wtime {} btime {} winc {} binc {} movestogo {}",
            r.below(500),
            r.below(500),
            r.below(50),
            r.below(50),
            r.below(5)
        ),
        18 => format!("go depth 2 searchmoves {}", g.some_moves()),
        19 => format!("go mate {}", r.below(3) + 1),
        20 => ["d", "eval", "result", "uci", "debug on", "perft 2"][r.below(6)].into(),
        21 => "go".into(),
        22 => format!("setoption name Hash value {}", g.num()),
        _ => format!("{} {}", r.pick(JUNK), r.pick(JUNK_MOVES)),
    }
}

fn ucci_line(g: &mut Gen) -> String {
    let r = &mut g.rng;
    let names = [
        "usemillisec",
        "hashsize",
        "threads",
        "ponder",
        "newgame",
        "batch",
        "debug",
        "usebook",
        "bookfiles",
        "randomness",
        "idle",
        "drawscore",
        "resignscore",
        "frob",
    ];
    let vals = ["true", "false", "1", "2", "8", "on", "off", "x", "-5", ""];
    match r.below(20) {
        0 => "isready".into(),
        1 => "stop".into(),
        2 => ["ponderhit", "ponderhit draw"][r.below(2)].into(),
        3 | 4 => format!("setoption {} {}", r.pick(&names), r.pick(&vals)),
        5..=8 => format!("position {}", g.position_args()),
        9 => format!("banmoves {}", g.some_moves()),
        10 => format!("go depth {}", r.below(3) + 1),
        11 => format!(
            "go {} depth {}",
            ["ponder", "draw"][r.below(2)],
            r.below(3) + 1
        ),
        12 => format!("go nodes {}", r.below(3000) + 1),
        13 => format!(
            "go time {} increment {} opptime {} oppincrement {}",
            r.below(300),
            r.below(20),
            r.below(300),
            r.below(20)
        ),
        14 => format!("go time {} movestogo {}", r.below(300), r.below(10)),
        15 => "go depth infinite".into(),
        16 => format!("probe {}", g.position_args()),
        17 => ["d", "result", "ucci", "perft 2"][r.below(4)].into(),
        18 => format!("go {}", g.num()),
        _ => format!("{} {}", r.pick(JUNK), r.pick(JUNK_MOVES)),
    }
}

fn xboard_line(g: &mut Gen) -> String {
    let r = &mut g.rng;
    match r.below(30) {
        0 => "new".into(),
        1 => format!(
            "variant {}",
            [
                "xiangqi",
                "janggi",
                "janggimodern",
                "janggicasual",
                "janggitraditional",
                "chess"
            ][r.below(6)]
        ),
        2 | 3 => "force".into(),
        4 => "go".into(),
        5 => "playother".into(),
        6..=9 => format!(
            "usermove {}",
            g.some_moves().split(' ').next().unwrap_or("h2e2")
        ),
        10 => g
            .some_moves()
            .split(' ')
            .next()
            .unwrap_or("h2e2")
            .to_string(),
        11 => {
            let a = g.position_args();
            let fen = a
                .strip_prefix("fen ")
                .map(|f| f.split(" moves").next().unwrap_or(f).to_string());
            format!("setboard {}", fen.unwrap_or_else(|| "rnbakabnr/9 w".into()))
        }
        12 => format!("time {}", r.below(3000)),
        13 => format!("otim {}", r.below(3000)),
        14 => format!(
            "level {} {} {}",
            r.below(40),
            ["0:05", "1", "0:01", "x"][r.below(4)],
            r.below(3)
        ),
        15 => format!("st {}", ["0.01", "0.02", "0", "x", "0.05"][r.below(5)]),
        16 | 17 => format!("sd {}", r.below(3) + 1),
        18 => format!("memory {}", r.below(8) + 1),
        19 => format!("cores {}", r.below(2) + 1),
        20 => ["post", "nopost", "hard", "easy", "?", ".", "undo", "remove"][r.below(8)].into(),
        21 => ["analyze", "exit"][r.below(2)].into(),
        22 => [
            "result 1-0 {x}",
            "result",
            "d",
            "eval",
            "draw",
            "hint",
            "bk",
            "computer",
        ][r.below(8)]
        .into(),
        23 => format!("option Move Overhead={}", g.num()),
        24 => format!(
            "option {}={}",
            ["MultiPV", "Clear Hash", "Nope", "Resign Score"][r.below(4)],
            g.num()
        ),
        25 => [
            "protover 2",
            "xboard",
            "accepted setboard",
            "rejected x",
            "random",
            "name x y",
        ][r.below(6)]
        .into(),
        26 => format!("ping {}", r.below(1000)),
        27 => "perft 2".into(),
        _ => format!("{} {}", r.pick(JUNK), r.pick(JUNK_MOVES)),
    }
}

/// Whether an output line is one the protocol (or our documented
/// extensions) defines.
fn well_formed(proto: &str, line: &str) -> bool {
    let board = line.is_empty()
        || line.starts_with("   +---")
        || line.starts_with("     a   b")
        || line.as_bytes().get(2) == Some(&b' ') && line.as_bytes().get(3) == Some(&b'|')
        || ["Variant: ", "Fen: ", "Key: ", "Checkers:"]
            .iter()
            .any(|p| line.starts_with(p));
    let perft = line.starts_with("Nodes searched: ")
        || line
            .split_once(": ")
            .is_some_and(|(m, n)| m.len() <= 6 && n.parse::<u64>().is_ok());
    // The evaluation table of `eval` (search's eval_trace).
    let eval = line.contains('|')
        || line.starts_with("---")
        || line.contains("valuation")
        || line.starts_with("Tempo")
        || line.starts_with("Term");
    if board || perft || eval {
        return true;
    }
    let w: Vec<&str> = line.split_whitespace().collect();
    let first = w.first().copied().unwrap_or("");
    match proto {
        "uci" => {
            ["id", "option", "uciok", "readyok", "info"].contains(&first)
                || first == "bestmove" && (w.len() == 2 || w.len() == 4 && w[2] == "ponder")
        }
        "ucci" => {
            [
                "id",
                "option",
                "ucciok",
                "readyok",
                "info",
                "nobestmove",
                "pophash",
                "bye",
            ]
            .contains(&first)
                || first == "bestmove" && w.len() >= 2
        }
        _ => {
            [
                "feature",
                "move",
                "pong",
                "Illegal",
                "Error",
                "#",
                "tellusererror",
                "setup",
                "piece",
                "stat01:",
                "1-0",
                "0-1",
                "1/2-1/2",
                "resign",
            ]
            .contains(&first)
                || line.starts_with("info string result ")
                || w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
        }
    }
}

fn run(proto: &str, seed: u64) {
    let (variants, ranks): (&[Variant], Ranks) = match proto {
        "uci" => (&[Variant::Xiangqi, Variant::Janggi], Ranks::ZeroBased),
        "ucci" => (&[Variant::Xiangqi], Ranks::ZeroBased),
        _ => (&[Variant::Xiangqi, Variant::Janggi], Ranks::ZeroBased),
    };
    let mut g = Gen::new(seed, variants, ranks);
    let mut e = Jiang::start();
    let (hello, hello_end) = match proto {
        "uci" => ("uci", "uciok"),
        "ucci" => ("ucci", "ucciok"),
        _ => ("xboard\nprotover 2", "feature done=1"),
    };
    e.send(hello);
    e.until_line(hello_end);
    let mut sent = 0;
    let mut syncs = 0u32;
    while sent < LINES {
        let line = match proto {
            "uci" => uci_line(&mut g),
            "ucci" => ucci_line(&mut g),
            _ => xboard_line(&mut g),
        };
        let line = if g.rng.chance(30) {
            g.mutate(&line)
        } else {
            line
        };
        // `quit` ends the session by design, and `bench` takes seconds.
        let lower = line.to_ascii_lowercase();
        if lower
            .split_whitespace()
            .next()
            .is_some_and(|w| w == "quit" || w == "bench")
        {
            continue;
        }
        e.send(&line);
        sent += 1;
        // Now and then give a search time to finish, so that completed
        // moves (and what follows them) are exercised too.
        if g.rng.chance(2) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if sent % SYNC_EVERY == 0 {
            syncs += 1;
            sync(&mut e, proto, syncs);
        }
    }
    e.send(if proto == "xboard" { "force" } else { "stop" });
    syncs += 1;
    sync(&mut e, proto, syncs);
    e.send("quit");
    e.expect_exit(Duration::from_secs(30), "quit after the fuzz input");
    e.drain();
    let bad: Vec<&String> = e
        .transcript
        .iter()
        .filter_map(|l| l.strip_prefix("< ").map(|_| l))
        .filter(|l| !well_formed(proto, &l[2..]))
        .take(20)
        .collect();
    assert!(bad.is_empty(), "{proto}: malformed output lines: {bad:?}");
    let err = e.stderr.lock().map(|v| v.clone()).unwrap_or_default();
    assert!(
        !err.iter().any(|l| l.contains("panicked")),
        "{proto}: panic: {err:?}"
    );
    let got = |p: &str| e.transcript.iter().filter(|l| l.starts_with(p)).count();
    eprintln!(
        "{proto}: {sent} lines sent; answers: {} bestmove/nobestmove, {} move, {} errors, {} illegal moves",
        got("< bestmove") + got("< nobestmove"),
        got("< move "),
        got("< info string error") + got("< Error (") + got("< tellusererror"),
        got("< Illegal move"),
    );
}

fn sync(e: &mut Jiang, proto: &str, n: u32) {
    let timeout = Duration::from_secs(60);
    match proto {
        "xboard" => {
            // Unique token so that an earlier fuzzed `ping` cannot match.
            let tok = format!("pong 9{n:06}");
            e.send(&format!("ping 9{n:06}"));
            e.until(timeout, |l| l == tok);
        }
        _ => {
            // `isready` cannot be told apart from a fuzzed one, whose
            // early `readyok` would end the wait with lines still queued;
            // an unknown command with a unique name is answered by an
            // error naming it, in order, once everything before is done.
            let tok = format!("sync9{n:06}");
            e.send(&tok);
            e.until(timeout, |l| l.contains(&tok));
            e.send("isready");
            e.until(timeout, |l| l == "readyok");
        }
    }
    let alive = e.alive();
    e.check(alive, "engine died");
}

#[test]
fn fuzz_uci() {
    run("uci", 0x5EED_0001);
}

#[test]
fn fuzz_ucci() {
    run("ucci", 0x5EED_0002);
}

#[test]
fn fuzz_xboard() {
    run("xboard", 0x5EED_0003);
}
