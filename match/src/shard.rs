//! Shards: one run of many that together play a whole match (or a whole
//! `jiang datagen` run) without a scheduler of our own.
//!
//! A run is a fixed list of games numbered `k = 0, 1, …`; shard `I/N`
//! plays exactly the games with `k % N == I`. Which games a shard plays
//! depends on `I`, `N` and the list only: not on concurrency, timing or
//! the other shards. `jiang match -shard I/N` and `jiang datagen --shard
//! I/N` read the same spelling with [`Shard::parse`].

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`: the games `k` with `k % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This shard, `0 <= index < count`.
    index: u32,
    /// How many shards the run is split into (1: not split).
    count: u32,
}

/// A shard that is not `I/N` with `0 <= I < N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad shard '{}', expected I/N with 0 <= I < N, e.g. 3/8",
            self.0
        )
    }
}

impl std::error::Error for ShardError {}

impl Default for Shard {
    /// The whole run: shard 0 of 1.
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole run: shard 0 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`; `None` unless `index < count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// Read `I/N` (decimal, no spaces).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let number = |s: &str| -> Result<u32, ShardError> {
            // `u32::from_str` takes a leading `+`; a shard is digits only.
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        Shard::new(number(i)?, number(n)?).ok_or_else(bad)
    }

    /// This shard's index `I`.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards `N`.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole run (`0/1`).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether this shard plays game `k` (numbered from 0).
    pub fn plays(self, k: u64) -> bool {
        k % u64::from(self.count) == u64::from(self.index)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        Shard::parse(s)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_i_of_n_only() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(Shard::parse("0/1"), Ok(Shard::WHOLE));
        assert_eq!(
            "1/2".parse::<Shard>().map(|s| s.to_string()),
            Ok("1/2".into())
        );
        for bad in [
            "",
            "1",
            "/",
            "2/2",
            "5/3",
            "0/0",
            "-1/2",
            "+1/2",
            "1/+2",
            "a/b",
            "1/2/3",
            " 1/2",
            "1 /2",
            "1/99999999999",
        ] {
            assert!(Shard::parse(bad).is_err(), "{bad:?}");
        }
        let e = Shard::parse("2/2").unwrap_err().to_string();
        assert!(e.contains("'2/2'") && e.contains("0 <= I < N"), "{e}");
    }

    #[test]
    fn shards_partition_the_games() {
        for count in 1..=7u32 {
            let shards: Vec<Shard> = (0..count).filter_map(|i| Shard::new(i, count)).collect();
            // Every game is played by exactly one shard.
            for k in 0..100u64 {
                assert_eq!(shards.iter().filter(|s| s.plays(k)).count(), 1);
            }
        }
        let s = Shard::new(1, 3).unwrap();
        let played: Vec<u64> = (0..10).filter(|&k| s.plays(k)).collect();
        assert_eq!(played, [1, 4, 7]);
        assert!(Shard::WHOLE.is_whole() && !s.is_whole());
        assert_eq!((s.index(), s.count()), (1, 3));
    }
}
