//! Board geometry for the evaluation, computed at compile time: horse
//! jumps with their legs, Janggi elephant leaps with both intermediate
//! points, and full 90-point piece-square tables expanded from the half
//! tables in [`super::params`]. (Lines along files and ranks come from the
//! position's occupancy masks, [`movegen::Position::scan_line`].)

use super::params::GameParams;

/// Steps with intermediate points: `(via1, via2, dest)`; `via2 == via1`
/// for horse jumps (one leg).
#[derive(Clone, Copy)]
pub struct Leaps {
    /// `(via1, via2, dest)` square indices.
    pub to: [(u8, u8, u8); 8],
    /// How many of `to` are used.
    pub len: u8,
}

/// Horse jumps (leg, leg, destination) of every square.
pub static HORSE: [Leaps; 90] = build_leaps(false);
/// Janggi elephant leaps (straight step, diagonal step, destination).
pub static JANGGI_ELEPHANT: [Leaps; 90] = build_leaps(true);

const fn build_leaps(elephant: bool) -> [Leaps; 90] {
    let mut t = [Leaps {
        to: [(0, 0, 0); 8],
        len: 0,
    }; 90];
    let ortho: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut n = 0;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ortho[d];
            let mut side = 0;
            while side < 2 {
                let sgn = if side == 0 { 1 } else { -1 };
                // The outward diagonal direction for this straight step.
                let (sf, sr) = if df == 0 { (sgn, dr) } else { (df, sgn) };
                let (v1f, v1r) = (f + df, r + dr);
                let (v2f, v2r, tf, tr) = if elephant {
                    (v1f + sf, v1r + sr, v1f + 2 * sf, v1r + 2 * sr)
                } else {
                    (v1f, v1r, v1f + sf, v1r + sr)
                };
                if tf >= 0 && tf < 9 && tr >= 0 && tr < 10 {
                    t[s].to[n] = (
                        (v1r * 9 + v1f) as u8,
                        (v2r * 9 + v2f) as u8,
                        (tr * 9 + tf) as u8,
                    );
                    n += 1;
                }
                side += 1;
            }
            d += 1;
        }
        t[s].len = n as u8;
        s += 1;
    }
    t
}

/// Full piece-square tables of one game: `[colour][kind][square]`.
pub type Pst = [[[i16; 90]; 8]; 2];

/// Expand the half tables of `p` to full tables for both colours.
pub const fn build_pst(p: &GameParams) -> Pst {
    let mut t = [[[0; 90]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let mut s = 0;
            while s < 90 {
                let (f, r) = (s % 9, s / 9);
                let hf = if f < 9 - 1 - f { f } else { 8 - f };
                let rr = if c == 0 { r } else { 9 - r };
                t[c][k][s] = p.pst[k][rr][hf];
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}
