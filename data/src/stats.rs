//! A summary of a data file, for `jiang datagen --stats`: games,
//! positions, results, scores, game lengths and repeated positions, per
//! variant.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};

use movegen::Variant;

use crate::format::{Flags, Outcome, Record};

/// Score histogram bins: upper bounds (exclusive) in centipawns; the last
/// bin takes the rest, mate scores have their own count.
const BINS: [i32; 9] = [-1000, -500, -200, -50, 50, 200, 500, 1000, i32::MAX];

/// The counts of one variant.
#[derive(Clone, Debug, Default, PartialEq)]
struct VariantStats {
    positions: u64,
    games: u64,
    /// Finished games by result: second player won, draw, first player won.
    results: [u64; 3],
    /// Positions of finished games (recorded), and their plies (random
    /// opening moves included), summed; shortest and longest game.
    game_positions: u64,
    game_plies: u64,
    shortest: Option<u16>,
    longest: u16,
    in_check: u64,
    captures: u64,
    mates: u64,
    /// Non-mate scores: sum, sum of magnitudes, histogram.
    score_sum: i64,
    score_abs_sum: u64,
    bins: [u64; BINS.len()],
    /// Records since the last game end.
    open: u64,
    /// The position keys seen so far ([`position_key`]), and the records
    /// whose position was already among them.
    seen: HashSet<u64>,
    duplicates: u64,
}

/// A 64-bit key of a record's board and side to move, the part of a
/// record that a network reads: two records with the same key are the
/// same training position whatever their counters, scores or games. The
/// encoded bytes 0–27 are the board, bit 0 of byte 28 the side to move.
/// (A chance collision among 20 million positions has a probability of
/// about 10⁻⁵.)
fn position_key(r: &Record) -> u64 {
    let b = r.encode();
    let mut h = DefaultHasher::new();
    b[..28].hash(&mut h);
    (b[28] & 1).hash(&mut h);
    h.finish()
}

impl VariantStats {
    fn add(&mut self, r: &Record) {
        self.positions += 1;
        self.open += 1;
        if !self.seen.insert(position_key(r)) {
            self.duplicates += 1;
        }
        if r.flags.contains(Flags::IN_CHECK) {
            self.in_check += 1;
        }
        if r.flags.contains(Flags::CAPTURE) {
            self.captures += 1;
        }
        if r.flags.contains(Flags::MATE) {
            self.mates += 1;
        } else {
            let s = i32::from(r.score);
            self.score_sum += i64::from(s);
            self.score_abs_sum += u64::from(s.unsigned_abs());
            let bin = BINS.iter().position(|&b| s < b).unwrap_or(BINS.len() - 1);
            self.bins[bin] += 1;
        }
        if r.is_last() {
            self.games += 1;
            self.results[r.outcome as usize] += 1;
            self.game_positions += self.open;
            self.open = 0;
            let plies = r.ply.saturating_add(1);
            self.game_plies += u64::from(plies);
            self.shortest = Some(self.shortest.map_or(plies, |s| s.min(plies)));
            self.longest = self.longest.max(plies);
        }
    }
}

fn percent(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

fn mean(sum: f64, n: u64) -> f64 {
    sum / n.max(1) as f64
}

impl fmt::Display for VariantStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.games;
        writeln!(f, "  games           {g}")?;
        writeln!(f, "  positions       {}", self.positions)?;
        if self.open > 0 {
            writeln!(
                f,
                "  unfinished      {} positions of a game without its last record",
                self.open
            )?;
        }
        let [l, d, w] = self.results;
        writeln!(
            f,
            "  results         first player {w} won ({:.1}%), {d} drawn ({:.1}%), {l} lost ({:.1}%)",
            percent(w, g),
            percent(d, g),
            percent(l, g)
        )?;
        writeln!(
            f,
            "  per game        {:.1} positions, {:.1} plies (shortest {}, longest {})",
            mean(self.game_positions as f64, g),
            mean(self.game_plies as f64, g),
            self.shortest.unwrap_or(0),
            self.longest
        )?;
        let p = self.positions;
        writeln!(
            f,
            "  flags           in check {:.1}%, best move captures {:.1}%, mate score {:.1}%",
            percent(self.in_check, p),
            percent(self.captures, p),
            percent(self.mates, p)
        )?;
        writeln!(
            f,
            "  repeated        {} positions ({:.1}%) stand earlier in the data (same board and side to move); {} distinct",
            self.duplicates,
            percent(self.duplicates, p),
            self.seen.len()
        )?;
        let scored = p - self.mates;
        writeln!(
            f,
            "  score           mean {:+.1} cp, mean |score| {:.1} cp (side to move's view, mates left out)",
            mean(self.score_sum as f64, scored),
            mean(self.score_abs_sum as f64, scored)
        )?;
        let mut lower = String::from("-inf");
        for (i, &upper) in BINS.iter().enumerate() {
            let hi = if upper == i32::MAX {
                "+inf".to_string()
            } else {
                upper.to_string()
            };
            let n = self.bins[i];
            let bar = "#".repeat((percent(n, scored) / 2.0).round() as usize);
            writeln!(
                f,
                "  {:>6} .. {:<6} {:>10} {:>5.1}% {bar}",
                lower,
                hi,
                n,
                percent(n, scored)
            )?;
            lower = hi;
        }
        Ok(())
    }
}

/// Counts over the records of one or more files, per variant. Results
/// count finished games (a game's last record carries [`Flags::LAST`]),
/// from the first player's view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    variants: BTreeMap<&'static str, VariantStats>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Count one record.
    pub fn add(&mut self, r: &Record) {
        self.variants.entry(r.variant.name()).or_default().add(r);
    }

    /// Positions counted, all variants.
    pub fn positions(&self) -> u64 {
        self.variants.values().map(|v| v.positions).sum()
    }

    /// Finished games counted, all variants.
    pub fn games(&self) -> u64 {
        self.variants.values().map(|v| v.games).sum()
    }

    /// Records of `variant` whose board and side to move stand in an
    /// earlier record.
    pub fn duplicates(&self, variant: Variant) -> u64 {
        self.variants
            .get(variant.name())
            .map_or(0, |v| v.duplicates)
    }

    /// Finished games of `variant` by result.
    pub fn results(&self, variant: Variant) -> [(Outcome, u64); 3] {
        let r = self
            .variants
            .get(variant.name())
            .map_or([0; 3], |v| v.results);
        [
            (Outcome::FirstWins, r[2]),
            (Outcome::Draw, r[1]),
            (Outcome::SecondWins, r[0]),
        ]
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} games, {} positions", self.games(), self.positions())?;
        for (name, v) in &self.variants {
            writeln!(f, "{name}:")?;
            write!(f, "{v}")?;
        }
        Ok(())
    }
}
