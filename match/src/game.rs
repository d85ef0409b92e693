//! One game between two engines: the referee's loop.
//!
//! The referee keeps both clocks itself (engines only hear them), checks
//! every move with the rules core, and ends the game by the rules, by an
//! adjudication, or by a fault: an illegal move, a crash, a hang, a loss on
//! time, a false claim. A fault loses the game for the engine at fault.
//!
//! With pondering, an engine that answered `bestmove m ponder p` starts a
//! ponder search on `p` once `m` is played, while its opponent thinks; its
//! next request resolves it (see [`crate::player`]).

use std::time::{Duration, Instant};

use movegen::{Color, GameResult, JanggiFallback, Move, Position, Verdict};

use crate::clock::SideClock;
use crate::config::{DrawAdjudication, ResignAdjudication};
use crate::ending::{Adjudication, Ending, Fault};
use crate::engine_proc::ProcError;
use crate::openings::Opening;
use crate::player::{GoError, Player, PonderStats, Reply, Request};
use crate::referee;

/// How long an engine that overstepped its deadline gets to answer `stop`
/// before it counts as hung rather than merely slow.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// Referee settings shared by all games.
#[derive(Clone, Debug, Default)]
pub struct GameSettings {
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Full-move cap (draw, or Janggi counting).
    pub maxmoves: Option<u32>,
    /// Deadline for moves without a clock, in milliseconds.
    pub hang_ms: u64,
    /// Time margins of the two engines (first player, second player).
    pub margins_ms: [u64; 2],
}

/// A finished game.
#[derive(Clone)]
pub struct GameRecord {
    /// Position the record starts from.
    pub start: Position,
    /// All moves, book moves first.
    pub moves: Vec<Move>,
    /// How many of `moves` came from the opening.
    pub book_plies: usize,
    /// Per engine move: (score from the mover's view, milliseconds used).
    pub move_info: Vec<(Option<i32>, u64)>,
    /// Result (never [`GameResult::Ongoing`] in a finished game).
    pub result: GameResult,
    /// Why the game ended.
    pub ending: Ending,
    /// Human-readable end reason ("checkmate", "Black (x) plays an illegal
    /// move: …"), for the log and the PGN's last comment.
    pub reason: String,
    /// Referee time between an engine's answer and the next request, in
    /// microseconds, summed; and how many such gaps.
    pub overhead_us: (u64, u64),
    /// Both engines' ponder searches.
    pub ponder: PonderStats,
}

impl GameRecord {
    /// A game that ended before any engine moved (an engine failed to
    /// start): the opening, and the given end.
    pub fn unplayed(opening: &Opening, result: GameResult, ending: Ending, reason: String) -> Self {
        GameRecord {
            start: opening.start.clone(),
            moves: opening.moves.clone(),
            book_plies: opening.moves.len(),
            move_info: Vec::new(),
            result,
            ending,
            reason,
            overhead_us: (0, 0),
            ponder: PonderStats::default(),
        }
    }

    /// The engine at fault, if a fault ended the game: its side (the
    /// loser) and what it did.
    pub fn fault(&self) -> Option<(Color, Fault)> {
        let Ending::Fault(f) = self.ending else {
            return None;
        };
        match self.result {
            GameResult::RedWins => Some((Color::Black, f)),
            GameResult::BlackWins => Some((Color::Red, f)),
            GameResult::Draw | GameResult::Ongoing => None,
        }
    }
}

/// How a game ended: result, ending, and the words for log and PGN.
struct End {
    result: GameResult,
    ending: Ending,
    text: String,
}

impl End {
    /// An end that needs no words beyond its code.
    fn plain(result: GameResult, ending: Ending) -> End {
        End {
            result,
            ending,
            text: ending.words(),
        }
    }

    /// The rules core's verdict.
    fn rule(v: Verdict) -> End {
        End::plain(v.result, Ending::Rule(v.reason))
    }
}

