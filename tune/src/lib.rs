//! # tune — fitting the classical evaluation to game data ("Texel" tuning)
//!
//! The tuner of `jiang tune` (its command line: `engine/tune.rs`), kept out
//! of the search library so that the search depends on no thread pool: it
//! moves the parameters of `search::eval::params` and measures them with
//! the search's own evaluation (`search::eval::evaluate_with`).
//!
//!
//! Each sample is a quiet position with the result of the game it came
//! from and, where known, the score the playing engine's search gave it.
//! The loss is the mean squared difference between a target and the
//! evaluation mapped to an expected score by a logistic curve,
//! `1 / (1 + 10^(-k·eval/400))`; the target blends the result and the
//! search score mapped by the same curve (`lambda` = weight of the result).
//! `k` is fitted first with the parameters as they are, then the
//! parameters are improved by coordinate descent: each parameter in turn is
//! moved by steps up or down as long as the loss keeps dropping.
//! The search is deterministic: the same samples and options give the same
//! parameters.
//!
//! Module [`spsa`] holds the other tuner, of the search's parameters
//! (`search::params`) by games: SPSA as `jiang spsa` runs it.

pub mod spsa;

use movegen::{PieceKind, Position};
use rayon::prelude::*;
use search::eval::params::GameParams;
use search::eval::{evaluate_with, Weights, CROWD_KINDS, PALACE_ATTACKERS, THREAT_VICTIMS};

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position (quiet: the side to move is not in check).
    pub pos: Position,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// The search score of the position, side to move's view, in
    /// centipawns, if the data has one.
    pub score: Option<i32>,
}

/// Options of [`tune`].
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Weight of the game result in the target (the rest is the score).
    pub lambda: f64,
    /// Most passes over all parameters.
    pub passes: usize,
    /// Groups of parameters left as they are (see [`Slot::group`]).
    pub frozen: Vec<Group>,
}

/// Parameters that belong together, so that a run can fit some and keep
/// the others (e.g. keep the piece-square tables, which have many
/// parameters and overfit a small data set first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Pst,
    /// Mobility weights.
    Mobility,
    /// King safety: missing defenders, files, attackers near the palace.
    King,
    /// Connected chariots.
    Chariots,
    /// Worth of pieces by how full the board is.
    Crowd,
    /// Attacks on palace points.
    Palace,
    /// Attacks on more valuable pieces.
    Threats,
    /// Piece-square tables moved a rank or a file at a time: 15 numbers
    /// a piece instead of 50, for data sets too small for every point.
    PstLines,
    /// Soldier structure.
    Soldiers,
}

impl Group {
    /// Every group.
    pub const ALL: [Group; 10] = [
        Group::Material,
        Group::Pst,
        Group::Mobility,
        Group::King,
        Group::Chariots,
        Group::Crowd,
        Group::Palace,
        Group::Threats,
        Group::PstLines,
        Group::Soldiers,
    ];

    /// The group's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Group::Material => "material",
            Group::Pst => "pst",
            Group::Mobility => "mobility",
            Group::King => "king",
            Group::Chariots => "chariots",
            Group::Crowd => "crowd",
            Group::Palace => "palace",
            Group::Threats => "threats",
            Group::PstLines => "pst-lines",
            Group::Soldiers => "soldiers",
        }
    }
}

impl std::str::FromStr for Group {
    type Err = String;

    fn from_str(s: &str) -> Result<Group, String> {
        Group::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Group::ALL.iter().map(|g| g.name()).collect();
                format!(
                    "unknown parameter group '{s}' (one of {})",
                    names.join(", ")
                )
            })
    }
}

/// One tunable number of [`GameParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `material[kind][phase]`.
    Material(usize, usize),
    /// `pst[kind][rank][file]`.
    Pst(usize, usize, usize),
    /// `mobility[kind][phase]`.
    Mobility(usize, usize),
    /// `missing_advisor`.
    MissingAdvisor,
    /// `missing_elephant`.
    MissingElephant,
    /// `open_file_chariot`.
    OpenFileChariot,
    /// `cannon_on_file`.
    CannonOnFile,
    /// `central_cannon`.
    CentralCannon,
    /// `open_head_cannon`.
    OpenHeadCannon,
    /// `attacker_weight[kind]`.
    AttackerWeight(usize),
    /// `attack_scale`.
    AttackScale,
    /// `connected_chariots[phase]`.
    ConnectedChariots(usize),
    /// `crowd[kind][phase]`.
    Crowd(usize, usize),
    /// `palace_attack[kind]`.
    PalaceAttack(usize),
    /// `palace_scale`.
    PalaceScale,
    /// `threat[kind][phase]`.
    Threat(usize, usize),
    /// A whole rank of `pst[kind]` moved together (its value is the
    /// rank's first entry; setting it shifts every entry of the rank).
    PstRank(usize, usize),
    /// A whole file of `pst[kind]` moved together, as [`Slot::PstRank`].
    PstFile(usize, usize),
    /// `soldier_pair[phase]`.
    SoldierPair(usize),
}

