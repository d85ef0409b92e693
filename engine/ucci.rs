//! UCCI front-end (Chinese Xiangqi GUIs, ElephantEye-style; docs/PROTOCOL.md §4).
//!
//! Ranks 0–9 always. Options have no `name`/`value` keywords. Times in
//! `go` are milliseconds unless `setoption usemillisec false` switches
//! them to seconds. `bestmove` may carry `draw` (accepting or offering a
//! draw) or `resign`; `nobestmove` when there is nothing to play.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use movegen::{move_text, Move, Ranks};
use search::{BestMove, Bound, HashEntry, Limits, Score, SearchInfo};

use crate::detect::{CommandLine, Flow, Protocol};
use crate::io::Out;
use crate::options::{self, ucci_alias, Kind};
use crate::session::Session;
use crate::uci::{ENGINE_AUTHOR, ENGINE_NAME};

const RANKS: Ranks = Ranks::ZeroBased;

/// UCCI's mate value: a mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 10_000;

/// Standard UCCI options that do not apply to Jiang: accepted with a note.
const IGNORED: &[&str] = &[
    "batch",
    "debug",
    "usebook",
    "bookfiles",
    "randomness",
    "idle",
    "pruning",
    "knowledge",
    "promotion",
    "selectivity",
    "style",
    "loadbook",
    "dualtime",
];

/// A score as UCCI writes it: a bare number, mates as large numbers.
pub fn score_value(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v.clamp(-(MATE - 200), MATE - 200),
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * n.abs()),
    }
}

/// The UCCI session.
pub struct Ucci {
    s: Session,
    millis: bool,
    banned: Vec<Move>,
    /// The opponent offered a draw for the running search (`go draw`, or
    /// `ponderhit draw` after the search started).
    draw_offered: Arc<AtomicBool>,
}

/// How a finished search should be reported.
#[derive(Clone, Copy)]
struct ReportTerms {
    draw_offered: bool,
    draw_cp: i32,
    resign_cp: i32,
}

fn bestmove_line(b: &BestMove, v: ReportTerms) -> String {
    let Some(m) = b.best else {
        return "nobestmove".into();
    };
    let mut s = format!("bestmove {}", move_text(m, RANKS));
    if let Some(p) = b.ponder {
        s.push_str(&format!(" ponder {}", move_text(p, RANKS)));
    }
    let losing = match b.score {
        Score::Mate(n) => n < 0,
        Score::Cp(cp) => v.resign_cp > 0 && cp <= -v.resign_cp,
    };
    let drawish = matches!(b.score, Score::Cp(cp) if cp <= v.draw_cp);
    if losing {
        s.push_str(" resign");
    } else if v.draw_offered && drawish {
        s.push_str(" draw");
    }
    s
}

impl Ucci {
    /// A new UCCI session writing to `out`.
    pub fn new(out: Out) -> Ucci {
        Ucci {
            s: Session::new(out),
            millis: true,
            banned: Vec::new(),
            draw_offered: Arc::default(),
        }
    }

    fn error(&self, text: &str) {
        self.s.note(&format!("error: {text}"));
    }

    fn announce(&self) {
        let mut v = vec![
            format!("id name {ENGINE_NAME}"),
            format!("id author {ENGINE_AUTHOR}"),
        ];
        v.push("option usemillisec type check default true".into());
        for (ucci, uci) in [
            ("hashsize", "Hash"),
            ("threads", "Threads"),
            ("ponder", "Ponder"),
            ("multipv", "MultiPV"),
        ] {
            if let Some(def) = options::OPTIONS.iter().find(|o| o.name == uci) {
                v.push(match def.kind {
                    Kind::Spin { min, max } => {
                        format!(
                            "option {ucci} type spin min {min} max {max} default {}",
                            def.default
                        )
                    }
                    _ => format!("option {ucci} type check default {}", def.default),
                });
            }
        }
        v.push("option resignscore type spin min 0 max 100000 default 0".into());
        v.push("option drawscore type spin min -1000 max 1000 default 0".into());
        v.push("option newgame type button".into());
        v.push("ucciok".into());
        self.s.out.lines(v);
    }

