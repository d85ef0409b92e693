//! Reading PGN: each game's tags, and its moves with the comments that
//! follow them. One reader for every PGN the project reads: opening books
//! (`-openings format=pgn`), the shards `jiang match -merge` counts and the
//! games `jiang tune` fits to.
//!
//! Games start at a tag line that follows movetext. Movetext is read word
//! by word: move numbers (`12.`, `12...`, also glued to the move), `$`
//! NAGs, results, variations in `( )` and `;` comments to the end of the
//! line are dropped; a `{ }` comment at the top level belongs to the move
//! before it. Move words are not checked here: that needs the position.
//! Tag lines are read by [`super::tag::parse`]; a malformed one is kept
//! aside in [`PgnGame::bad_tags`] for the caller to refuse or skip.

use std::borrow::Cow;

use super::tag::{self, TagError};

/// One move word and the comments after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove<'a> {
    /// The move as written (`h2e2`, `C2.5`, `@@@@`).
    pub text: &'a str,
    /// Its `{ }` comments in order, without the braces.
    pub comments: Vec<String>,
}

/// One game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame<'a> {
    /// Tag pairs in order: (`FEN`, value), the values unescaped (`\"` read
    /// as `"`, `\\` as `\`).
    pub tags: Vec<(&'a str, Cow<'a, str>)>,
    /// Lines that start with `[` but are no tag pair, with the reason, in
    /// order.
    pub bad_tags: Vec<(&'a str, TagError)>,
    /// Whether any movetext line followed the tags.
    pub has_movetext: bool,
    /// The moves of the main line.
    pub moves: Vec<PgnMove<'a>>,
}

impl PgnGame<'_> {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_ref())
    }
}

/// Where the reader is in the movetext of one game.
#[derive(Default)]
struct Movetext {
    /// Open `{` and `(`.
    braces: usize,
    parens: usize,
    /// Words of a top-level comment still open.
    comment: Option<Vec<String>>,
}

impl Movetext {
    /// Read one line of movetext into `game`.
    fn read_line<'a>(&mut self, line: &'a str, game: &mut PgnGame<'a>) {
        for w in line.split_whitespace() {
            if w.starts_with(';') && self.braces == 0 {
                break;
            }
            let opens_b = w.matches('{').count();
            let closes_b = w.matches('}').count();
            let opens_p = w.matches('(').count();
            let closes_p = w.matches(')').count();
            let in_comment = self.braces > 0 || opens_b > 0;
            let inside = in_comment || self.parens > 0 || opens_p > 0;
            let top_level = self.parens == 0;
            self.braces = (self.braces + opens_b).saturating_sub(closes_b);
            if self.braces == 0 {
                self.parens = (self.parens + opens_p).saturating_sub(closes_p);
            }
            if in_comment && top_level {
                self.comment_word(w, game);
            }
            if inside || w.starts_with('$') || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            let text = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !text.is_empty() {
                game.moves.push(PgnMove {
                    text,
                    comments: Vec::new(),
                });
            }
        }
    }

    /// A word of a top-level comment; when the comment closes, it goes to
    /// the last move (a comment before the first move is dropped).
    fn comment_word(&mut self, w: &str, game: &mut PgnGame<'_>) {
        self.comment
            .get_or_insert_with(Vec::new)
            .push(w.to_string());
        if self.braces > 0 {
            return;
        }
        let words = self.comment.take().unwrap_or_default().join(" ");
        let text = words.strip_prefix('{').unwrap_or(&words);
        let text = text.strip_suffix('}').unwrap_or(text);
        if let Some(last) = game.moves.last_mut() {
            last.comments.push(text.to_string());
        }
    }
}

/// The games of a PGN text.
pub fn read_games(text: &str) -> Vec<PgnGame<'_>> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut movetext = Movetext::default();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            if game.has_movetext {
                games.push(std::mem::take(&mut game));
                movetext = Movetext::default();
            }
            match tag::parse(t) {
                Ok(pair) => game.tags.push(pair),
                Err(e) => game.bad_tags.push((t, e)),
            }
        } else if !t.is_empty() {
            game.has_movetext = true;
            movetext.read_line(t, &mut game);
        }
    }
    if game.has_movetext || !game.tags.is_empty() || !game.bad_tags.is_empty() {
        games.push(game);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_and_comments() {
        let text = "[Event \"a\"]\n[FEN \"x y\"]\n\n1. h2e2 {+0.10 0.1s} h9g7 (1... b9c7 {v}) \
                    $1 2.h0g2 ; rest\n{book} {end of\ngame} 1-0\n\n[Event \"b\"]\n\n1. b2e2 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("FEN"), Some("x y"));
        assert_eq!(g.tag("Result"), None);
        let words: Vec<&str> = g.moves.iter().map(|m| m.text).collect();
        assert_eq!(words, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g.moves[0].comments, ["+0.10 0.1s"]);
        assert!(g.moves[1].comments.is_empty());
        assert_eq!(g.moves[2].comments, ["book", "end of game"]);
        assert_eq!(games[1].moves.len(), 1);
    }

    #[test]
    fn escaped_and_malformed_tags() {
        let text = "[White \"a\\\"b\"]\n[Black \"c\\\\d\"]\n[Event \"x]\n[Site]\n\
                    [Round \"1\"]\n\n1. h2e2 *\n[Event \"\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("a\"b"));
        assert_eq!(g.tag("Black"), Some("c\\d"));
        assert_eq!(g.tag("Round"), Some("1"));
        assert_eq!(g.tag("Event"), None);
        assert_eq!(
            g.bad_tags,
            [
                ("[Event \"x]", TagError::Unterminated),
                ("[Site]", TagError::NoValue)
            ]
        );
        assert_eq!(games[1].bad_tags, [("[Event \"", TagError::Unterminated)]);
        assert!(games[1].tags.is_empty());
    }
}
