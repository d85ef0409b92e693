//! Time management: from the clock to a soft bound (don't start or go on
//! with iterations after it) and a hard bound (abort the search at once).
//!
//! The hard bound is what guarantees we never lose on time: it always
//! leaves the move overhead plus a share of the remaining clock unused,
//! and the search polls it every 1024 nodes (well under a millisecond).

use crate::params::{self, Param};
use crate::Limits;
use movegen::{Color, Game};

/// Time bounds of one search, in milliseconds since `go` (or since
/// `ponderhit` when pondering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeBounds {
    /// Target: stop between iterations after this (scaled by stability).
    pub soft: u64,
    /// Never search past this.
    pub hard: u64,
}

/// The bounds for `limits` and the side to move in `game`, or `None` for
/// a search without time limit (depth, nodes, infinite). The moves
/// planned for and the hard bound's factor are tunable
/// (`crate::params`).
pub(crate) fn bounds(limits: &Limits, game: Game, us: Color, overhead: u64) -> Option<TimeBounds> {
    if let Some(mt) = limits.movetime_ms {
        let t = mt.saturating_sub(overhead).max(1);
        return Some(TimeBounds { soft: t, hard: t });
    }
    let time = limits.time_ms[us.index()]?;
    let inc = limits.inc_ms[us.index()].unwrap_or(0);
    // Moves we plan for when the clock has no moves-to-go: with an
    // increment, and without one (sudden death must last the whole game).
    let plan = params::get(
        if inc > 0 {
            Param::TmPlanMovesInc
        } else {
            Param::TmPlanMovesSuddenDeath
        },
        game,
    ) as u64;
    let mtg = limits.movestogo.map_or(plan, |m| u64::from(m.clamp(1, 50)));
    // The time for the planned moves: the clock plus the increments still
    // to come, less the move overhead for every one of those moves (the
    // delays we cannot see add up over a game), spread evenly.
    // Saturating: clocks come from GUIs and may be absurdly large.
    let pool = time
        .saturating_add(inc.saturating_mul(mtg - 1))
        .saturating_sub(overhead.saturating_mul(mtg + 2));
    let soft = pool / mtg;
    // Hard bound: a few times the target, but never more than a fraction
    // of the clock (more when this is the last move before the control),
    // and always leaving the overhead and a half on the clock.
    let share = if mtg == 1 {
        time / 4 * 3
    } else {
        time / 4 + inc / 2
    };
    let hard = soft
        .saturating_mul(params::get(Param::TmHardFactor, game) as u64)
        .min(share)
        .min(time.saturating_sub(overhead.saturating_mul(3) / 2));
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
    fn huge_clocks_do_not_overflow() {
        for (t, inc) in [(u64::MAX, u64::MAX), (u64::MAX, 0), (1, u64::MAX)] {
            for mtg in [None, Some(1), Some(40)] {
                let b =
                    bounds(&clock(t, inc, mtg), Game::Xiangqi, Color::Red, u64::MAX / 3).unwrap();
                assert!(b.soft <= b.hard && b.hard >= 1);
            }
        }
    }

    #[test]
    fn bounds_stay_inside_the_clock() {
        for t in [1u64, 5, 30, 100, 1_000, 10_000, 300_000] {
            for inc in [0u64, 10, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = bounds(&clock(t, inc, mtg), Game::Xiangqi, Color::Red, 30).unwrap();
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard <= t.saturating_sub(30).max(1),
                        "{t} {inc} {mtg:?} {b:?}"
                    );
                }
            }
        }
    }

    /// A whole game on the clock where each move takes 1.5 times the
    /// target (iterations overrunning it), or the hard bound, plus a delay
    /// as large as the move overhead: the clock must never run out.
    #[test]
    fn a_long_game_survives_latency() {
        for (base, inc) in [
            (3_000u64, 30u64),
            (5_000, 50),
            (10_000, 0),
            (60_000, 0),
            (60_000, 1_000),
        ] {
            let mut t = base as i64;
            // Sudden death must last a long game, increment games forever.
            let moves = if inc == 0 { 120 } else { 400 };
            for mv in 0..moves {
                let l = clock(t as u64, inc, None);
                let b = bounds(&l, Game::Xiangqi, Color::Red, 10).unwrap();
                let think = if mv % 7 == 0 {
                    b.hard
                } else {
                    (b.soft * 3 / 2).min(b.hard)
                } as i64;
                t -= think + 10;
                assert!(t > 0, "{base}+{inc}: flagged at move {mv}");
                t += inc as i64;
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
            bounds(&l, Game::Xiangqi, Color::Black, 10),
            Some(TimeBounds {
                soft: 990,
                hard: 990
            })
        );
        assert_eq!(
            bounds(&Limits::default(), Game::Xiangqi, Color::Red, 10),
            None
        );
    }
}
