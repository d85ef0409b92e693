//! When the engine resigns or agrees to a draw: one rule for every
//! protocol that can say so (docs/PROTOCOL.md §4, §5).
//!
//! - **Resign** only when `Resign Score` (UCCI `resignscore`) is above 0,
//!   and then when the search finds a mate against us or a score at or
//!   below minus that many centipawns. The default, 0, never resigns: a
//!   GUI or referee that wants lost games ended early says so. UCCI
//!   answers `bestmove m resign`, XBoard `resign`; UCI has no way to
//!   resign, so UCI output never changes with this option.
//! - **Draw**: a draw offered by the opponent (UCCI `go draw`, `ponderhit
//!   draw`) is accepted when the score is a centipawn score at most
//!   `Draw Score`. A resignation takes precedence over a draw.

use search::Score;

/// `Resign Score` and `Draw Score` as the rule reads them; small and
/// `Copy`, so a search callback can take it along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndRule {
    /// Resign at or below minus this score, cp; 0: never resign.
    pub resign_cp: i32,
    /// Accept an offered draw at or below this score, cp.
    pub draw_cp: i32,
}

impl EndRule {
    /// Whether a search that ended with `score` (ours) gives the game up.
    pub fn resigns(self, score: Score) -> bool {
        self.resign_cp > 0
            && match score {
                Score::Mate(n) => n < 0,
                Score::Cp(cp) => cp <= -self.resign_cp,
            }
    }

    /// Whether an offered draw is accepted at `score` (never when the
    /// rule resigns instead).
    pub fn accepts_draw(self, score: Score) -> bool {
        !self.resigns(score) && matches!(score, Score::Cp(cp) if cp <= self.draw_cp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_never_resigns() {
        let r = EndRule::default();
        assert!(!r.resigns(Score::Mate(-1)));
        assert!(!r.resigns(Score::Cp(-30_000)));
        assert!(r.accepts_draw(Score::Cp(0)));
        assert!(!r.accepts_draw(Score::Cp(1)));
        assert!(!r.accepts_draw(Score::Mate(-3)));
    }

    #[test]
    fn threshold_resigns_mates_and_low_scores() {
        let r = EndRule {
            resign_cp: 500,
            draw_cp: 50,
        };
        assert!(r.resigns(Score::Mate(-2)));
        assert!(!r.resigns(Score::Mate(2)));
        assert!(r.resigns(Score::Cp(-500)));
        assert!(!r.resigns(Score::Cp(-499)));
        assert!(r.accepts_draw(Score::Cp(50)));
        assert!(!r.accepts_draw(Score::Cp(-600)));
    }
}
