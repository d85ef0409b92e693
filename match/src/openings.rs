//! Openings: read from an EPD/FEN or PGN file, or generated at random.

use std::fmt;
use std::path::Path;

use movegen::{setups, Move, Position, Ranks, SplitMix64, Variant};

use crate::config::{OpeningFormat, OpeningOrder, OpeningsConfig};
use crate::pgn::read::read_games;

/// The opening generator: the project's SplitMix64 with the seed mixed
/// and its own draw, reproducible from the seed.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15))
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) % n.max(1) as u64) as usize
    }
}

/// A start position and moves already played from it.
#[derive(Clone)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// Book moves, played before the engines take over.
    pub moves: Vec<Move>,
}

/// Why an openings file could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// Play move words on a copy of `start`: ranks 0–9 first, then 1–10.
fn parse_moves(start: &Position, words: &[&str]) -> Option<Vec<Move>> {
    for ranks in [Ranks::ZeroBased, Ranks::OneBased] {
        let mut p = start.clone();
        let mut out = Vec::with_capacity(words.len());
        let ok = words.iter().all(|w| match p.parse_move(w, ranks) {
            Ok(m) => {
                p.make_move(m);
                out.push(m);
                true
            }
            Err(_) => false,
        });
        if ok {
            return Some(out);
        }
    }
    None
}

/// A FEN from the first words of `words` (EPD lines carry 4 fields and
/// operations after them, so the longest prefix that reads wins).
fn fen_prefix(words: &[&str], variant: Variant) -> Option<Position> {
    (1..=words.len().min(6))
        .rev()
        .find_map(|k| Position::from_fen(&words[..k].join(" "), variant).ok())
}

/// Parse one EPD/FEN line (`FEN [ops] [moves m1 m2 …]`, an optional
/// leading `position`/`fen`, or `startpos moves …`).
pub fn parse_epd_line(line: &str, variant: Variant) -> Result<Option<Opening>, OpeningError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (head, moves) = match line.split_once(" moves ") {
        Some((h, m)) => (h, Some(m)),
        None => (line.strip_suffix(" moves").unwrap_or(line), None),
    };
    let head = head.trim_start_matches("position ").trim();
    let head = head.strip_prefix("fen ").unwrap_or(head);
    let start = if head == "startpos" {
        Position::startpos(variant)
    } else {
        let fen_part = head.split(';').next().unwrap_or("");
        let words: Vec<&str> = fen_part.split_whitespace().collect();
        fen_prefix(&words, variant).ok_or_else(|| OpeningError(format!("not a FEN: '{line}'")))?
    };
    let words: Vec<&str> = moves
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let moves = parse_moves(&start, &words)
        .ok_or_else(|| OpeningError(format!("illegal moves in opening '{line}'")))?;
    Ok(Some(Opening { start, moves }))
}

/// The openings of a PGN text: each game's `FEN` tag (the start position
/// when it has none) and its main-line moves.
pub fn parse_pgn(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for game in read_games(text) {
        let fen = game.tag("FEN");
        // Tags alone at the end of a file are no game, unless they set up
        // a position.
        if !game.has_movetext && fen.is_none() {
            continue;
        }
        let start = match fen {
            Some(f) => Position::from_fen(f, variant)
                .map_err(|e| OpeningError(format!("bad FEN tag '{f}': {e}")))?,
            None => Position::startpos(variant),
        };
        let words: Vec<&str> = game.moves.iter().map(|m| m.text).collect();
        let moves = parse_moves(&start, &words).ok_or_else(|| {
            OpeningError(format!("illegal or unreadable moves: {}", words.join(" ")))
        })?;
        out.push(Opening { start, moves });
    }
    Ok(out)
}