fn color_name(c: Color, janggi: bool) -> &'static str {
    match (c, janggi) {
        (Color::Red, false) => "Red",
        (Color::Black, false) => "Black",
        (Color::Red, true) => "Cho",
        (Color::Black, true) => "Han",
    }
}

/// Adjudication counters.
#[derive(Default)]
struct Adjudicator {
    draw_run: u32,
    resign_run: [u32; 2],
    last_score: [Option<i32>; 2],
}

impl Adjudicator {
    /// Record the mover's score; returns an adjudicated end.
    fn update(
        &mut self,
        s: &GameSettings,
        mover: Color,
        score: Option<i32>,
        fullmove: u32,
    ) -> Option<End> {
        let me = mover.index();
        self.last_score[me] = score;
        if let Some(d) = s.draw {
            match score {
                Some(v) if fullmove >= d.movenumber && v.abs() <= d.score => self.draw_run += 1,
                _ => self.draw_run = 0,
            }
            if self.draw_run >= 2 * d.movecount {
                return Some(End::plain(
                    GameResult::Draw,
                    Ending::Adjudication(Adjudication::Draw),
                ));
            }
        }
        if let Some(r) = s.resign {
            let opp_agrees = !r.twosided || self.last_score[1 - me].is_some_and(|v| v >= r.score);
            match score {
                Some(v) if v <= -r.score && opp_agrees => self.resign_run[me] += 1,
                _ => self.resign_run[me] = 0,
            }
            if self.resign_run[me] >= r.movecount {
                return Some(End::plain(
                    GameResult::win_for(mover.flip()),
                    Ending::Adjudication(Adjudication::Resign),
                ));
            }
        }
        None
    }
}

/// Play one game; `players[0]` has the first player (Red / Cho). The
/// players must already be started.
pub fn play_game(players: [&mut Player; 2], opening: &Opening, s: &GameSettings) -> GameRecord {
    let mut game = Game::new(players, opening, s);
    if let Err(end) = game.start_players() {
        return game.into_record(end);
    }
    let end = game.play_until_end();
    game.tell_players(&end);
    game.into_record(end)
}

/// A game in progress.
struct Game<'a> {
    players: [&'a mut Player; 2],
    settings: &'a GameSettings,
    janggi: bool,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    book_plies: usize,
    move_info: Vec<(Option<i32>, u64)>,
    clocks: [SideClock; 2],
    adjudicator: Adjudicator,
    /// When the last answer arrived, to time the referee's own overhead.
    last_answer: Option<Instant>,
    overhead_us: (u64, u64),
    /// Each side's predicted reply from its last answer (`ponder p`), not
    /// yet checked.
    guesses: [Option<String>; 2],
}

impl<'a> Game<'a> {
    /// The opening played out, full clocks.
    fn new(players: [&'a mut Player; 2], opening: &Opening, s: &'a GameSettings) -> Game<'a> {
        let mut pos = opening.start.clone();
        for &m in &opening.moves {
            pos.make_move(m);
        }
        let clocks = [
            SideClock::new(*players[0].tc(), s.margins_ms[0]),
            SideClock::new(*players[1].tc(), s.margins_ms[1]),
        ];
        Game {
            players,
            settings: s,
            janggi: opening.start.variant().is_janggi(),
            start: opening.start.clone(),
            pos,
            moves: opening.moves.clone(),
            book_plies: opening.moves.len(),
            move_info: Vec::new(),
            clocks,
            adjudicator: Adjudicator::default(),
            last_answer: None,
            overhead_us: (0, 0),
            guesses: [None, None],
        }
    }

    /// Set both players up for the game; one that cannot start loses.
    fn start_players(&mut self) -> Result<(), End> {
        for side in [Color::Red, Color::Black] {
            if let Err(err) = self.players[side.index()].new_game(&self.start) {
                let what = format!("could not start the game: {err}");
                return Err(self.fault(side, Fault::StartFailure, &what));
            }
        }
        Ok(())
    }

