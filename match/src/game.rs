//! One game between two engines: the referee's loop and clocks.
//!
//! The referee keeps both clocks itself (engines only hear them), checks
//! every move with the rules core, and ends the game by the rules, by an
//! adjudication, or by a fault: an illegal move, a crash, a hang, a loss on
//! time, a false claim. A fault loses the game for the engine at fault.

use std::fmt;
use std::time::{Duration, Instant};

use movegen::{Color, Move, MoveError, Position};

use crate::cli::{DrawAdjudication, ResignAdjudication, TimeControl};
use crate::engine_proc::ProcError;
use crate::openings::Opening;
use crate::player::{ClockView, Player, Reply, Request};
use crate::referee::{self, Outcome, Verdict};

/// How long an engine that overstepped its deadline gets to answer `stop`
/// before it counts as hung rather than merely slow.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// What an engine did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// It played a move that is not legal (or not a move).
    IllegalMove,
    /// Its process died.
    Crash,
    /// It stopped answering, even after `stop`.
    Hang,
    /// It answered after its time ran out.
    TimeForfeit,
    /// It claimed a result the referee does not see, or reported no move
    /// while it had one.
    FalseClaim,
    /// It refused a legal move the referee sent it.
    RejectedMove,
    /// It could not start or set up the game.
    StartFailure,
}

impl Fault {
    /// Every fault, for reports.
    pub const ALL: [Fault; 7] = [
        Fault::IllegalMove,
        Fault::Crash,
        Fault::Hang,
        Fault::TimeForfeit,
        Fault::FalseClaim,
        Fault::RejectedMove,
        Fault::StartFailure,
    ];

    /// PGN `Termination` tag value.
    pub fn termination(self) -> &'static str {
        match self {
            Fault::IllegalMove | Fault::FalseClaim | Fault::RejectedMove => "rules infraction",
            Fault::Crash | Fault::StartFailure => "abandoned",
            Fault::Hang => "stalled connection",
            Fault::TimeForfeit => "time forfeit",
        }
    }

    /// Whether the engine's process must be replaced before its next game.
    pub fn needs_restart(self) -> bool {
        !matches!(self, Fault::IllegalMove | Fault::FalseClaim)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::IllegalMove => "illegal move",
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::TimeForfeit => "loss on time",
            Fault::FalseClaim => "false claim",
            Fault::RejectedMove => "rejected a legal move",
            Fault::StartFailure => "failed to start",
        })
    }
}

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
    /// Result.
    pub outcome: Outcome,
    /// PGN `Termination` value.
    pub termination: &'static str,
    /// Human-readable end reason ("checkmate", "Black plays an illegal move …").
    pub reason: String,
    /// Rule or adjudication name, kebab-case.
    pub reason_code: String,
    /// The engine at fault, if any: side and what it did.
    pub fault: Option<(Color, Fault)>,
    /// Referee time between an engine's answer and the next request, in
    /// microseconds, summed; and how many such gaps.
    pub overhead_us: (u64, u64),
}

struct SideClock {
    tc: TimeControl,
    margin_ms: u64,
    remaining_ms: i64,
    moves_made: u32,
}

impl SideClock {
    fn new(tc: TimeControl, margin_ms: u64) -> SideClock {
        SideClock {
            tc,
            margin_ms,
            remaining_ms: tc.clock.map_or(0, |c| c.base_ms as i64),
            moves_made: 0,
        }
    }

    fn view(&self) -> ClockView {
        ClockView {
            remaining_ms: self.remaining_ms,
            inc_ms: self.tc.clock.map_or(0, |c| c.inc_ms),
            moves_to_go: self
                .tc
                .clock
                .and_then(|c| c.moves.map(|m| m - self.moves_made % m)),
        }
    }

    /// The longest the engine may take for this move, margin included.
    fn allowance_ms(&self, hang_ms: u64) -> u64 {
        let mut a: Option<u64> = None;
        if self.tc.clock.is_some() {
            a = Some(self.remaining_ms.max(0) as u64 + self.margin_ms);
        }
        if let Some(st) = self.tc.movetime_ms {
            let lim = st + self.margin_ms;
            a = Some(a.map_or(lim, |x| x.min(lim)));
        }
        a.unwrap_or(hang_ms)
    }

