//! UCI and UCCI as the referee speaks them: the handshake (`UCI_Variant`,
//! `usemillisec`, `Ponder`), `position … moves …`, `go` with the clocks in
//! each protocol's words, `bestmove` with the last reported score and the
//! predicted reply, and the ponder searches: `go ponder …`, then
//! `ponderhit`, or `stop` and a new search.

use std::time::{Duration, Instant};

use movegen::Ranks;

use super::{
    ends_uci_search, GoError, Player, PlayerError, Reply, Request, HANDSHAKE, MATE_CP, PONDER_GRACE,
};
use crate::config::{Proto, TimeControl};
use crate::engine_proc::{Line, ProcError};

/// The answer in a `bestmove` line (the words after `bestmove`): a move
/// and the predicted reply (`m ponder p`), or no move (`(none)`, nothing).
fn bestmove_reply(rest: &str, at: Instant, score: Option<i32>) -> Reply {
    let mut words = rest.split_whitespace();
    let m = words.next().unwrap_or("");
    if m.is_empty() || m == "(none)" {
        return Reply::NoMove { at };
    }
    let ponder = match (words.next(), words.next()) {
        (Some("ponder"), Some(p)) => Some(p.to_string()),
        _ => None,
    };
    Reply::Move {
        text: m.to_string(),
        at,
        score,
        ponder,
    }
}

/// Score from an engine info line (UCI `score cp X` / `score mate N`,
/// UCCI `score X`).
fn info_score(line: &str) -> Option<i32> {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == "score" {
            let a = it.next()?;
            return match a {
                "cp" => it.next()?.parse().ok(),
                "mate" => {
                    let n: i32 = it.next()?.parse().ok()?;
                    Some(if n > 0 { MATE_CP - n } else { -MATE_CP - n })
                }
                v => v.parse().ok(),
            };
        }
    }
    None
}

