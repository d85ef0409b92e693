//! UCI front-end (Pikafish-style and Fairy-Stockfish-style GUIs, UCI-Cyclone
//! bare `fen`/`startpos` lines), as docs/PROTOCOL.md §3 describes it.
//!
//! Ranks are 0–9 until a GUI sets `UCI_Variant` (only Fairy-Stockfish-style
//! GUIs do), then 1–10; the `UCI_Ranks` option forces either (`0-9`,
//! `1-10`, or `auto`). Bad input gets one `info string error: …` line and
//! changes nothing.

use movegen::{Color, Position, Ranks};
use search::{Bound, Limits, Score, SearchInfo};

use crate::io::Out;
use crate::options::text::{split_setoption, uci_lines};
use crate::options::Dialect;
use crate::protocol::{clock_ms, handshake, push_pv, CommandLine, Flow, MoveStyle, Protocol};
use crate::session::{parse_depth, Session};
use crate::wdl::{self, wdl, Model};

/// What a `go` asks for.
#[derive(Clone, Debug)]
pub enum GoCommand {
    /// A search.
    Search(Limits),
    /// `go perft N`.
    Perft(u32),
}

const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parse the words after `go`. Unknown words and bad numbers give a
/// warning and are skipped: a GUI waiting for `bestmove` must get one.
/// Only a bad `perft` request is an error.
pub fn parse_go(
    words: &[&str],
    pos: &Position,
    ranks: Ranks,
) -> Result<(GoCommand, Vec<String>), String> {
    let mut l = Limits::default();
    let mut warn = Vec::new();
    let mut i = 0;
    // Clock values may be negative (a GUI reporting an overstepped clock):
    // they count as zero.
    let ms = |t: Option<&&str>| {
        t.and_then(|t| t.parse::<i64>().ok())
            .map(|v| clock_ms(v as f64))
    };
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        let arg = words.get(i + 1);
        let mut used = 1;
        let bad =
            |warn: &mut Vec<String>| warn.push(format!("go {w}: bad or missing value, ignored"));
        match w.as_str() {
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "perft" => return parse_depth(arg.copied()).map(|d| (GoCommand::Perft(d), warn)),
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                used = 2;
                match ms(arg) {
                    Some(v) => match w.as_str() {
                        "wtime" => l.time_ms[Color::Red.index()] = Some(v),
                        "btime" => l.time_ms[Color::Black.index()] = Some(v),
                        "winc" => l.inc_ms[Color::Red.index()] = Some(v),
                        "binc" => l.inc_ms[Color::Black.index()] = Some(v),
                        _ => l.movetime_ms = Some(v),
                    },
                    None => bad(&mut warn),
                }
            }
            "depth" | "movestogo" | "mate" => {
                used = 2;
                match arg.and_then(|t| t.parse::<u32>().ok()) {
                    Some(v) if w == "depth" => l.depth = Some(v.max(1)),
                    Some(v) if w == "mate" => l.mate = Some(v),
                    Some(v) => l.movestogo = Some(v),
                    None => bad(&mut warn),
                }
            }
            "nodes" => {
                used = 2;
                match arg.and_then(|t| t.parse::<u64>().ok()) {
                    Some(v) => l.nodes = Some(v),
                    None => bad(&mut warn),
                }
            }
            "searchmoves" => {
                while let Some(t) = words.get(i + used) {
                    if GO_WORDS.contains(&t.to_ascii_lowercase().as_str()) {
                        break;
                    }
                    match pos.parse_move(t, ranks) {
                        Ok(m) => l.searchmoves.push(m),
                        Err(e) => warn.push(format!("go searchmoves: {e}, ignored")),
                    }
                    used += 1;
                }
            }
            _ => warn.push(format!("go: unknown parameter '{}', ignored", words[i])),
        }
        i += used;
    }
    Ok((GoCommand::Search(l), warn))
}

/// `cp X` / `mate N` with an optional bound word.
pub fn score_text(score: Score, bound: Bound) -> String {
    let s = match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    match bound {
        Bound::Exact => s,
        Bound::Lower => format!("{s} lowerbound"),
        Bound::Upper => format!("{s} upperbound"),
    }
}

/// One UCI `info` line; `wdl_model` adds the `wdl` field.
pub fn info_line(i: &SearchInfo, ranks: Ranks, wdl_model: Option<Model>) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score_text(i.score, i.bound)
    );
    if let Some(m) = wdl_model {
        let (w, d, l) = match i.score {
            Score::Cp(v) => wdl(m, v, None),
            Score::Mate(n) => wdl(m, 0, Some(n)),
        };
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits 0 time {}",
        i.nodes, i.nps, i.hashfull, i.time_ms
    ));
    push_pv(&mut s, &i.pv, MoveStyle::Coords(ranks));
    s
}

/// The UCI session.
pub struct Uci {
    s: Session,
}

impl Uci {
    /// A new UCI session writing to `out`.
    pub fn new(out: Out) -> Uci {
        Uci {
            s: Session::new(out),
        }
    }

    fn ranks(&self) -> Ranks {
        self.s.settings.uci_ranks()
    }

    fn error(&self, text: &str) {
        self.s.note(&format!("error: {text}"));
    }

