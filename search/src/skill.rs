//! Playing below full strength: `Skill Level` and `UCI_Elo`.
//!
//! A weakened level does what a weaker player does: it looks less far
//! and, among the moves it thinks reasonable, does not always find the
//! best. Concretely, for a level `L` below [`FULL_LEVEL`]:
//! 1. the search runs in MultiPV mode with [`Skill::candidates`] lines,
//!    capped at [`Skill::node_budget`] nodes (a budget, not a depth, so
//!    that fractional levels from `UCI_Elo` differ smoothly, and so that
//!    the level does not depend on the machine's speed or load). The
//!    budget is per line: each extra line costs about a search of its own,
//!    and without that the top levels would fall far short of full
//!    strength (a first ladder had level 16 score 7% against it);
//! 2. the move is drawn among the lines of the last completed iteration
//!    with probabilities `exp(-(best - score) / T)`, the temperature `T`
//!    ([`Skill::temperature_cp`]) falling to zero at full strength: a
//!    move that loses little is often played, one that loses a piece
//!    rarely, a mate that the search saw almost never missed.
//!
//! The draw is reproducible: it depends only on the seed and the
//! position's hash key, so the same seed and limits give the same move.
//!
//! [`ELO_TABLE`] maps `UCI_Elo` to levels; it is the one place that holds
//! the calibration measured in games (docs/RESULTS.md, "Strength levels").

use movegen::Move;

/// The level of full strength: no budget, no draw.
pub const FULL_LEVEL: f64 = 20.0;

/// Each level below full strength halves the nodes per line every this
/// many levels: level 20 has [`REFERENCE_NODES`] per line, level 0 about
/// 320 (depth 1 to 2, about what a beginner sees).
const LEVELS_PER_HALVING: f64 = 3.0;
/// Temperature of level 0, centipawns; it falls with the square of the
/// distance to full strength, so the top levels rarely deviate.
const MAX_TEMPERATURE_CP: f64 = 250.0;
/// Lines searched at level 0 beyond the [`MIN_CANDIDATES`]; they fall
/// linearly to none at full strength.
const EXTRA_CANDIDATES: f64 = 4.0;
/// Lines searched near full strength.
const MIN_CANDIDATES: usize = 2;

/// Nodes per move at which the calibration plays full strength, and the
/// nodes per line of a level just below it: 2^15, what full strength
/// searches in about 40 ms on one core of the calibration machine.
pub const REFERENCE_NODES: u64 = 1 << 15;

/// A playing strength: a level from 0 to [`FULL_LEVEL`] (fractional
/// values interpolate) and the seed of the move draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
    seed: u64,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill::FULL
    }
}

impl Skill {
    /// Full strength: the search as if there were no levels.
    pub const FULL: Skill = Skill {
        level: FULL_LEVEL,
        seed: 0,
    };

    /// A level (clamped to `0..=FULL_LEVEL`; NaN is full strength) with
    /// the seed of its move draw.
    pub fn new(level: f64, seed: u64) -> Skill {
        let level = if level.is_nan() {
            FULL_LEVEL
        } else {
            level.clamp(0.0, FULL_LEVEL)
        };
        Skill { level, seed }
    }

    /// The level, `0..=FULL_LEVEL`.
    pub fn level(self) -> f64 {
        self.level
    }

    /// The seed of the move draw.
    pub fn seed(self) -> u64 {
        self.seed
    }

    /// Whether this is full strength (the search is not touched).
    pub fn is_full(self) -> bool {
        self.level >= FULL_LEVEL
    }

    /// Distance to full strength, 1 at level 0, 0 at full strength.
    fn gap(self) -> f64 {
        (FULL_LEVEL - self.level) / FULL_LEVEL
    }

    /// Most nodes one move may take at this level: the nodes per line
    /// times the lines.
    pub fn node_budget(self) -> u64 {
        let halvings = (FULL_LEVEL - self.level) / LEVELS_PER_HALVING;
        let per_line = REFERENCE_NODES as f64 / halvings.exp2();
        (per_line * self.candidates() as f64).round() as u64
    }

    /// Lines (MultiPV) searched, the candidates of the draw: 6 at level
    /// 0, 2 near full strength.
    pub fn candidates(self) -> usize {
        MIN_CANDIDATES + (EXTRA_CANDIDATES * self.gap()).round() as usize
    }

    /// Temperature of the draw, centipawns (0 at full strength).
    pub fn temperature_cp(self) -> f64 {
        MAX_TEMPERATURE_CP * self.gap() * self.gap()
    }

