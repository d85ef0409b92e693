//! The network's inner loops in vector instructions: the accumulator
//! updates (16-bit adds and subtractions over `H` values) and the output
//! layer's squared clipped ReLU dot product.
//!
//! One binary runs everywhere: the instruction set is chosen at run time
//! ([`Isa::detected`]) — AVX2 where the CPU has it, else SSE2 (part of
//! every x86-64 CPU); NEON on aarch64; the portable loops elsewhere. Every
//! path computes exactly the same integers, so the choice changes speed
//! and never a score, a node count or a `bench` fingerprint; the tests
//! compare every path the machine runs against the portable one.
//!
//! This is the crate's only module with `unsafe` code (loads and stores
//! through raw pointers, and calls of functions compiled for an
//! instruction set the CPU was checked to have); each block says why it
//! is sound.

#![allow(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]

/// The largest output weight magnitude the vector dot product takes: a
/// clipped activation (at most [`QA`](crate::QA) = 255) times a weight within ±128
/// fits an `i16` lane. Trained networks stay far inside (their output
/// weights are a few dozen at most); a network with a larger weight is
/// evaluated by the exact portable loop, with the same result, slower.
pub const VECTOR_W2_MAX: i16 = 128;

/// An instruction set the kernels are written for. Values other than the
/// portable one exist only where the CPU was found to run them, which is
/// what makes the vector calls below sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isa(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Isa {
    /// The plain loops, which the compiler vectorises as far as it can for
    /// the build's baseline target.
    pub const PORTABLE: Isa = Isa(Kind::Portable);

    /// The fastest instruction set this CPU runs.
    pub fn detected() -> Isa {
        Isa::supported().into_iter().next().unwrap_or(Isa::PORTABLE)
    }

    /// Every instruction set this CPU runs, fastest first, the portable
    /// loops last.
    pub fn supported() -> Vec<Isa> {
        let mut v = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Isa(Kind::Avx2));
            }
            // SSE2 is part of the x86-64 architecture.
            v.push(Isa(Kind::Sse2));
        }
        #[cfg(target_arch = "aarch64")]
        {
            if std::arch::is_aarch64_feature_detected!("neon") {
                v.push(Isa(Kind::Neon));
            }
        }
        v.push(Isa::PORTABLE);
        v
    }

    /// Its name, as `jiang bench` and the speed benchmark print it.
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => "neon",
        }
    }

    /// Values each vector step of this instruction set works on (the
    /// vector kernels take slices of a multiple of it; the portable loops
    /// do any remainder); none for the portable loops, which do it all.
    fn lanes(self) -> Option<usize> {
        Some(match self.0 {
            Kind::Portable => return None,
            #[cfg(target_arch = "x86_64")]
            Kind::Sse2 => 8,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => 16,
            #[cfg(target_arch = "aarch64")]
            Kind::Neon => 8,
        })
    }
}

/// The length the vector kernels take of an `n`-value operation (a
/// multiple of the lanes); the portable loops do the rest.
fn vector_len(isa: Isa, n: usize) -> usize {
    isa.lanes().map_or(0, |l| n - n % l)
}

/// `dst += w`, lane by lane, wrapping (over the shorter length).
pub fn add_in_place(isa: Isa, dst: &mut [i16], w: &[i16]) {
    let n = dst.len().min(w.len());
    let m = vector_len(isa, n);
    let (dv, dt) = dst[..n].split_at_mut(m);
    let (wv, wt) = w[..n].split_at(m);
    match isa.0 {
        Kind::Portable => {}
        // SAFETY (each arm): the slices have equal lengths, a multiple of
        // the lanes, and an `Isa` of this kind exists only where
        // `Isa::supported` found the CPU to run it.
        #[cfg(target_arch = "x86_64")]
        Kind::Sse2 => unsafe { sse2::add_in_place(dv, wv) },
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::add_in_place(dv, wv) },
        #[cfg(target_arch = "aarch64")]
        Kind::Neon => unsafe { neon::add_in_place(dv, wv) },
    }
    portable::add_in_place(dt, wt);
}

