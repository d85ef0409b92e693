//! XBoard (CECP protocol 2) as the referee speaks it: the feature
//! handshake, `level`/`st`/`sd`, force mode and `go`, `time`/`otim` before
//! each move, `@@@@` for a pass, and the engine's claims and refusals.

use std::time::{Duration, Instant};

use movegen::{Move, Position, Ranks};

use super::{Player, PlayerError, Reply, Request, HANDSHAKE, MATE_CP};
use crate::engine_proc::ProcError;

/// What the handshake and the game so far taught us about an XBoard engine.
#[derive(Default)]
pub(super) struct XboardState {
    /// Moves go as `usermove m`, not bare.
    usermove: bool,
    /// It takes `setboard FEN`.
    setboard: bool,
    /// It answers `ping N` (used to sync).
    pub(super) ping: bool,
    /// Its FENs use `H`/`E` for horse and elephant.
    letters: bool,
    /// Moves of the current game the engine knows.
    known: usize,
    /// The engine is not in force mode (it plays its side).
    pub(super) playing: bool,
    /// The `variant` word it is sent.
    variant: Option<String>,
}

/// The value of feature `name` in a `feature …` line (quoted or bare).
fn xboard_feature_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let pat = format!("{name}=");
    let mut rest = line;
    while let Some(p) = rest.find(&pat) {
        let boundary = p == 0 || rest.as_bytes()[p - 1] == b' ';
        let after = &rest[p + pat.len()..];
        if boundary {
            if let Some(q) = after.strip_prefix('"') {
                return q.split('"').next();
            }
            return after.split_whitespace().next();
        }
        rest = after;
    }
    None
}

/// Score from an XBoard thinking line `ply score time nodes pv…`.
fn xboard_score(line: &str) -> Option<i32> {
    let mut it = line.split_whitespace();
    let ply = it.next()?;
    ply.trim_end_matches(['.', '&', '?', '!'])
        .parse::<u32>()
        .ok()?;
    let score: i64 = it.next()?.parse().ok()?;
    it.next()?.parse::<u64>().ok()?;
    Some(score.clamp(-(MATE_CP as i64), MATE_CP as i64) as i32)
}

impl Player {
    pub(super) fn start_xboard(&mut self) -> Result<(), PlayerError> {
        let tc = self.cfg.tc;
        if tc.clock.is_none() && tc.movetime_ms.is_none() && tc.depth.is_none() {
            // XBoard has no node limit (`nps` changes the clock's meaning
            // instead); refuse rather than let the engine think unbounded.
            return Err(PlayerError::Unsupported(format!(
                "{}: XBoard engines need tc=, st= or depth= (nodes= alone is not supported)",
                self.cfg.name
            )));
        }
        self.proc.send("xboard")?;
        self.proc.send("protover 2")?;
        let mut deadline = Instant::now() + Duration::from_secs(2);
        let mut variants: Option<String> = None;
        loop {
            let l = match self.proc.recv_until(deadline) {
                Ok(l) => l,
                // Protocol-1 engines never send `done`: go on after 2 s.
                Err(ProcError::Timeout) => break,
                Err(e) => return Err(e.into()),
            };
            let t = l.text.trim();
            if !t.starts_with("feature ") {
                continue;
            }
            for (name, flag) in [("usermove", 0), ("setboard", 1), ("ping", 2)] {
                if let Some(v) = xboard_feature_value(t, name) {
                    let on = v == "1";
                    match flag {
                        0 => self.xb.usermove = on,
                        1 => self.xb.setboard = on,
                        _ => self.xb.ping = on,
                    }
                    self.proc.send(&format!("accepted {name}"))?;
                }
            }
            if let Some(v) = xboard_feature_value(t, "variants") {
                variants = Some(v.to_string());
            }
            match xboard_feature_value(t, "done") {
                Some("1") => break,
                // done=0: the engine needs time to start; wait longer.
                Some("0") => deadline = Instant::now() + HANDSHAKE,
                _ => {}
            }
        }
        let wanted = self.xboard_variant_name(variants.as_deref())?;
        self.xb.letters = self.cfg.xboard_letters.unwrap_or(false);
        self.ranks = self.cfg.ranks.unwrap_or(Ranks::ZeroBased);
        if let Some(v) = &wanted {
            self.proc.send(&format!("variant {v}"))?;
        }
        self.xb.variant = wanted;
        for (n, v) in self.cfg.options.clone() {
            self.proc.send(&format!("option {n}={v}"))?;
        }
        self.sync()
    }