    fn setoption(&mut self, words: &[&str]) {
        let Some(name) = words.first() else {
            return self.error("setoption: missing option name");
        };
        let value = words[1..].join(" ");
        let lname = name.to_ascii_lowercase();
        if lname == "usemillisec" {
            match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => self.millis = true,
                "false" | "off" | "0" => self.millis = false,
                _ => self.error(&format!(
                    "setoption usemillisec: bad value '{value}', expected true or false"
                )),
            }
        } else if lname == "newgame" {
            self.s.new_game();
        } else if let Some(ours) = ucci_alias(&lname) {
            if let Err(e) = self.s.set_option(ours, &value) {
                self.error(&e.to_string());
            }
        } else if IGNORED.contains(&lname.as_str()) {
            self.s.note(&format!(
                "option '{name}' does not apply to this engine; ignored"
            ));
        } else {
            self.error(&format!("unknown option '{name}'"));
        }
    }

    fn position(&mut self, args: &str) {
        match self.s.set_position(args, RANKS) {
            Ok(()) => self.banned.clear(),
            Err(e) => self.error(&format!("position unchanged: {e}")),
        }
    }

    fn banmoves(&mut self, words: &[&str]) {
        let mut list = Vec::new();
        for w in words {
            match self.s.pos.parse_move(w, RANKS) {
                Ok(m) => list.push(m),
                Err(e) => return self.error(&format!("banmoves unchanged: {e}")),
            }
        }
        self.banned = list;
    }

    /// Parse `go` words into limits; unknown words give a note.
    fn parse_go(&self, words: &[&str]) -> (Limits, bool, Vec<String>) {
        let mut l = Limits::default();
        let mut draw = false;
        let mut notes = Vec::new();
        let us = self.s.pos.side_to_move();
        let scale = if self.millis { 1.0 } else { 1000.0 };
        let time = |t: Option<&&str>| {
            t.and_then(|t| t.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map(|v| options::clock_ms(v * scale))
        };
        let int = |t: Option<&&str>| t.and_then(|t| t.parse::<u64>().ok());
        let mut i = 0;
        while i < words.len() {
            let w = words[i].to_ascii_lowercase();
            let arg = words.get(i + 1);
            let mut used = 2;
            let ok = match w.as_str() {
                "ponder" => {
                    l.ponder = true;
                    used = 1;
                    true
                }
                "draw" => {
                    draw = true;
                    used = 1;
                    true
                }
                "infinite" => {
                    l.infinite = true;
                    used = 1;
                    true
                }
                "depth" => match arg.map(|a| a.to_ascii_lowercase()) {
                    Some(a) if a == "infinite" => {
                        l.infinite = true;
                        true
                    }
                    _ => int(arg)
                        .map(|d| l.depth = Some(d.clamp(1, 255) as u32))
                        .is_some(),
                },
                "nodes" => int(arg).map(|n| l.nodes = Some(n)).is_some(),
                "time" => time(arg).map(|t| l.time_ms[us.index()] = Some(t)).is_some(),
                "increment" => time(arg).map(|t| l.inc_ms[us.index()] = Some(t)).is_some(),
                "opptime" => time(arg)
                    .map(|t| l.time_ms[(!us).index()] = Some(t))
                    .is_some(),
                "oppincrement" => time(arg)
                    .map(|t| l.inc_ms[(!us).index()] = Some(t))
                    .is_some(),
                "movestogo" => int(arg)
                    .map(|n| l.movestogo = Some(n.min(u64::from(u32::MAX)) as u32))
                    .is_some(),
                // Our time manager plans with our own moves to go only.
                "oppmovestogo" => int(arg).is_some(),
                _ => {
                    used = 1;
                    notes.push(format!("go: unknown parameter '{}', ignored", words[i]));
                    true
                }
            };
            if !ok {
                notes.push(format!("go {w}: bad or missing value, ignored"));
            }
            i += used;
        }
        if !self.banned.is_empty() {
            l.searchmoves = self
                .s
                .pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| !self.banned.contains(m))
                .collect();
        }
        (l, draw, notes)
    }

    fn go(&mut self, words: &[&str]) {
        // `go perft N`, as in UCI: perft scripts send the same line to
        // every Stockfish-family engine whatever its protocol.
        if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("perft"))
        {
            self.s.extension("perft", &words[1..], RANKS);
            return;
        }
        let (limits, draw_offered, notes) = self.parse_go(words);
        for n in notes {
            self.s.note(&n);
        }
        // Every legal move banned: nothing to search.
        if !self.banned.is_empty() && limits.searchmoves.is_empty() {
            self.s.stop_and_wait();
            self.s.out.line("nobestmove");
            return;
        }
        // Stop the old search before its flag is reused for the new one.
        self.s.stop_and_wait();
        let flag = Arc::new(AtomicBool::new(draw_offered));
        self.draw_offered = Arc::clone(&flag);
        let (draw_cp, resign_cp) = (self.s.settings.draw_cp, self.s.settings.resign_cp);
        let out = self.s.out.clone();
        let done_out = self.s.out.clone();
        self.s.go(
            limits,
            Box::new(move |i: &SearchInfo| out.lines(info_lines(i))),
            Box::new(move |b: BestMove| {
                let v = ReportTerms {
                    draw_offered: flag.load(Ordering::Relaxed),
                    draw_cp,
                    resign_cp,
                };
                done_out.line(&bestmove_line(&b, v));
            }),
        );
    }

    /// `probe <position>`: what the hash table holds for a position.
    fn probe(&mut self, args: &str) {
        match self.s.parse_position(args, RANKS) {
            Ok(pos) => self.s.out.line(&pophash_line(self.s.probe_hash(&pos))),
            Err(e) => self.error(&format!("probe: {e}")),
        }
    }
}

