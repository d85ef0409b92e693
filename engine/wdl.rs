//! Win/draw/loss estimates from a score, for `UCI_ShowWDL`.
//!
//! The model is logistic in the centipawn score `x` (side to move's view):
//! `win(x) = 1 / (1 + exp((A - x) / B))`, `loss(x) = win(-x)`, and the draw
//! share is what remains. PROVISIONAL parameters: `A = 150`, `B = 75` were
//! chosen by hand so that an equal score gives about three quarters draws
//! and a one-chariot advantage (~600 cp) almost always wins, which is what
//! engine self-play in Xiangqi looks like. They are to be refitted by
//! maximum likelihood on the (score, final result) pairs of our own
//! self-play games once the match runner records them.

/// Score at which a win and a draw are equally likely, cp.
pub const A: f64 = 150.0;
/// Spread of the logistic curve, cp.
pub const B: f64 = 75.0;

/// `(win, draw, loss)` in per mille, summing to 1000. `mate`: `Some(n)`
/// for a mate score (`n > 0`: the side to move mates).
pub fn wdl(cp: i32, mate: Option<i32>) -> (u32, u32, u32) {
    if let Some(n) = mate {
        return if n > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let win = |x: f64| 1.0 / (1.0 + ((A - x) / B).exp());
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
    use super::wdl;

    #[test]
    fn symmetric_and_monotonic() {
        let (w, d, l) = wdl(0, None);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        assert!(d > 500);
        let mut last = 0;
        for cp in (-1000..=1000).step_by(50) {
            let (w, d, l) = wdl(cp, None);
            assert_eq!(w + d + l, 1000);
            assert!(w >= last);
            last = w;
            assert_eq!(wdl(-cp, None), (l, d, w));
        }
        assert_eq!(wdl(5, Some(3)), (1000, 0, 0));
        assert_eq!(wdl(5, Some(-3)), (0, 0, 1000));
    }
}
