//! XBoard / CECP front-end (protocol version 2; docs/PROTOCOL.md §5).
//!
//! Ranks 0–9; the Janggi pass is `@@@@`. XBoard 4.9 (Debian) does not know
//! Janggi, so `variant janggi…` is answered with a `setup` command that
//! defines the board (9x10 on the Xiangqi parent), the piece letters and
//! the start position, followed by `piece` lines giving XBoard the Janggi
//! moves in Betza notation for highlighting.
//!
//! The engine's own moves come back from the search through the event
//! channel ([`Event::Done`]) and are played on the board in this loop, so
//! the board only ever changes here.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use movegen::{Color, GameResult, Move, PieceKind, Position, Ranks, Reason, Variant, Verdict};
use search::{BestMove, Limits, Score, SearchInfo};

use crate::commands;
use crate::io::{Event, Out};
use crate::options::text::xboard_lines;
use crate::options::{Dialect, OptionId};
use crate::protocol::{clock_ms, CommandLine, Flow, MoveStyle, Protocol, ENGINE_NAME};
use crate::session::Session;

const RANKS: Ranks = Ranks::ZeroBased;

/// XBoard's mate score convention: mate in `n` moves is `100000 + n`.
const MATE: i32 = 100_000;

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// No search of ours.
    Idle,
    /// Thinking about our move (search number).
    Think(u64),
    /// Pondering on the move we expect from the opponent.
    Ponder(u64, Move),
    /// Analyze mode.
    Analyze(u64),
}

/// Time control and clocks.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// Moves per session (0: whole game).
    mps: u32,
    /// Base time, ms.
    base_ms: u64,
    /// Increment, ms.
    inc_ms: u64,
    /// Fixed time per move (`st`), ms.
    st_ms: Option<u64>,
    /// Depth limit (`sd`).
    sd: Option<u32>,
    /// Our clock (`time`), ms.
    own_ms: Option<u64>,
    /// Opponent's clock (`otim`), ms.
    opp_ms: Option<u64>,
}

/// Progress of the current search, for the `.` status command.
#[derive(Clone, Copy, Debug, Default)]
struct Progress {
    time_ms: u64,
    nodes: u64,
    depth: u32,
}

/// The XBoard session.
pub struct Xboard {
    s: Session,
    tx: Sender<Event>,
    force: bool,
    /// The side the engine plays (`None`: only in force mode).
    engine_side: Option<Color>,
    post: bool,
    ponder: bool,
    analyze: bool,
    clock: Clock,
    task: Task,
    game_over: bool,
    progress: Arc<Mutex<Progress>>,
    /// When our clock last started running: the `go` of our search, or the
    /// ponder hit that made a ponder search ours.
    clock_started: Option<Instant>,
}

/// Convert a search score to XBoard's centipawn convention.
fn xb_score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE + n,
        Score::Mate(n) => -MATE + n,
    }
}

/// One thinking line: `ply score time nodes pv` (time in centiseconds).
fn thinking_line(i: &SearchInfo) -> String {
    format!(
        "{} {} {} {} {}",
        i.depth,
        xb_score(i.score),
        i.time_ms / 10,
        i.nodes,
        MoveStyle::Xboard.pv(&i.pv)
    )
}

/// The `setup` announcement and `piece` definitions for a Janggi variant.
pub fn janggi_setup_lines(v: Variant) -> Vec<String> {
    // XBoard's piece table has 22 slots per side in a fixed order (pawn,
    // knight, bishop, rook, queen, ferz, alfil, archbishop, marshall, wazir,
    // man, cannon, …, king). We put each Janggi piece in the slot whose
    // XBoard movement is closest, and the soldier in a non-pawn slot so
    // XBoard does not apply pawn rules (double steps, promotion) to it.
    let mut slots = ['.'; 22];
    for (i, c) in [
        (1, 'N'),
        (3, 'R'),
        (5, 'A'),
        (6, 'B'),
        (8, 'P'),
        (11, 'C'),
        (21, 'K'),
    ] {
        slots[i] = c;
    }
    let white: String = slots.iter().collect();
    let black = white.to_ascii_lowercase();
    let mut v_lines = vec![format!(
        "setup ({white}{black}) 9x10+0_xiangqi {}",
        v.start_fen()
    )];
    // Moves in XBoard's Betza dialect; `&` marks a definition that only
    // describes highlighting (the engine judges legality itself).
    for (piece, betza) in [
        ("R", "RB"),
        ("C", "pRpB"),
        ("P", "fsWfF"),
        ("N", "nN"),
        ("B", "mafsmafW"),
        ("A", "WF"),
        ("K", "WF"),
    ] {
        v_lines.push(format!("piece {piece}& {betza}"));
    }
    v_lines
}

