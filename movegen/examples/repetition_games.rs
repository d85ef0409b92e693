//! Random repetition games for the cross-check with Fairy-Stockfish
//! (`scripts/repetition_crosscheck.py`; docs/RULES.md §1.3).
//!
//! `repetition_games <count> <seed>` prints one game per line,
//! `variant<TAB>start FEN<TAB>moves<TAB>cycle start ply`, moves in ranks
//! 1–10. Each game is random play (captures preferred, to thin the board)
//! followed by a forced cycle: each side picks one or two moves that it
//! can take back, preferring checks and moves that create new attacks on
//! enemy pieces, then both sides take them back in the same order. The
//! cycle is played out often enough for the position to occur four times
//! (so `janggimodern`'s fourfold rule is reached too). Only the moves are
//! printed: the script asks `jiang result` and pyffish for the verdicts.
//! The same count and seed give the same games.

use movegen::{move_text, Color, Move, PieceKind, Position, Ranks, SplitMix64, Variant};

/// The project's SplitMix64, drawing by modulo, so runs are reproducible
/// (and give the games they gave before).
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.0.next_u64() % 100 < percent
    }
}

/// The (attacker, victim) pairs of side `c` against enemy pieces other
/// than the general.
fn attack_pairs(pos: &Position, c: Color) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    for s in movegen::Square::all() {
        let Some(p) = pos.piece_at(s) else { continue };
        if p.color() == c || p.kind() == PieceKind::General {
            continue;
        }
        for a in pos.attackers(s, c) {
            out.push((a.raw(), s.raw()));
        }
    }
    out
}

/// Whether the piece on the move's target may step back to its origin by
/// its movement rules (soldiers never retreat).
fn reversible(pos: &Position, m: Move) -> bool {
    let Some(p) = pos.piece_at(m.from()) else {
        return false;
    };
    if p.kind() == PieceKind::Soldier {
        // Only sideways steps can be taken back.
        return m.from().rank() == m.to().rank();
    }
    true
}

/// One cycle move for the side to move: a quiet move it may later take
/// back, chosen among checks, chases (by Jiang's definition), other new
/// attacks and other moves. The aggressor prefers the first kinds, the
/// other side quiet moves, so that one-sided patterns are common.
///
/// `bait`: the aggressor's next take-back, when the defender's move is the
/// last of the outward half; the defender then prefers moves after which
/// that take-back checks or chases, so that both halves of the cycle
/// attack.
fn cycle_move(
    pos: &mut Position,
    rng: &mut Rng,
    used: &[Move],
    aggressor: bool,
    bait: Option<Move>,
) -> Option<Move> {
    let us = pos.side_to_move();
    let before = attack_pairs(pos, us);
    let (mut checks, mut chases, mut threats, mut quiet, mut baits) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for m in pos.legal_moves() {
        if m.is_pass() || pos.piece_at(m.to()).is_some() || !reversible(pos, m) {
            continue;
        }
        // A piece moves at most once per half-cycle, so the take-backs
        // restore the position.
        if used
            .iter()
            .any(|u| u.to() == m.from() || u.from() == m.from())
        {
            continue;
        }
        let check = pos.gives_check(m);
        pos.make_move(m);
        let new_attack = attack_pairs(pos, us).iter().any(|p| !before.contains(p));
        let chase = !movegen::chased_by_last_move(pos).is_empty();
        if let Some(b) = bait.filter(|&b| pos.is_legal(b)) {
            let back_check = pos.gives_check(b);
            pos.make_move(b);
            if back_check || !movegen::chased_by_last_move(pos).is_empty() {
                baits.push(m);
            }
            pos.unmake_move();
        }
        pos.unmake_move();
        if check {
            checks.push(m);
        } else if chase {
            chases.push(m);
        } else if new_attack {
            threats.push(m);
        } else {
            quiet.push(m);
        }
    }
    if !baits.is_empty() && rng.chance(70) {
        return Some(baits[rng.below(baits.len())]);
    }
    let roll = rng.below(100);
    let order: [&Vec<Move>; 4] = match (aggressor, roll) {
        (true, 0..=24) => [&checks, &chases, &threats, &quiet],
        (true, 25..=69) => [&chases, &threats, &checks, &quiet],
        (true, 70..=89) => [&threats, &chases, &checks, &quiet],
        (false, 0..=59) | (true, _) => [&quiet, &threats, &chases, &checks],
        (false, 60..=74) => [&threats, &quiet, &chases, &checks],
        (false, 75..=89) => [&chases, &quiet, &threats, &checks],
        (false, _) => [&checks, &quiet, &threats, &chases],
    };
    let pick = order.into_iter().find(|l| !l.is_empty())?;
    Some(pick[rng.below(pick.len())])
}

/// Random play from the start; `None` if the game ended on the way.
fn random_part(variant: Variant, rng: &mut Rng) -> Option<(Position, Vec<Move>)> {
    let mut pos = if variant.is_janggi() {
        let names = movegen::setups::janggi_setup_names();
        let name = &names[rng.below(names.len())];
        movegen::setups::janggi_setup(name, variant)?
    } else {
        Position::startpos(variant)
    };
    let start = pos.clone();
    let plies = 6 + rng.below(70);
    for _ in 0..plies {
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_pass())
            .collect();
        if moves.is_empty() {
            return None;
        }
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let list = if !captures.is_empty() && rng.chance(60) {
            &captures
        } else {
            &moves
        };
        pos.make_move(list[rng.below(list.len())]);
        if pos.judge().is_over() {
            return None;
        }
    }
    let played: Vec<Move> = pos
        .states()
        .iter()
        .skip(1)
        .filter_map(|s| s.last_move)
        .collect();
    Some((start, played))
}