impl Slot {
    /// Every slot, in a fixed order. Kinds without a term (the general's
    /// material, mobility of pieces the evaluation does not count) are
    /// left out; piece squares of the general and guards only inside the
    /// palace.
    pub fn all() -> Vec<Slot> {
        let mut v = Vec::new();
        for k in PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::General)
        {
            for ph in 0..2 {
                v.push(Slot::Material(k.index(), ph));
            }
        }
        // The kinds with a mobility term are those of the crowd term.
        for k in CROWD_KINDS {
            for ph in 0..2 {
                v.push(Slot::Mobility(k.index(), ph));
            }
        }
        v.extend([
            Slot::MissingAdvisor,
            Slot::MissingElephant,
            Slot::OpenFileChariot,
            Slot::CannonOnFile,
            Slot::CentralCannon,
            Slot::OpenHeadCannon,
            Slot::AttackScale,
            Slot::ConnectedChariots(0),
            Slot::ConnectedChariots(1),
        ]);
        for k in [
            PieceKind::Horse,
            PieceKind::Chariot,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ] {
            v.push(Slot::AttackerWeight(k.index()));
        }
        for k in CROWD_KINDS {
            for ph in 0..2 {
                v.push(Slot::Crowd(k.index(), ph));
            }
        }
        for k in PALACE_ATTACKERS {
            v.push(Slot::PalaceAttack(k.index()));
        }
        v.push(Slot::PalaceScale);
        v.extend([Slot::SoldierPair(0), Slot::SoldierPair(1)]);
        for k in THREAT_VICTIMS {
            for ph in 0..2 {
                v.push(Slot::Threat(k.index(), ph));
            }
        }
        for k in PieceKind::ALL {
            if k == PieceKind::General || k == PieceKind::Advisor {
                for r in 0..3 {
                    for f in 3..5 {
                        v.push(Slot::Pst(k.index(), r, f));
                    }
                }
            } else {
                for r in 0..10 {
                    for f in 0..5 {
                        v.push(Slot::Pst(k.index(), r, f));
                    }
                }
            }
        }
        // Lines of the tables of the pieces that leave the palace.
        for k in PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::General && k != PieceKind::Advisor)
        {
            v.extend((0..10).map(|r| Slot::PstRank(k.index(), r)));
            v.extend((0..5).map(|f| Slot::PstFile(k.index(), f)));
        }
        v
    }

    /// The slot's value in `p`.
    pub fn get(self, p: &GameParams) -> i32 {
        match self {
            Slot::Material(k, ph) => p.material[k][ph],
            Slot::Pst(k, r, f) => i32::from(p.pst[k][r][f]),
            Slot::Mobility(k, ph) => p.mobility[k][ph],
            Slot::MissingAdvisor => p.missing_advisor,
            Slot::MissingElephant => p.missing_elephant,
            Slot::OpenFileChariot => p.open_file_chariot,
            Slot::CannonOnFile => p.cannon_on_file,
            Slot::CentralCannon => p.central_cannon,
            Slot::OpenHeadCannon => p.open_head_cannon,
            Slot::AttackerWeight(k) => p.attacker_weight[k],
            Slot::AttackScale => p.attack_scale,
            Slot::ConnectedChariots(ph) => p.connected_chariots[ph],
            Slot::Crowd(k, ph) => p.crowd[k][ph],
            Slot::PalaceAttack(k) => p.palace_attack[k],
            Slot::PalaceScale => p.palace_scale,
            Slot::Threat(k, ph) => p.threat[k][ph],
            Slot::PstRank(k, r) => i32::from(p.pst[k][r][0]),
            Slot::PstFile(k, f) => i32::from(p.pst[k][0][f]),
            Slot::SoldierPair(ph) => p.soldier_pair[ph],
        }
    }

    /// Set the slot's value in `p`.
    pub fn set(self, p: &mut GameParams, v: i32) {
        match self {
            Slot::Material(k, ph) => p.material[k][ph] = v,
            Slot::Pst(k, r, f) => p.pst[k][r][f] = v.clamp(-999, 999) as i16,
            Slot::Mobility(k, ph) => p.mobility[k][ph] = v,
            Slot::MissingAdvisor => p.missing_advisor = v,
            Slot::MissingElephant => p.missing_elephant = v,
            Slot::OpenFileChariot => p.open_file_chariot = v,
            Slot::CannonOnFile => p.cannon_on_file = v,
            Slot::CentralCannon => p.central_cannon = v,
            Slot::OpenHeadCannon => p.open_head_cannon = v,
            Slot::AttackerWeight(k) => p.attacker_weight[k] = v,
            Slot::AttackScale => p.attack_scale = v,
            Slot::ConnectedChariots(ph) => p.connected_chariots[ph] = v,
            Slot::Crowd(k, ph) => p.crowd[k][ph] = v,
            Slot::PalaceAttack(k) => p.palace_attack[k] = v,
            Slot::PalaceScale => p.palace_scale = v,
            Slot::Threat(k, ph) => p.threat[k][ph] = v,
            Slot::PstRank(k, r) => {
                let d = v - self.get(p);
                for x in &mut p.pst[k][r] {
                    *x = (i32::from(*x) + d).clamp(-999, 999) as i16;
                }
            }
            Slot::PstFile(k, f) => {
                let d = v - self.get(p);
                for row in &mut p.pst[k] {
                    row[f] = (i32::from(row[f]) + d).clamp(-999, 999) as i16;
                }
            }
            Slot::SoldierPair(ph) => p.soldier_pair[ph] = v,
        }
    }

    /// The group the slot belongs to.
    pub fn group(self) -> Group {
        match self {
            Slot::Material(..) => Group::Material,
            Slot::Pst(..) => Group::Pst,
            Slot::Mobility(..) => Group::Mobility,
            Slot::MissingAdvisor
            | Slot::MissingElephant
            | Slot::OpenFileChariot
            | Slot::CannonOnFile
            | Slot::CentralCannon
            | Slot::OpenHeadCannon
            | Slot::AttackerWeight(_)
            | Slot::AttackScale => Group::King,
            Slot::ConnectedChariots(_) => Group::Chariots,
            Slot::Crowd(..) => Group::Crowd,
            Slot::PalaceAttack(_) | Slot::PalaceScale => Group::Palace,
            Slot::Threat(..) => Group::Threats,
            Slot::PstRank(..) | Slot::PstFile(..) => Group::PstLines,
            Slot::SoldierPair(_) => Group::Soldiers,
        }
    }

    /// How far one step of coordinate descent moves the slot.
    fn step(self) -> i32 {
        match self {
            Slot::Material(..) => 6,
            _ => 2,
        }
    }
}

