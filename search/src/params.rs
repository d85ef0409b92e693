//! # params — every search constant a tuner may move, in one table
//!
//! Each row of [`TUNABLES`] is one named parameter of the search: its
//! default in each game, the range a tuner may move it in, and the two
//! SPSA settings of Fishtest's convention (`c_end`, the size of the last
//! perturbation, and `r_end`, the last learning rate; see the `tune`
//! crate's `spsa` module). The search reads a parameter with [`get`] at
//! the place that uses it; the comments on what each one means stay here,
//! so that the table is the one description of the search's margins.
//!
//! In a normal build [`get`] is a `const fn` over the table's defaults:
//! with a constant parameter it folds to the default (a `match` on the
//! game that folds away where both games share it), so the search runs
//! exactly as with literal constants. With the crate feature `tune` the
//! values are run-time ones, one relaxed atomic per parameter and game,
//! set by [`set`] (the engine exposes them as UCI spin options, see
//! [`option_name`]). They are process-wide: a tuning build runs one
//! engine per process, as `jiang spsa` does.
//!
//! Values are integers. Terms that are fractions elsewhere are kept in
//! hundredths or thousandths here (the LMR table's, the time factors),
//! and turned into the same `f64` the literal gave (an exact integer over
//! a power of ten rounds to the literal's value), so that the defaults
//! change no search.

use movegen::{ByGame, Game};

/// One tunable parameter: its name, default per game, range and SPSA
/// settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// Which parameter (the row's index in [`TUNABLES`]).
    pub param: Param,
    /// Its name, lower case with underscores (the option names are made
    /// from it, [`option_name`]).
    pub name: &'static str,
    /// The value the search uses unless a tuning build is told another.
    pub default: ByGame<i32>,
    /// Smallest value a tuner may set.
    pub min: i32,
    /// Largest value a tuner may set.
    pub max: i32,
    /// SPSA: the perturbation at the last iteration (Fishtest's `c_end`),
    /// in the parameter's units.
    pub c_end: f64,
    /// SPSA: the learning rate at the last iteration (Fishtest's
    /// `r_end`; the step is `r_end · c_end²` there).
    pub r_end: f64,
}

