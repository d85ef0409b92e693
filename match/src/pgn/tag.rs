//! PGN tag lines, `[Name "value"]`: the one writer and the one reader of
//! them, so that every value the match writes reads back the same.
//!
//! Inside a value `\"` stands for a quote and `\\` for a backslash (PGN
//! standard, 8.1). Values come from the user (engine names, options,
//! start positions), so the writer escapes them all. A line cannot hold
//! a line break, and PGN has no escape for one: the writer puts a space
//! in place of each control character. The reader keeps a backslash
//! before any other character as written, as other tools' unescaped
//! Windows paths need.

use std::borrow::Cow;
use std::fmt;

/// Why a line that starts with `[` is not a tag pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagError {
    /// No `[` opens the line.
    NoBracket,
    /// No name after the `[`.
    NoName,
    /// No `"` opens the value after the name.
    NoValue,
    /// The value has no closing `"` (an unescaped one).
    Unterminated,
    /// No `]` after the value.
    NotClosed,
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TagError::NoBracket => "a tag pair starts with '['",
            TagError::NoName => "no tag name after '['",
            TagError::NoValue => "no quoted value after the tag name",
            TagError::Unterminated => "the quoted value does not end (no closing '\"')",
            TagError::NotClosed => "no ']' after the value",
        })
    }
}

impl std::error::Error for TagError {}

/// `value` as it stands between the quotes of a tag: `\` and `"` escaped,
/// control characters (line breaks, tabs) as spaces.
pub fn escape(value: &str) -> Cow<'_, str> {
    if !value.contains(|c: char| c == '\\' || c == '"' || c.is_control()) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Append the line `[name "value"]` (with its line break) to `out`.
pub fn write(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    out.push_str(&escape(value));
    out.push_str("\"]\n");
}

/// A tag line as (name, value), the value unescaped. Space around the
/// tokens is allowed; text after the `]` is ignored.
pub fn parse(line: &str) -> Result<(&str, Cow<'_, str>), TagError> {
    let inner = line
        .trim_start()
        .strip_prefix('[')
        .ok_or(TagError::NoBracket)?
        .trim_start();
    let name_end = inner
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() {
        return Err(TagError::NoName);
    }
    let quoted = rest
        .trim_start()
        .strip_prefix('"')
        .ok_or(TagError::NoValue)?;
    let (value, after) = unquote(quoted)?;
    if !after.trim_start().starts_with(']') {
        return Err(TagError::NotClosed);
    }
    Ok((name, value))
}

/// The value at the start of `quoted` (just after its opening `"`),
/// unescaped, and the text after its closing `"`.
fn unquote(quoted: &str) -> Result<(Cow<'_, str>, &str), TagError> {
    let mut owned: Option<String> = None;
    // Start of the text not yet copied into `owned`.
    let mut from = 0;
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let value = match owned {
                    Some(mut s) => {
                        s.push_str(&quoted[from..i]);
                        Cow::Owned(s)
                    }
                    None => Cow::Borrowed(&quoted[..i]),
                };
                return Ok((value, &quoted[i + 1..]));
            }
            '\\' if matches!(quoted[i + 1..].chars().next(), Some('"' | '\\')) => {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(&quoted[from..i]);
                // The escaped character is copied with the text after it.
                from = i + 1;
                chars.next();
            }
            _ => {}
        }
    }
    Err(TagError::Unterminated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        for v in [
            "",
            "plain",
            "a\"b",
            "c\\d",
            "x\\\"y",
            "\\",
            "\"",
            "\\\\\"\"",
            "end\\",
            "é \"ü\"",
        ] {
            let mut line = String::new();
            write(&mut line, "White", v);
            assert!(line.ends_with("\"]\n"), "{line}");
            assert_eq!(
                parse(line.trim_end()),
                Ok(("White", Cow::Borrowed(v))),
                "{line}"
            );
        }
    }

    #[test]
    fn escapes_as_the_standard_says() {
        assert_eq!(escape("a\"b"), "a\\\"b");
        assert_eq!(escape("c\\d"), "c\\\\d");
        assert_eq!(escape("x\\\"y"), "x\\\\\\\"y");
        assert!(matches!(escape("plain"), Cow::Borrowed("plain")));
        // No line break gets into a tag line.
        assert_eq!(escape("a\nb\r\tc"), "a b  c");
    }

    #[test]
    fn reads_space_and_lone_backslashes() {
        assert_eq!(
            parse("  [ Event   \"x y\" ]  ; comment"),
            Ok(("Event", "x y".into()))
        );
        assert_eq!(parse("[Site \"C:\\dir\"]"), Ok(("Site", "C:\\dir".into())));
        assert_eq!(parse("[Event \"\"]"), Ok(("Event", "".into())));
    }

    #[test]
    fn malformed_lines_are_errors() {
        for (line, e) in [
            ("", TagError::NoBracket),
            ("Event \"x\"]", TagError::NoBracket),
            ("[", TagError::NoName),
            ("[ \"x\"]", TagError::NoName),
            ("[Event]", TagError::NoValue),
            ("[Event x]", TagError::NoValue),
            ("[Event \"", TagError::Unterminated),
            ("[Event \"x]", TagError::Unterminated),
            ("[Event \"x\\\"]", TagError::Unterminated),
            ("[Event \"x\\", TagError::Unterminated),
            ("[Event \"x\"", TagError::NotClosed),
            ("[Event \"a\"b\"]", TagError::NotClosed),
        ] {
            assert_eq!(parse(line), Err(e), "{line}");
        }
    }
}