    /// Charge a move; `false` if it overstepped the time.
    fn charge(&mut self, used_ms: u64) -> bool {
        let mut ok = true;
        if let Some(st) = self.tc.movetime_ms {
            ok &= used_ms <= st + self.margin_ms;
        }
        if let Some(c) = self.tc.clock {
            self.remaining_ms -= used_ms as i64;
            ok &= self.remaining_ms + self.margin_ms as i64 >= 0;
            self.remaining_ms += c.inc_ms as i64;
            self.moves_made += 1;
            if let Some(m) = c.moves {
                if self.moves_made % m == 0 {
                    self.remaining_ms += c.base_ms as i64;
                }
            }
        }
        ok
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
    /// Record the mover's score; returns an adjudicated verdict.
    fn update(
        &mut self,
        s: &GameSettings,
        mover: Color,
        score: Option<i32>,
        fullmove: u32,
    ) -> Option<Verdict> {
        let me = mover.index();
        self.last_score[me] = score;
        if let Some(d) = s.draw {
            match score {
                Some(v) if fullmove >= d.movenumber && v.abs() <= d.score => self.draw_run += 1,
                _ => self.draw_run = 0,
            }
            if self.draw_run >= 2 * d.movecount {
                return Some(Verdict {
                    outcome: Outcome::Draw,
                    reason: "adjudication-draw".to_string(),
                });
            }
        }
        if let Some(r) = s.resign {
            let opp_agrees = !r.twosided || self.last_score[1 - me].is_some_and(|v| v >= r.score);
            match score {
                Some(v) if v <= -r.score && opp_agrees => self.resign_run[me] += 1,
                _ => self.resign_run[me] = 0,
            }
            if self.resign_run[me] >= r.movecount {
                return Some(Verdict {
                    outcome: Outcome::win_for(mover.flip()),
                    reason: "adjudication-resign".to_string(),
                });
            }
        }
        None
    }
}

/// Play one game; `engines[0]` has the first player (Red / Cho).
/// `names` are for messages. The engines must already be started.
pub fn play_game(engines: [&mut Player; 2], opening: &Opening, s: &GameSettings) -> GameRecord {
    let [red, black] = engines;
    let mut eng: [&mut Player; 2] = [red, black];
    let janggi = opening.start.variant().is_janggi();
    let mut pos = opening.start.clone();
    for &m in &opening.moves {
        pos.make_move(m);
    }
    let mut rec = GameRecord {
        start: opening.start.clone(),
        moves: opening.moves.clone(),
        book_plies: opening.moves.len(),
        move_info: Vec::new(),
        outcome: Outcome::Draw,
        termination: "unterminated",
        reason: String::new(),
        reason_code: String::new(),
        fault: None,
        overhead_us: (0, 0),
    };
    let fault = |rec: &mut GameRecord, side: Color, f: Fault, detail: String| {
        rec.outcome = Outcome::win_for(side.flip());
        rec.termination = f.termination();
        rec.reason = format!("{} {detail}", color_name(side, janggi));
        rec.reason_code = match f {
            Fault::IllegalMove => "illegal-move",
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::TimeForfeit => "time-forfeit",
            Fault::FalseClaim => "false-claim",
            Fault::RejectedMove => "rejected-move",
            Fault::StartFailure => "start-failure",
        }
        .to_string();
        rec.fault = Some((side, f));
    };
    for (i, e) in eng.iter_mut().enumerate() {
        if let Err(err) = e.new_game(&opening.start) {
            let side = if i == 0 { Color::Red } else { Color::Black };
            fault(
                &mut rec,
                side,
                Fault::StartFailure,
                format!("({}) could not start the game: {err}", e.name()),
            );
            return rec;
        }
    }
    let mut clocks = [
        SideClock::new(*eng[0].tc(), s.margins_ms[0]),
        SideClock::new(*eng[1].tc(), s.margins_ms[1]),
    ];
    let mut adj = Adjudicator::default();
    let mut last_answer: Option<Instant> = None;
    let finish = |rec: &mut GameRecord, v: Verdict, termination: &'static str| {
        rec.outcome = v.outcome;
        rec.termination = termination;
        rec.reason = v.reason.replace('-', " ");
        rec.reason_code = v.reason;
    };
    loop {
        if let Some(v) = referee::judge(&pos) {
            finish(&mut rec, v, "normal");
            break;
        }
        if let Some(mx) = s.maxmoves {
            if rec.moves.len() >= 2 * mx as usize {
                let outcome = if janggi
                    && pos.variant().janggi_fallback() == Some(movegen::JanggiFallback::Counting)
                {
                    referee::janggi_counting(&pos)
                } else {
                    Outcome::Draw
                };
                finish(
                    &mut rec,
                    Verdict {
                        outcome,
                        reason: "adjudication-maxmoves".to_string(),
                    },
                    "adjudication",
                );
                break;
            }
        }
        let side = pos.side_to_move();
        let me = side.index();
        let req = Request {
            start: &rec.start,
            moves: &rec.moves,
            own: clocks[me].view(),
            opp: clocks[1 - me].view(),
            first_player: side == Color::Red,
        };
        let allowance = Duration::from_millis(clocks[me].allowance_ms(s.hang_ms));
        let before = Instant::now();
        // The deadline is fixed from the time the request goes out, so
        // writing the position line is not charged against the engine twice.
        let result = eng[me].go(&req, before + allowance);
        let (reply, sent) = match result {
            Ok(r) => r,
            Err(ProcError::Disconnected) | Err(ProcError::Spawn(_)) => {
                let name = eng[me].name().to_string();
                fault(
                    &mut rec,
                    side,
                    Fault::Crash,
                    format!("({name}) crashed or disconnected"),
                );
                break;
            }
            Err(ProcError::Timeout) => {
                let name = eng[me].name().to_string();
                if eng[me].stop_after_timeout(STOP_GRACE) {
                    fault(
                        &mut rec,
                        side,
                        Fault::TimeForfeit,
                        format!("({name}) loses on time"),
                    );
                } else {
                    fault(
                        &mut rec,
                        side,
                        Fault::Hang,
                        format!("({name}) stopped responding"),
                    );
                }
                break;
            }
        };
        if let Some(prev) = last_answer {
            let gap = sent.saturating_duration_since(prev).as_micros() as u64;
            rec.overhead_us.0 += gap;
            rec.overhead_us.1 += 1;
        }
        let at = match &reply {
            Reply::Move { at, .. }
            | Reply::NoMove { at }
            | Reply::Claim { at, .. }
            | Reply::Rejected { at, .. } => *at,
        };
        last_answer = Some(at);
        let used = at.saturating_duration_since(sent).as_millis() as u64;
        let name = eng[me].name().to_string();
        let allowed = clocks[me].allowance_ms(s.hang_ms);
        if !clocks[me].charge(used) {
            fault(
                &mut rec,
                side,
                Fault::TimeForfeit,
                format!("({name}) loses on time ({used} ms used, {allowed} ms allowed)"),
            );
            break;
        }
        match reply {
            Reply::Move { text, score, .. } => {
                let m = match pos.parse_move(&text, eng[me].ranks()) {
                    Ok(m) => m,
                    Err(MoveError::Syntax(_)) | Err(MoveError::Illegal(_)) => {
                        fault(
                            &mut rec,
                            side,
                            Fault::IllegalMove,
                            format!("({name}) plays an illegal move: {text}"),
                        );
                        break;
                    }
                };
                pos.make_move(m);
                rec.moves.push(m);
                rec.move_info.push((score, used));
                let fullmove = (rec.moves.len() as u32).div_ceil(2);
                if let Some(v) = adj.update(s, side, score, fullmove) {
                    // A rule ending on this very move takes precedence.
                    if let Some(r) = referee::judge(&pos) {
                        finish(&mut rec, r, "normal");
                    } else {
                        finish(&mut rec, v, "adjudication");
                    }
                    break;
                }
            }
            Reply::NoMove { .. } => {
                fault(
                    &mut rec,
                    side,
                    Fault::FalseClaim,
                    format!("({name}) reports no move in a live position"),
                );
                break;
            }
            Reply::Claim { text, .. } => {
                if text == "resign" {
                    finish(
                        &mut rec,
                        Verdict {
                            outcome: Outcome::win_for(side.flip()),
                            reason: "resignation".to_string(),
                        },
                        "normal",
                    );
                } else {
                    fault(
                        &mut rec,
                        side,
                        Fault::FalseClaim,
                        format!("({name}) makes a false claim: {text}"),
                    );
                }
                break;
            }
            Reply::Rejected { text, .. } => {
                fault(
                    &mut rec,
                    side,
                    Fault::RejectedMove,
                    format!("({name}) rejects a legal move: {text}"),
                );
                break;
            }
        }
    }
    let reason = rec.reason.clone();
    for e in eng.iter_mut() {
        e.game_over(rec.outcome.pgn(), &reason);
    }
    rec
}