    /// The `variant` word for XBoard, `None` when the engine lists none.
    fn xboard_variant_name(&self, list: Option<&str>) -> Result<Option<String>, PlayerError> {
        let Some(list) = list else {
            return Ok(None);
        };
        let names: Vec<&str> = list.split(',').map(str::trim).collect();
        let own = self.variant.name();
        if names.contains(&own) {
            return Ok(Some(own.to_string()));
        }
        if self.variant.is_janggi() && names.contains(&"janggi") {
            return Ok(Some("janggi".to_string()));
        }
        Err(PlayerError::Unsupported(format!(
            "{} does not play {} (variants: {list})",
            self.cfg.name, self.variant
        )))
    }

    fn send_xboard_tc(&mut self) -> Result<(), PlayerError> {
        let tc = self.cfg.tc;
        if let Some(c) = tc.clock {
            let secs = c.base_ms / 1000;
            let base = if c.base_ms % 1000 == 0 {
                format!("{}:{:02}", secs / 60, secs % 60)
            } else {
                // Sub-second bases: XBoard's `level` takes minutes, so
                // write fractional minutes (engines parse a float).
                format!("{}", c.base_ms as f64 / 60_000.0)
            };
            let inc = c.inc_ms as f64 / 1000.0;
            self.proc
                .send(&format!("level {} {base} {inc}", c.moves.unwrap_or(0)))?;
        } else if let Some(st) = tc.movetime_ms {
            let s = if st % 1000 == 0 {
                format!("{}", st / 1000)
            } else {
                format!("{}", st as f64 / 1000.0)
            };
            self.proc.send(&format!("st {s}"))?;
        }
        if let Some(d) = tc.depth {
            self.proc.send(&format!("sd {d}"))?;
        }
        Ok(())
    }

    /// Ask for a move: the answer, and when the request went out.
    pub(super) fn go_xboard(
        &mut self,
        req: &Request<'_>,
        deadline: Instant,
    ) -> Result<(Reply, Instant), ProcError> {
        let pending: Vec<Move> = req.moves[self.xb.known.min(req.moves.len())..].to_vec();
        self.send_pending(req, &pending)?;
        let sent = Instant::now();
        self.xb.known = req.moves.len();
        let last_sent = pending.last().map(|&m| self.text(m));
        let reply = self.read_xboard_reply(deadline, last_sent.as_deref())?;
        if matches!(reply, Reply::Move { .. }) {
            self.xb.known += 1;
        }
        Ok((reply, sent))
    }

    /// The moves the engine has not seen and the clocks: an engine already
    /// playing its side gets its opponent's one move; otherwise it is put
    /// in force mode, given the moves and told to `go`.
    fn send_pending(&mut self, req: &Request<'_>, pending: &[Move]) -> Result<(), ProcError> {
        if self.xb.playing && pending.len() == 1 {
            self.send_xboard_clocks(req)?;
            return self.send_xboard_move(pending[0]);
        }
        if self.xb.playing {
            self.proc.send("force")?;
        }
        for &m in pending {
            self.send_xboard_move(m)?;
        }
        self.send_xboard_clocks(req)?;
        self.proc.send("go")?;
        self.xb.playing = true;
        Ok(())
    }