    fn announce(&self) {
        self.s.out.lines(handshake(uci_lines(), "uciok"));
    }

    fn setoption(&mut self, args: &str) {
        match split_setoption(args) {
            None => self.error("setoption: missing option name"),
            Some((name, value)) => {
                if let Err(e) = self.s.set_option(&name, &value, Dialect::Uci) {
                    self.error(&e.to_string());
                }
            }
        }
    }

    fn position(&mut self, args: &str, ranks: Ranks) {
        if let Err(e) = self.s.set_position(args, ranks) {
            self.error(&format!("position unchanged: {e}"));
        }
    }

    fn go(&mut self, words: &[&str]) {
        let ranks = self.ranks();
        let (cmd, warnings) = match parse_go(words, &self.s.pos, ranks) {
            Ok(x) => x,
            Err(e) => return self.error(&e),
        };
        for w in warnings {
            self.s.note(&format!("warning: {w}"));
        }
        match cmd {
            GoCommand::Perft(d) => self.s.perft(d, ranks),
            GoCommand::Search(limits) => {
                let out = self.s.out.clone();
                let model = self
                    .s
                    .settings
                    .show_wdl
                    .then(|| wdl::model(self.s.pos.variant()));
                let done_out = self.s.out.clone();
                self.s.go(
                    limits,
                    Box::new(move |i| out.line(&info_line(i, ranks, model))),
                    Box::new(move |b| {
                        let line = MoveStyle::Coords(ranks).bestmove(&b);
                        done_out.line(line.as_deref().unwrap_or("bestmove (none)"));
                    }),
                );
            }
        }
    }
}

impl Protocol for Uci {
    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let Some(CommandLine { cmd, rest, words }) = CommandLine::parse(line) else {
            return Flow::Continue;
        };
        match cmd.as_str() {
            "uci" => self.announce(),
            "isready" => self.s.out.line("readyok"),
            "ucinewgame" => self.s.new_game(),
            "setoption" => self.setoption(rest),
            "position" => self.position(rest, self.ranks()),
            // UCI-Cyclone sends the position without the keyword, always
            // with ranks 0–9.
            "fen" | "startpos" => self.position(line, Ranks::ZeroBased),
            "go" => self.go(&words[1..]),
            "stop" => self.s.stop(),
            "ponderhit" => self.s.ponderhit(),
            "quit" => return Flow::Quit,
            "debug" | "register" => {}
            _ => {
                let ranks = self.ranks();
                if !self.s.extension(&cmd, &words[1..], ranks) {
                    self.error(&format!("unknown command '{line}'"));
                }
            }
        }
        Flow::Continue
    }

    fn session(&mut self) -> &mut Session {
        &mut self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(s: &str) -> (GoCommand, Vec<String>) {
        let pos = Position::startpos(movegen::Variant::Xiangqi);
        let words: Vec<&str> = s.split_whitespace().collect();
        match parse_go(&words, &pos, Ranks::ZeroBased) {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn go_parameters() {
        let (cmd, warn) =
            go("wtime -50 btime 1000 winc 10 binc 20 movestogo 5 depth 0 nodes 9 mate 2");
        assert!(warn.is_empty(), "{warn:?}");
        let GoCommand::Search(l) = cmd else {
            panic!("not a search")
        };
        assert_eq!(l.time_ms, [Some(0), Some(1000)]);
        assert_eq!(l.inc_ms, [Some(10), Some(20)]);
        assert_eq!(
            (l.movestogo, l.depth, l.nodes, l.mate),
            (Some(5), Some(1), Some(9), Some(2))
        );
        let (cmd, warn) = go("searchmoves h2e2 zz b0c2 infinite ponder frob depth x");
        let GoCommand::Search(l) = cmd else {
            panic!("not a search")
        };
        assert_eq!(l.searchmoves.len(), 2);
        assert!(l.infinite && l.ponder && l.depth.is_none());
        assert_eq!(warn.len(), 3, "{warn:?}");
        assert!(matches!(go("perft 3").0, GoCommand::Perft(3)));
        let pos = Position::startpos(movegen::Variant::Xiangqi);
        assert!(parse_go(&["perft", "0"], &pos, Ranks::ZeroBased).is_err());
        let (cmd, _) = go("winc 99999999999999999");
        let GoCommand::Search(l) = cmd else {
            panic!("not a search")
        };
        assert_eq!(l.inc_ms[0], Some(crate::protocol::MAX_CLOCK_MS));
    }

    #[test]
    fn info_line_form() {
        let i = SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Mate(-3),
            bound: Bound::Upper,
            nodes: 1234,
            nps: 5678,
            hashfull: 7,
            time_ms: 20,
            pv: Position::startpos(movegen::Variant::Xiangqi).legal_moves()[..2].to_vec(),
        };
        let l = info_line(&i, Ranks::OneBased, Some(wdl::XIANGQI));
        assert!(
            l.starts_with(
                "info depth 5 seldepth 9 multipv 1 score mate -3 upperbound wdl 0 0 1000 nodes 1234 nps 5678 hashfull 7 tbhits 0 time 20 pv "
            ),
            "{l}"
        );
    }
}
