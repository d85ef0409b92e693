//! UCCI front-end (Chinese Xiangqi GUIs, ElephantEye-style; docs/PROTOCOL.md §4).
//!
//! Ranks 0–9 always. Options have no `name`/`value` keywords. Times in
//! `go` are milliseconds unless `setoption usemillisec false` switches
//! them to seconds. `bestmove` may carry `draw` (accepting or offering a
//! draw) or `resign`; `nobestmove` when there is nothing to play.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use movegen::{Move, Ranks};
use search::{BestMove, Bound, HashEntry, Limits, Score, SearchInfo};

use crate::io::Out;
use crate::options::text::ucci_lines;
use crate::options::{Dialect, EndRule, OptionError};
use crate::protocol::{clock_ms, handshake, push_pv, CommandLine, Flow, MoveStyle, Protocol};
use crate::session::Session;

const RANKS: Ranks = Ranks::ZeroBased;
const STYLE: MoveStyle = MoveStyle::Coords(RANKS);

/// UCCI's mate value: a mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 10_000;

/// Standard UCCI options that do not apply to Jiang: accepted with a note
/// (the options that do apply are rows of the option table).
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
    banned: Vec<Move>,
    /// The opponent offered a draw for the running search (`go draw`, or
    /// `ponderhit draw` after the search started).
    draw_offered: Arc<AtomicBool>,
}

/// `bestmove m [ponder m2] [resign|draw]`, or `nobestmove`; whether to
/// resign or accept an offered draw is the one rule of [`EndRule`].
fn bestmove_line(b: &BestMove, rule: EndRule, draw_offered: bool) -> String {
    let Some(mut s) = STYLE.bestmove(b) else {
        return "nobestmove".into();
    };
    if rule.resigns(b.score) {
        s.push_str(" resign");
    } else if draw_offered && rule.accepts_draw(b.score) {
        s.push_str(" draw");
    }
    s
}

impl Ucci {
    /// A new UCCI session writing to `out`.
    pub fn new(out: Out) -> Ucci {
        Ucci {
            s: Session::new(out),
            banned: Vec::new(),
            draw_offered: Arc::default(),
        }
    }

    fn error(&self, text: &str) {
        self.s.note(&format!("error: {text}"));
    }

    fn announce(&self) {
        self.s.out.lines(handshake(ucci_lines(), "ucciok"));
    }

    fn setoption(&mut self, words: &[&str]) {
        let Some(name) = words.first() else {
            return self.error("setoption: missing option name");
        };
        let value = words[1..].join(" ");
        match self.s.set_option(name, &value, Dialect::Ucci) {
            Ok(_) => {}
            Err(OptionError::Unknown(_))
                if IGNORED.contains(&name.to_ascii_lowercase().as_str()) =>
            {
                self.s.note(&format!(
                    "option '{name}' does not apply to this engine; ignored"
                ));
            }
            Err(e) => self.error(&e.to_string()),
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
        let scale = if self.s.settings.use_millisec {
            1.0
        } else {
            1000.0
        };
        let time = |t: Option<&&str>| {
            t.and_then(|t| t.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map(|v| clock_ms(v * scale))
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
        let rule = self.s.settings.end;
        let out = self.s.out.clone();
        let done_out = self.s.out.clone();
        self.s.go(
            limits,
            Box::new(move |i: &SearchInfo| out.lines(info_lines(i))),
            Box::new(move |b: BestMove| {
                let offered = flag.load(Ordering::Relaxed);
                done_out.line(&bestmove_line(&b, rule, offered));
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
        s.push_str(&format!(" bestmove {}", STYLE.text(m)));
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
    push_pv(&mut first, &i.pv, STYLE);
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

    fn session(&mut self) -> &mut Session {
        &mut self.s
    }

    fn farewell(&self) -> Option<&'static str> {
        Some("bye")
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
        let v = EndRule {
            draw_cp: 0,
            resign_cp: 500,
        };
        assert!(bestmove_line(&b(Score::Cp(-10)), v, true).ends_with(" draw"));
        assert!(!bestmove_line(&b(Score::Cp(-10)), v, false).ends_with(" draw"));
        assert!(!bestmove_line(&b(Score::Cp(30)), v, true).ends_with(" draw"));
        assert!(bestmove_line(&b(Score::Cp(-600)), v, true).ends_with(" resign"));
        assert!(bestmove_line(&b(Score::Mate(-2)), v, true).ends_with(" resign"));
        // Resign Score 0 never resigns, not even when mated.
        let never = EndRule::default();
        assert!(!bestmove_line(&b(Score::Mate(-2)), never, false).contains("resign"));
        let none = BestMove {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
        };
        assert_eq!(bestmove_line(&none, v, true), "nobestmove");
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
        let t = STYLE.text(m);
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
