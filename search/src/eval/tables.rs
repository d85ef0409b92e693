//! Tables for the evaluation, computed at compile time: full 90-point
//! piece-square tables expanded from the half tables in [`super::params`].
//! (Leaps come from the move generator's own tables, [`movegen::leaps`];
//! lines along files and ranks from the position's occupancy masks,
//! [`movegen::Position::scan_line`].)

use super::params::GameParams;

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