/// Most steps one parameter moves in one pass.
const MAX_STEPS: usize = 8;

/// Expected score of an evaluation (centipawns) on the logistic curve.
pub fn expected(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The target of a sample: the result blended with the search score.
fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    match s.score {
        Some(v) => lambda * s.result + (1.0 - lambda) * expected(f64::from(v), k),
        None => s.result,
    }
}

/// Mean squared error of the weights over the samples.
pub fn loss(samples: &[Sample], w: &Weights, k: f64, lambda: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let e = expected(f64::from(evaluate_with(&s.pos, w)), k);
            let d = target(s, k, lambda) - e;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The logistic scale `k` that fits the results best with weights `w`
/// (a scan, then a finer scan around the best value).
pub fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let mut best = (f64::MAX, 1.0);
    let mut lo = 0.1;
    let mut step = 0.1;
    for _ in 0..3 {
        let mut k = lo;
        for _ in 0..30 {
            let l = loss(samples, w, k, 1.0);
            if l < best.0 {
                best = (l, k);
            }
            k += step;
        }
        lo = (best.1 - step).max(0.01);
        step /= 10.0;
    }
    best.1
}

/// What a tuning run reports after each pass.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Pass number, from 1.
    pub pass: usize,
    /// Loss after the pass.
    pub loss: f64,
    /// Parameters changed in the pass.
    pub changed: usize,
}