    /// Ask for moves until a rule, an adjudication or a fault ends the game.
    fn play_until_end(&mut self) -> End {
        loop {
            if let Some(end) = self.rules_or_move_cap() {
                return end;
            }
            if let Err(end) = self.play_one_move() {
                return end;
            }
        }
    }

    /// The end by the rules, or by the `-maxmoves` cap.
    fn rules_or_move_cap(&self) -> Option<End> {
        if let Some(v) = referee::judge(&self.pos) {
            return Some(End::rule(v));
        }
        let cap = self.settings.maxmoves?;
        if self.moves.len() < 2 * cap as usize {
            return None;
        }
        let counting =
            self.janggi && self.pos.variant().janggi_fallback() == Some(JanggiFallback::Counting);
        let result = if counting {
            referee::janggi_counting(&self.pos)
        } else {
            GameResult::Draw
        };
        Some(End::plain(
            result,
            Ending::Adjudication(Adjudication::MaxMoves),
        ))
    }

    /// One request and its answer; `Err` when the answer ends the game.
    fn play_one_move(&mut self) -> Result<(), End> {
        let side = self.pos.side_to_move();
        self.start_pondering(side.flip())?;
        let (reply, sent) = self.ask_for_move(side)?;
        self.note_overhead(sent, reply.at());
        let used = self.charge_clock(side, sent, reply.at())?;
        match reply {
            Reply::Move {
                text,
                score,
                ponder,
                ..
            } => {
                self.guesses[side.index()] = ponder;
                self.play_move(side, &text, score, used)
            }
            Reply::NoMove { .. } => Err(self.fault(
                side,
                Fault::FalseClaim,
                "reports no move in a live position",
            )),
            Reply::Claim { text, .. } if text == "resign" => Err(End::plain(
                GameResult::win_for(side.flip()),
                Ending::Resignation,
            )),
            Reply::Claim { text, .. } => {
                let what = format!("makes a false claim: {text}");
                Err(self.fault(side, Fault::FalseClaim, &what))
            }
            Reply::Rejected { text, .. } => {
                let what = format!("rejects a legal move: {text}");
                Err(self.fault(side, Fault::RejectedMove, &what))
            }
        }
    }

