//! A [`Player`]: an engine as the referee sees it — start, new game, "your
//! move", quit — translated to UCI, UCCI or XBoard. (Not search's
//! `Engine`: a player is any engine program, run as a child process.)
//!
//! Each protocol's details (rank convention, FEN letters, time units, move
//! text of a pass) stay in here — UCI and UCCI in `uci`, XBoard in
//! `xboard` — the game loop only deals in [`Move`]s and milliseconds.

use std::fmt;
use std::time::{Duration, Instant};

use movegen::{move_text, Move, Position, Ranks, Variant};

use crate::config::{EngineConfig, Proto, TimeControl};
use crate::engine_proc::{EngineProc, ProcError};

mod uci;
mod xboard;

use xboard::XboardState;

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
            Proto::Xboard => self.new_game_xboard(start)?,
        }
        self.sync()
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
