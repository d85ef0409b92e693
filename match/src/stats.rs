//! Match statistics: Elo with a 95% error bar, LOS, draw ratio, the
//! pentanomial distribution over opening pairs, and the SPRT.
//!
//! Elo is the logistic scale (`score = 1 / (1 + 10^(-elo/400))`). The SPRT
//! is the generalised SPRT with the normal approximation of the
//! log-likelihood ratio, computed over game pairs (pentanomial) when pairs
//! exist and over single games otherwise; this is what fishtest and
//! fastchess use.

/// Results from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Pair results by points scored in the pair: 0, ½, 1, 1½, 2.
    pub penta: [u32; 5],
}

/// A point estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference.
    pub elo: f64,
    /// Half-width of the 95% interval (may be infinite).
    pub error: f64,
}

/// Elo difference for a score fraction.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Score fraction for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

impl Score {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction (0.5 with no games).
    pub fn fraction(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Draw ratio.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// Record a game result for this side: 1, ½ or 0 points (as 2, 1, 0
    /// half-points).
    pub fn add_game(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Record a completed pair: half-points 0..=4 over its two games.
    pub fn add_pair(&mut self, half_points: u8) {
        self.penta[usize::from(half_points.min(4))] += 1;
    }

    /// Mean and variance per game of the score.
    fn trinomial(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let mu = w + 0.5 * d;
        let var = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
        Some((mu, var, n))
    }

    /// Mean and variance per pair of the pair score divided by two.
    fn pentanomial(&self) -> Option<(f64, f64, f64)> {
        let n: f64 = self.penta.iter().map(|&c| c as f64).sum();
        if n == 0.0 {
            return None;
        }
        let val = |i: usize| i as f64 / 4.0;
        let mu: f64 = (0..5).map(|i| self.penta[i] as f64 / n * val(i)).sum();
        let var: f64 = (0..5)
            .map(|i| self.penta[i] as f64 / n * (val(i) - mu).powi(2))
            .sum();
        Some((mu, var, n))
    }

    /// Elo difference and its 95% error bar: from the completed pairs
    /// when there are any (as the LLR is; the games of a pair still being
    /// played wait for it), else from single games.
    pub fn elo(&self) -> Option<Estimate> {
        let pairs: u32 = self.penta.iter().sum();
        let (mu, var, n) = if pairs > 0 {
            self.pentanomial()?
        } else {
            self.trinomial()?
        };
        let elo = elo_from_score(mu);
        let se = (var / n).sqrt();
        let lo = elo_from_score(mu - 1.959_964 * se);
        let hi = elo_from_score(mu + 1.959_964 * se);
        Some(Estimate {
            elo,
            error: (hi - lo) / 2.0,
        })
    }

    /// Likelihood of superiority: the chance this side is the stronger,
    /// from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The SPRT log-likelihood ratio for H1 (elo1) against H0 (elo0).
    ///
    /// Empty buckets get a tiny pseudo-count so that a one-sided start
    /// (all wins) still has a variance and can decide.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let pairs: u32 = self.penta.iter().sum();
        let (counts, values): (Vec<f64>, Vec<f64>) = if pairs > 0 {
            (
                self.penta.iter().map(|&c| c as f64).collect(),
                vec![0.0, 0.25, 0.5, 0.75, 1.0],
            )
        } else {
            (
                vec![self.losses as f64, self.draws as f64, self.wins as f64],
                vec![0.0, 0.5, 1.0],
            )
        };
        let real: f64 = counts.iter().sum();
        if real == 0.0 {
            return 0.0;
        }
        let counts: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0.0 { 1e-3 } else { c })
            .collect();
        let n: f64 = counts.iter().sum();
        let q: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        let (p0, p1) = (
            mle_with_mean(&q, &values, s0),
            mle_with_mean(&q, &values, s1),
        );
        let per_obs: f64 = q
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(qi, (a, b))| qi * (b.ln() - a.ln()))
            .sum();
        real * per_obs
    }
}