/// XBoard's game-end line for a verdict: `1-0 {Red/Cho wins by checkmate}`.
fn claim_text(v: Verdict) -> String {
    let who = match v.result {
        GameResult::RedWins => "Red/Cho wins by",
        GameResult::BlackWins => "Black/Han wins by",
        _ => "Draw by",
    };
    format!("{} {{{who} {}}}", v.result, v.reason.words())
}

/// Plies XBoard's own 50-move counter needs before it accepts a draw
/// claim by the move limit.
const XBOARD_RULE_PLIES: u32 = 100;

/// Whether XBoard will accept the claim of `verdict`. XBoard checks a
/// Xiangqi draw claim by the move limit against its own counter, which,
/// as in chess, restarts on a soldier move as well as on a capture; a
/// claim it finds premature is ruled false and the game is scored as a
/// loss for the claimant. So such a claim waits until XBoard's counter
/// agrees, and the engine plays on meanwhile (our move limit, 60 moves
/// without a capture, counts soldier moves too: docs/RULES.md). Janggi
/// claims are not checkable by XBoard and are always made.
fn xboard_accepts_claim(pos: &Position, verdict: Verdict) -> bool {
    verdict.reason != Reason::MoveLimit
        || pos.variant().is_janggi()
        || plies_since_capture_or_soldier_move(pos) >= XBOARD_RULE_PLIES
}

/// Plies since the last capture or soldier move, counted as XBoard does:
/// through the game's moves and, when there is none in them, on from the
/// setup's halfmove field.
fn plies_since_capture_or_soldier_move(pos: &Position) -> u32 {
    let mut p = pos.clone();
    let mut plies = 0;
    while p.history_len() > 0 {
        let st = p.state();
        let Some(m) = st.last_move else { break };
        let soldier = p
            .piece_at(m.to())
            .is_some_and(|pc| pc.kind() == PieceKind::Soldier);
        if st.captured.is_some() || (soldier && !m.is_pass()) {
            return plies;
        }
        plies += 1;
        p.unmake_move();
    }
    plies + u32::from(p.rule_plies())
}

impl Xboard {
    /// A new XBoard session writing to `out`; search results are posted
    /// on `tx`.
    pub fn new(out: Out, tx: Sender<Event>) -> Xboard {
        let mut s = Session::new(out);
        s.note_prefix = "# ";
        Xboard {
            s,
            tx,
            force: false,
            engine_side: Some(Color::Black),
            post: true,
            ponder: false,
            analyze: false,
            clock: Clock::default(),
            task: Task::Idle,
            game_over: false,
            progress: Arc::default(),
            clock_started: None,
        }
    }

    fn error(&self, kind: &str, text: &str) {
        self.s.out.line(&format!("Error ({kind}): {text}"));
    }

    fn features(&self) {
        let mut v = vec![format!(
            "feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 colors=0 draw=0 analyze=1 \
                 pause=0 reuse=1 san=0 sigint=0 sigterm=0 myname=\"{ENGINE_NAME}\" \
                 variants=\"xiangqi,janggi,janggitraditional,janggimodern,janggicasual\""
        )];
        // Which options XBoard lists is a column of the option table.
        v.extend(xboard_lines(|id| self.s.settings.value_text(id)));
        v.push("feature done=1".into());
        self.s.out.lines(v);
    }

    /// Stop whatever search runs and forget it (its late result is
    /// ignored because the task no longer matches).
    fn cancel(&mut self) {
        if self.task != Task::Idle || self.s.searching() {
            self.s.stop_and_wait();
        }
        self.task = Task::Idle;
    }

    fn limits(&self, pos: &Position) -> Limits {
        let mut l = Limits::default();
        let us = pos.side_to_move();
        let c = &self.clock;
        if let Some(d) = c.sd {
            l.depth = Some(d.max(1));
        }
        if let Some(st) = c.st_ms {
            l.movetime_ms = Some(st);
            return l;
        }
        let own = c.own_ms.or((c.base_ms > 0).then_some(c.base_ms));
        let opp = c.opp_ms.or((c.base_ms > 0).then_some(c.base_ms));
        if own.is_none() && c.sd.is_none() {
            // No clock at all: a modest fixed time rather than forever.
            l.movetime_ms = Some(5_000);
            return l;
        }
        l.time_ms[us.index()] = own;
        l.time_ms[(!us).index()] = opp;
        l.inc_ms = [Some(c.inc_ms); 2];
        if c.mps > 0 {
            // Our moves made so far in this game, from the ply count.
            let our_moves = (pos.history_len() / 2) as u32;
            l.movestogo = Some(c.mps - our_moves % c.mps);
        }
        l
    }