/// Improve `start` by coordinate descent on the samples with the fixed
/// logistic scale `k`; `report` is called after each pass and stops the
/// fit by returning `false` (e.g. when a validation loss rises).
pub fn tune(
    samples: &[Sample],
    start: &GameParams,
    k: f64,
    opts: &TuneOptions,
    mut report: impl FnMut(&Progress, &GameParams) -> bool,
) -> GameParams {
    let slots: Vec<Slot> = Slot::all()
        .into_iter()
        .filter(|s| !opts.frozen.contains(&s.group()))
        .collect();
    let mut p = *start;
    let mut best = loss(samples, &Weights::new(p), k, opts.lambda);
    // Slots that no sample depends on are dropped after the first try.
    let mut active = vec![true; slots.len()];
    for pass in 1..=opts.passes {
        let mut changed = 0;
        for (i, &slot) in slots.iter().enumerate() {
            if !active[i] {
                continue;
            }
            let old = slot.get(&p);
            let mut improved = false;
            let mut untouched = true;
            for dir in [1, -1] {
                // Keep stepping while the loss drops (a line search along
                // this parameter), at most MAX_STEPS steps a pass.
                let mut v = old;
                for _ in 0..MAX_STEPS {
                    let mut q = p;
                    v += dir * slot.step();
                    slot.set(&mut q, v);
                    let l = loss(samples, &Weights::new(q), k, opts.lambda);
                    if l != best {
                        untouched = false;
                    }
                    if l >= best {
                        break;
                    }
                    best = l;
                    p = q;
                    improved = true;
                }
                if improved {
                    break;
                }
            }
            if untouched && pass == 1 {
                active[i] = false;
            }
            changed += usize::from(improved);
        }
        let go_on = report(
            &Progress {
                pass,
                loss: best,
                changed,
            },
            &p,
        );
        if changed == 0 || !go_on {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;
    use search::eval::params::JANGGI;

    /// Positions labelled by a planted parameter set: tuning from other
    /// parameters moves toward the planted ones and lowers the loss.
    #[test]
    fn recovers_a_planted_material_value() {
        let mut planted = JANGGI;
        planted.material[PieceKind::Cannon.index()] = [460, 430];
        let pw = Weights::new(planted);
        let mut samples = Vec::new();
        let mut pos = Position::startpos(Variant::Janggi);
        let mut seed = 7u64;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.history_len() > 120 {
                pos = Position::startpos(Variant::Janggi);
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
            if pos.in_check() {
                continue;
            }
            let fen = pos.to_fen();
            let Ok(p) = Position::from_fen(&fen, Variant::Janggi) else {
                continue;
            };
            let e = evaluate_with(&p, &pw);
            samples.push(Sample {
                pos: p,
                result: expected(f64::from(e), 1.0),
                score: None,
            });
        }
        let w0 = Weights::new(JANGGI);
        let before = loss(&samples, &w0, 1.0, 1.0);
        let opts = TuneOptions {
            lambda: 1.0,
            passes: 3,
            frozen: vec![Group::Pst, Group::PstLines],
        };
        let tuned = tune(&samples, &JANGGI, 1.0, &opts, |_, _| true);
        let after = loss(&samples, &Weights::new(tuned), 1.0, 1.0);
        assert!(after < before / 2.0, "{before} -> {after}");
        let c = PieceKind::Cannon.index();
        assert!(tuned.material[c][0] > JANGGI.material[c][0]);
        assert!(tuned.material[c][1] > JANGGI.material[c][1]);
        assert_eq!(tuned.pst, JANGGI.pst, "a frozen group must not move");
    }

    #[test]
    fn groups_parse_by_name_and_cover_every_slot() {
        for g in Group::ALL {
            assert_eq!(g.name().parse::<Group>(), Ok(g));
        }
        assert!("bogus".parse::<Group>().is_err());
        for g in Group::ALL {
            assert!(Slot::all().iter().any(|s| s.group() == g), "{g:?}");
        }
    }

    #[test]
    fn slots_read_back_what_they_set() {
        let mut p = JANGGI;
        for (i, s) in Slot::all().into_iter().enumerate() {
            s.set(&mut p, i as i32 % 97);
            assert_eq!(s.get(&p), i as i32 % 97, "{s:?}");
        }
        // A line slot shifts its whole line.
        let mut q = JANGGI;
        let h = PieceKind::Horse.index();
        let before = q.pst[h];
        let (rank, file) = (Slot::PstRank(h, 3), Slot::PstFile(h, 2));
        let v = rank.get(&q) + 5;
        rank.set(&mut q, v);
        let v = file.get(&q) - 3;
        file.set(&mut q, v);
        for (r, (now, was)) in q.pst[h].iter().zip(&before).enumerate() {
            for (f, (a, b)) in now.iter().zip(was).enumerate() {
                let d = if r == 3 { 5 } else { 0 } + if f == 2 { -3 } else { 0 };
                assert_eq!(i32::from(a - b), d, "{r} {f}");
            }
        }
    }
}