impl Player {
    pub(super) fn start_uci(&mut self) -> Result<(), PlayerError> {
        self.proc.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = self.proc.recv_until(deadline)?;
            let t = l.text.trim();
            if t == "uciok" {
                break;
            }
            if t.starts_with("option name Ponder ") {
                self.ponder_option = true;
            }
            if t.starts_with("option name UCI_Variant ") {
                self.flag_option = true;
                if !t.contains(self.variant.name()) && !t.contains("type string") {
                    return Err(PlayerError::Unsupported(format!(
                        "{} does not list variant {}",
                        self.cfg.name, self.variant
                    )));
                }
            }
        }
        // Fairy-Stockfish-style engines switch to ranks 1–10 once told the
        // variant; others (Pikafish style) use ICCS ranks 0–9.
        self.ranks = self.cfg.ranks.unwrap_or(if self.flag_option {
            Ranks::OneBased
        } else {
            Ranks::ZeroBased
        });
        if self.flag_option {
            self.proc.send(&format!(
                "setoption name UCI_Variant value {}",
                self.variant.name()
            ))?;
        }
        // As cutechess-cli does: engines that offer `Ponder` may want it
        // set before they accept `go ponder` (the user's options follow and
        // may say otherwise).
        if self.ponder_option && self.cfg.ponder {
            self.proc.send("setoption name Ponder value true")?;
        }
        for (n, v) in self.cfg.options.clone() {
            self.proc.send(&format!("setoption name {n} value {v}"))?;
        }
        self.sync()
    }

    pub(super) fn start_ucci(&mut self) -> Result<(), PlayerError> {
        self.proc.send("ucci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = self.proc.recv_until(deadline)?;
            let t = l.text.trim();
            if t == "ucciok" {
                break;
            }
            if t.starts_with("option usemillisec") {
                self.flag_option = true;
            }
            if t.starts_with("option ponder ") {
                self.ponder_option = true;
            }
        }
        self.ranks = self.cfg.ranks.unwrap_or(Ranks::ZeroBased);
        if self.flag_option {
            self.proc.send("setoption usemillisec true")?;
        }
        if self.ponder_option && self.cfg.ponder {
            self.proc.send("setoption ponder true")?;
        }
        for (n, v) in self.cfg.options.clone() {
            self.proc.send(&format!("setoption {n} {v}"))?;
        }
        self.sync()
    }

    /// Ask for a move: resolve a ponder search (`ponderhit` on a hit;
    /// `stop`, its answer dropped, and a new search on a miss) or start a
    /// search, and read its answer. The `Instant` is when the engine's
    /// clock started.
    pub(super) fn go_uci(
        &mut self,
        req: &Request<'_>,
        allowance: Duration,
    ) -> Result<(Reply, Instant), GoError> {
        let (started, deadline) = match self.pondering.take() {
            Some(p) if p.is_hit(req.moves) => {
                self.ponder_stats.hits += 1;
                // Stamped before it is sent: an answer stamped earlier
                // was certainly written before the engine saw it.
                let hit_at = Instant::now();
                self.proc.send("ponderhit")?;
                let reply = self.read_bestmove(hit_at + allowance)?;
                // The search may have ended before the `ponderhit` went
                // out: its answer is the move all the same, in no time.
                if reply.at() < hit_at {
                    self.ponder_stats.early_hits += 1;
                }
                return Ok((reply, hit_at));
            }
            Some(_) => {
                self.ponder_stats.misses += 1;
                if self.stop_ponder()? {
                    self.ponder_stats.early_misses += 1;
                }
                // The clock runs from the new `go`, as for any search, so
                // that the clock the engine is told is the one it has: the
                // wait for the stopped search (bounded, a hang past it) is
                // the referee's, and on a loaded machine it takes tens of
                // milliseconds, which an engine cannot know of.
                self.timed_search(req, allowance)?
            }
            None => self.timed_search(req, allowance)?,
        };
        Ok((self.read_bestmove(deadline)?, started))
    }

    /// [`send_search`](Self::send_search) for a move: returns when it went
    /// out (the clock's start) and the deadline, fixed before the position
    /// line is written so that writing it is not charged twice.
    fn timed_search(
        &mut self,
        req: &Request<'_>,
        allowance: Duration,
    ) -> Result<(Instant, Instant), GoError> {
        let deadline = Instant::now() + allowance;
        self.send_search(req, false)?;
        Ok((Instant::now(), deadline))
    }

    /// `position … moves …` and `go [ponder] …`, after checking that no
    /// answer is left over from an earlier search. A pondering engine gets
    /// an `isready` first, whose `readyok` the readers expect before the
    /// search's answer: one before it is a stray answer, caught for certain
    /// (an engine writes a second answer for one search right after the
    /// first, before it reads the `isready`), where the look at the lines
    /// already read could miss it by microseconds. Not waiting for the
    /// `readyok` here keeps the round trip off the game.
    fn send_search(&mut self, req: &Request<'_>, ponder: bool) -> Result<(), GoError> {
        if let Some(line) = self.proc.drain_find(ends_uci_search) {
            return Err(self.stray(line));
        }
        if self.ponders() {
            self.proc.send("isready")?;
            self.readyok_pending = true;
        }
        let pos_cmd = self.position_command(req);
        self.proc.send(&pos_cmd)?;
        let go = if self.cfg.proto == Proto::Ucci {
            ucci_go(&self.cfg.tc, req, ponder)
        } else {
            uci_go(&self.cfg.tc, req, ponder)
        };
        self.proc.send(&go)?;
        Ok(())
    }

    /// Count a stray answer and make it the error.
    fn stray(&mut self, line: String) -> GoError {
        self.ponder_stats.stray_moves += 1;
        GoError::StrayMove(line)
    }

    /// The next line of a search's output, with the `readyok` that
    /// [`send_search`](Self::send_search) asked for taken out; an answer
    /// before that `readyok` is a stray one.
    fn next_search_line(&mut self, deadline: Instant) -> Result<Line, GoError> {
        loop {
            let l = self.proc.recv_until(deadline)?;
            if !self.readyok_pending {
                return Ok(l);
            }
            if l.text.trim() == "readyok" {
                self.readyok_pending = false;
            } else if ends_uci_search(&l.text) {
                return Err(self.stray(l.text));
            }
        }
    }

    /// `go ponder` on the position of `req` (its moves end with the
    /// predicted reply).
    pub(super) fn start_ponder_uci(&mut self, req: &Request<'_>) -> Result<(), GoError> {
        self.send_search(req, true)
    }

    /// Stop the ponder search and drop its answer. Returns whether the
    /// answer came before the `stop` (an early one).
    pub(super) fn stop_ponder(&mut self) -> Result<bool, GoError> {
        // Stamped before it is sent, as the `ponderhit` is.
        let stop_at = Instant::now();
        self.proc.send("stop")?;
        let deadline = stop_at + PONDER_GRACE;
        loop {
            match self.next_search_line(deadline) {
                Ok(l) if ends_uci_search(&l.text) => return Ok(l.at < stop_at),
                Ok(_) => {}
                Err(GoError::Proc(ProcError::Timeout)) => {
                    self.ponder_stats.unanswered_stops += 1;
                    return Err(GoError::PonderStopIgnored);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `position startpos|fen … [moves …]` (UCCI always with a FEN).
    fn position_command(&self, req: &Request<'_>) -> String {
        let ucci = self.cfg.proto == Proto::Ucci;
        let mut pos_cmd = String::with_capacity(64 + 6 * req.moves.len());
        let start_fen = req.start.to_fen();
        if !ucci && start_fen == self.variant.start_fen() {
            pos_cmd.push_str("position startpos");
        } else {
            pos_cmd.push_str("position fen ");
            pos_cmd.push_str(&start_fen);
        }
        if !req.moves.is_empty() {
            pos_cmd.push_str(" moves");
            for &m in req.moves {
                pos_cmd.push(' ');
                pos_cmd.push_str(&self.text(m));
            }
        }
        pos_cmd
    }

    /// Lines until the search's answer; `info` lines give the score.
    fn read_bestmove(&mut self, deadline: Instant) -> Result<Reply, GoError> {
        let mut score = None;
        loop {
            let l = self.next_search_line(deadline)?;
            let t = l.text.trim();
            if t.starts_with("info") {
                if let Some(s) = info_score(t) {
                    score = Some(s);
                }
                continue;
            }
            if t == "nobestmove" {
                return Ok(Reply::NoMove { at: l.at });
            }
            if let Some(rest) = t.strip_prefix("bestmove") {
                return Ok(bestmove_reply(rest, l.at, score));
            }
        }
    }
}

/// UCI's `go [ponder] wtime … btime … winc … binc … [movestogo …]
/// [movetime …] [nodes …] [depth …]`.
fn uci_go(tc: &TimeControl, req: &Request<'_>, ponder: bool) -> String {
    let mut go = String::from(if ponder { "go ponder" } else { "go" });
    if tc.clock.is_some() {
        let (red, black) = if req.first_player {
            (req.own, req.opp)
        } else {
            (req.opp, req.own)
        };
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            red.remaining_ms.max(1),
            black.remaining_ms.max(1),
            red.inc_ms,
            black.inc_ms
        ));
        if let Some(n) = req.own.moves_to_go {
            go.push_str(&format!(" movestogo {n}"));
        }
    }
    if let Some(st) = tc.movetime_ms {
        go.push_str(&format!(" movetime {st}"));
    }
    if let Some(n) = tc.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = tc.depth {
        go.push_str(&format!(" depth {d}"));
    }
    go
}

/// UCCI's `go [ponder] [depth …|nodes …] time … increment|movestogo …
/// opptime … oppincrement|oppmovestogo …`.
fn ucci_go(tc: &TimeControl, req: &Request<'_>, ponder: bool) -> String {
    // Milliseconds: engines that advertise `usemillisec` were switched
    // to them at start, and current engines that do not advertise it
    // (Fairy-Stockfish in UCCI mode) read milliseconds anyway.
    let unit = |ms: i64| ms.max(1);
    let mut go = String::from(if ponder { "go ponder" } else { "go" });
    if let Some(d) = tc.depth {
        go.push_str(&format!(" depth {d}"));
    } else if let Some(n) = tc.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if tc.clock.is_some() {
        go.push_str(&format!(" time {}", unit(req.own.remaining_ms)));
        match req.own.moves_to_go {
            Some(n) => go.push_str(&format!(" movestogo {n}")),
            None => go.push_str(&format!(" increment {}", unit(req.own.inc_ms as i64))),
        }
        go.push_str(&format!(" opptime {}", unit(req.opp.remaining_ms)));
        match req.opp.moves_to_go {
            Some(n) => go.push_str(&format!(" oppmovestogo {n}")),
            None => go.push_str(&format!(" oppincrement {}", unit(req.opp.inc_ms as i64))),
        }
    } else if let Some(st) = tc.movetime_ms {
        // UCCI has no fixed move time: one move left on a clock of `st`.
        go.push_str(&format!(" time {} movestogo 1", unit(st as i64)));
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Clock;
    use crate::player::ClockView;

    #[test]
    fn scores() {
        assert_eq!(info_score("info depth 3 score cp -25 nodes 5"), Some(-25));
        assert_eq!(
            info_score("info depth 3 score mate 2 pv a"),
            Some(MATE_CP - 2)
        );
        assert_eq!(info_score("info depth 3 score 40 pv"), Some(40));
        assert_eq!(info_score("info string hi"), None);
    }

    fn request<'a>(start: &'a movegen::Position, first_player: bool) -> Request<'a> {
        let clock = |remaining_ms| ClockView {
            remaining_ms,
            inc_ms: 20,
            moves_to_go: None,
        };
        Request {
            start,
            moves: &[],
            own: clock(1500),
            opp: clock(900),
            first_player,
        }
    }

    #[test]
    fn go_commands_with_and_without_ponder() {
        let start = movegen::Position::startpos(movegen::Variant::Xiangqi);
        let tc = TimeControl {
            clock: Some(Clock {
                moves: None,
                base_ms: 2000,
                inc_ms: 20,
            }),
            ..TimeControl::default()
        };
        // The ponder search gets the clocks a normal search would: the
        // engine's own as it stands, as the side to move after the guess.
        assert_eq!(
            uci_go(&tc, &request(&start, false), true),
            "go ponder wtime 900 btime 1500 winc 20 binc 20"
        );
        assert_eq!(
            uci_go(&tc, &request(&start, true), false),
            "go wtime 1500 btime 900 winc 20 binc 20"
        );
        assert_eq!(
            ucci_go(&tc, &request(&start, true), true),
            "go ponder time 1500 increment 20 opptime 900 oppincrement 20"
        );
        assert_eq!(
            ucci_go(&tc, &request(&start, true), false),
            "go time 1500 increment 20 opptime 900 oppincrement 20"
        );
    }

    #[test]
    fn bestmove_lines() {
        let at = Instant::now();
        let m = bestmove_reply(" h2e2 ponder h9g7", at, Some(3));
        assert!(matches!(
            m,
            Reply::Move { ref text, ponder: Some(ref p), score: Some(3), .. }
                if text == "h2e2" && p == "h9g7"
        ));
        for (rest, want) in [
            (" h2e2", None),
            (" h2e2 ponder", None),
            (" h2e2 draw", None),
        ] {
            let Reply::Move { ponder, .. } = bestmove_reply(rest, at, None) else {
                panic!("{rest}: not a move");
            };
            assert_eq!(ponder, want, "{rest}");
        }
        assert!(matches!(
            bestmove_reply(" (none)", at, None),
            Reply::NoMove { .. }
        ));
        assert!(matches!(bestmove_reply("", at, None), Reply::NoMove { .. }));
    }
}
