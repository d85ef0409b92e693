//! UCI and UCCI as the referee speaks them: the handshake (`UCI_Variant`,
//! `usemillisec`), `position … moves …`, `go` with the clocks in each
//! protocol's words, and `bestmove` with the last reported score.

use std::time::Instant;

use movegen::Ranks;

use super::{Player, PlayerError, Reply, Request, HANDSHAKE, MATE_CP};
use crate::config::Proto;
use crate::engine_proc::ProcError;

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
        }
        self.ranks = self.cfg.ranks.unwrap_or(Ranks::ZeroBased);
        if self.flag_option {
            self.proc.send("setoption usemillisec true")?;
        }
        for (n, v) in self.cfg.options.clone() {
            self.proc.send(&format!("setoption {n} {v}"))?;
        }
        self.sync()
    }

    pub(super) fn go_uci(
        &mut self,
        req: &Request<'_>,
        deadline: Instant,
    ) -> Result<(Reply, Instant), ProcError> {
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
        self.proc.send(&pos_cmd)?;
        let go = if ucci {
            self.ucci_go(req)
        } else {
            self.uci_go(req)
        };
        self.proc.send(&go)?;
        let sent = Instant::now();
        let mut score = None;
        loop {
            let l = self.proc.recv_until(deadline)?;
            let t = l.text.trim();
            if t.starts_with("info") {
                if let Some(s) = info_score(t) {
                    score = Some(s);
                }
                continue;
            }
            if t == "nobestmove" {
                return Ok((Reply::NoMove { at: l.at }, sent));
            }
            if let Some(rest) = t.strip_prefix("bestmove") {
                let m = rest.split_whitespace().next().unwrap_or("");
                if m.is_empty() || m == "(none)" {
                    return Ok((Reply::NoMove { at: l.at }, sent));
                }
                return Ok((
                    Reply::Move {
                        text: m.to_string(),
                        at: l.at,
                        score,
                    },
                    sent,
                ));
            }
        }
    }

    fn uci_go(&self, req: &Request<'_>) -> String {
        let tc = &self.cfg.tc;
        let mut go = String::from("go");
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

    fn ucci_go(&self, req: &Request<'_>) -> String {
        let tc = &self.cfg.tc;
        // Milliseconds: engines that advertise `usemillisec` were switched
        // to them at start, and current engines that do not advertise it
        // (Fairy-Stockfish in UCCI mode) read milliseconds anyway.
        let unit = |ms: i64| ms.max(1);
        let mut go = String::from("go");
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