/// Load the openings of `cfg` (an empty list when no file is given).
pub fn load(
    cfg: &OpeningsConfig,
    variant: Variant,
    seed: u64,
) -> Result<Vec<Opening>, OpeningError> {
    let Some(path) = &cfg.file else {
        return Ok(Vec::new());
    };
    let mut list = read_file(path, cfg.format, variant)?;
    if list.is_empty() {
        return Err(OpeningError(format!("{}: no openings", path.display())));
    }
    if let Some(p) = cfg.plies {
        for o in &mut list {
            o.moves.truncate(p);
        }
    }
    let skip = cfg.start.saturating_sub(1) % list.len();
    list.rotate_left(skip);
    if cfg.order == OpeningOrder::Random {
        let mut rng = Rng::new(seed ^ 0x0bee);
        for i in (1..list.len()).rev() {
            let j = rng.below(i + 1);
            list.swap(i, j);
        }
    }
    Ok(list)
}

fn read_file(
    path: &Path,
    format: OpeningFormat,
    variant: Variant,
) -> Result<Vec<Opening>, OpeningError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpeningError(format!("{}: {e}", path.display())))?;
    match format {
        OpeningFormat::Pgn => parse_pgn(&text, variant),
        OpeningFormat::Epd => {
            let mut out = Vec::new();
            for (n, line) in text.lines().enumerate() {
                match parse_epd_line(line, variant) {
                    Ok(Some(o)) => out.push(o),
                    Ok(None) => {}
                    Err(e) => {
                        return Err(OpeningError(format!("{}:{}: {e}", path.display(), n + 1)))
                    }
                }
            }
            Ok(out)
        }
    }
}

/// A random opening: for Janggi a random horse/elephant setup for each
/// side, then `plies` random quiet moves (no captures, checks or passes,
/// so neither side starts a piece up or under attack on its general).
pub fn random_opening(variant: Variant, plies: usize, rng: &mut Rng) -> Opening {
    let start = if variant.is_janggi() {
        let names = setups::janggi_setup_names();
        let name = &names[rng.below(names.len())];
        setups::janggi_setup(name, variant).unwrap_or_else(|| Position::startpos(variant))
    } else {
        Position::startpos(variant)
    };
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let quiet: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| !m.is_pass() && pos.piece_at(m.to()).is_none() && !pos.gives_check(m))
            .collect();
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.below(quiet.len())];
        pos.make_move(m);
        moves.push(m);
    }
    Opening { start, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_forms() {
        let v = Variant::Xiangqi;
        let o = parse_epd_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - ; id \"x\"",
            v,
        )
        .unwrap()
        .unwrap();
        assert!(o.moves.is_empty());
        let o = parse_epd_line("startpos moves h2e2 h9g7", v)
            .unwrap()
            .unwrap();
        assert_eq!(o.moves.len(), 2);
        let o = parse_epd_line("position startpos moves h3e3 h10g8", v)
            .unwrap()
            .unwrap();
        assert_eq!(o.moves.len(), 2);
        assert!(parse_epd_line("garbage here", v).is_err());
        assert!(parse_epd_line("startpos moves h2e3", v).is_err());
        assert!(parse_epd_line("# comment", v).unwrap().is_none());
    }

    #[test]
    fn pgn_games() {
        let text = "[Event \"a\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. h2e2 {c} h9g7 (1... b9c7) 2. h0g2 1-0\n\n[Event \"b\"]\n\n1. b2e2 *\n";
        let list = parse_pgn(text, Variant::Xiangqi).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].moves.len(), 3);
        assert_eq!(list[1].moves.len(), 1);
    }

    #[test]
    fn random_is_reproducible_and_legal() {
        for v in [Variant::Xiangqi, Variant::Janggi] {
            let a = random_opening(v, 8, &mut Rng::new(5));
            let b = random_opening(v, 8, &mut Rng::new(5));
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.start.to_fen(), b.start.to_fen());
            let mut p = a.start.clone();
            for m in a.moves {
                assert!(p.is_legal(m));
                p.make_move(m);
            }
        }
    }
}
