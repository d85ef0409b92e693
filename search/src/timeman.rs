//! Time management: from the clock to a soft bound (don't start or go on
//! with iterations after it) and a hard bound (abort the search at once).
//!
//! The hard bound is what guarantees we never lose on time: it always
//! leaves the move overhead plus a share of the remaining clock unused,
//! and the search polls it every 1024 nodes (well under a millisecond).

use crate::Limits;
use movegen::Color;

/// Time bounds of one search, in milliseconds since `go` (or since
/// `ponderhit` when pondering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeBounds {
    /// Target: stop between iterations after this (scaled by stability).
    pub soft: u64,
    /// Never search past this.
    pub hard: u64,
}

/// Moves we plan for when the clock has no moves-to-go.
const SUDDEN_DEATH_MOVES: u64 = 26;

/// The bounds for `limits` and the side to move, or `None` for a search
/// without time limit (depth, nodes, infinite).
pub(crate) fn bounds(limits: &Limits, us: Color, overhead: u64) -> Option<TimeBounds> {
    if let Some(mt) = limits.movetime_ms {
        let t = mt.saturating_sub(overhead).max(1);
        return Some(TimeBounds { soft: t, hard: t });
    }
    let time = limits.time_ms[us.index()]?;
    let inc = limits.inc_ms[us.index()].unwrap_or(0);
    // What may be spent without touching the reserve for transmission.
    let left = time.saturating_sub(overhead);
    let mtg = limits
        .movestogo
        .map_or(SUDDEN_DEATH_MOVES, |m| u64::from(m.clamp(1, 50)));
    // Spread the clock over the moves to go; the increment arrives after
    // every move, so most of it can be spent too.
    let soft = left / (mtg + 2) + inc * 3 / 4;
    // Hard bound: a few times the target, but never more than a fraction
    // of the clock (more when this is the last move before the control).
    let share = if mtg == 1 {
        left * 9 / 10
    } else {
        left / 3 + inc / 2
    };
    let hard = (soft * 4).min(share).min(left.saturating_sub(overhead / 2));
    let hard = hard.max(1);
    let soft = soft.min(hard).max(1);
    Some(TimeBounds { soft, hard })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(t: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time_ms: [Some(t), Some(t)],
            inc_ms: [Some(inc), Some(inc)],
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn bounds_stay_inside_the_clock() {
        for t in [1u64, 5, 30, 100, 1_000, 10_000, 300_000] {
            for inc in [0u64, 10, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = bounds(&clock(t, inc, mtg), Color::Red, 30).unwrap();
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard <= t.saturating_sub(30).max(1),
                        "{t} {inc} {mtg:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_and_none() {
        let l = Limits {
            movetime_ms: Some(1_000),
            ..Limits::default()
        };
        assert_eq!(
            bounds(&l, Color::Black, 10),
            Some(TimeBounds {
                soft: 990,
                hard: 990
            })
        );
        assert_eq!(bounds(&Limits::default(), Color::Red, 10), None);
    }
}