/// `dst = src + add − sub`, lane by lane, wrapping (over the shortest
/// length).
pub fn add_sub(isa: Isa, dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let n = dst.len().min(src.len()).min(add.len()).min(sub.len());
    let m = vector_len(isa, n);
    let (dv, dt) = dst[..n].split_at_mut(m);
    let (sv, st) = src[..n].split_at(m);
    let (av, at) = add[..n].split_at(m);
    let (bv, bt) = sub[..n].split_at(m);
    match isa.0 {
        Kind::Portable => {}
        // SAFETY: as in `add_in_place`.
        #[cfg(target_arch = "x86_64")]
        Kind::Sse2 => unsafe { sse2::add_sub(dv, sv, av, bv) },
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::add_sub(dv, sv, av, bv) },
        #[cfg(target_arch = "aarch64")]
        Kind::Neon => unsafe { neon::add_sub(dv, sv, av, bv) },
    }
    portable::add_sub(dt, st, at, bt);
}

/// `dst = src + add − sub − sub2`, lane by lane, wrapping (over the
/// shortest length).
pub fn add_sub_sub(isa: Isa, dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], sub2: &[i16]) {
    let n = dst
        .len()
        .min(src.len())
        .min(add.len())
        .min(sub.len())
        .min(sub2.len());
    let m = vector_len(isa, n);
    let (dv, dt) = dst[..n].split_at_mut(m);
    let (sv, st) = src[..n].split_at(m);
    let (av, at) = add[..n].split_at(m);
    let (bv, bt) = sub[..n].split_at(m);
    let (cv, ct) = sub2[..n].split_at(m);
    match isa.0 {
        Kind::Portable => {}
        // SAFETY: as in `add_in_place`.
        #[cfg(target_arch = "x86_64")]
        Kind::Sse2 => unsafe { sse2::add_sub_sub(dv, sv, av, bv, cv) },
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::add_sub_sub(dv, sv, av, bv, cv) },
        #[cfg(target_arch = "aarch64")]
        Kind::Neon => unsafe { neon::add_sub_sub(dv, sv, av, bv, cv) },
    }
    portable::add_sub_sub(dt, st, at, bt, ct);
}

/// `Σ clamp(a, 0, QA)² · w` exactly (over the shorter length).
/// `small_w` says that every weight is within ±[`VECTOR_W2_MAX`] (the
/// network checks it once, when it is built); only then do the vector
/// kernels run, as their 16-bit products need it.
pub fn screlu_dot(isa: Isa, a: &[i16], w: &[i16], small_w: bool) -> i64 {
    let n = a.len().min(w.len());
    let m = if small_w { vector_len(isa, n) } else { 0 };
    let (av, at) = a[..n].split_at(m);
    let (wv, wt) = w[..n].split_at(m);
    let head = match isa.0 {
        Kind::Portable => 0,
        // SAFETY: as in `add_in_place`; the weights' bound holds where
        // `m` is not zero.
        #[cfg(target_arch = "x86_64")]
        Kind::Sse2 => unsafe { sse2::screlu_dot(av, wv) },
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { avx2::screlu_dot(av, wv) },
        #[cfg(target_arch = "aarch64")]
        Kind::Neon => unsafe { neon::screlu_dot(av, wv) },
    };
    head + portable::screlu_dot(at, wt)
}

/// Vector steps of the dot product summed in 32-bit lanes before they are
/// widened: one step adds at most 2 · 255 · (255 · 128) = 16,646,400 to a
/// lane, so 64 steps stay below 2³¹ with room to spare.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const DOT_BLOCK: usize = 64;

/// The loops in plain Rust, for any length and any weights.
mod portable {
    use crate::QA;

    /// Values each loop works on at a time.
    const LANES: usize = crate::HIDDEN_STEP;

    // Written over fixed-size arrays of `LANES` values (no bounds checks)
    // in functions of their own, never inlined: there the slices are
    // known not to overlap, and LLVM turns each loop into packed 16-bit
    // adds; inlined into their caller the same loops stayed scalar, about
    // four times slower (measured with `examples/nnue_speed.rs`). A
    // remainder shorter than `LANES` goes value by value.

