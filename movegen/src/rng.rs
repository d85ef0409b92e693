//! SplitMix64, the one seeded generator of the project.
//!
//! Jiang keeps its own generator rather than `rand`'s for two reasons:
//! a seed must give the same bytes on every platform and with every
//! future dependency version (Zobrist keys, a trainer's recipe that names
//! its seed, reproducible test games), and the Zobrist tables are built at
//! compile time, so the step must be usable in `const` context
//! ([`SplitMix64::step`]).

/// SplitMix64 (Steele, Lea and Flood): a 64-bit state advanced by a
/// constant, the output mixed by two xor-shift-multiply rounds.
///
/// ```
/// use movegen::SplitMix64;
/// let mut a = SplitMix64::new(5);
/// let (b, x) = SplitMix64::new(5).step();
/// assert_eq!(a.next_u64(), x);
/// assert_eq!(a, b);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The generator advanced one step and that step's 64 random bits,
    /// by value so that `const` tables can be built with it (a `const fn`
    /// taking `&mut self` needs Rust 1.83; the workspace supports 1.80).
    pub const fn step(self) -> (SplitMix64, u64) {
        let state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (SplitMix64 { state }, z ^ (z >> 31))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (next, x) = self.clone().step();
        *self = next;
        x
    }

    /// A number in `0..n` (`n > 0`), by multiply-high (bias below 2⁻³²
    /// for the sizes we draw from).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A float uniform in `[lo, hi)`, from the top 24 bits.
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }

    /// Shuffle `v` in place (Fisher–Yates, with [`SplitMix64::below`]).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference stream of SplitMix64 from seed 1234567 (the test
    /// vector of the C reference implementation).
    #[test]
    fn reference_vector() {
        let mut r = SplitMix64::new(1_234_567);
        let want = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
    }

    #[test]
    fn fixed_seed_fixed_stream() {
        let mut a = SplitMix64::new(5);
        let mut b = SplitMix64::new(5);
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let mut v: Vec<usize> = (0..100).collect();
        a.shuffle(&mut v);
        let mut w = v.clone();
        w.sort_unstable();
        assert_eq!(w, (0..100).collect::<Vec<_>>());
        assert_ne!(v, w);
        for _ in 0..1000 {
            let x = a.uniform(-1.0, 1.0);
            assert!((-1.0..1.0).contains(&x));
            assert!(a.below(7) < 7);
        }
    }
}
