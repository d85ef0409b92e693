//! One side's clock, kept by the referee: engines only hear it.

use crate::cli::TimeControl;
use crate::player::ClockView;

/// A side's time control, time left and moves made.
pub(crate) struct SideClock {
    tc: TimeControl,
    margin_ms: u64,
    remaining_ms: i64,
    moves_made: u32,
}

impl SideClock {
    /// A full clock for `tc`, with `margin_ms` of grace past it.
    pub(crate) fn new(tc: TimeControl, margin_ms: u64) -> SideClock {
        SideClock {
            tc,
            margin_ms,
            remaining_ms: tc.clock.map_or(0, |c| c.base_ms as i64),
            moves_made: 0,
        }
    }

    /// The clock as the engine is told it.
    pub(crate) fn view(&self) -> ClockView {
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
    pub(crate) fn allowance_ms(&self, hang_ms: u64) -> u64 {
        let mut a: Option<u64> = None;
        if self.tc.clock.is_some() {
            // A clock already past zero (but within the margin) leaves
            // only the rest of the margin; `charge` judges the same way.
            a = Some((self.remaining_ms + self.margin_ms as i64).max(0) as u64);
        }
        if let Some(st) = self.tc.movetime_ms {
            let lim = st + self.margin_ms;
            a = Some(a.map_or(lim, |x| x.min(lim)));
        }
        a.unwrap_or(hang_ms)
    }

    /// Charge a move; `false` if it overstepped the time.
    pub(crate) fn charge(&mut self, used_ms: u64) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Clock;

    #[test]
    fn allowance_is_what_charge_accepts() {
        let tc = TimeControl {
            clock: Some(Clock {
                moves: None,
                base_ms: 100,
                inc_ms: 0,
            }),
            ..TimeControl::default()
        };
        let mut c = SideClock::new(tc, 50);
        assert_eq!(c.allowance_ms(0), 150);
        assert!(c.charge(130)); // 30 ms past zero, within the margin
        assert_eq!(c.allowance_ms(0), 20);
        assert!(!c.charge(21));
    }
}