    /// Start `side`'s ponder search on the reply it predicted, if it
    /// ponders and predicted a legal one that does not end the game (as in
    /// cutechess-cli, anything else just means no pondering this turn).
    /// The request is the one it would get after that reply, with the
    /// clocks as they stand.
    fn start_pondering(&mut self, side: Color) -> Result<(), End> {
        let me = side.index();
        let Some(text) = self.guesses[me].take() else {
            return Ok(());
        };
        if !self.players[me].ponders() {
            return Ok(());
        }
        let Ok(guess) = self.pos.parse_move(&text, self.players[me].ranks()) else {
            return Ok(());
        };
        let mut after = self.pos.clone();
        after.make_move(guess);
        if referee::judge(&after).is_some() {
            return Ok(());
        }
        let mut line = Vec::with_capacity(self.moves.len() + 1);
        line.extend_from_slice(&self.moves);
        line.push(guess);
        let req = Request {
            start: &self.start,
            moves: &line,
            own: self.clocks[me].view(),
            opp: self.clocks[1 - me].view(),
            first_player: side == Color::Red,
        };
        match self.players[me].start_ponder(&req) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.go_failure(side, e)),
        }
    }

    /// Send the position and clocks; the answer and when the engine's clock
    /// started, or the end a crash, timeout or protocol fault brings.
    fn ask_for_move(&mut self, side: Color) -> Result<(Reply, Instant), End> {
        let me = side.index();
        let req = Request {
            start: &self.start,
            moves: &self.moves,
            own: self.clocks[me].view(),
            opp: self.clocks[1 - me].view(),
            first_player: side == Color::Red,
        };
        let allowance = Duration::from_millis(self.clocks[me].allowance_ms(self.settings.hang_ms));
        match self.players[me].go(&req, allowance) {
            Ok(answer) => Ok(answer),
            Err(e) => Err(self.go_failure(side, e)),
        }
    }

    /// The fault a failed request (or ponder start) of `side` is.
    fn go_failure(&mut self, side: Color, e: GoError) -> End {
        match e {
            GoError::Proc(ProcError::Disconnected) | GoError::Proc(ProcError::Spawn(_)) => {
                self.fault(side, Fault::Crash, "crashed or disconnected")
            }
            GoError::Proc(ProcError::Timeout) => {
                if self.players[side.index()].stop_after_timeout(STOP_GRACE) {
                    self.fault(side, Fault::TimeForfeit, "loses on time")
                } else {
                    self.fault(side, Fault::Hang, "stopped responding")
                }
            }
            GoError::StrayMove(_) => self.fault(side, Fault::StrayMove, &e.to_string()),
            GoError::PonderStopIgnored => self.fault(side, Fault::Hang, &e.to_string()),
        }
    }

    /// Add the gap between the previous answer and this request to the
    /// referee's overhead.
    fn note_overhead(&mut self, sent: Instant, answered: Instant) {
        if let Some(prev) = self.last_answer {
            let gap = sent.saturating_duration_since(prev).as_micros() as u64;
            self.overhead_us.0 += gap;
            self.overhead_us.1 += 1;
        }
        self.last_answer = Some(answered);
    }

    /// Charge the thinking time to the mover's clock; returns the
    /// milliseconds used, or a loss on time.
    fn charge_clock(&mut self, side: Color, sent: Instant, answered: Instant) -> Result<u64, End> {
        let me = side.index();
        let used = answered.saturating_duration_since(sent).as_millis() as u64;
        let allowed = self.clocks[me].allowance_ms(self.settings.hang_ms);
        if self.clocks[me].charge(used) {
            return Ok(used);
        }
        let what = format!("loses on time ({used} ms used, {allowed} ms allowed)");
        Err(self.fault(side, Fault::TimeForfeit, &what))
    }

    /// Check and play the mover's move, then see whether an adjudication
    /// ends the game.
    fn play_move(
        &mut self,
        side: Color,
        text: &str,
        score: Option<i32>,
        used: u64,
    ) -> Result<(), End> {
        let ranks = self.players[side.index()].ranks();
        let Ok(m) = self.pos.parse_move(text, ranks) else {
            let what = format!("plays an illegal move: {text}");
            return Err(self.fault(side, Fault::IllegalMove, &what));
        };
        self.pos.make_move(m);
        self.moves.push(m);
        self.move_info.push((score, used));
        let fullmove = (self.moves.len() as u32).div_ceil(2);
        match self
            .adjudicator
            .update(self.settings, side, score, fullmove)
        {
            // A rule ending on this very move takes precedence.
            Some(adjudicated) => Err(referee::judge(&self.pos).map_or(adjudicated, End::rule)),
            None => Ok(()),
        }
    }

    /// A loss for `side` by fault `f`: "Red (name) <what>".
    fn fault(&self, side: Color, f: Fault, what: &str) -> End {
        let name = self.players[side.index()].name();
        End {
            result: GameResult::win_for(side.flip()),
            ending: Ending::Fault(f),
            text: format!("{} ({name}) {what}", color_name(side, self.janggi)),
        }
    }

    /// Tell both players the result (XBoard engines want it).
    fn tell_players(&mut self, end: &End) {
        for p in self.players.iter_mut() {
            p.game_over(end.result.as_str(), &end.text);
        }
    }

    fn into_record(self, end: End) -> GameRecord {
        let mut ponder = self.players[0].take_ponder_stats();
        ponder.add(&self.players[1].take_ponder_stats());
        GameRecord {
            start: self.start,
            moves: self.moves,
            book_plies: self.book_plies,
            move_info: self.move_info,
            result: end.result,
            ending: end.ending,
            reason: end.text,
            overhead_us: self.overhead_us,
            ponder,
        }
    }
}
