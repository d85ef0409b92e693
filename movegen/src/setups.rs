//! The 16 Janggi start positions.
//!
//! Each side arranges the horses (`N`) and elephants (`B`) on its back
//! rank's b, c, g and h files in one of four ways. We name an arrangement by
//! its left pair and right pair as the first player sees the board:
//!
//! | name  | back rank (Cho, left to right) | common Korean name |
//! |-------|-------------------------------|--------------------|
//! | `nbbn` | `R N B A . A B N R` | 원앙마 (inner elephants) |
//! | `nbnb` | `R N B A . A N B R` | 왼상 (left elephant inside) |
//! | `bnbn` | `R B N A . A B N R` | 오른상 (right elephant inside) |
//! | `bnnb` | `R B N A . A N B R` | 귀마 (outer elephants) |
//!
//! Han's arrangement is named the same way, also read left to right as Cho
//! sees the board. A setup is `<cho>-<han>`, e.g. `nbbn-nbbn` (the
//! Fairy-Stockfish default start position).

use crate::{Position, Variant};

/// The four arrangement names, in a fixed order.
pub const ARRANGEMENTS: [&str; 4] = ["nbbn", "nbnb", "bnbn", "bnnb"];

fn back_rank(arr: &str) -> Option<String> {
    let b = arr.as_bytes();
    if b.len() != 4 || !ARRANGEMENTS.contains(&arr) {
        return None;
    }
    let up = |c: u8| char::from(c.to_ascii_uppercase());
    Some(format!(
        "R{}{}A1A{}{}R",
        up(b[0]),
        up(b[1]),
        up(b[2]),
        up(b[3])
    ))
}

/// FEN of the Janggi start position with the given setup name
/// (`<cho>-<han>`, each one of [`ARRANGEMENTS`]), or `None` for a bad name.
pub fn janggi_setup_fen(name: &str) -> Option<String> {
    let lower = name.trim().to_ascii_lowercase();
    let (cho, han) = lower.split_once('-')?;
    let cho_rank = back_rank(cho)?;
    let han_rank = back_rank(han)?.to_ascii_lowercase();
    Some(format!(
        "{han_rank}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{cho_rank} w - - 0 1"
    ))
}

/// All 16 setup names.
pub fn janggi_setup_names() -> Vec<String> {
    ARRANGEMENTS
        .iter()
        .flat_map(|c| ARRANGEMENTS.iter().map(move |h| format!("{c}-{h}")))
        .collect()
}

/// The Janggi start position for a setup name under a Janggi rule set.
pub fn janggi_setup(name: &str, variant: Variant) -> Option<Position> {
    let fen = janggi_setup_fen(name)?;
    Position::from_fen(&fen, variant).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_setup_is_fsf_start() {
        assert_eq!(
            janggi_setup_fen("nbbn-nbbn").unwrap(),
            crate::fen::JANGGI_START
        );
        assert_eq!(janggi_setup_names().len(), 16);
        for n in janggi_setup_names() {
            assert!(janggi_setup(&n, Variant::Janggi).is_some(), "{n}");
        }
        assert!(janggi_setup_fen("nnbb-nbbn").is_none());
    }
}
