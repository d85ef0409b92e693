//! Win/draw/loss estimates from a score, for `UCI_ShowWDL`.
//!
//! The model is logistic in the centipawn score `x` (side to move's view):
//! `win(x) = 1 / (1 + exp((A - x) / B))`, `loss(x) = win(-x)`, and the draw
//! share is what remains.
//!
//! The parameters are fitted on Jiang's own self-play by
//! `scripts/wdl_fit.py`: games of Jiang against itself (`go nodes 20000`
//! per move, the first 6 plies random, each game played until the rules'
//! verdict from the `result` command), every searched position's score
//! paired with how that game ended for the side to move, and `A`, `B`
//! chosen by maximum likelihood on a grid.
//!
//! - Xiangqi: 120 games (50 first-player wins, 15 second-player wins, 55
//!   draws), 20,511 positions: `A = 392`, `B = 162`.
//! - Janggi (`janggi` rules): 80 games (40 wins each side, no draw:
//!   counting decides), 11,842 positions: `A = 0`, `B = 128` — with `A = 0`
//!   the model predicts no draws, as in these games. The draw-prone Janggi
//!   rule sets (`janggitraditional`, `janggicasual`) share it for now.
//!
//! The scores of a fast search drift with depth, so the model describes
//! short searches best; refit after evaluation changes.

use movegen::Variant;

/// Parameters of the logistic model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Score at which a win is as likely as not, cp.
    pub a: f64,
    /// Spread of the curve, cp.
    pub b: f64,
}

/// Xiangqi fit (see the module documentation).
pub const XIANGQI: Model = Model { a: 392.0, b: 162.0 };
/// Janggi fit (see the module documentation).
pub const JANGGI: Model = Model { a: 0.0, b: 128.0 };

/// The model for a game.
pub fn model(v: Variant) -> Model {
    if v.is_janggi() {
        JANGGI
    } else {
        XIANGQI
    }
}

/// `(win, draw, loss)` in per mille, summing to 1000. `mate`: `Some(n)`
/// for a mate score (`n > 0`: the side to move mates).
pub fn wdl(m: Model, cp: i32, mate: Option<i32>) -> (u32, u32, u32) {
    if let Some(n) = mate {
        return if n > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let win = |x: f64| 1.0 / (1.0 + ((m.a - x) / m.b).exp());
    let x = f64::from(cp);
    // Rounded per mille; the draw takes the rounding remainder so the three
    // always sum to 1000.
    let w = (win(x) * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let l = (win(-x) * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let l = l.min(1000 - w);
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_monotonic() {
        for m in [XIANGQI, JANGGI] {
            let (w, d, l) = wdl(m, 0, None);
            assert_eq!(w, l);
            assert_eq!(w + d + l, 1000);
            let mut last = 0;
            for cp in (-1000..=1000).step_by(50) {
                let (w, d, l) = wdl(m, cp, None);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last);
                last = w;
                assert_eq!(wdl(m, -cp, None), (l, d, w));
            }
            assert_eq!(wdl(m, 5, Some(3)), (1000, 0, 0));
            assert_eq!(wdl(m, 5, Some(-3)), (0, 0, 1000));
        }
        // The Xiangqi fit: an equal position is mostly a draw, a chariot up
        // (~900 cp) is almost always a win.
        assert!(wdl(XIANGQI, 0, None).1 > 700);
        assert!(wdl(XIANGQI, 900, None).0 > 950);
        // Janggi with counting: no draws.
        assert_eq!(wdl(JANGGI, 0, None), (500, 0, 500));
        assert_eq!(wdl(JANGGI, 300, None).1, 0);
    }
}
