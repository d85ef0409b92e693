//! A [`Player`]: an engine as the referee sees it — start, new game, "your
//! move", quit — translated to UCI, UCCI or XBoard. (Not search's
//! `Engine`: a player is any engine program, run as a child process.)
//!
//! Each protocol's details (rank convention, FEN letters, time units, move
//! text of a pass) stay in here; the game loop only deals in [`Move`]s and
//! milliseconds.

use std::fmt;
use std::time::{Duration, Instant};

use movegen::{move_text, Move, Position, Ranks, Variant};

use crate::config::{EngineConfig, Proto, TimeControl};
use crate::engine_proc::{EngineProc, ProcError};

/// How long an engine may take to start up and answer the handshake.
const HANDSHAKE: Duration = Duration::from_secs(15);
/// How long `isready` / `ping` may take (a big hash table may be cleared).
const READY: Duration = Duration::from_secs(30);

/// Why a player (an engine program) could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The process failed, hung or vanished.
    Proc(ProcError),
    /// The engine does not play the variant.
    Unsupported(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Proc(e) => e.fmt(f),
            PlayerError::Unsupported(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for PlayerError {}

impl From<ProcError> for PlayerError {
    fn from(e: ProcError) -> Self {
        PlayerError::Proc(e)
    }
}

/// One side's clock as the engine is told it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClockView {
    /// Time left in milliseconds (clamped at zero when sent).
    pub remaining_ms: i64,
    /// Increment in milliseconds.
    pub inc_ms: u64,
    /// Moves until the next time control, if the clock has periods.
    pub moves_to_go: Option<u32>,
}

/// What the referee asks for a move.
pub struct Request<'a> {
    /// Position the game started from (with no history).
    pub start: &'a Position,
    /// Moves played since.
    pub moves: &'a [Move],
    /// The engine's own clock.
    pub own: ClockView,
    /// The opponent's clock.
    pub opp: ClockView,
    /// Whether the engine plays the first player (Red / Cho).
    pub first_player: bool,
}

/// What the engine answered.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A move (text as the engine wrote it, not yet checked).
    Move {
        /// Move text.
        text: String,
        /// When it arrived.
        at: Instant,
        /// Last score it reported, centipawns from its own view.
        score: Option<i32>,
    },
    /// It says it has no move (`bestmove (none)`, `nobestmove`).
    NoMove {
        /// When it arrived.
        at: Instant,
    },
    /// XBoard: it claimed a result or resigned instead of moving.
    Claim {
        /// The claim line.
        text: String,
        /// When it arrived.
        at: Instant,
    },
    /// XBoard: it refused a move we sent as illegal.
    Rejected {
        /// The error line.
        text: String,
        /// When it arrived.
        at: Instant,
    },
}

impl Reply {
    /// When the answer arrived.
    pub fn at(&self) -> Instant {
        match self {
            Reply::Move { at, .. }
            | Reply::NoMove { at }
            | Reply::Claim { at, .. }
            | Reply::Rejected { at, .. } => *at,
        }
    }
}

/// Large values engines use for mate scores, mapped into centipawns.
const MATE_CP: i32 = 30_000;

/// A running engine program in a match: its process and what the
/// handshake taught us about its protocol.
pub struct Player {
    proc: EngineProc,
    cfg: EngineConfig,
    variant: Variant,
    ranks: Ranks,
    /// UCI: engine has a `UCI_Variant` option (Fairy-Stockfish style).
    /// UCCI: engine advertises `usemillisec` (and is told to use it).
    flag_option: bool,
    /// XBoard features.
    xb: XboardState,
    ping: u32,
}