/// `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]`;
/// an exact score is both bounds.
fn pophash_line(entry: Option<HashEntry>) -> String {
    let mut s = "pophash".to_string();
    let Some(e) = entry else { return s };
    if let Some(m) = e.best {
        s.push_str(&format!(" bestmove {}", move_text(m, RANKS)));
    }
    let v = score_value(e.score);
    let d = e.depth.max(0);
    if matches!(e.bound, Bound::Lower | Bound::Exact) {
        s.push_str(&format!(" lowerbound {v} depth {d}"));
    }
    if matches!(e.bound, Bound::Upper | Bound::Exact) {
        s.push_str(&format!(" upperbound {v} depth {d}"));
    }
    s
}

/// `info depth D score S pv …` and `info time T nodes N`.
fn info_lines(i: &SearchInfo) -> Vec<String> {
    let mut first = format!("info depth {} score {}", i.depth, score_value(i.score));
    match i.bound {
        Bound::Exact => {}
        Bound::Lower => first.push_str(" lowerbound"),
        Bound::Upper => first.push_str(" upperbound"),
    }
    if !i.pv.is_empty() {
        first.push_str(" pv");
        for &m in &i.pv {
            first.push(' ');
            first.push_str(&move_text(m, RANKS));
        }
    }
    vec![first, format!("info time {} nodes {}", i.time_ms, i.nodes)]
}

impl Protocol for Ucci {
    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let Some(CommandLine { cmd, rest, words }) = CommandLine::parse(line) else {
            return Flow::Continue;
        };
        match cmd.as_str() {
            "ucci" => self.announce(),
            "isready" => self.s.out.line("readyok"),
            "setoption" => self.setoption(&words[1..]),
            "position" => self.position(rest),
            "banmoves" => self.banmoves(&words[1..]),
            "go" => self.go(&words[1..]),
            "ponderhit" => {
                // `ponderhit draw`: the opponent offered a draw with the
                // move we pondered on; the final report answers it.
                if words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("draw")) {
                    self.draw_offered.store(true, Ordering::Relaxed);
                }
                self.s.ponderhit();
            }
            "stop" => self.s.stop(),
            "probe" => self.probe(rest),
            "quit" => return Flow::Quit,
            _ => {
                if !self.s.extension(&cmd, &words[1..], RANKS) {
                    self.error(&format!("unknown command '{line}'"));
                }
            }
        }
        Flow::Continue
    }

    fn search_done(&mut self, _id: u64, _best: BestMove) {}

    fn finish(&mut self, input_ended: bool) {
        if input_ended {
            self.s.stop_and_wait();
        } else {
            self.s.stop();
        }
        // The perft's lines come before `bye`: a script reads up to it.
        self.s.finish_perft();
        self.s.out.line("bye");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    #[test]
    fn mate_scores_are_large() {
        assert_eq!(score_value(Score::Mate(1)), 9999);
        assert_eq!(score_value(Score::Mate(-1)), -9998);
        assert_eq!(score_value(Score::Cp(35)), 35);
    }

    #[test]
    fn draw_and_resign() {
        let m = Position::startpos(movegen::Variant::Xiangqi).legal_moves()[0];
        let b = |score| BestMove {
            best: Some(m),
            ponder: None,
            score,
            depth: 5,
        };
        let v = ReportTerms {
            draw_offered: true,
            draw_cp: 0,
            resign_cp: 500,
        };
        assert!(bestmove_line(&b(Score::Cp(-10)), v).ends_with(" draw"));
        assert!(!bestmove_line(&b(Score::Cp(30)), v).ends_with(" draw"));
        assert!(bestmove_line(&b(Score::Cp(-600)), v).ends_with(" resign"));
        assert!(bestmove_line(&b(Score::Mate(-2)), v).ends_with(" resign"));
        let none = BestMove {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
        };
        assert_eq!(bestmove_line(&none, v), "nobestmove");
    }

    #[test]
    fn pophash_forms() {
        let m = Position::startpos(movegen::Variant::Xiangqi).legal_moves()[0];
        let e = |bound| HashEntry {
            best: Some(m),
            score: Score::Cp(12),
            bound,
            depth: 7,
        };
        assert_eq!(pophash_line(None), "pophash");
        let t = move_text(m, RANKS);
        assert_eq!(
            pophash_line(Some(e(Bound::Lower))),
            format!("pophash bestmove {t} lowerbound 12 depth 7")
        );
        assert_eq!(
            pophash_line(Some(e(Bound::Exact))),
            format!("pophash bestmove {t} lowerbound 12 depth 7 upperbound 12 depth 7")
        );
    }
}
