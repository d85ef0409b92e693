//! What the three protocol front-ends ([`crate::uci`], [`crate::ucci`],
//! [`crate::xboard`]) have in common: the [`Protocol`] trait the loop in
//! [`crate::detect`] drives, the split input line, the engine's name, how
//! moves, principal variations and best moves are written, and how GUI
//! clock times are read (docs/PROTOCOL.md §1–§5).

use movegen::{move_text, Move, Ranks};
use search::BestMove;

use crate::session::Session;

/// Engine name with version, as every protocol announces it.
pub const ENGINE_NAME: &str = concat!("Jiang ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const ENGINE_AUTHOR: &str = "the Jiang developers";

/// The answer to UCI's `uci` and UCCI's `ucci`: `id name`, `id author`,
/// the option lines, then `ok` (`uciok`, `ucciok`).
pub fn handshake(options: Vec<String>, ok: &str) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME}"),
        format!("id author {ENGINE_AUTHOR}"),
    ];
    lines.extend(options);
    lines.push(ok.to_string());
    lines
}

/// Whether the loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit`: end the session.
    Quit,
}

/// A protocol front-end.
pub trait Protocol {
    /// Handle one input line.
    fn handle(&mut self, line: &str) -> Flow;

    /// A search started by this front-end finished (search number,
    /// result), for front-ends that act on results in their own loop
    /// (XBoard plays the move on its board); the others print from the
    /// search's callback and ignore this.
    fn search_done(&mut self, _id: u64, _best: BestMove) {}

    /// The session state the front-end drives.
    fn session(&mut self) -> &mut Session;

    /// The last line the protocol prints when the session ends (UCCI's
    /// `bye`), if it has one.
    fn farewell(&self) -> Option<&'static str> {
        None
    }

    /// The session ends: after `quit` (`input_ended` false) stop any
    /// search without waiting for it; when input ended, stop the search
    /// and wait for its result. Either way a running perft finishes and
    /// prints its count first: perft is a measurement, not a search, and
    /// scripts pipe `go perft N` and `quit` and read the total, as
    /// Stockfish-family engines (which run perft synchronously) print it.
    /// The farewell comes last, since a script reads up to it.
    fn finish(&mut self, input_ended: bool) {
        let s = self.session();
        if input_ended {
            s.stop_and_wait();
        } else {
            s.stop();
        }
        s.finish_perft();
        if let Some(bye) = self.farewell() {
            self.session().out.line(bye);
        }
    }
}

/// One input line split for a protocol's dispatcher.
pub struct CommandLine<'a> {
    /// The first word, lower-cased (commands are matched without case).
    pub cmd: String,
    /// The text after the first word, as typed (FENs keep their case).
    pub rest: &'a str,
    /// All words of the line, the command first.
    pub words: Vec<&'a str>,
}

impl<'a> CommandLine<'a> {
    /// Split a line; `None` for a blank one.
    pub fn parse(line: &'a str) -> Option<CommandLine<'a>> {
        let line = line.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = *words.first()?;
        Some(CommandLine {
            cmd: first.to_ascii_lowercase(),
            rest: line[first.len()..].trim_start(),
            words,
        })
    }
}

/// How a protocol writes moves (docs/PROTOCOL.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStyle {
    /// UCI and UCCI: from and to points in these ranks; a Janggi pass is
    /// the general's point twice.
    Coords(Ranks),
    /// XBoard: ranks 0–9, a pass is `@@@@`.
    Xboard,
}

impl MoveStyle {
    /// One move's text.
    pub fn text(self, m: Move) -> String {
        match self {
            MoveStyle::Coords(ranks) => move_text(m, ranks),
            MoveStyle::Xboard if m.is_pass() => "@@@@".into(),
            MoveStyle::Xboard => move_text(m, Ranks::ZeroBased),
        }
    }

    /// A principal variation: the moves separated by blanks.
    pub fn pv(self, pv: &[Move]) -> String {
        let words: Vec<String> = pv.iter().map(|&m| self.text(m)).collect();
        words.join(" ")
    }

    /// `bestmove m [ponder m2]` for UCI and UCCI; `None` when the search
    /// had no move (each protocol says that its own way).
    pub fn bestmove(self, b: &BestMove) -> Option<String> {
        let best = b.best?;
        Some(match b.ponder {
            Some(p) => format!("bestmove {} ponder {}", self.text(best), self.text(p)),
            None => format!("bestmove {}", self.text(best)),
        })
    }
}

/// Append ` pv m1 m2 …` to an info line (nothing for an empty PV).
pub fn push_pv(line: &mut String, pv: &[Move], style: MoveStyle) {
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&style.pv(pv));
    }
}

/// Longest clock time or increment the protocols pass on, ms (about
/// 115 days). Larger values are clamped: they mean "no limit" to a GUI, and
/// the time manager's arithmetic needs headroom.
pub const MAX_CLOCK_MS: u64 = 10_000_000_000;

/// Clamp a time from the GUI to `0..=MAX_CLOCK_MS`.
pub fn clock_ms(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        0
    } else {
        v.min(MAX_CLOCK_MS as f64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Position, Variant};

    #[test]
    fn clocks_are_clamped() {
        assert_eq!(clock_ms(-5.0), 0);
        assert_eq!(clock_ms(f64::NAN), 0);
        assert_eq!(clock_ms(1500.7), 1500);
        assert_eq!(clock_ms(1e30), MAX_CLOCK_MS);
    }

    #[test]
    fn moves_in_each_style() {
        let pos = Position::startpos(Variant::Janggi);
        let pass = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_pass())
            .unwrap_or_else(|| panic!("Janggi has a pass"));
        assert_eq!(MoveStyle::Xboard.text(pass), "@@@@");
        assert_eq!(MoveStyle::Coords(Ranks::ZeroBased).text(pass), "e1e1");
        let xiangqi = Position::startpos(Variant::Xiangqi);
        let m = xiangqi.parse_move("h2e2", Ranks::ZeroBased);
        let m = m.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            MoveStyle::Coords(Ranks::OneBased).pv(&[m, pass]),
            "h3e3 e2e2"
        );
        let b = BestMove {
            best: Some(m),
            ponder: None,
            score: search::Score::Cp(0),
            depth: 1,
        };
        assert_eq!(
            MoveStyle::Coords(Ranks::ZeroBased).bestmove(&b),
            Some("bestmove h2e2".into())
        );
        let mut line = "info depth 1".to_string();
        push_pv(&mut line, &[], MoveStyle::Xboard);
        assert_eq!(line, "info depth 1");
    }
}