    fn lanes(s: &[i16]) -> impl Iterator<Item = &[i16; LANES]> {
        s.chunks_exact(LANES).filter_map(|c| c.try_into().ok())
    }

    fn lanes_mut(s: &mut [i16]) -> impl Iterator<Item = &mut [i16; LANES]> {
        s.chunks_exact_mut(LANES).filter_map(|c| c.try_into().ok())
    }

    /// The start of the remainder after the whole `LANES` chunks.
    fn tail(n: usize) -> usize {
        n - n % LANES
    }

    #[inline(never)]
    pub(super) fn add_in_place(dst: &mut [i16], w: &[i16]) {
        for (d, w) in lanes_mut(dst).zip(lanes(w)) {
            for i in 0..LANES {
                d[i] = d[i].wrapping_add(w[i]);
            }
        }
        let t = tail(dst.len());
        for (d, w) in dst[t..].iter_mut().zip(&w[t..]) {
            *d = d.wrapping_add(*w);
        }
    }

    #[inline(never)]
    pub(super) fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
        let rows = lanes_mut(dst)
            .zip(lanes(src))
            .zip(lanes(add))
            .zip(lanes(sub));
        for (((d, s), a), b) in rows {
            for i in 0..LANES {
                d[i] = s[i].wrapping_add(a[i]).wrapping_sub(b[i]);
            }
        }
        let t = tail(dst.len());
        for (i, d) in dst.iter_mut().enumerate().skip(t) {
            *d = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
        }
    }

    #[inline(never)]
    pub(super) fn add_sub_sub(
        dst: &mut [i16],
        src: &[i16],
        add: &[i16],
        sub: &[i16],
        sub2: &[i16],
    ) {
        let rows = lanes_mut(dst)
            .zip(lanes(src))
            .zip(lanes(add))
            .zip(lanes(sub))
            .zip(lanes(sub2));
        for ((((d, s), a), b), c) in rows {
            for i in 0..LANES {
                d[i] = s[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(b[i])
                    .wrapping_sub(c[i]);
            }
        }
        let t = tail(dst.len());
        for (i, d) in dst.iter_mut().enumerate().skip(t) {
            *d = src[i]
                .wrapping_add(add[i])
                .wrapping_sub(sub[i])
                .wrapping_sub(sub2[i]);
        }
    }

    /// The exact dot product for any weights.
    ///
    /// One term can reach 255² × 32768 ≈ 2³¹, so the sum needs 64 bits.
    /// To keep the products in 16-bit lanes, `v² = clamp(a)²` (at most
    /// 65025) is split as `2·h + l` with `h = v² >> 1` and `l = v² & 1`,
    /// both fitting an `i16`; sums of two adjacent products `h·w` then fit
    /// an `i32` (the shape of SSE2's `pmaddwd`, which LLVM emits), and only
    /// those pair sums are widened to `i64`: about 0.6 of the time of the
    /// plain per-lane `i64` loop.
    #[inline(never)]
    pub(super) fn screlu_dot(a: &[i16], w: &[i16]) -> i64 {
        let mut acc = [0i64; LANES / 2];
        for (ac, wc) in lanes(a).zip(lanes(w)) {
            let mut h = [0i16; LANES];
            let mut l = [0i16; LANES];
            for i in 0..LANES {
                // Clamped to 0..=255, so the square fits a u16 exactly.
                let v = ac[i].clamp(0, QA as i16) as u16;
                let sq = v * v;
                h[i] = (sq >> 1) as i16;
                l[i] = (sq & 1) as i16;
            }
            for j in 0..LANES / 2 {
                let (w0, w1) = (i32::from(wc[2 * j]), i32::from(wc[2 * j + 1]));
                let high = i32::from(h[2 * j]) * w0 + i32::from(h[2 * j + 1]) * w1;
                let low = i32::from(l[2 * j]) * w0 + i32::from(l[2 * j + 1]) * w1;
                acc[j] += 2 * i64::from(high) + i64::from(low);
            }
        }
        let t = tail(a.len().min(w.len()));
        let rest: i64 = a[t..]
            .iter()
            .zip(&w[t..])
            .map(|(&a, &w)| {
                let v = i64::from(a.clamp(0, QA as i16));
                v * v * i64::from(w)
            })
            .sum();
        acc.iter().sum::<i64>() + rest
    }
}