    /// `time` and `otim` in centiseconds, when the game has a clock.
    fn send_xboard_clocks(&mut self, req: &Request<'_>) -> Result<(), ProcError> {
        if self.cfg.tc.clock.is_some() {
            self.proc
                .send(&format!("time {}", (req.own.remaining_ms.max(1) + 9) / 10))?;
            self.proc
                .send(&format!("otim {}", (req.opp.remaining_ms.max(1) + 9) / 10))?;
        }
        Ok(())
    }

    /// Lines until a move, a refusal of `last_sent` or a claim; thinking
    /// lines give the score.
    fn read_xboard_reply(
        &mut self,
        deadline: Instant,
        last_sent: Option<&str>,
    ) -> Result<Reply, ProcError> {
        let mut score = None;
        loop {
            let l = self.proc.recv_until(deadline)?;
            let t = l.text.trim();
            if let Some(m) = t.strip_prefix("move ") {
                return Ok(Reply::Move {
                    text: m.trim().to_string(),
                    at: l.at,
                    score,
                    // XBoard engines ponder by themselves (`hard`).
                    ponder: None,
                });
            }
            // A generic `Error` line may answer any earlier command (an
            // unsupported `post`, say); only one naming our last move is a
            // refusal of that move.
            let about_our_move = last_sent.is_some_and(|m| t.contains(m));
            if t.starts_with("Illegal move") || (t.starts_with("Error") && about_our_move) {
                return Ok(Reply::Rejected {
                    text: t.to_string(),
                    at: l.at,
                });
            }
            let claim = ["1-0", "0-1", "1/2-1/2"].iter().any(|r| t.starts_with(r));
            if t == "resign" || claim {
                return Ok(Reply::Claim {
                    text: t.to_string(),
                    at: l.at,
                });
            }
            if let Some(s) = xboard_score(t) {
                score = Some(s);
            }
        }
    }

    fn send_xboard_move(&mut self, m: Move) -> Result<(), ProcError> {
        let t = self.text(m);
        if self.xb.usermove {
            self.proc.send(&format!("usermove {t}"))
        } else {
            self.proc.send(&t)
        }
    }

    /// XBoard's new game: `new`, the variant again, force mode, `hard` or
    /// `easy` (pondering), the time control, and `setboard` when the game
    /// does not start from the initial position.
    pub(super) fn new_game_xboard(&mut self, start: &Position) -> Result<(), PlayerError> {
        self.proc.send("new")?;
        // `new` resets the variant in XBoard engines: send it again.
        if let Some(v) = self.xb.variant.clone() {
            self.proc.send(&format!("variant {v}"))?;
        }
        self.proc.send("force")?;
        self.proc.send("post")?;
        // `easy` too: some engines ponder unless told not to, and then
        // think on the opponent's time in a match without pondering.
        self.proc
            .send(if self.cfg.ponder { "hard" } else { "easy" })?;
        self.send_xboard_tc()?;
        if start.to_fen() != self.variant.start_fen() {
            if !self.xb.setboard {
                return Err(PlayerError::Unsupported(format!(
                    "{} cannot set up positions (no setboard feature)",
                    self.cfg.name
                )));
            }
            self.proc
                .send(&format!("setboard {}", start.to_fen_with(self.xb.letters)))?;
        }
        self.xb.known = 0;
        self.xb.playing = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(xboard_score(" 5 -31 12 4000 h2e2 h9g7"), Some(-31));
        assert_eq!(xboard_score("tellics say hi"), None);
    }

    #[test]
    fn features() {
        let l = r#"feature setboard=1 myname="X Y" variants="xiangqi,janggi" done=1"#;
        assert_eq!(xboard_feature_value(l, "variants"), Some("xiangqi,janggi"));
        assert_eq!(xboard_feature_value(l, "setboard"), Some("1"));
        assert_eq!(xboard_feature_value(l, "done"), Some("1"));
        assert_eq!(xboard_feature_value(l, "board"), None);
    }
}
