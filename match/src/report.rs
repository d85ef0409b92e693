//! The main thread's side of a match: a line per finished game and the
//! running score, the PGN file, the SPRT stop, and the final report. The
//! merge of shards' PGN files (`crate::merge`) counts its games with the
//! same [`Progress::count`] and prints the same [`final_report`].

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};

use movegen::GameResult;

use crate::config::MatchConfig;
use crate::ending::{Ending, Fault};
use crate::layout::{GamePlace, MatchLayout};
use crate::pgn::{self, PgnHeader};
use crate::player::PonderStats;
use crate::stats::{Score, Sprt, SprtResult};
use crate::tournament::{encounters, Done, Summary};

/// cutechess-cli's SPRT line: the LLR, its share of the upper bound, and
/// the bounds.
fn sprt_status(t: &Sprt, llr: f64) -> String {
    format!(
        "SPRT: llr {llr:.2} ({:.1}%), lbound {:.2}, ubound {:.2}",
        100.0 * llr / t.upper,
        t.lower,
        t.upper
    )
}

/// The SPRT of the match: only a match of two engines has one, and a shard
/// has none (it sees only part of the games: the merge of the shards
/// applies the test).
fn sprt_test(cfg: &MatchConfig) -> Option<Sprt> {
    match cfg.sprt {
        Some(s) if cfg.engines.len() == 2 && cfg.shard.is_whole() => {
            Some(Sprt::new(s.elo0, s.elo1, s.alpha, s.beta))
        }
        _ => None,
    }
}

/// What the statistics need of a finished game.
pub(crate) struct Outcome {
    /// Index into the encounter list.
    pub(crate) encounter: usize,
    /// Engines playing first and second.
    pub(crate) red: usize,
    pub(crate) black: usize,
    /// Opening group within the encounter.
    pub(crate) group: u32,
    /// Result and why.
    pub(crate) result: GameResult,
    pub(crate) ending: Ending,
}

impl Outcome {
    /// The engine at fault, if a fault ended the game, and what it did.
    fn fault(&self) -> Option<(usize, Fault)> {
        let Ending::Fault(f) = self.ending else {
            return None;
        };
        match self.result {
            GameResult::RedWins => Some((self.black, f)),
            GameResult::BlackWins => Some((self.red, f)),
            GameResult::Draw | GameResult::Ongoing => None,
        }
    }
}

impl Done {
    /// The game as the statistics see it.
    fn outcome(&self) -> Outcome {
        Outcome {
            encounter: self.job.encounter,
            red: self.job.red,
            black: self.job.black,
            group: self.job.group,
            result: self.rec.result,
            ending: self.rec.ending,
        }
    }
}

/// Half-points of the first player in a finished game.
fn red_half_points(result: GameResult) -> u8 {
    match result {
        GameResult::RedWins => 2,
        // A finished record is never `Ongoing`; were it so, it would count
        // as the draw the record was before a verdict.
        GameResult::Draw | GameResult::Ongoing => 1,
        GameResult::BlackWins => 0,
    }
}

fn fmt_elo(s: &Score) -> String {
    match s.elo() {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!("{:.2} +/- {:.2}", e.elo, e.error)
        }
        Some(e) if e.elo.is_finite() => format!("{:.2} +/- inf", e.elo),
        Some(e) => (if e.elo > 0.0 { "+inf" } else { "-inf" }).to_string(),
        None => "-".to_string(),
    }
}

/// What the main thread keeps while games come in.
pub(crate) struct Progress<'a> {
    cfg: &'a MatchConfig,
    names: Vec<&'a str>,
    pairs: Vec<(usize, usize)>,
    total: usize,
    summary: Summary,
    /// Half-points of the encounter's first engine per opening group, until
    /// the pair of games is complete.
    open_pairs: HashMap<(usize, u32), (u8, u8)>,
    /// Referee overhead: microseconds summed, and how many gaps.
    overhead: (u64, u64),
    pgn_out: Option<BufWriter<File>>,
    sprt: Option<Sprt>,
    layout: MatchLayout,
    date: String,
    event: String,
}

