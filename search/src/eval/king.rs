//! King safety: missing defenders, the general's file, enemy pieces
//! near the palace and, in Janggi, attacks on the points of the palace.

use super::mobility::coords;
use super::params::GameParams;
use super::PALACE_ATTACKERS;
use movegen::leaps::{self, Leap};
use movegen::{Color, Piece, PieceKind, Position};

/// Per colour, the points near its palace that count an enemy piece as an
/// attacker: files 2–6 of its own first four ranks.
const NEAR_PALACE: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= 2 && f <= 6 {
            if r <= 3 {
                t[0] |= 1 << s;
            }
            if 9 - r <= 3 {
                t[1] |= 1 << s;
            }
        }
        s += 1;
    }
    t
};

/// The danger to `us`'s general (a positive number: the evaluation
/// subtracts it), with `us`'s general on the board.
pub(super) fn danger(pos: &Position, p: &GameParams, us: Color) -> i32 {
    let them = !us;
    let b = pos.board();
    let g = pos.general(us);
    let (gf, gr) = coords(g);
    let heavy = |c: Color| {
        (pos.count(c, PieceKind::Chariot)
            + pos.count(c, PieceKind::Horse)
            + pos.count(c, PieceKind::Cannon)) as i32
    };
    let attackers = heavy(them);
    let mut danger = 0;
    let missing_adv = 2 - pos.count(us, PieceKind::Advisor) as i32;
    let missing_ele = 2 - pos.count(us, PieceKind::Elephant) as i32;
    danger += (missing_adv * p.missing_advisor + missing_ele * p.missing_elephant) * attackers;

    // Own pieces in front of the general on its file.
    let forward = if us == Color::Red { 1 } else { -1 };
    let mut shield = false;
    let mut r = gr + forward;
    while (0..10).contains(&r) {
        if let Some(q) = b[(r * 9 + gf) as usize] {
            if q.color() == us {
                shield = true;
                break;
            }
        }
        r += forward;
    }
    if !shield {
        danger += p.open_file_chariot * pos.count(them, PieceKind::Chariot) as i32;
    }
    for &s in pos.pieces(them, PieceKind::Cannon) {
        let (cf, cr) = coords(s);
        if cf == gf {
            danger += p.central_cannon;
            match between_on_file(b, gf, gr, cr) {
                0 => danger += p.open_head_cannon,
                2 => danger += p.cannon_on_file,
                _ => {}
            }
        }
    }

    // Enemy pieces near the palace.
    let mut count = 0;
    let mut weight = 0;
    for k in [
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ] {
        for &s in pos.pieces(them, k) {
            if NEAR_PALACE[us.index()] >> s.index() & 1 != 0 {
                count += 1;
                weight += p.attacker_weight[k.index()];
            }
        }
    }
    if count >= 2 {
        danger += weight * count * p.attack_scale / 16;
    } else {
        danger += weight / 4;
    }
    if p.palace_scale != 0 {
        danger += palace_danger(pos, p, us);
    }
    danger
}

/// Pieces strictly between two points on one file.
pub(super) fn between_on_file(b: &[Option<Piece>; 90], f: i32, r1: i32, r2: i32) -> i32 {
    let (lo, hi) = (r1.min(r2), r1.max(r2));
    ((lo + 1)..hi)
        .filter(|&r| b[(r * 9 + f) as usize].is_some())
        .count() as i32
}

/// Whether a piece of kind `k` on (`f`, `r`) could reach a point of the
/// palace whose ranks start at `r0` (a cheap geometric filter before the
/// exact attack tests).
#[inline(always)]
fn may_reach_palace(k: PieceKind, f: i32, r: i32, r0: i32) -> bool {
    let (df, dr) = ((f - 4).abs() - 1, (r - (r0 + 1)).abs() - 1);
    match k {
        // Lines: on a palace file or rank.
        PieceKind::Chariot | PieceKind::Cannon => df <= 0 || dr <= 0,
        PieceKind::Horse => df <= 2 && dr <= 2,
        PieceKind::Elephant => df <= 3 && dr <= 3,
        _ => df <= 1 && dr <= 1,
    }
}

/// Per colour, the nine points of its palace.
const PALACE: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= 3 && f <= 5 {
            if r <= 2 {
                t[0] |= 1 << s;
            }
            if r >= 7 {
                t[1] |= 1 << s;
            }
        }
        s += 1;
    }
    t
};

/// Leaps (horse or Janggi elephant) that land on a point of `mask` with
/// their intermediate points empty.
#[inline(always)]
fn leaps_into(b: &[Option<Piece>; 90], leaps: &[Leap], mask: u128) -> i32 {
    let mut n = 0;
    for l in leaps {
        let free = b[l.first_block().index()].is_none() && b[l.second_block().index()].is_none();
        n += i32::from(free && mask >> l.to().index() & 1 != 0);
    }
    n
}

/// Danger to `us`'s general from enemy pieces attacking points of its
/// palace: each attacked point counts the attacker's weight, and the sum
/// grows with the number of pieces taking part.
fn palace_danger(pos: &Position, p: &GameParams, us: Color) -> i32 {
    let them = !us;
    let r0 = if us == Color::Red { 0 } else { 7 };
    let palace = PALACE[us.index()];
    let b = pos.board();
    let mut units = 0;
    let mut pieces = 0;
    for k in PALACE_ATTACKERS {
        let w = p.palace_attack[k.index()];
        if w == 0 {
            continue;
        }
        for &s in pos.pieces(them, k) {
            let (f, r) = coords(s);
            if !may_reach_palace(k, f, r, r0) {
                continue;
            }
            let hits = match k {
                // Leapers: count the leaps that land in the palace with
                // their legs free (the same test as `attacks`, without
                // asking it about all nine points).
                PieceKind::Horse => leaps_into(b, leaps::horse(s), palace),
                PieceKind::Elephant => leaps_into(b, leaps::janggi_elephant(s), palace),
                // Chariots, cannons, soldiers: their attacks in one pass.
                _ => (pos.attack_mask(s) & palace).count_ones() as i32,
            };
            if hits > 0 {
                units += w * hits;
                pieces += 1;
            }
        }
    }
    units * pieces * p.palace_scale / 64
}