/// A forced cycle from `pos`: the outward moves, then their take-backs;
/// `None` when no such cycle is legal.
fn cycle(pos: &mut Position, rng: &mut Rng) -> Option<Vec<Move>> {
    let per_side = if rng.chance(40) { 2 } else { 1 };
    // The side to move attacks; its opponent mostly defends.
    let aggressor = pos.side_to_move();
    let mut out: Vec<Move> = Vec::new();
    let mut ok = true;
    for i in 0..2 * per_side {
        let attacking = pos.side_to_move() == aggressor;
        let bait = (i + 1 == 2 * per_side).then(|| Move::new(out[0].to(), out[0].from()));
        match cycle_move(pos, rng, &out, attacking, bait) {
            Some(m) => {
                pos.make_move(m);
                out.push(m);
            }
            None => {
                ok = false;
                break;
            }
        }
    }
    let mut cyc = out.clone();
    if ok {
        for m in &out {
            let back = Move::new(m.to(), m.from());
            if !pos.is_legal(back) {
                ok = false;
                break;
            }
            pos.make_move(back);
            cyc.push(back);
        }
    }
    for _ in 0..cyc.len() {
        pos.unmake_move();
    }
    (ok && cyc.len() == 4 * per_side).then_some(cyc)
}

/// Whether the move just played checks or chases (Jiang's definitions).
fn forcing(pos: &Position) -> bool {
    pos.in_check() || !movegen::chased_by_last_move(pos).is_empty()
}

/// A "follow" cycle of four plies from `pos`, the defender to move:
/// the defender moves a piece (c→d), the aggressor answers with a check or
/// a chase (f→e), both step back (d→c, e→f) and the aggressor's step back
/// checks or chases too. The aggressor's moves are free, not take-backs
/// of a lead-in, so perpetual checks and chases are common.
fn follow_cycle(pos: &mut Position, rng: &mut Rng) -> Option<Vec<Move>> {
    let quiet_reversible = |pos: &Position| -> Vec<Move> {
        pos.legal_moves()
            .into_iter()
            .filter(|&m| !m.is_pass() && pos.piece_at(m.to()).is_none() && reversible(pos, m))
            .collect()
    };
    let mut found = Vec::new();
    let defender_moves = quiet_reversible(pos);
    for &cd in &defender_moves {
        pos.make_move(cd);
        for fe in quiet_reversible(pos) {
            pos.make_move(fe);
            let ok = forcing(pos) && {
                let dc = Move::new(cd.to(), cd.from());
                let ef = Move::new(fe.to(), fe.from());
                let mut ok = false;
                if pos.is_legal(dc) {
                    pos.make_move(dc);
                    if pos.is_legal(ef) {
                        pos.make_move(ef);
                        ok = forcing(pos);
                        pos.unmake_move();
                    }
                    pos.unmake_move();
                }
                ok
            };
            pos.unmake_move();
            if ok {
                found.push((cd, fe));
            }
        }
        pos.unmake_move();
    }
    if found.is_empty() {
        return None;
    }
    let (cd, fe) = found[rng.below(found.len())];
    Some(vec![
        cd,
        fe,
        Move::new(cd.to(), cd.from()),
        Move::new(fe.to(), fe.from()),
    ])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = Rng(SplitMix64::new(seed));
    let variants = [
        Variant::Xiangqi,
        Variant::Janggi,
        Variant::JanggiTraditional,
        Variant::JanggiModern,
        Variant::JanggiCasual,
    ];
    let mut made = 0;
    let mut tries = 0;
    while made < count && tries < count * 50 {
        tries += 1;
        // Xiangqi, with the chase rule, gets 60% of the games.
        let variant = if rng.chance(60) {
            variants[0]
        } else {
            variants[1 + rng.below(4)]
        };
        let Some((start, played)) = random_part(variant, &mut rng) else {
            continue;
        };
        let mut pos = start.clone();
        for &m in &played {
            pos.make_move(m);
        }
        let mut moves = played.clone();
        // Half the games: a lead-in attack, then a follow cycle.
        let follow = if rng.chance(50) {
            cycle_move(&mut pos, &mut rng, &[], true, None).and_then(|lead| {
                pos.make_move(lead);
                let c = follow_cycle(&mut pos, &mut rng);
                if c.is_none() {
                    pos.unmake_move();
                }
                c.map(|c| (lead, c))
            })
        } else {
            None
        };
        let cyc = match follow {
            Some((lead, c)) => {
                moves.push(lead);
                c
            }
            None => match (0..8).find_map(|_| cycle(&mut pos, &mut rng)) {
                Some(c) => c,
                None => continue,
            },
        };
        let cycle_start = moves.len();
        // Three turns of the cycle: the start position then stands for the
        // fourth time.
        for _ in 0..3 {
            moves.extend_from_slice(&cyc);
        }
        let text: Vec<String> = moves
            .iter()
            .map(|&m| move_text(m, Ranks::OneBased))
            .collect();
        println!(
            "{}\t{}\t{}\t{}",
            variant,
            start.to_fen(),
            text.join(" "),
            cycle_start
        );
        made += 1;
    }
}