impl<'a> Progress<'a> {
    /// Open the PGN file (for appending) and set up the counts of a run of
    /// `total` games of the match `layout`.
    pub(crate) fn new(
        cfg: &'a MatchConfig,
        total: usize,
        layout: MatchLayout,
    ) -> Result<Progress<'a>, String> {
        let pgn_out = match &cfg.pgnout {
            Some(p) => Some(BufWriter::new(
                File::options()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("{}: {e}", p.display()))?,
            )),
            None => None,
        };
        if cfg.sprt.is_some() && cfg.engines.len() != 2 {
            eprintln!("warning: -sprt needs exactly two engines; ignored");
        } else if cfg.sprt.is_some() && !cfg.shard.is_whole() {
            eprintln!(
                "note: -sprt does not stop a shard; jiang match -merge applies it to the shards' games"
            );
        }
        Ok(Progress {
            pgn_out,
            ..Progress::counting(cfg, total, layout)
        })
    }

    /// Counts only, with no PGN file: for a merge of PGN files.
    pub(crate) fn counting(
        cfg: &'a MatchConfig,
        total: usize,
        layout: MatchLayout,
    ) -> Progress<'a> {
        let pairs = encounters(cfg);
        let summary = Summary {
            encounters: pairs.iter().map(|&p| (p, Score::default())).collect(),
            ..Summary::default()
        };
        Progress {
            cfg,
            names: cfg.engines.iter().map(|e| e.name.as_str()).collect(),
            pairs,
            total,
            summary,
            open_pairs: HashMap::new(),
            overhead: (0, 0),
            pgn_out: None,
            sprt: sprt_test(cfg),
            layout,
            date: pgn::today(),
            event: format!("jiang match ({})", cfg.variant),
        }
    }

    /// Count a finished game, print its lines, write its PGN; returns
    /// whether the match must stop (an engine failure without `-recover`,
    /// or an SPRT decision).
    pub(crate) fn add(&mut self, done: &Done) -> bool {
        self.overhead.0 += done.rec.overhead_us.0;
        self.overhead.1 += done.rec.overhead_us.1;
        self.summary.ponder.add(&done.rec.ponder);
        let outcome = done.outcome();
        self.count(&outcome);
        let failed = self.stops_on_fault(&outcome);
        self.print_game(done);
        self.write_pgn(done);
        let decided = self.check_sprt();
        failed || decided
    }

    /// Count a game: games, endings, faults, and the encounter's score and
    /// pairs.
    pub(crate) fn count(&mut self, game: &Outcome) {
        let s = &mut self.summary;
        s.games += 1;
        *s.reasons.entry(game.ending).or_insert(0) += 1;
        if let Some(fault) = game.fault() {
            *s.faults.entry(fault).or_insert(0) += 1;
        }
        let (a, _) = self.pairs[game.encounter];
        let red_half = red_half_points(game.result);
        let a_half = if game.red == a {
            red_half
        } else {
            2 - red_half
        };
        let score = &mut s.encounters[game.encounter].1;
        score.add_game(a_half);
        if self.cfg.repeat == 2 {
            let key = (game.encounter, game.group);
            let slot = self.open_pairs.entry(key).or_insert((0, 0));
            slot.0 += a_half;
            slot.1 += 1;
            if slot.1 == 2 {
                let pts = slot.0;
                self.open_pairs.remove(&key);
                score.add_pair(pts);
            }
        }
    }

    /// Whether the game's fault stops the match.
    fn stops_on_fault(&mut self, game: &Outcome) -> bool {
        let Some((idx, f)) = game.fault() else {
            return false;
        };
        if self.cfg.recover || !matches!(f, Fault::Crash | Fault::Hang | Fault::StartFailure) {
            return false;
        }
        eprintln!(
            "Stopping: {} ({}); use -recover to restart failed engines and go on",
            self.names[idx], f
        );
        self.summary.aborted = true;
        true
    }

    /// The game's line, the running score and, every `-ratinginterval`
    /// games, the Elo line and (with `-sprt`) the running LLR.
    fn print_game(&self, Done { job, rec }: &Done) {
        let names = &self.names;
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            job.number,
            names[job.red],
            names[job.black],
            rec.result.as_str(),
            rec.reason
        );
        let (a, b) = self.pairs[job.encounter];
        let s = self.summary.encounters[job.encounter].1;
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}/{}",
            names[a],
            names[b],
            s.wins,
            s.losses,
            s.draws,
            s.fraction(),
            self.summary.games,
            self.total
        );
        let interval = self.cfg.rating_interval;
        if interval > 0 && self.summary.games % interval == 0 {
            println!(
                "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                fmt_elo(&s),
                100.0 * s.los(),
                100.0 * s.draw_ratio()
            );
            if let Some(t) = self.sprt {
                println!("{}", sprt_status(&t, t.decide(&s).0));
            }
        }
    }

    /// Append the game to the PGN file, if there is one.
    fn write_pgn(&mut self, Done { job, rec }: &Done) {
        let Some(w) = self.pgn_out.as_mut() else {
            return;
        };
        let tc_tag = self.cfg.engines[job.red].tc.pgn_tag();
        let place = GamePlace {
            round: job.number,
            group: job.group,
            white: job.red,
            black: job.black,
        };
        let match_tags = self.layout.tags(&place);
        let h = PgnHeader {
            event: &self.event,
            date: &self.date,
            round: job.number,
            red: self.names[job.red],
            black: self.names[job.black],
            time_control: &tc_tag,
            notation: self.cfg.notation,
            more_tags: &match_tags,
        };
        let text = pgn::write_game(&h, rec);
        if w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .is_err()
        {
            eprintln!("warning: cannot write the PGN file");
        }
    }

    /// Announce the first SPRT decision; returns whether one was reached
    /// now.
    fn check_sprt(&mut self) -> bool {
        let Some(t) = self.sprt else {
            return false;
        };
        let (llr, verdict) = t.decide(&self.summary.encounters[0].1);
        if verdict == SprtResult::Continue || self.summary.sprt.is_some() {
            return false;
        }
        println!(
            "{} - {} was accepted",
            sprt_status(&t, llr),
            if verdict == SprtResult::H1 {
                "H1"
            } else {
                "H0"
            }
        );
        self.summary.sprt = Some(verdict);
        true
    }

    /// The summary, with the mean referee overhead per move.
    pub(crate) fn finish(mut self) -> Summary {
        self.summary.overhead_us = Some(if self.overhead.1 > 0 {
            self.overhead.0 as f64 / self.overhead.1 as f64
        } else {
            0.0
        });
        self.summary
    }
}