#[derive(Default)]
struct XboardState {
    usermove: bool,
    setboard: bool,
    ping: bool,
    letters: bool,
    /// Moves of the current game the engine knows.
    known: usize,
    /// The engine is not in force mode (it plays its side).
    playing: bool,
    /// The `variant` word it is sent.
    variant: Option<String>,
}

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
    /// Start the engine and finish its handshake for `variant`.
    pub fn start(cfg: &EngineConfig, variant: Variant, debug: bool) -> Result<Player, PlayerError> {
        let proc = EngineProc::spawn(&cfg.launch, &cfg.name, debug)?;
        let mut e = Player {
            proc,
            cfg: cfg.clone(),
            variant,
            ranks: Ranks::ZeroBased,
            flag_option: false,
            xb: XboardState::default(),
            ping: 0,
        };
        match cfg.proto {
            Proto::Uci => e.start_uci()?,
            Proto::Ucci => e.start_ucci()?,
            Proto::Xboard => e.start_xboard()?,
        }
        Ok(e)
    }

    /// Display name.
    pub fn name(&self) -> &str {
        &self.cfg.name
    }

    /// Time control the engine plays with.
    pub fn tc(&self) -> &TimeControl {
        &self.cfg.tc
    }

    fn start_uci(&mut self) -> Result<(), PlayerError> {
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

    fn start_ucci(&mut self) -> Result<(), PlayerError> {
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

    fn start_xboard(&mut self) -> Result<(), PlayerError> {
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

    /// Wait until the engine has processed everything sent so far.
    pub fn sync(&mut self) -> Result<(), PlayerError> {
        let deadline = Instant::now() + READY;
        match self.cfg.proto {
            Proto::Uci | Proto::Ucci => {
                self.proc.send("isready")?;
                self.proc.wait_for(deadline, |t| t.trim() == "readyok")?;
            }
            Proto::Xboard => {
                if self.xb.ping {
                    self.ping += 1;
                    let want = format!("pong {}", self.ping);
                    self.proc.send(&format!("ping {}", self.ping))?;
                    self.proc.wait_for(deadline, |t| t.trim() == want)?;
                }
            }
        }
        Ok(())
    }

    /// Prepare a new game from `start`.
    pub fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        match self.cfg.proto {
            Proto::Uci => self.proc.send("ucinewgame")?,
            Proto::Ucci => {}
            Proto::Xboard => {
                self.proc.send("new")?;
                // `new` resets the variant in XBoard engines: send it again.
                if let Some(v) = self.xb.variant.clone() {
                    self.proc.send(&format!("variant {v}"))?;
                }
                self.proc.send("force")?;
                self.proc.send("post")?;
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
            }
        }
        self.sync()
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

    fn text(&self, m: Move) -> String {
        if m.is_pass() && self.cfg.proto == Proto::Xboard {
            "@@@@".to_string()
        } else {
            move_text(m, self.ranks)
        }
    }

    /// The rank convention the engine writes moves in.
    pub fn ranks(&self) -> Ranks {
        self.ranks
    }

    /// Ask for a move; returns when it arrives, the engine disconnects, or
    /// `deadline` passes. The `Instant` is when the request was sent.
    pub fn go(
        &mut self,
        req: &Request<'_>,
        deadline: Instant,
    ) -> Result<(Reply, Instant), ProcError> {
        match self.cfg.proto {
            Proto::Uci | Proto::Ucci => self.go_uci(req, deadline),
            Proto::Xboard => self.go_xboard(req, deadline),
        }
    }

    fn go_uci(
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

    fn go_xboard(
        &mut self,
        req: &Request<'_>,
        deadline: Instant,
    ) -> Result<(Reply, Instant), ProcError> {
        let pending: Vec<Move> = req.moves[self.xb.known.min(req.moves.len())..].to_vec();
        let clocks = |e: &mut Player| -> Result<(), ProcError> {
            if e.cfg.tc.clock.is_some() {
                e.proc
                    .send(&format!("time {}", (req.own.remaining_ms.max(1) + 9) / 10))?;
                e.proc
                    .send(&format!("otim {}", (req.opp.remaining_ms.max(1) + 9) / 10))?;
            }
            Ok(())
        };
        if self.xb.playing && pending.len() == 1 {
            clocks(self)?;
            self.send_xboard_move(pending[0])?;
        } else {
            if self.xb.playing {
                self.proc.send("force")?;
            }
            for &m in &pending {
                self.send_xboard_move(m)?;
            }
            clocks(self)?;
            self.proc.send("go")?;
            self.xb.playing = true;
        }
        let sent = Instant::now();
        self.xb.known = req.moves.len();
        let last_sent = pending.last().map(|&m| self.text(m));
        let mut score = None;
        loop {
            let l = self.proc.recv_until(deadline)?;
            let t = l.text.trim();
            if let Some(m) = t.strip_prefix("move ") {
                self.xb.known += 1;
                return Ok((
                    Reply::Move {
                        text: m.trim().to_string(),
                        at: l.at,
                        score,
                    },
                    sent,
                ));
            }
            // A generic `Error` line may answer any earlier command (an
            // unsupported `post`, say); only one naming our last move is a
            // refusal of that move.
            let about_our_move = last_sent.as_deref().is_some_and(|m| t.contains(m));
            if t.starts_with("Illegal move") || (t.starts_with("Error") && about_our_move) {
                return Ok((
                    Reply::Rejected {
                        text: t.to_string(),
                        at: l.at,
                    },
                    sent,
                ));
            }
            if t == "resign"
                || t.starts_with("1-0")
                || t.starts_with("0-1")
                || t.starts_with("1/2-1/2")
            {
                return Ok((
                    Reply::Claim {
                        text: t.to_string(),
                        at: l.at,
                    },
                    sent,
                ));
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

    /// After a move deadline passed: ask the engine to stop and give it
    /// `grace` to answer. Returns whether it answered (a slow engine) or
    /// stayed silent (a hung one).
    pub fn stop_after_timeout(&mut self, grace: Duration) -> bool {
        let cmd = match self.cfg.proto {
            Proto::Uci | Proto::Ucci => "stop",
            Proto::Xboard => "?",
        };
        if self.proc.send(cmd).is_err() {
            return false;
        }
        let deadline = Instant::now() + grace;
        self.proc
            .wait_for(deadline, |t| {
                let t = t.trim();
                t.starts_with("bestmove") || t == "nobestmove" || t.starts_with("move ")
            })
            .is_ok()
    }

    /// Tell the engine the game is over (XBoard `result`; UCI engines need
    /// nothing).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.cfg.proto == Proto::Xboard {
            let _ = self.proc.send(&format!("result {result} {{{reason}}}"));
            let _ = self.proc.send("force");
            self.xb.playing = false;
        }
    }

    /// Whether the process is gone.
    pub fn is_dead(&mut self) -> bool {
        self.proc.has_exited()
    }

    /// Quit politely, killing the process if it lingers.
    pub fn quit(mut self) {
        self.proc.shutdown("quit", Duration::from_millis(500));
    }

    /// Kill at once (after a hang).
    pub fn kill(mut self) {
        self.proc.kill();
    }

    /// Move text for this engine (used in reports).
    pub fn move_text(&self, m: Move) -> String {
        self.text(m)
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