/// The distribution closest to the observed frequencies `q` (maximum
/// likelihood) whose mean over `values` is `s`: `p_i = q_i / (1 + x (v_i -
/// s))` with `x` found by bisection. This exact form (rather than the
/// normal approximation) keeps the LLR sane on the first few games.
fn mle_with_mean(q: &[f64], values: &[f64], s: f64) -> Vec<f64> {
    let vmax = values.iter().copied().fold(f64::MIN, f64::max);
    let vmin = values.iter().copied().fold(f64::MAX, f64::min);
    // All 1 + x (v_i - s) must stay positive.
    let mut lo = -1.0 / (vmax - s) + 1e-12;
    let mut hi = 1.0 / (s - vmin) - 1e-12;
    let f = |x: f64| -> f64 {
        q.iter()
            .zip(values)
            .map(|(qi, v)| qi * (v - s) / (1.0 + x * (v - s)))
            .sum()
    };
    // f decreases in x.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    q.iter()
        .zip(values)
        .map(|(qi, v)| qi / (1.0 + x * (v - s)))
        .collect()
}

/// SPRT state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Lower bound: accept H0 at or below.
    pub lower: f64,
    /// Upper bound: accept H1 at or above.
    pub upper: f64,
}

/// An SPRT decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtResult {
    /// Keep playing.
    Continue,
    /// H0 accepted (the change is not an improvement of `elo1`).
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    /// Bounds for the given error rates.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        }
    }

    /// Decide from a score.
    pub fn decide(&self, s: &Score) -> (f64, SprtResult) {
        let llr = s.llr(self.elo0, self.elo1);
        let r = if llr >= self.upper {
            SprtResult::H1
        } else if llr <= self.lower {
            SprtResult::H0
        } else {
            SprtResult::Continue
        };
        (llr, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_basics() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.848_501_887_865).abs() < 1e-6);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }

    /// With pairs, the estimate comes from the completed pairs only, so
    /// the game of a pair still being played does not switch it to the
    /// single-game formula.
    #[test]
    fn an_open_pair_keeps_the_pair_estimate() {
        let mut s = Score::default();
        for (a, b) in [(2, 0), (2, 1), (1, 1), (2, 2), (0, 1), (2, 1)] {
            s.add_game(a);
            s.add_game(b);
            s.add_pair(a + b);
        }
        let paired = s.elo().unwrap();
        s.add_game(2);
        let open = s.elo().unwrap();
        assert_eq!(paired.elo, open.elo);
        assert_eq!(paired.error, open.error);
    }

    #[test]
    fn error_bar_and_los() {
        let s = Score {
            wins: 60,
            draws: 20,
            losses: 20,
            penta: [0; 5],
        };
        let e = s.elo().unwrap();
        // score 0.7 → +147 Elo; sd per game = sqrt(0.21 - ... ) known value
        assert!((e.elo - 147.19).abs() < 0.1, "{e:?}");
        assert!(e.error > 50.0 && e.error < 90.0, "{e:?}");
        assert!(s.los() > 0.999);
        assert!((Score::default().los() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn exact_llr_matches_normal_approximation_on_large_samples() {
        let s = Score {
            wins: 0,
            draws: 0,
            losses: 0,
            penta: [300, 1900, 4000, 2300, 500],
        };
        let n = 9000.0;
        let vals = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mu: f64 = (0..5).map(|i| s.penta[i] as f64 / n * vals[i]).sum();
        let var: f64 = (0..5)
            .map(|i| s.penta[i] as f64 / n * (vals[i] - mu).powi(2))
            .sum();
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        let exact = s.llr(0.0, 5.0);
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs().max(1.0),
            "{exact} vs {approx}"
        );
        // One won pair is not yet proof.
        let one = Score {
            wins: 2,
            draws: 0,
            losses: 0,
            penta: [0, 0, 0, 0, 1],
        };
        assert!(one.llr(0.0, 5.0) < 1.0);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let t = Sprt::new(0.0, 5.0, 0.05, 0.05);
        assert!((t.upper - 2.944_438_979).abs() < 1e-6);
        assert!((t.lower + 2.944_438_979).abs() < 1e-6);
        let strong = Score {
            wins: 400,
            draws: 200,
            losses: 200,
            penta: [10, 40, 120, 130, 100],
        };
        assert_eq!(t.decide(&strong).1, SprtResult::H1);
        let weak = Score {
            wins: 200,
            draws: 200,
            losses: 400,
            penta: [100, 130, 120, 40, 10],
        };
        assert_eq!(t.decide(&weak).1, SprtResult::H0);
        let even = Score {
            wins: 5,
            draws: 5,
            losses: 5,
            penta: [0; 5],
        };
        assert_eq!(t.decide(&even).1, SprtResult::Continue);
    }
}