/// The report at the end of a match: per encounter, the ranking of three or
/// more engines, game ends, faults and the referee's overhead.
pub(crate) fn final_report(cfg: &MatchConfig, s: &Summary) {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    println!();
    for (i, &((a, b), sc)) in s.encounters.iter().enumerate() {
        if sc.games() == 0 {
            continue;
        }
        println!("Results of {} vs {} ({}):", names[a], names[b], cfg.variant);
        report_encounter(&sc);
        // The SPRT is about the first (in a two-engine match, the only)
        // encounter.
        if let (Some(t), 0) = (sprt_test(cfg), i) {
            report_sprt(&t, &sc);
        }
    }
    if cfg.engines.len() > 2 {
        report_ranking(&names, s);
    }
    report_ends(&names, s);
}

fn report_encounter(sc: &Score) {
    println!(
        "Elo: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        fmt_elo(sc),
        100.0 * sc.los(),
        100.0 * sc.draw_ratio()
    );
    println!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        sc.games(),
        sc.wins,
        sc.losses,
        sc.draws,
        sc.points(),
        100.0 * sc.fraction()
    );
    if sc.penta.iter().sum::<u32>() > 0 {
        println!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}]",
            sc.penta[0], sc.penta[1], sc.penta[2], sc.penta[3], sc.penta[4]
        );
    }
}

fn report_sprt(t: &Sprt, sc: &Score) {
    let (llr, v) = t.decide(sc);
    println!(
        "SPRT ({:.1}, {:.1}): LLR {:.2} [{:.2}, {:.2}] {}",
        t.elo0,
        t.elo1,
        llr,
        t.lower,
        t.upper,
        match v {
            SprtResult::H1 => "H1 accepted",
            SprtResult::H0 => "H0 accepted",
            SprtResult::Continue => "no decision yet",
        }
    );
}

/// Each engine's total over its encounters, best first.
fn report_ranking(names: &[&str], s: &Summary) {
    let mut totals: Vec<(usize, Score)> = (0..names.len()).map(|i| (i, Score::default())).collect();
    for &((a, b), sc) in &s.encounters {
        let t = &mut totals[a].1;
        t.wins += sc.wins;
        t.draws += sc.draws;
        t.losses += sc.losses;
        let t = &mut totals[b].1;
        t.wins += sc.losses;
        t.draws += sc.draws;
        t.losses += sc.wins;
    }
    totals.sort_by(|x, y| y.1.points().total_cmp(&x.1.points()));
    println!("Rank Name                          Elo      +/-  Games  Score  Draw");
    for (rank, (i, sc)) in totals.iter().enumerate() {
        let (elo, err) = sc.elo().map_or((0.0, 0.0), |e| (e.elo, e.error));
        println!(
            "{:>4} {:<26} {:>7.1} {:>8.1} {:>6} {:>5.1}% {:>4.1}%",
            rank + 1,
            names[*i],
            elo,
            err,
            sc.games(),
            100.0 * sc.fraction(),
            100.0 * sc.draw_ratio()
        );
    }
}

/// Game ends by code, faults per engine, overhead, and an early stop.
fn report_ends(names: &[&str], s: &Summary) {
    let mut reasons: Vec<(&str, u32)> = s.reasons.iter().map(|(e, &n)| (e.code(), n)).collect();
    reasons.sort();
    let list: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("Game ends: {}", list.join(", "));
    let total_faults: u32 = s.faults.values().sum();
    println!("Faults: {total_faults}");
    let mut keys: Vec<_> = s.faults.iter().collect();
    keys.sort_by_key(|((i, f), _)| (*i, Fault::ALL.iter().position(|x| x == f)));
    for ((i, f), n) in keys {
        println!("  {}: {} x {}", names[*i], n, f);
    }
    if let Some(us) = s.overhead_us {
        println!("Referee overhead per move: {us:.0} us");
    }
    if s.ponder != PonderStats::default() {
        println!("Ponder: {}", s.ponder);
    }
    if s.aborted {
        println!("Match stopped early after an engine failure.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The running and the final SPRT line read as cutechess-cli's.
    #[test]
    fn sprt_line() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05);
        let line = sprt_status(&t, t.upper / 2.0);
        assert_eq!(line, "SPRT: llr 1.47 (50.0%), lbound -2.94, ubound 2.94");
    }
}