    fn info_cb(&self) -> Box<dyn FnMut(&SearchInfo) + Send> {
        let out = self.s.out.clone();
        let post = self.post;
        let progress = Arc::clone(&self.progress);
        Box::new(move |i: &SearchInfo| {
            if let Ok(mut p) = progress.lock() {
                *p = Progress {
                    time_ms: i.time_ms,
                    nodes: i.nodes,
                    depth: i.depth,
                };
            }
            if post {
                out.line(&thinking_line(i));
            }
        })
    }

    fn done_cb(&self) -> Box<dyn FnOnce(BestMove) + Send> {
        let tx = self.tx.clone();
        let next = self.s.search_id() + 1;
        // The id is the one `Session::go` is about to hand out.
        Box::new(move |b: BestMove| {
            let _ = tx.send(Event::Done(next, b));
        })
    }

    fn think(&mut self) {
        self.cancel();
        let limits = self.limits(&self.s.pos);
        let (info, done) = (self.info_cb(), self.done_cb());
        let id = self.s.go(limits, info, done);
        self.task = Task::Think(id);
        self.clock_started = Some(Instant::now());
    }

    fn start_ponder(&mut self, expected: Move) {
        let mut pos = self.s.pos.clone();
        if !pos.is_legal(expected) {
            return;
        }
        pos.make_move(expected);
        if !pos.legal_moves().is_empty() {
            let mut limits = self.limits(&pos);
            limits.ponder = true;
            // The GUI's `time` came before our own move and is not sent
            // again at a ponder hit: our clock now is that less what our
            // move took, plus the increment (what the GUI will send with
            // its next move). A ponder search timed by the stale value
            // overspends by a whole move's time.
            let us = pos.side_to_move().index();
            if let (Some(t), Some(started)) = (limits.time_ms[us], self.clock_started) {
                let used = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                limits.time_ms[us] = Some(t.saturating_sub(used).saturating_add(self.clock.inc_ms));
            }
            let (info, done) = (self.info_cb(), self.done_cb());
            let id = self.s.go_from(Some(&pos), limits, info, done);
            self.task = Task::Ponder(id, expected);
        }
    }

    fn start_analysis(&mut self) {
        self.cancel();
        if self.s.pos.legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (info, done) = (self.info_cb(), self.done_cb());
        let id = self.s.go(limits, info, done);
        self.task = Task::Analyze(id);
    }

    /// Claim the game's end if the position is decided; true if it is.
    fn check_game_end(&mut self) -> bool {
        let verdict = self.s.pos.judge();
        if !verdict.is_over() || !xboard_accepts_claim(&self.s.pos, verdict) {
            return false;
        }
        if !self.game_over {
            self.s.out.line(&claim_text(verdict));
        }
        self.game_over = true;
        true
    }

    /// After a change of the board: think if it is our turn, or analyse.
    fn after_board_change(&mut self) {
        if self.analyze {
            self.start_analysis();
        } else if !self.force
            && !self.game_over
            && self.engine_side == Some(self.s.pos.side_to_move())
        {
            self.think();
        }
    }

    fn usermove(&mut self, text: &str) {
        let m = match self.s.pos.parse_move(text, RANKS) {
            Ok(m) => m,
            Err(_) => return self.s.out.line(&format!("Illegal move: {text}")),
        };
        if let Task::Ponder(id, expected) = self.task {
            if m == expected && self.s.searching() {
                self.s.pos.make_move(m);
                self.task = Task::Think(id);
                self.s.ponderhit();
                self.clock_started = Some(Instant::now());
                return;
            }
        }
        // A wrong guess while pondering, analysis of the old position, or
        // our own search overtaken by a move the GUI made for us: that
        // search is of no use any more.
        if self.task != Task::Idle {
            self.cancel();
        }
        self.s.pos.make_move(m);
        if self.check_game_end() {
            self.cancel();
            return;
        }
        self.after_board_change();
    }

    fn new_game(&mut self) {
        self.cancel();
        self.s.new_game();
        self.force = false;
        self.engine_side = Some(Color::Black);
        self.clock.sd = None;
        self.clock.st_ms = None;
        self.game_over = false;
        if self.analyze {
            self.start_analysis();
        }
    }

    fn variant(&mut self, name: &str) {
        match name.parse::<Variant>() {
            Ok(v) => {
                self.cancel();
                self.s.set_variant(v);
                self.game_over = false;
                if v.is_janggi() {
                    self.s.out.lines(janggi_setup_lines(v));
                }
            }
            Err(_) => self.error("unsupported variant", name),
        }
    }

