//! PGN output: one game per record, moves in ICCS coordinates (ranks 0–9,
//! a Janggi pass as `@@@@`), with the tags a Xiangqi/Janggi reader needs.

use std::fmt::Write as _;

use movegen::{move_text, Ranks};

use super::game::GameRecord;

/// Tag data that is not in the record itself.
pub struct PgnHeader<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Date` as `YYYY.MM.DD`.
    pub date: &'a str,
    /// `Round` (1-based game number in the match).
    pub round: u32,
    /// First player's engine.
    pub red: &'a str,
    /// Second player's engine.
    pub black: &'a str,
    /// `TimeControl`.
    pub time_control: &'a str,
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

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN text (ending with a blank line).
pub fn write_game(h: &PgnHeader<'_>, g: &GameRecord) -> String {
    let mut out = String::with_capacity(512 + 12 * g.moves.len());
    let variant = g.start.variant();
    let fen = g.start.to_fen();
    let result = g.outcome.pgn();
    let tags: [(&str, String); 7] = [
        ("Event", h.event.to_string()),
        ("Site", "jiang match".to_string()),
        ("Date", h.date.to_string()),
        ("Round", h.round.to_string()),
        ("White", h.red.to_string()),
        ("Black", h.black.to_string()),
        ("Result", result.to_string()),
    ];
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(&v));
    }
    let _ = writeln!(out, "[Variant \"{}\"]", variant.name());
    if fen != variant.start_fen() {
        let _ = writeln!(out, "[SetUp \"1\"]");
    }
    let _ = writeln!(out, "[FEN \"{fen}\"]");
    let _ = writeln!(out, "[TimeControl \"{}\"]", escape(h.time_control));
    let _ = writeln!(out, "[PlyCount \"{}\"]", g.moves.len());
    let _ = writeln!(out, "[Termination \"{}\"]", g.termination);
    let _ = writeln!(out, "[TerminationDetails \"{}\"]", escape(&g.reason_code));
    out.push('\n');

    let black_first = g.start.side_to_move() == movegen::Color::Black;
    let mut number = u32::from(g.start.fullmove());
    let mut line = String::new();
    let push_word = |out: &mut String, line: &mut String, w: &str| {
        if line.len() + w.len() + 1 > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(w);
        line.push(' ');
    };
    for (i, &m) in g.moves.iter().enumerate() {
        let red_moves = (i % 2 == 0) != black_first;
        if red_moves {
            push_word(&mut out, &mut line, &format!("{number}."));
        } else if i == 0 {
            push_word(&mut out, &mut line, &format!("{number}..."));
        }
        let text = if m.is_pass() {
            "@@@@".to_string()
        } else {
            move_text(m, Ranks::ZeroBased)
        };
        push_word(&mut out, &mut line, &text);
        if i >= g.book_plies {
            if let Some(&(score, ms)) = g.move_info.get(i - g.book_plies) {
                let c = match score {
                    Some(s) => format!(
                        "{{{:+.2} {:.3}s}}",
                        f64::from(s) / 100.0,
                        ms as f64 / 1000.0
                    ),
                    None => format!("{{{:.3}s}}", ms as f64 / 1000.0),
                };
                push_word(&mut out, &mut line, &c);
            }
        } else if i + 1 == g.book_plies {
            push_word(&mut out, &mut line, "{book}");
        }
        if !red_moves {
            number += 1;
        }
    }
    let end = format!("{{{}}}", g.reason.replace(['{', '}'], ""));
    push_word(&mut out, &mut line, &end);
    push_word(&mut out, &mut line, result);
    out.push_str(line.trim_end());
    out.push_str("\n\n");
    out
}
