//! The transposition table, shared by all search threads without locks.
//!
//! # Design
//!
//! The table is a vector of 64-byte buckets (one cache line), each holding
//! four entries of two `AtomicU64` words:
//!
//! - `data`: move (16 bits), score (16), static eval (16; `NO_EVAL` when none), depth (8),
//!   bound (2) and generation (6);
//! - `check`: the position's full 64-bit key XOR `data`.
//!
//! Threads read and write the two words with relaxed atomic loads and
//! stores, with no lock. Two threads storing into the same entry at once
//! can interleave, leaving one thread's `check` next to another's `data`.
//! A reader therefore accepts an entry only when `check ^ data == key`: a
//! torn entry fails that test (except with the probability of a 64-bit key
//! collision) and reads as a miss, so a race costs a lost entry, never a
//! wrong one. (This is Hyatt's "lockless hashing" trick.) A key collision
//! that does pass could still hand back a move that is illegal here; every
//! TT move is therefore checked with `Position::is_legal` before use. Since
//! every access is an atomic operation there is no undefined behaviour.
//! The one `unsafe` block of the engine is the cache prefetch hint in
//! [`TranspositionTable::prefetch`], which touches no data.
//!
//! Replacement: within a bucket, an entry for the same key is overwritten
//! (keeping its move if the new store has none), otherwise the entry with
//! the lowest `depth - 8 * age` goes, where `age` counts the searches
//! (generations) since the entry was written. So deep entries survive,
//! but old ones from earlier moves of the game make room.
//!
//! Mate scores are stored relative to the node (distance from this node to
//! the mate) and converted back to root-relative on probe, so that a mate
//! found through a transposition keeps the right distance.

use crate::{MATE_BOUND, MAX_PLY};
use movegen::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Kind of bound stored with a score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TtBound {
    /// Score is exact (PV node).
    Exact = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    /// Score is an upper bound (fail low).
    Upper = 3,
}

impl TtBound {
    /// The bound of a node's result `best`, searched with the window
    /// (`alpha`, `beta`) as it was on entry. A score inside the window is
    /// exact only where `exact` says the node's window was open (a
    /// quiescence node off the principal variation stores it as an upper
    /// bound).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32, exact: bool) -> TtBound {
        if best >= beta {
            TtBound::Lower
        } else if exact && best > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }
}

/// A table entry as the search sees it: what [`TranspositionTable::probe`]
/// returns and what [`TranspositionTable::store`] takes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TtEntry {
    /// Best or refutation move (to be legality-checked).
    pub mv: Option<Move>,
    /// Score with mate distances counted from the root (the table itself
    /// keeps them relative to the node).
    pub score: i32,
    /// Static evaluation of the position, when the node computed it (not
    /// in check, and not the quiescence search's lazy estimate).
    pub eval: Option<i32>,
    /// Draft (remaining depth) the score was searched with.
    pub depth: i32,
    /// Bound type.
    pub bound: TtBound,
}

impl TtEntry {
    /// The stored score, when it settles a node to be searched to `depth`
    /// with the window (`alpha`, `beta`): the entry is at least that deep
    /// and its bound lies on the right side of the window.
    #[inline]
    pub fn cutoff(&self, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let settles = match self.bound {
            TtBound::Exact => true,
            TtBound::Lower => self.score >= beta,
            TtBound::Upper => self.score <= alpha,
        };
        (self.depth >= depth && settles).then_some(self.score)
    }
}