    /// Index of the line to play among `scores` (best first, internal
    /// centipawns; mate scores are simply very large), drawn with weights
    /// `exp(-(best - score) / T)` from the seed and `key` (the position's
    /// hash key). 0 at full strength or with fewer than two lines.
    pub fn choose(self, scores: &[i32], key: u64) -> usize {
        let t = self.temperature_cp();
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        if self.is_full() || scores.len() < 2 || t <= 0.0 {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| (-(f64::from(best) - f64::from(s)) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = unit_interval(mix(self.seed, key)) * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        // Rounding left a sliver past the last weight: the best line.
        0
    }
}

/// A number in `[0, 1)` from 64 random bits (the top 53, a double's
/// precision).
fn unit_interval(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// Seed and position key stirred into one well-spread 64-bit number (the
/// SplitMix64 finaliser, applied twice so that nearby seeds and keys give
/// unrelated draws).
fn mix(seed: u64, key: u64) -> u64 {
    let stir = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    stir(stir(seed.wrapping_add(0x9e37_79b9_7f4a_7c15)) ^ key)
}

/// One line of a MultiPV iteration, a candidate of the draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Internal score.
    pub score: i32,
    /// The line, its first move the candidate.
    pub pv: Vec<Move>,
}

/// `UCI_Elo` to level, measured in games (docs/RESULTS.md, "Strength
/// levels"; `scripts/skill_ladder.sh`, `scripts/skill_table.py`): the
/// fitted rating of every even level, rounded to 10, on a scale that puts
/// full strength at 32768 nodes per move at 2850 (a convention: only the
/// differences are measured, ±90 at level 18 to ±300 at level 0, 95%).
/// `(elo, level)` by rising Elo; values between rows interpolate
/// linearly; the last row is full strength.
pub const ELO_TABLE: &[(i64, f64)] = &[
    (750, 0.0),
    (940, 2.0),
    (1210, 4.0),
    (1380, 6.0),
    (1660, 8.0),
    (1850, 10.0),
    (2080, 12.0),
    (2400, 14.0),
    (2640, 16.0),
    (2820, 18.0),
    (2850, FULL_LEVEL),
];

/// Smallest `UCI_Elo`.
pub const MIN_ELO: i64 = ELO_TABLE[0].0;
/// Largest `UCI_Elo`: full strength.
pub const MAX_ELO: i64 = ELO_TABLE[ELO_TABLE.len() - 1].0;

/// The level that plays at about `elo` (clamped to the table's range).
pub fn level_for_elo(elo: i64) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    for pair in ELO_TABLE.windows(2) {
        let ((e0, l0), (e1, l1)) = (pair[0], pair[1]);
        if elo <= e1 {
            let f = (elo - e0) as f64 / (e1 - e0).max(1) as f64;
            return l0 + f * (l1 - l0);
        }
    }
    FULL_LEVEL
}

// The table rises in Elo and level and ends at full strength.
const _: () = {
    assert!(ELO_TABLE.len() >= 2);
    let mut i = 1;
    while i < ELO_TABLE.len() {
        assert!(ELO_TABLE[i].0 > ELO_TABLE[i - 1].0);
        assert!(ELO_TABLE[i].1 > ELO_TABLE[i - 1].1);
        i += 1;
    }
    assert!(ELO_TABLE[ELO_TABLE.len() - 1].1 == FULL_LEVEL);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_scale_smoothly() {
        let low = Skill::new(0.0, 1);
        let mid = Skill::new(10.0, 1);
        let high = Skill::new(19.0, 1);
        // Per line: level 20 would search the reference, level 0 1/100th.
        assert!((1900..2000).contains(&low.node_budget()));
        assert_eq!(
            Skill::new(FULL_LEVEL, 1).node_budget(),
            MIN_CANDIDATES as u64 * REFERENCE_NODES
        );
        assert!(low.node_budget() < mid.node_budget());
        assert!(mid.node_budget() < high.node_budget());
        assert!(high.node_budget() < 2 * REFERENCE_NODES);
        assert!(low.temperature_cp() > mid.temperature_cp());
        assert!(high.temperature_cp() > 0.0);
        assert_eq!(Skill::FULL.temperature_cp(), 0.0);
        assert_eq!(low.candidates(), 6);
        assert!(Skill::new(-3.0, 0).level() == 0.0);
        assert!(Skill::new(f64::NAN, 0).is_full());
    }

    #[test]
    fn the_draw_is_reproducible_and_follows_the_scores() {
        let skill = Skill::new(0.0, 7);
        let scores = [30, 20, -10, -900];
        let mut counts = [0usize; 4];
        for key in 0..4000u64 {
            let i = skill.choose(&scores, key);
            assert_eq!(i, skill.choose(&scores, key), "same seed and key");
            counts[i] += 1;
        }
        // Close moves are all played, a piece-losing one almost never.
        assert!(counts[0] > counts[1] && counts[1] > counts[2]);
        assert!(counts[2] > 400, "{counts:?}");
        assert!(counts[3] * 20 < counts[2], "{counts:?}");
        assert_eq!(Skill::FULL.choose(&scores, 5), 0);
        assert_eq!(skill.choose(&[10], 5), 0);
        assert_eq!(skill.choose(&[], 5), 0);
    }

    #[test]
    fn elo_maps_into_the_levels() {
        assert_eq!(level_for_elo(MIN_ELO), ELO_TABLE[0].1);
        assert_eq!(level_for_elo(MAX_ELO), FULL_LEVEL);
        assert_eq!(level_for_elo(i64::MIN), ELO_TABLE[0].1);
        assert_eq!(level_for_elo(i64::MAX), FULL_LEVEL);
        for &(elo, level) in ELO_TABLE {
            assert_eq!(level_for_elo(elo), level, "{elo}");
        }
        // Halfway between two rows, halfway between their levels.
        assert_eq!(level_for_elo(1755), 9.0);
        let mut last = -1.0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let l = level_for_elo(elo);
            assert!(l >= last);
            last = l;
        }
    }
}
