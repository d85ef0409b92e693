//! A [`Player`]: an engine as the referee sees it — start, new game, "your
//! move", quit — translated to UCI, UCCI or XBoard. (Not search's
//! `Engine`: a player is any engine program, run as a child process.)
//!
//! Each protocol's details (rank convention, FEN letters, time units, move
//! text of a pass) stay in here — UCI and UCCI in `uci`, XBoard in
//! `xboard` — the game loop only deals in [`Move`]s and milliseconds.
//!
//! Pondering (cutechess-cli's `-pondering`): the game loop starts a UCI or
//! UCCI engine's ponder search on its predicted reply
//! ([`Player::start_ponder`]); the next [`Player::go`] resolves it with
//! `ponderhit` when the prediction came true, or with `stop` (its answer
//! read and dropped) and a normal search when it did not. Each search's
//! answer is read exactly once; one more is a [`GoError::StrayMove`]
//! (every search of a pondering engine follows an `isready`, and an answer
//! before its `readyok` belongs to an earlier search).
//! XBoard engines ponder by themselves once told `hard`.

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
/// How long a ponder search may take to answer `stop` before the engine
/// counts as hung (engines answer within milliseconds; this allows for a
/// loaded machine).
const PONDER_GRACE: Duration = Duration::from_millis(2000);

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

/// Why asking for a move (or starting a ponder search) failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// The process failed, or no answer came before the deadline.
    Proc(ProcError),
    /// The engine wrote an answer no search was waiting for (a second
    /// `bestmove` for one search); the line.
    StrayMove(String),
    /// A ponder search did not answer `stop`.
    PonderStopIgnored,
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::Proc(e) => e.fmt(f),
            GoError::StrayMove(l) => write!(f, "sends an answer nothing asked for: {l}"),
            GoError::PonderStopIgnored => f.write_str("does not answer stop of its ponder search"),
        }
    }
}

impl std::error::Error for GoError {}

impl From<ProcError> for GoError {
    fn from(e: ProcError) -> Self {
        GoError::Proc(e)
    }
}

/// How the ponder searches of a game (or match) went: every ponder search
/// ends exactly once, as a hit, a miss or a stop at the game's end, so
/// `searches == hits + misses + game_end_stops`. The races are counted
/// apart: an answer that arrived before the `ponderhit` or `stop` was
/// sent (the engine finished its ponder search first) is an early one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderStats {
    /// Ponder searches started (`go ponder`).
    pub searches: u32,
    /// The opponent played the predicted move: `ponderhit`.
    pub hits: u32,
    /// Hits whose `bestmove` came before the `ponderhit` (taken as the
    /// move; no time charged).
    pub early_hits: u32,
    /// The opponent played another move: `stop`, then a new search.
    pub misses: u32,
    /// Misses whose `bestmove` came before the `stop` (dropped all the
    /// same).
    pub early_misses: u32,
    /// Ponder searches stopped because the game ended.
    pub game_end_stops: u32,
    /// Answers no search was waiting for (a fault in a game).
    pub stray_moves: u32,
    /// `stop` of a ponder search left unanswered.
    pub unanswered_stops: u32,
}

impl PonderStats {
    /// Add another game's (or engine's) counts.
    pub fn add(&mut self, o: &PonderStats) {
        self.searches += o.searches;
        self.hits += o.hits;
        self.early_hits += o.early_hits;
        self.misses += o.misses;
        self.early_misses += o.early_misses;
        self.game_end_stops += o.game_end_stops;
        self.stray_moves += o.stray_moves;
        self.unanswered_stops += o.unanswered_stops;
    }
}

impl fmt::Display for PonderStats {
    /// The final report's line (without its `Ponder: ` label).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} searches, {} hits ({} early), {} misses ({} early), {} stopped at game end, \
             {} stray bestmoves, {} unanswered stops",
            self.searches,
            self.hits,
            self.early_hits,
            self.misses,
            self.early_misses,
            self.game_end_stops,
            self.stray_moves,
            self.unanswered_stops
        )
    }
}

/// A ponder search in progress: the move it predicts, the last of the
/// `plies` moves of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pondering {
    guess: Move,
    plies: usize,
}

