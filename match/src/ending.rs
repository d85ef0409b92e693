//! Why a game of a match ended: by a rule of the game (the rules core's
//! [`Reason`]), by one of the runner's adjudications, by resignation, or by
//! an engine's [`Fault`].
//!
//! Every ending has a kebab-case code: the rules core's reason names
//! (`perpetual-check`), `adjudication-…`, `resignation`, or the fault's
//! name (`time-forfeit`). PGN's `TerminationDetails` and the final
//! report's game-end counts print it.

use std::fmt;

use movegen::Reason;

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
    /// It sent an answer no request was waiting for (a second `bestmove`
    /// for one search), so its answers no longer match the requests.
    StrayMove,
}

impl Fault {
    /// Every fault, for reports.
    pub const ALL: [Fault; 8] = [
        Fault::IllegalMove,
        Fault::Crash,
        Fault::Hang,
        Fault::TimeForfeit,
        Fault::FalseClaim,
        Fault::RejectedMove,
        Fault::StartFailure,
        Fault::StrayMove,
    ];

    /// PGN `Termination` tag value.
    pub fn termination(self) -> &'static str {
        match self {
            Fault::IllegalMove | Fault::FalseClaim | Fault::RejectedMove | Fault::StrayMove => {
                "rules infraction"
            }
            Fault::Crash | Fault::StartFailure => "abandoned",
            Fault::Hang => "stalled connection",
            Fault::TimeForfeit => "time forfeit",
        }
    }

    /// The kebab-case code of a game lost by this fault.
    pub fn code(self) -> &'static str {
        match self {
            Fault::IllegalMove => "illegal-move",
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::TimeForfeit => "time-forfeit",
            Fault::FalseClaim => "false-claim",
            Fault::RejectedMove => "rejected-move",
            Fault::StartFailure => "start-failure",
            Fault::StrayMove => "stray-move",
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
            Fault::StrayMove => "stray move",
        })
    }
}

/// An end the runner decides by its settings (`-draw`, `-resign`,
/// `-maxmoves`), not the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjudication {
    /// Both engines' scores stayed near zero (`-draw`).
    Draw,
    /// One engine's score stayed hopeless (`-resign`).
    Resign,
    /// The full-move cap was reached (`-maxmoves`): a draw, or Janggi
    /// counting.
    MaxMoves,
}

impl Adjudication {
    /// Every adjudication.
    pub const ALL: [Adjudication; 3] = [
        Adjudication::Draw,
        Adjudication::Resign,
        Adjudication::MaxMoves,
    ];
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A rule of the game, as the rules core judged it.
    Rule(Reason),
    /// An adjudication.
    Adjudication(Adjudication),
    /// An engine resigned (XBoard `resign`).
    Resignation,
    /// An engine's fault lost it the game.
    Fault(Fault),
}

impl Ending {
    /// The kebab-case code (`checkmate`, `adjudication-draw`, `crash`, …).
    pub fn code(self) -> &'static str {
        match self {
            Ending::Rule(r) => r.as_str(),
            Ending::Adjudication(Adjudication::Draw) => "adjudication-draw",
            Ending::Adjudication(Adjudication::Resign) => "adjudication-resign",
            Ending::Adjudication(Adjudication::MaxMoves) => "adjudication-maxmoves",
            Ending::Resignation => "resignation",
            Ending::Fault(f) => f.code(),
        }
    }

    /// The ending a code names, as PGN's `TerminationDetails` holds it
    /// (`checkmate`, `adjudication-draw`, `crash`); `None` for an unknown
    /// code and for the rules core's `none`, which ends no game.
    pub fn from_code(code: &str) -> Option<Ending> {
        let rules = Reason::ALL
            .into_iter()
            .filter(|&r| r != Reason::None)
            .map(Ending::Rule);
        rules
            .chain(Adjudication::ALL.map(Ending::Adjudication))
            .chain([Ending::Resignation])
            .chain(Fault::ALL.map(Ending::Fault))
            .find(|e| e.code() == code)
    }

    /// PGN `Termination` tag value.
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Rule(_) | Ending::Resignation => "normal",
            Ending::Adjudication(_) => "adjudication",
            Ending::Fault(f) => f.termination(),
        }
    }

    /// The code as plain words (`perpetual check`), for endings that need
    /// no further detail.
    pub fn words(self) -> String {
        self.code().replace('-', " ")
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        let all = Reason::ALL
            .into_iter()
            .filter(|&r| r != Reason::None)
            .map(Ending::Rule)
            .chain(Adjudication::ALL.map(Ending::Adjudication))
            .chain([Ending::Resignation])
            .chain(Fault::ALL.map(Ending::Fault));
        for e in all {
            assert_eq!(Ending::from_code(e.code()), Some(e));
        }
        for bad in ["", "none", "Checkmate", "checkmate ", "adjudication"] {
            assert_eq!(Ending::from_code(bad), None, "{bad:?}");
        }
    }
}