/// Writes the [`Param`] enum and the [`TUNABLES`] table from one list, so
/// that a parameter cannot be in one without the other.
macro_rules! tunables {
    ($(
        $(#[doc = $doc:expr])*
        $id:ident $name:literal = ($xq:expr, $jg:expr), $min:literal..=$max:literal,
            c_end $c:literal, r_end $r:literal;
    )*) => {
        /// Every tunable parameter of the search (the rows of
        /// [`TUNABLES`], in order).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Param {
            $($(#[doc = $doc])* $id,)*
        }

        /// The table of every tunable parameter, in the order of [`Param`].
        pub const TUNABLES: &[Tunable] = &[$(
            Tunable {
                param: Param::$id,
                name: $name,
                default: ByGame::new($xq, $jg),
                min: $min,
                max: $max,
                c_end: $c,
                r_end: $r,
            },
        )*];
    };
}

tunables! {
    // ----- reverse futility pruning (search::pruning) -----
    /// Reverse futility pruning is tried up to this depth.
    RfpMaxDepth "rfp_max_depth" = (7, 7), 3..=12, c_end 1.0, r_end 0.002;
    /// Reverse futility margin per ply of depth, centipawns.
    RfpMarginPerPly "rfp_margin_per_ply" = (90, 90), 30..=200, c_end 8.0, r_end 0.002;
    /// The reverse futility margin shrinks by this much when the static
    /// evaluation improves on two plies ago.
    RfpImprovingMargin "rfp_improving_margin" = (60, 60), 0..=150, c_end 6.0, r_end 0.002;

    // ----- null move -----
    /// The null move is tried from this depth on.
    NmpMinDepth "nmp_min_depth" = (3, 3), 1..=6, c_end 1.0, r_end 0.002;
    /// Null-move reduction: this base, plus a ply per `nmp_depth_divisor`
    /// of depth, plus a ply per `nmp_eval_divisor` centipawns that the
    /// static evaluation exceeds beta by (at most
    /// `nmp_max_eval_reduction`).
    NmpBaseReduction "nmp_base_reduction" = (3, 3), 1..=6, c_end 1.0, r_end 0.002;
    /// See `nmp_base_reduction`.
    NmpDepthDivisor "nmp_depth_divisor" = (4, 4), 2..=8, c_end 1.0, r_end 0.002;
    /// See `nmp_base_reduction`.
    NmpEvalDivisor "nmp_eval_divisor" = (200, 200), 50..=400, c_end 16.0, r_end 0.002;
    /// See `nmp_base_reduction`.
    NmpMaxEvalReduction "nmp_max_eval_reduction" = (3, 3), 0..=6, c_end 1.0, r_end 0.002;
    /// Null-move cut-offs from this depth on are verified by a reduced
    /// normal search.
    NmpVerifyDepth "nmp_verify_depth" = (12, 12), 6..=20, c_end 1.0, r_end 0.002;

    // ----- late-move and futility pruning of quiet moves -----
    /// Late-move pruning (a quiet move past the move-count limit) up to
    /// this depth.
    LmpMaxDepth "lmp_max_depth" = (8, 8), 3..=12, c_end 1.0, r_end 0.002;
    /// The move-count limit is this plus the depth squared (halved when
    /// the evaluation is not improving).
    LmpBase "lmp_base" = (3, 3), 0..=10, c_end 1.0, r_end 0.002;
    /// Futility pruning of quiet moves up to this depth.
    FutilityMaxDepth "futility_max_depth" = (6, 6), 2..=10, c_end 1.0, r_end 0.002;
    /// Futility margin: this base plus `futility_margin_per_ply` per ply.
    FutilityMarginBase "futility_margin_base" = (120, 120), 0..=300, c_end 10.0, r_end 0.002;
    /// See `futility_margin_base`.
    FutilityMarginPerPly "futility_margin_per_ply" = (100, 100), 30..=200, c_end 8.0, r_end 0.002;

    // ----- static-exchange pruning -----
    /// Moves losing material by static exchange are pruned up to this
    /// depth.
    SeePruneMaxDepth "see_prune_max_depth" = (6, 6), 2..=10, c_end 1.0, r_end 0.002;
    /// A capture or a checking move is pruned when the exchange loses
    /// more than this per ply of depth.
    SeeCaptureMargin "see_capture_margin" = (100, 100), 30..=200, c_end 8.0, r_end 0.002;
    /// A quiet move is pruned when the exchange on its destination loses
    /// more than this times the depth squared: at depth 1 a move that
    /// hangs a soldier, deeper only bigger losses.
    SeeQuietMargin "see_quiet_margin" = (25, 25), 5..=80, c_end 3.0, r_end 0.002;

    // ----- singular extension (made only where the game's search
    // settings ask for it) -----
    /// The singular-extension test is made from this depth on.
    SeMinDepth "se_min_depth" = (8, 8), 4..=12, c_end 1.0, r_end 0.002;
    /// ... on a hash entry searched at most this many plies shallower.
    SeTtDepthSlack "se_tt_depth_slack" = (3, 3), 1..=6, c_end 1.0, r_end 0.002;
    /// The alternatives must stay this far per ply of depth below the
    /// hash score for the hash move to count as singular.
    SeMarginPerPly "se_margin_per_ply" = (2, 2), 1..=8, c_end 1.0, r_end 0.002;

    // ----- late move reductions -----
    /// Late move reductions start at this depth.
    LmrMinDepth "lmr_min_depth" = (3, 3), 1..=6, c_end 1.0, r_end 0.002;
    /// Captures are reduced only after this many moves.
    LmrMinCaptureCount "lmr_min_capture_count" = (6, 6), 2..=12, c_end 1.0, r_end 0.002;
    /// A quiet move's reduction changes by one ply per this much ordering
    /// (history) score, by at most `lmr_max_history_adjust` plies either
    /// way.
    LmrHistoryDivisor "lmr_history_divisor" = (6_000, 6_000), 1_000..=16_000, c_end 500.0, r_end 0.002;
    /// See `lmr_history_divisor`.
    LmrMaxHistoryAdjust "lmr_max_history_adjust" = (2, 2), 0..=4, c_end 1.0, r_end 0.002;
    /// The base reduction table is `lmr_base + ln(depth)·ln(moves) /
    /// lmr_divisor`, both in hundredths.
    LmrBase "lmr_base" = (70, 70), 0..=200, c_end 8.0, r_end 0.002;
    /// See `lmr_base`.
    LmrDivisor "lmr_divisor" = (230, 230), 100..=400, c_end 15.0, r_end 0.002;
    /// Quiet root moves are reduced by a ply from this depth on ...
    RootLmrMinDepth "root_lmr_min_depth" = (3, 3), 1..=8, c_end 1.0, r_end 0.002;
    /// ... after the first this many moves of the line.
    RootLmrMinIndex "root_lmr_min_index" = (4, 4), 1..=12, c_end 1.0, r_end 0.002;

    // ----- other parts of the main search and the quiescence search -----
    /// Internal iterative reduction applies from this depth on.
    IirMinDepth "iir_min_depth" = (4, 4), 2..=8, c_end 1.0, r_end 0.002;
    /// Delta pruning in the quiescence search: a capture is skipped when
    /// even this much on top of the victim's value cannot raise alpha.
    DeltaMargin "delta_margin" = (150, 150), 50..=400, c_end 12.0, r_end 0.002;
    /// History bonus per squared ply of depth for a quiet move that
    /// caused a cut-off (and the malus of the quiet moves tried before).
    HistoryBonusPerDepthSq "history_bonus_per_depth_sq" = (16, 16), 4..=64, c_end 2.0, r_end 0.002;
    /// Largest history bonus.
    HistoryMaxBonus "history_max_bonus" = (1_600, 1_600), 400..=4_000, c_end 120.0, r_end 0.002;

    // ----- aspiration windows (search) -----
    /// Aspiration windows start at this depth ...
    AspirationMinDepth "aspiration_min_depth" = (4, 4), 1..=8, c_end 1.0, r_end 0.002;
    /// ... this far (centipawns) on each side of the previous score.
    AspirationDelta "aspiration_delta" = (25, 25), 5..=80, c_end 3.0, r_end 0.002;
    /// After a fail the window's step grows by half plus this much ...
    AspirationGrowth "aspiration_growth" = (5, 5), 0..=30, c_end 2.0, r_end 0.002;
    /// ... and past this the window opens fully.
    AspirationMaxDelta "aspiration_max_delta" = (1_000, 1_000), 200..=3_000, c_end 80.0, r_end 0.002;

    // ----- time use (timeman, and the stop between iterations) -----
    /// Moves planned for when the clock has an increment and no
    /// moves-to-go.
    TmPlanMovesInc "tm_plan_moves_inc" = (26, 26), 15..=50, c_end 2.0, r_end 0.002;
    /// Moves planned for in sudden death (the clock must last the game).
    TmPlanMovesSuddenDeath "tm_plan_moves_sudden_death" = (50, 50), 30..=80, c_end 3.0, r_end 0.002;
    /// The hard bound is at most this many times the target.
    TmHardFactor "tm_hard_factor" = (4, 4), 2..=6, c_end 1.0, r_end 0.002;
    /// No new iteration after this share (per mille) of the target times
    /// the stability factor: the next one costs a few times the last.
    TmIterationShare "tm_iteration_share" = (650, 650), 300..=1_000, c_end 40.0, r_end 0.002;
    /// Stability factor (per mille) when the best move just changed.
    TmStability0 "tm_stability_0" = (1_400, 1_400), 800..=2_500, c_end 80.0, r_end 0.002;
    /// ... when it is the same as one iteration ago.
    TmStability1 "tm_stability_1" = (1_100, 1_100), 600..=2_000, c_end 60.0, r_end 0.002;
    /// ... the same for two or three iterations.
    TmStability2 "tm_stability_2" = (900, 900), 400..=1_600, c_end 50.0, r_end 0.002;
    /// ... the same for longer.
    TmStability4 "tm_stability_4" = (700, 700), 300..=1_400, c_end 40.0, r_end 0.002;
}

/// Number of tunable parameters.
pub const COUNT: usize = TUNABLES.len();

/// Whether this build reads the parameters at run time (crate feature
/// `tune`): only then does [`set`] exist and do options change them.
pub const RUNTIME: bool = cfg!(feature = "tune");

// Row `i` is the parameter whose index is `i`; every default lies in its
// range, and the range is not empty.
const _: () = {
    let mut i = 0;
    while i < COUNT {
        let t = &TUNABLES[i];
        assert!(t.param as usize == i);
        assert!(t.min <= t.max);
        assert!(t.min <= t.default.xiangqi && t.default.xiangqi <= t.max);
        assert!(t.min <= t.default.janggi && t.default.janggi <= t.max);
        i += 1;
    }
};

impl Param {
    /// This parameter's row.
    pub const fn row(self) -> &'static Tunable {
        &TUNABLES[self as usize]
    }
}

/// The value of `p` in `game`: the default in a normal build.
#[cfg(not(feature = "tune"))]
#[inline(always)]
pub const fn get(p: Param, game: Game) -> i32 {
    *TUNABLES[p as usize].default.get(game)
}

/// The value of `p` in `game`, as last [`set`].
#[cfg(feature = "tune")]
#[inline(always)]
pub fn get(p: Param, game: Game) -> i32 {
    runtime::VALUES[p as usize]
        .get(game)
        .load(std::sync::atomic::Ordering::Relaxed)
}

/// `get(p, game)` as a fraction: the value over `scale` (100 for
/// hundredths). Exact integers over a power of ten give the `f64` of the
/// decimal literal, so the defaults reproduce the literals.
#[inline(always)]
pub(crate) fn fraction(p: Param, game: Game, scale: f64) -> f64 {
    f64::from(get(p, game)) / scale
}

/// The name of the option that sets `p` in `game` in a tuning build:
/// the game's name, an underscore and the parameter's name
/// (`xiangqi_rfp_margin_per_ply`).
pub fn option_name(p: Param, game: Game) -> String {
    format!("{}_{}", game_prefix(game), p.row().name)
}

/// The option-name prefix of `game`.
fn game_prefix(game: Game) -> &'static str {
    match game {
        Game::Xiangqi => "xiangqi",
        Game::Janggi => "janggi",
    }
}