impl Pondering {
    /// Whether the game's moves are the ones the ponder search assumed
    /// (the predicted reply was played).
    fn is_hit(&self, moves: &[Move]) -> bool {
        moves.len() == self.plies && moves.last() == Some(&self.guess)
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
        /// The reply it expects (`bestmove m ponder p`), not yet checked.
        ponder: Option<String>,
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

/// Whether `line` ends a UCI or UCCI search (`bestmove …`, `nobestmove`).
fn ends_uci_search(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("bestmove") || t == "nobestmove"
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
    /// UCI/UCCI: the engine offers a `Ponder` / `ponder` option.
    ponder_option: bool,
    /// The ponder search running now, if any.
    pondering: Option<Pondering>,
    /// UCI/UCCI: an `isready` went out before the latest search and its
    /// `readyok` has not been read yet.
    readyok_pending: bool,
    /// Ponder counts since the last [`Player::take_ponder_stats`].
    ponder_stats: PonderStats,
    /// The engine left the protocol's state unknown (it ignored `stop`
    /// after a game): it must not play another game.
    broken: bool,
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
            ponder_option: false,
            pondering: None,
            readyok_pending: false,
            ponder_stats: PonderStats::default(),
            broken: false,
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
    /// `allowance` has passed on its clock. The `Instant` is when the
    /// engine's clock started: when the search was asked for (after the
    /// `stop` and answer of a ponder search on another move), or at the
    /// `ponderhit` (pondering is free).
    pub fn go(
        &mut self,
        req: &Request<'_>,
        allowance: Duration,
    ) -> Result<(Reply, Instant), GoError> {
        match self.cfg.proto {
            Proto::Uci | Proto::Ucci => self.go_uci(req, allowance),
            // The deadline is fixed before the moves are written, so that
            // writing them is not charged against the engine twice.
            Proto::Xboard => Ok(self.go_xboard(req, Instant::now() + allowance)?),
        }
    }

    /// Whether the referee runs ponder searches for this engine (UCI and
    /// UCCI with pondering on; XBoard engines ponder by themselves).
    pub fn ponders(&self) -> bool {
        self.cfg.ponder && self.cfg.proto != Proto::Xboard
    }

    /// Start a ponder search: `req` is the request the engine would get if
    /// its predicted reply, the last of `req.moves`, were played. Does
    /// nothing for an engine that does not [ponder](Player::ponders).
    pub fn start_ponder(&mut self, req: &Request<'_>) -> Result<(), GoError> {
        let Some(&guess) = req.moves.last() else {
            return Ok(());
        };
        if !self.ponders() {
            return Ok(());
        }
        self.start_ponder_uci(req)?;
        self.pondering = Some(Pondering {
            guess,
            plies: req.moves.len(),
        });
        self.ponder_stats.searches += 1;
        Ok(())
    }

    /// The ponder counts since the last call (one game's, when called at
    /// each game's end).
    pub fn take_ponder_stats(&mut self) -> PonderStats {
        std::mem::take(&mut self.ponder_stats)
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
                ends_uci_search(t) || t.trim().starts_with("move ")
            })
            .is_ok()
    }

    /// Tell the engine the game is over (XBoard `result`; a UCI or UCCI
    /// engine that is pondering is stopped and its answer dropped).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.pondering.take().is_some() {
            self.ponder_stats.game_end_stops += 1;
            if self.stop_ponder().is_err() {
                // Its answer may still come, into the next game: retire it.
                self.broken = true;
            }
        }
        if self.cfg.proto == Proto::Xboard {
            let _ = self.proc.send(&format!("result {result} {{{reason}}}"));
            let _ = self.proc.send("force");
            self.xb.playing = false;
        }
    }

    /// Whether the process is gone, or cannot be trusted with another
    /// game.
    pub fn is_dead(&mut self) -> bool {
        self.broken || self.proc.has_exited()
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
    fn ponder_hit_needs_the_predicted_move_at_the_predicted_ply() {
        let pos = Position::startpos(Variant::Xiangqi);
        let m = |t: &str| pos.parse_move(t, Ranks::ZeroBased).expect("legal");
        let (a, b) = (m("h2e2"), m("b2e2"));
        let p = Pondering { guess: a, plies: 1 };
        assert!(p.is_hit(&[a]));
        assert!(!p.is_hit(&[b]));
        assert!(!p.is_hit(&[]));
        assert!(!p.is_hit(&[b, a]));
    }

    #[test]
    fn ponder_counts_add_up() {
        let mut s = PonderStats {
            searches: 3,
            hits: 1,
            misses: 1,
            game_end_stops: 1,
            ..PonderStats::default()
        };
        let once = s;
        s.add(&once);
        assert_eq!(
            (s.searches, s.hits, s.misses, s.game_end_stops),
            (6, 2, 2, 2)
        );
        assert!(s
            .to_string()
            .starts_with("6 searches, 2 hits (0 early), 2 misses"));
    }
}
