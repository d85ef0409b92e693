//! PGN output: one game per record, moves in ICCS coordinates (ranks 0–9,
//! a Janggi pass as `@@@@`), with the tags a Xiangqi/Janggi reader needs.
//! Reading PGN back is [`read`]; tag lines are written and read by [`tag`].

use movegen::{move_text, Color, Move, PieceKind, Position, Ranks, Square};

use crate::game::GameRecord;

pub mod read;
pub mod tag;

/// Move notation in the PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// ICCS coordinates, ranks 0–9 (`h2e2`).
    #[default]
    Iccs,
    /// WXF (`C2.5`); Xiangqi only, Janggi games stay in ICCS.
    Wxf,
}

/// WXF file digit (1–9 from the mover's right).
fn wxf_file(c: Color, file: u8) -> u8 {
    match c {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// A move in WXF notation, e.g. `C2.5`, `H8+7`, `R+.3`, `P3.4`.
pub fn wxf_move(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return move_text(m, Ranks::ZeroBased);
    };
    let (c, kind) = (piece.color(), piece.kind());
    let letter = match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    };
    let (from, to) = (m.from(), m.to());
    // "Forward" is toward the enemy: rising ranks for Red.
    let ahead = |a: Square, b: Square| match c {
        Color::Red => a.rank() > b.rank(),
        Color::Black => a.rank() < b.rank(),
    };
    let mut same_file: Vec<Square> = pos
        .pieces(c, kind)
        .iter()
        .copied()
        .filter(|s| s.file() == from.file())
        .collect();
    // Front piece first.
    same_file.sort_by(|a, b| {
        if ahead(*a, *b) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    let idx = same_file.iter().position(|&s| s == from).unwrap_or(0);
    let n = same_file.len();
    let digit = char::from(b'0' + wxf_file(c, from.file()));
    let marker = |i: usize, n: usize| -> Option<&'static str> {
        match (n, i) {
            (2, 0) | (3, 0) | (4, 1) | (5, 1) => Some("+"),
            (2, 1) | (3, 2) | (4, 2) | (5, 3) => Some("-"),
            (4, 0) | (5, 0) => Some("++"),
            (4, 3) | (5, 4) => Some("--"),
            _ => None,
        }
    };
    let head = if n <= 1 {
        format!("{letter}{digit}")
    } else {
        // Soldiers stacked on two files: the file digit replaces the letter.
        let stacked_files = if kind == PieceKind::Soldier {
            let files: Vec<u8> = pos.pieces(c, kind).iter().map(|s| s.file()).collect();
            (0..9u8)
                .filter(|f| files.iter().filter(|&&x| x == *f).count() >= 2)
                .count()
        } else {
            1
        };
        match marker(idx, n) {
            Some(mk) if mk.len() == 2 => mk.to_string(),
            Some(mk) if stacked_files > 1 => format!("{digit}{mk}"),
            Some(mk) => format!("{letter}{mk}"),
            None if stacked_files > 1 => format!("{digit}{digit}"),
            None => format!("{letter}{digit}"),
        }
    };
    let straight = matches!(
        kind,
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
    );
    let (op, last) = if from.rank() == to.rank() {
        ('.', wxf_file(c, to.file()))
    } else {
        let op = if ahead(to, from) { '+' } else { '-' };
        let last = if straight {
            from.rank().abs_diff(to.rank())
        } else {
            wxf_file(c, to.file())
        };
        (op, last)
    };
    format!("{head}{op}{last}")
}

/// Tag data that is not in the record itself.
pub struct PgnHeader<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Date` as `YYYY.MM.DD`.
    pub date: &'a str,
    /// `Round` (the game's number in the whole match, from 1; a shard's
    /// games keep their numbers).
    pub round: u32,
    /// First player's engine.
    pub red: &'a str,
    /// Second player's engine.
    pub black: &'a str,
    /// `TimeControl`.
    pub time_control: &'a str,
    /// Move notation.
    pub notation: Notation,
    /// Tags written after the writer's own, in order (a match's
    /// `MatchId`, `OpeningGroup`, …: [`crate::layout`]).
    pub more_tags: &'a [(&'a str, String)],
}

/// Today's date in UTC as PGN writes it, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The game as PGN text (ending with a blank line).
pub fn write_game(h: &PgnHeader<'_>, g: &GameRecord) -> String {
    let mut out = String::with_capacity(512 + 12 * g.moves.len());
    let wxf = h.notation == Notation::Wxf && !g.start.variant().is_janggi();
    write_tags(&mut out, h, g, wxf);
    out.push('\n');
    write_movetext(&mut out, g, wxf);
    out
}

/// The tag section: the seven standard tags, then the variant, start
/// position, notation, time control, length, how the game ended, and the
/// caller's further tags. Every line is written by [`tag::write`].
fn write_tags(out: &mut String, h: &PgnHeader<'_>, g: &GameRecord, wxf: bool) {
    let variant = g.start.variant();
    let fen = g.start.to_fen();
    tag::write(out, "Event", h.event);
    tag::write(out, "Site", "jiang match");
    tag::write(out, "Date", h.date);
    tag::write(out, "Round", &h.round.to_string());
    tag::write(out, "White", h.red);
    tag::write(out, "Black", h.black);
    tag::write(out, "Result", g.result.as_str());
    tag::write(out, "Variant", variant.name());
    if fen != variant.start_fen() {
        tag::write(out, "SetUp", "1");
    }
    tag::write(out, "FEN", &fen);
    tag::write(out, "Format", if wxf { "WXF" } else { "ICCS" });
    tag::write(out, "TimeControl", h.time_control);
    tag::write(out, "PlyCount", &g.moves.len().to_string());
    tag::write(out, "Termination", g.ending.termination());
    tag::write(out, "TerminationDetails", g.ending.code());
    for (k, v) in h.more_tags {
        tag::write(out, k, v);
    }
}

/// Movetext lines of at most 79 characters (a longer word gets a line of
/// its own).
struct Wrapped<'a> {
    out: &'a mut String,
    line: String,
}

impl Wrapped<'_> {
    fn word(&mut self, w: &str) {
        if self.line.len() + w.len() + 1 > 79 {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
            self.line.clear();
        }
        self.line.push_str(w);
        self.line.push(' ');
    }

    fn finish(self) {
        self.out.push_str(self.line.trim_end());
        self.out.push_str("\n\n");
    }
}

/// The comment after a move: `{book}` after the last book move, the
/// engine's score and time after its own moves.
fn move_comment(g: &GameRecord, i: usize) -> Option<String> {
    if i < g.book_plies {
        return (i + 1 == g.book_plies).then(|| "{book}".to_string());
    }
    let &(score, ms) = g.move_info.get(i - g.book_plies)?;
    let secs = ms as f64 / 1000.0;
    Some(match score {
        Some(s) => format!("{{{:+.2} {secs:.3}s}}", f64::from(s) / 100.0),
        None => format!("{{{secs:.3}s}}"),
    })
}

/// Numbered moves with their comments, the end reason and the result.
fn write_movetext(out: &mut String, g: &GameRecord, wxf: bool) {
    let black_first = g.start.side_to_move() == Color::Black;
    let mut pos = g.start.clone();
    let mut number = u32::from(g.start.fullmove());
    let mut text = Wrapped {
        out,
        line: String::new(),
    };
    for (i, &m) in g.moves.iter().enumerate() {
        let red_moves = (i % 2 == 0) != black_first;
        if red_moves {
            text.word(&format!("{number}."));
        } else if i == 0 {
            text.word(&format!("{number}..."));
        }
        let word = if m.is_pass() {
            "@@@@".to_string()
        } else if wxf {
            wxf_move(&pos, m)
        } else {
            move_text(m, Ranks::ZeroBased)
        };
        pos.make_move(m);
        text.word(&word);
        if let Some(c) = move_comment(g, i) {
            text.word(&c);
        }
        if !red_moves {
            number += 1;
        }
    }
    text.word(&format!("{{{}}}", g.reason.replace(['{', '}'], "")));
    text.word(g.result.as_str());
    text.finish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Variant;

    fn wxf(fen: Option<&str>, moves: &str) -> Vec<String> {
        let mut p = match fen {
            Some(f) => Position::from_fen(f, Variant::Xiangqi).unwrap(),
            None => Position::startpos(Variant::Xiangqi),
        };
        let mut out = Vec::new();
        for t in moves.split_whitespace() {
            let m = p.parse_move(t, Ranks::ZeroBased).unwrap();
            out.push(wxf_move(&p, m));
            p.make_move(m);
        }
        out
    }

    #[test]
    fn wxf_basic_moves() {
        assert_eq!(
            wxf(None, "h2e2 h9g7 h0g2 i9h9 i0h0 b7b3 g3g4 c6c5 b0c2 b9c7"),
            // Black counts files from its own right: its h-file horse is on 8.
            ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "C2+4", "P3+1", "P3+1", "H8+7", "H2+3"]
        );
        assert_eq!(wxf(None, "c0e2 d9e8 e0e1"), ["E7+5", "A4+5", "K5+1"]);
    }

    #[test]
    fn wxf_tandem_pieces() {
        // Two red chariots on file e (WXF file 5): front one moves sideways.
        let fen = "3k5/9/9/9/4R4/9/9/4R4/9/4K4 w - - 0 1";
        assert_eq!(wxf(Some(fen), "e5a5"), ["R+.9"]);
        assert_eq!(wxf(Some(fen), "e2e1"), ["R--1"]);
    }
}