/// The parameter and game an option name (any case) sets, if it is one
/// of [`option_name`]'s.
pub fn find_option(name: &str) -> Option<(Param, Game)> {
    let name = name.trim().to_ascii_lowercase();
    Game::ALL.into_iter().find_map(|g| {
        let rest = name.strip_prefix(game_prefix(g))?.strip_prefix('_')?;
        TUNABLES
            .iter()
            .find(|t| t.name == rest)
            .map(|t| (t.param, g))
    })
}

/// The parameter called `name` (its table name).
pub fn find(name: &str) -> Option<Param> {
    TUNABLES.iter().find(|t| t.name == name).map(|t| t.param)
}

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// The parameter.
    pub param: Param,
    /// The value refused.
    pub value: i32,
}

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.param.row();
        write!(
            f,
            "{} = {} is outside {}..={}",
            t.name, self.value, t.min, t.max
        )
    }
}

impl std::error::Error for RangeError {}

/// Set `p` in `game` to `value` (tuning builds only). Values outside the
/// row's range are refused and the old value stays. Call it between
/// searches: a search running meanwhile may see either value.
#[cfg(feature = "tune")]
pub fn set(p: Param, game: Game, value: i32) -> Result<(), RangeError> {
    let t = p.row();
    if !(t.min..=t.max).contains(&value) {
        return Err(RangeError { param: p, value });
    }
    runtime::VALUES[p as usize]
        .get(game)
        .store(value, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// Put every parameter of both games back to its default (tuning builds
/// only).
#[cfg(feature = "tune")]
pub fn reset() {
    for t in TUNABLES {
        for g in Game::ALL {
            runtime::VALUES[t.param as usize]
                .get(g)
                .store(*t.default.get(g), std::sync::atomic::Ordering::Relaxed);
        }
    }
}

#[cfg(feature = "tune")]
mod runtime {
    use super::{COUNT, TUNABLES};
    use movegen::ByGame;
    use std::sync::atomic::AtomicI32;

    /// The run-time values, starting at the defaults.
    pub(super) static VALUES: [ByGame<AtomicI32>; COUNT] = initial();

    const fn initial() -> [ByGame<AtomicI32>; COUNT] {
        let mut v = [const { ByGame::new(AtomicI32::new(0), AtomicI32::new(0)) }; COUNT];
        let mut i = 0;
        while i < COUNT {
            let d = TUNABLES[i].default;
            v[i] = ByGame::new(AtomicI32::new(d.xiangqi), AtomicI32::new(d.janggi));
            i += 1;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_option_names_round_trip() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(TUNABLES[..i].iter().all(|u| u.name != t.name), "{}", t.name);
            assert_eq!(find(t.name), Some(t.param));
            assert!(t.c_end > 0.0 && t.r_end > 0.0, "{}", t.name);
            for g in Game::ALL {
                let name = option_name(t.param, g);
                assert_eq!(find_option(&name), Some((t.param, g)));
                assert_eq!(find_option(&name.to_uppercase()), Some((t.param, g)));
            }
        }
        assert_eq!(find_option("xiangqi_"), None);
        assert_eq!(find_option("chess_rfp_max_depth"), None);
        assert_eq!(find_option("rfp_max_depth"), None);
    }

    #[test]
    fn fractions_give_the_literals() {
        assert_eq!(fraction(Param::LmrBase, Game::Xiangqi, 100.0), 0.7);
        assert_eq!(fraction(Param::LmrDivisor, Game::Janggi, 100.0), 2.3);
        assert_eq!(fraction(Param::TmStability0, Game::Xiangqi, 1000.0), 1.4);
        assert_eq!(
            fraction(Param::TmIterationShare, Game::Xiangqi, 1000.0),
            0.65
        );
    }

    #[cfg(feature = "tune")]
    #[test]
    fn set_checks_the_range() {
        // A clock parameter: the other tests of this process search by
        // depth or nodes, so changing it for a moment disturbs none.
        let p = Param::TmPlanMovesSuddenDeath;
        assert!(set(p, Game::Janggi, 1).is_err());
        assert_eq!(get(p, Game::Janggi), 50);
        set(p, Game::Janggi, 60).unwrap();
        assert_eq!((get(p, Game::Janggi), get(p, Game::Xiangqi)), (60, 50));
        reset();
        assert_eq!(get(p, Game::Janggi), 50);
    }
}