    fn setboard(&mut self, fen: &str) {
        match Position::from_fen(fen, self.s.settings.variant) {
            Ok(p) => {
                self.cancel();
                self.s.pos = p;
                self.game_over = false;
                if !self.check_game_end() {
                    self.after_board_change();
                }
            }
            Err(e) => self
                .s
                .out
                .line(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn undo(&mut self, plies: usize) {
        if self.s.pos.history_len() < plies {
            return self.error("cannot undo", "no such move in the game");
        }
        self.cancel();
        for _ in 0..plies {
            self.s.pos.unmake_move();
        }
        self.game_over = false;
        if self.analyze {
            self.start_analysis();
        }
    }

    fn level(&mut self, words: &[&str]) {
        let mps = words.first().and_then(|w| w.parse::<u32>().ok());
        let base = words.get(1).and_then(|w| {
            let (m, sec) = w.split_once(':').unwrap_or((w, "0"));
            let (m, sec) = (m.parse::<f64>().ok()?, sec.parse::<f64>().ok()?);
            (m.is_finite() && sec.is_finite()).then(|| clock_ms(m * 60_000.0 + sec * 1000.0))
        });
        let inc = words
            .get(2)
            .and_then(|w| w.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0);
        match (mps, base, inc) {
            (Some(mps), Some(base), Some(inc)) if words.len() == 3 => {
                self.clock.mps = mps;
                self.clock.base_ms = base;
                self.clock.inc_ms = clock_ms(inc * 1000.0);
                self.clock.st_ms = None;
            }
            _ => self.error("bad level", &words.join(" ")),
        }
    }

    fn centiseconds(&self, w: Option<&&str>) -> Option<u64> {
        w.and_then(|w| w.parse::<i64>().ok())
            .map(|v| clock_ms(v as f64 * 10.0))
    }

    fn search_done_inner(&mut self, id: u64, best: BestMove) {
        match self.task {
            Task::Think(t) if t == id => {
                self.task = Task::Idle;
                self.s.wait();
                // The one resign rule of every protocol (`EndRule`).
                if self.s.settings.end.resigns(best.score) && best.best.is_some() {
                    self.s.out.line("resign");
                    self.game_over = true;
                    return;
                }
                match best.best {
                    Some(m) if self.s.pos.is_legal(m) => {
                        self.s.pos.make_move(m);
                        self.s
                            .out
                            .line(&format!("move {}", MoveStyle::Xboard.text(m)));
                        if !self.check_game_end() && self.ponder && !self.force {
                            if let Some(p) = best.ponder {
                                self.start_ponder(p);
                            }
                        }
                    }
                    _ => {
                        if !self.check_game_end() {
                            self.s.note("search returned no move");
                        }
                    }
                }
            }
            Task::Ponder(t, _) if t == id => self.task = Task::Idle,
            _ => {}
        }
    }

    fn option(&mut self, body: &str) {
        let (name, value) = body.split_once('=').unwrap_or((body, ""));
        if let Err(e) = self.s.set_option(name, value, Dialect::Uci) {
            self.error("bad option", &e.to_string());
        }
    }

    /// `memory N` and `cores N`: XBoard's own commands for two options.
    fn set_engine_option(&mut self, id: OptionId, value: Option<&&str>) {
        let v = value.copied().unwrap_or("");
        if let Err(e) = self.s.set_option_id(id, v) {
            self.error("bad value", &e.to_string());
        }
    }
}

impl Protocol for Xboard {
    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let Some(CommandLine { cmd, rest, words }) = CommandLine::parse(line) else {
            return Flow::Continue;
        };
        let arg = words.get(1);
        match cmd.as_str() {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "pause" | "resume" | "nps" | "white" | "black" => {}
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => match arg {
                Some(v) => self.variant(v),
                None => self.error("missing variant", line),
            },
            "force" => {
                self.cancel();
                self.force = true;
                self.engine_side = None;
            }
            "go" => {
                self.force = false;
                self.engine_side = Some(self.s.pos.side_to_move());
                if !self.check_game_end() {
                    self.think();
                }
            }
            "playother" => {
                self.cancel();
                self.force = false;
                self.engine_side = Some(!self.s.pos.side_to_move());
            }
            "usermove" => match arg {
                Some(m) => self.usermove(m),
                None => self.error("missing move", line),
            },
            "setboard" => self.setboard(rest),
            "time" => match self.centiseconds(arg) {
                Some(t) => self.clock.own_ms = Some(t),
                None => self.error("bad time", line),
            },
            "otim" => match self.centiseconds(arg) {
                Some(t) => self.clock.opp_ms = Some(t),
                None => self.error("bad time", line),
            },
            "level" => self.level(&words[1..]),
            "st" => match arg
                .and_then(|w| w.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
            {
                Some(s) => self.clock.st_ms = Some(clock_ms(s * 1000.0).max(1)),
                None => self.error("bad st", line),
            },
            "sd" => match arg.and_then(|w| w.parse::<u32>().ok()) {
                Some(d) => self.clock.sd = Some(d.clamp(1, 255)),
                None => self.error("bad sd", line),
            },
            "ping" => self.s.out.line(&format!("pong {}", words[1..].join(" "))),
            "memory" => self.set_engine_option(OptionId::Hash, arg),
            "cores" => self.set_engine_option(OptionId::Threads, arg),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(self.task, Task::Ponder(..)) {
                    self.cancel();
                }
            }
            "analyze" => {
                self.analyze = true;
                self.start_analysis();
            }
            "exit" => {
                self.analyze = false;
                self.cancel();
            }
            "." => {
                if let (Task::Analyze(_), Ok(p)) = (self.task, self.progress.lock()) {
                    self.s.out.line(&format!(
                        "stat01: {} {} {} 0 0",
                        p.time_ms / 10,
                        p.nodes,
                        p.depth
                    ));
                }
            }
            "?" => {
                if matches!(self.task, Task::Think(_)) {
                    self.s.stop();
                }
            }
            "undo" => self.undo(1),
            "remove" => self.undo(2),
            // Our game-result query: the same `info string` line in every
            // protocol, so referees parse one form.
            "result" if words.len() == 1 => self.s.out.line(&format!(
                "info string {}",
                commands::result_text(&self.s.pos)
            )),
            "result" => {
                self.cancel();
                self.game_over = true;
            }
            "option" => self.option(rest),
            "quit" => return Flow::Quit,
            _ => {
                if !self.s.extension(&cmd, &words[1..], RANKS) {
                    // Protocol version 1 GUIs send bare moves.
                    let first = words[0];
                    if words.len() == 1 && movegen::parse_move_text(first, RANKS).is_ok() {
                        self.usermove(first);
                    } else {
                        self.error("unknown command", first);
                    }
                }
            }
        }
        Flow::Continue
    }

    fn search_done(&mut self, id: u64, best: BestMove) {
        self.search_done_inner(id, best);
    }

    fn session(&mut self) -> &mut Session {
        &mut self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn janggi_setup_is_well_formed() {
        let lines = janggi_setup_lines(Variant::Janggi);
        let first = &lines[0];
        assert!(first.starts_with("setup ("));
        let table = &first[7..first.find(')').unwrap_or(7)];
        assert_eq!(table.len(), 44);
        assert!(first.ends_with(movegen::fen::JANGGI_START));
        assert_eq!(xb_score(Score::Mate(3)), 100_003);
        assert_eq!(xb_score(Score::Mate(-3)), -100_003);
        let v = Position::from_fen("4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b", Variant::Xiangqi)
            .map(|p| p.judge());
        assert_eq!(
            v.map(claim_text),
            Ok("1-0 {Red/Cho wins by checkmate}".to_string())
        );
    }

    /// XBoard restarts its move-limit counter on soldier moves: a claim
    /// by our move limit waits until its counter agrees.
    #[test]
    fn move_limit_claim_waits_for_xboards_counter() {
        let play = |fen: &str, kind: PieceKind| {
            let mut pos = Position::from_fen(fen, Variant::Xiangqi).expect("valid FEN");
            let m = pos
                .legal_moves_ignoring_game_end()
                .iter()
                .copied()
                .find(|m| pos.piece_at(m.from()).map(|p| p.kind()) == Some(kind))
                .expect("a move of that kind");
            pos.make_move(m);
            pos
        };
        let fen = "3k5/9/9/9/4p4/9/9/9/4R4/4K4 b - - 119 80";
        // 120 plies without a capture, the last one a soldier move.
        let after_soldier = play(fen, PieceKind::Soldier);
        let verdict = after_soldier.judge();
        assert_eq!(verdict.reason, Reason::MoveLimit);
        assert_eq!(plies_since_capture_or_soldier_move(&after_soldier), 0);
        assert!(!xboard_accepts_claim(&after_soldier, verdict));
        // 120 plies without a capture or a soldier move.
        let after_general = play(fen, PieceKind::General);
        let verdict = after_general.judge();
        assert_eq!(verdict.reason, Reason::MoveLimit);
        assert_eq!(plies_since_capture_or_soldier_move(&after_general), 120);
        assert!(xboard_accepts_claim(&after_general, verdict));
    }
}