#[repr(align(64))]
struct Bucket {
    /// `[check, data]` for each of four entries.
    e: [[AtomicU64; 2]; 4],
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            e: Default::default(),
        }
    }
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Depth is stored with this offset so quiescence entries (depth 0 or
/// below) fit in an unsigned byte.
const DEPTH_OFFSET: i32 = 8;
/// The evaluation bits of an entry without a static evaluation: outside
/// the stored range (evaluations are clamped to +/-30,000).
const NO_EVAL: u16 = i16::MIN as u16;

/// The shared table.
pub(crate) struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket). For the engine's
    /// own small sizes (the default, a stand-in): running out of memory
    /// here is the allocator's usual abort.
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Some(tt) => tt,
            None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()),
        }
    }

    /// [`TranspositionTable::new`], or `None` when the memory cannot be
    /// reserved: the size comes from the user, and an impossible one must
    /// be an error, not the allocator's abort.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let n = mb.max(1).checked_mul(1 << 20)? / std::mem::size_of::<Bucket>();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n.max(1)).ok()?;
        buckets.extend((0..n.max(1)).map(|_| Bucket::new()));
        Some(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empty every entry.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.e {
                e[0].store(0, Relaxed);
                e[1].store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Start a new search: entries written before now age by one.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-high maps the key onto 0..len without a division.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Ask the processor to start loading the bucket of `key` into the
    /// cache. The search calls this before making a move, so that the
    /// child's probe finds its bucket loaded instead of waiting for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: `p` points into `self.buckets`, a live allocation
            // borrowed for this call; a prefetch is only a hint, it reads
            // nothing into the program and cannot fault. Measured: bucket
            // loads were ~20% of search time (`perf`, bench).
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Look up a position.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let b = self.bucket(key);
        for e in &b.e {
            let data = e[1].load(Relaxed);
            let check = e[0].load(Relaxed);
            if data != 0 && check ^ data == key {
                return Some(decode(data, ply));
            }
        }
        None
    }

    /// Store the result of the search of the position with `key` at `ply`.
    #[inline]
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let TtEntry {
            mv,
            score,
            eval,
            depth,
            bound,
        } = entry;
        let b = self.bucket(key);
        let gen = u64::from(self.generation.load(Relaxed));
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, e) in b.e.iter().enumerate() {
            let data = e[1].load(Relaxed);
            let check = e[0].load(Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                break;
            }
            let old_gen = (data >> 58) & 63;
            let age = ((gen + 64 - old_gen) & 63) as i32;
            let value = ((data >> 48) & 0xff) as i32 - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let e = &b.e[victim];
        let old = e[1].load(Relaxed);
        let same = old != 0 && e[0].load(Relaxed) ^ old == key;
        let mut code = mv.map_or(0, |m| m.code());
        let mut eval_bits = encode_eval(eval);
        if same {
            // Keep a deeper entry for the same position unless the new one
            // is exact, and keep the old move if the new store has none.
            let old_depth = ((old >> 48) & 0xff) as i32 - DEPTH_OFFSET;
            if bound != TtBound::Exact && depth + 3 < old_depth {
                return;
            }
            if code == 0 {
                code = (old & 0xffff) as u16;
            }
            // Likewise the old static evaluation.
            if eval_bits == NO_EVAL {
                eval_bits = ((old >> 32) & 0xffff) as u16;
            }
        }
        let s = score_to_tt(score, ply);
        let data = u64::from(code)
            | (u64::from(s as i16 as u16) << 16)
            | (u64::from(eval_bits) << 32)
            | (((depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 48)
            | ((bound as u64) << 56)
            | (gen << 58);
        e[0].store(key ^ data, Relaxed);
        e[1].store(data, Relaxed);
    }

    /// Per-mille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = u64::from(self.generation.load(Relaxed));
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.e {
                let d = e[1].load(Relaxed);
                if d != 0 && (d >> 58) & 63 == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n as u32 * 4).max(1)).min(1000)
    }
}

fn decode(data: u64, ply: usize) -> TtEntry {
    let bound = match (data >> 56) & 3 {
        1 => TtBound::Exact,
        2 => TtBound::Lower,
        _ => TtBound::Upper,
    };
    TtEntry {
        mv: Move::from_code((data & 0xffff) as u16),
        score: score_from_tt(i32::from((data >> 16) as u16 as i16), ply),
        eval: decode_eval((data >> 32) as u16),
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound,
    }
}

/// The 16 bits that keep a static evaluation; `NO_EVAL` for none.
#[inline]
fn encode_eval(eval: Option<i32>) -> u16 {
    eval.map_or(NO_EVAL, |v| v.clamp(-30_000, 30_000) as i16 as u16)
}

/// The static evaluation kept in 16 bits, if any.
#[inline]
fn decode_eval(bits: u16) -> Option<i32> {
    (bits != NO_EVAL).then_some(i32::from(bits as i16))
}

/// Root-relative mate score to node-relative (distance from this node).
#[inline]
fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Node-relative mate score back to root-relative.
#[inline]
fn score_from_tt(v: i32, ply: usize) -> i32 {
    debug_assert!(ply <= MAX_PLY);
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Square;

    fn entry(
        mv: Option<Move>,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: TtBound,
    ) -> TtEntry {
        TtEntry {
            mv,
            score,
            eval,
            depth,
            bound,
        }
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(10).unwrap(), Square::new(20).unwrap());
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, 3, entry(Some(m), -123, Some(45), 7, TtBound::Lower));
        let e = tt.probe(key, 3).unwrap();
        assert_eq!(e.mv, Some(m));
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-123, Some(45), 7, TtBound::Lower)
        );
        assert!(tt.probe(key ^ 1, 3).is_none());
        // A mate found 5 plies below a node 3 plies deep is stored as
        // "mate in 5 from here" and read back at ply 1 as mate in 6.
        tt.store(
            key,
            3,
            entry(None, crate::MATE - 8, None, 4, TtBound::Exact),
        );
        let e = tt.probe(key, 1).unwrap();
        assert_eq!(e.score, crate::MATE - 6);
        assert_eq!(e.mv, Some(m), "move kept when the new store has none");
        assert_eq!(e.eval, Some(45), "evaluation kept when the new has none");
        tt.clear();
        assert!(tt.probe(key, 1).is_none());
    }

    #[test]
    fn torn_entry_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        tt.store(key, 0, entry(None, 10, Some(0), 3, TtBound::Exact));
        // Simulate a racing writer changing only the data word.
        let b = tt.bucket(key);
        let d = b.e[0][1].load(Relaxed);
        b.e[0][1].store(d ^ (1 << 20), Relaxed);
        assert!(tt.probe(key, 0).is_none());
    }
}