/// The vector kernels for one instruction set: `$lanes` values of 16 bits
/// per register `$reg`, compiled for `$feature`, from `$arch`'s
/// intrinsics. The instruction sets differ only in the names of the
/// intrinsics, in how the dot product's 32-bit accumulator takes a step
/// (`dot_step`) and in how it is summed (`sum`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! kernels {
    (
        $module:ident, $arch:path, $feature:literal, $lanes:literal, $reg:ty, $acc:ty,
        load: $load:ident, store: $store:ident, splat: $splat:ident,
        add: $add16:ident, sub: $sub16:ident, max: $max16:ident, min: $min16:ident,
        mul: $mul16:ident, acc_zero: $acc_zero:expr,
        dot_step: |$a:ident, $p:ident, $v:ident| $step:expr,
        sum: |$s:ident| $sum:expr
    ) => {
        mod $module {
            use $arch::*;

            use super::DOT_BLOCK;
            use crate::QA;

            const LANES: usize = $lanes;

            /// One register of `c` (at least `LANES` values).
            ///
            /// # Safety
            /// `c.len() >= LANES` and the CPU runs `$feature`.
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn load(c: &[i16]) -> $reg {
                debug_assert!(c.len() >= LANES);
                // SAFETY: `c` holds at least one register's values; the
                // load is unaligned.
                unsafe { $load(c.as_ptr().cast()) }
            }

            /// Store `v` into the first `LANES` values of `c`.
            ///
            /// # Safety
            /// `c.len() >= LANES` and the CPU runs `$feature`.
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn store(c: &mut [i16], v: $reg) {
                debug_assert!(c.len() >= LANES);
                // SAFETY: `c` holds at least one register's values,
                // borrowed mutably; the store is unaligned.
                unsafe { $store(c.as_mut_ptr().cast(), v) }
            }

            /// `acc` plus the products of the lanes of `p` and `v`, pairwise
            /// into 32-bit lanes.
            ///
            /// # Safety
            /// The CPU runs `$feature`.
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn dot_step($a: $acc, $p: $reg, $v: $reg) -> $acc {
                // SAFETY: register arithmetic only; `$feature` runs. (The
                // intrinsics are safe to call here from Rust 1.87 on, not
                // before: the crate's rust-version is older.)
                #[allow(unused_unsafe)]
                unsafe {
                    $step
                }
            }

            /// The sum of the 32-bit lanes of `acc`.
            ///
            /// # Safety
            /// The CPU runs `$feature`.
            #[inline]
            #[target_feature(enable = $feature)]
            unsafe fn sum($s: $acc) -> i64 {
                // SAFETY: register arithmetic, or a store into a local
                // array one register wide; `$feature` runs. (As above.)
                #[allow(unused_unsafe)]
                unsafe {
                    $sum
                }
            }

            /// # Safety
            /// The CPU runs `$feature` (slices of any length: the kernels
            /// work on whole registers and the caller does the rest).
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn add_in_place(dst: &mut [i16], w: &[i16]) {
                for (d, w) in dst.chunks_exact_mut(LANES).zip(w.chunks_exact(LANES)) {
                    // SAFETY: whole chunks of `LANES`; `$feature` runs.
                    unsafe { store(d, $add16(load(d), load(w))) }
                }
            }

            /// # Safety
            /// As [`add_in_place`].
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
                let rows = dst
                    .chunks_exact_mut(LANES)
                    .zip(src.chunks_exact(LANES))
                    .zip(add.chunks_exact(LANES))
                    .zip(sub.chunks_exact(LANES));
                for (((d, s), a), b) in rows {
                    // SAFETY: whole chunks of `LANES`; `$feature` runs.
                    unsafe { store(d, $sub16($add16(load(s), load(a)), load(b))) }
                }
            }

            /// # Safety
            /// As [`add_in_place`].
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn add_sub_sub(
                dst: &mut [i16],
                src: &[i16],
                add: &[i16],
                sub: &[i16],
                sub2: &[i16],
            ) {
                let rows = dst
                    .chunks_exact_mut(LANES)
                    .zip(src.chunks_exact(LANES))
                    .zip(add.chunks_exact(LANES))
                    .zip(sub.chunks_exact(LANES))
                    .zip(sub2.chunks_exact(LANES));
                for ((((d, s), a), b), c) in rows {
                    // SAFETY: whole chunks of `LANES`; `$feature` runs.
                    unsafe {
                        let v = $sub16($sub16($add16(load(s), load(a)), load(b)), load(c));
                        store(d, v)
                    }
                }
            }

            /// `Σ clamp(a, 0, QA)² · w` for weights within ±128: the
            /// clipped value times its weight fits 16 bits, and the
            /// multiply-add by the clipped value again sums pairs into
            /// 32-bit lanes, widened every `DOT_BLOCK` steps.
            ///
            /// # Safety
            /// As [`add_in_place`]; exact only for weights within ±128.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn screlu_dot(a: &[i16], w: &[i16]) -> i64 {
                let mut total = 0i64;
                let block = LANES * DOT_BLOCK;
                for (ab, wb) in a.chunks(block).zip(w.chunks(block)) {
                    // SAFETY: whole chunks of `LANES`; `$feature` runs.
                    unsafe {
                        let (lo, hi) = ($splat(0), $splat(QA as i16));
                        let mut acc = $acc_zero;
                        for (ac, wc) in ab.chunks_exact(LANES).zip(wb.chunks_exact(LANES)) {
                            let v = $min16($max16(load(ac), lo), hi);
                            acc = dot_step(acc, $mul16(v, load(wc)), v);
                        }
                        total += sum(acc);
                    }
                }
                total
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
kernels!(
    sse2, core::arch::x86_64, "sse2", 8, __m128i, __m128i,
    load: _mm_loadu_si128, store: _mm_storeu_si128, splat: _mm_set1_epi16,
    add: _mm_add_epi16, sub: _mm_sub_epi16, max: _mm_max_epi16, min: _mm_min_epi16,
    mul: _mm_mullo_epi16, acc_zero: _mm_setzero_si128(),
    dot_step: |acc, p, v| _mm_add_epi32(acc, _mm_madd_epi16(p, v)),
    sum: |acc| {
        let mut lanes = [0i32; 4];
        _mm_storeu_si128(lanes.as_mut_ptr().cast(), acc);
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
);

#[cfg(target_arch = "x86_64")]
kernels!(
    avx2, core::arch::x86_64, "avx2", 16, __m256i, __m256i,
    load: _mm256_loadu_si256, store: _mm256_storeu_si256, splat: _mm256_set1_epi16,
    add: _mm256_add_epi16, sub: _mm256_sub_epi16, max: _mm256_max_epi16,
    min: _mm256_min_epi16, mul: _mm256_mullo_epi16, acc_zero: _mm256_setzero_si256(),
    dot_step: |acc, p, v| _mm256_add_epi32(acc, _mm256_madd_epi16(p, v)),
    sum: |acc| {
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc);
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
);

#[cfg(target_arch = "aarch64")]
kernels!(
    neon, core::arch::aarch64, "neon", 8, int16x8_t, int32x4_t,
    load: vld1q_s16, store: vst1q_s16, splat: vdupq_n_s16,
    add: vaddq_s16, sub: vsubq_s16, max: vmaxq_s16, min: vminq_s16,
    mul: vmulq_s16, acc_zero: vdupq_n_s32(0),
    dot_step: |acc, p, v| vmlal_high_s16(vmlal_s16(acc, vget_low_s16(p), vget_low_s16(v)), p, v),
    sum: |acc| vaddlvq_s32(acc)
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QA;

    /// A small seeded generator for the test data.
    fn stream(seed: u64) -> impl FnMut() -> i64 {
        let mut s = seed;
        move || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (s >> 33) as i64
        }
    }

    /// The plain definition, term by term in `i64`.
    fn naive(a: &[i16], w: &[i16]) -> i64 {
        a.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = i64::from(a).clamp(0, i64::from(QA));
                v * v * i64::from(w)
            })
            .sum()
    }

    #[test]
    fn the_portable_path_is_always_there_and_last() {
        let all = Isa::supported();
        assert_eq!(all.last(), Some(&Isa::PORTABLE));
        assert_eq!(Isa::detected(), all[0]);
        #[cfg(target_arch = "x86_64")]
        assert!(all.iter().any(|i| i.name() == "sse2"));
    }

    #[test]
    fn dot_product_is_exact_on_every_path_at_the_extremes() {
        let mut next = stream(3);
        // Lengths that are and are not multiples of the lanes, and longer
        // than one widening block.
        for n in [0, 1, 7, 8, 15, 16, 24, 256, 1000, 2048] {
            for round in 0..24 {
                let a: Vec<i16> = (0..n)
                    .map(|_| match round % 3 {
                        0 => QA as i16,
                        _ => (next() % 1200 - 300) as i16,
                    })
                    .collect();
                // Any weights, and weights within the vector bound
                // including both of its ends.
                let any: Vec<i16> = (0..n)
                    .map(|i| match round % 4 {
                        0 => i16::MIN,
                        1 => i16::MAX,
                        _ if i % 2 == 0 => i16::MIN,
                        _ => (next() % 65536 - 32768) as i16,
                    })
                    .collect();
                let small: Vec<i16> = (0..n)
                    .map(|i| match (round % 4, i % 3) {
                        (0, _) => -VECTOR_W2_MAX,
                        (1, _) => VECTOR_W2_MAX,
                        (_, 0) => -VECTOR_W2_MAX,
                        _ => (next() % 257 - 128) as i16,
                    })
                    .collect();
                for isa in Isa::supported() {
                    let name = isa.name();
                    let want = naive(&a, &any);
                    assert_eq!(
                        screlu_dot(isa, &a, &any, false),
                        want,
                        "{name} n {n} r {round}"
                    );
                    let want = naive(&a, &small);
                    assert_eq!(
                        screlu_dot(isa, &a, &small, true),
                        want,
                        "{name} n {n} r {round}"
                    );
                }
            }
        }
    }

    #[test]
    fn updates_agree_with_the_portable_loops_and_wrap() {
        let mut next = stream(11);
        let mut vec = |n: usize| -> Vec<i16> {
            (0..n)
                .map(|i| match i % 5 {
                    0 => i16::MAX,
                    1 => i16::MIN,
                    _ => (next() % 65536 - 32768) as i16,
                })
                .collect()
        };
        for n in [1, 8, 13, 16, 40, 128, 1032] {
            let (src, a, b, c) = (vec(n), vec(n), vec(n), vec(n));
            let want_in_place: Vec<i16> = src
                .iter()
                .zip(&a)
                .map(|(s, a)| s.wrapping_add(*a))
                .collect();
            let want2: Vec<i16> = (0..n)
                .map(|i| src[i].wrapping_add(a[i]).wrapping_sub(b[i]))
                .collect();
            let want3: Vec<i16> = (0..n).map(|i| want2[i].wrapping_sub(c[i])).collect();
            for isa in Isa::supported() {
                let name = isa.name();
                let mut d = src.clone();
                add_in_place(isa, &mut d, &a);
                assert_eq!(d, want_in_place, "{name} add_in_place n {n}");
                let mut d = vec![0; n];
                add_sub(isa, &mut d, &src, &a, &b);
                assert_eq!(d, want2, "{name} add_sub n {n}");
                add_sub_sub(isa, &mut d, &src, &a, &b, &c);
                assert_eq!(d, want3, "{name} add_sub_sub n {n}");
            }
        }
    }

    #[test]
    fn mismatched_lengths_use_the_shortest() {
        for isa in Isa::supported() {
            let mut d = vec![1i16; 20];
            add_sub(isa, &mut d, &[2; 17], &[3; 40], &[1; 18]);
            assert_eq!(&d[..17], &[4; 17]);
            assert_eq!(&d[17..], &[1; 3]);
            assert_eq!(screlu_dot(isa, &[255; 9], &[1; 33], true), 9 * 255 * 255);
        }
    }
}
