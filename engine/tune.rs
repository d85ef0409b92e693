//! `jiang tune`: fit the evaluation parameters of one game to the games in
//! PGN files (as `jiang match -pgnout` writes them) and print the tuned
//! parameters as Rust source for `search/src/eval/params.rs`. The PGN is
//! read by the match crate's reader ([`jiang_match::pgn::read`]).
//!
//! ```text
//! jiang tune --variant janggi [--lambda 0.5] [--passes 6] [--every N] [--player NAME]
//!            [--freeze GROUP,…] [--holdout N] games.pgn…
//! ```
//!
//! `--freeze pst,king` keeps those parameter groups as they are.
//! `--holdout N` sets every N-th game aside as a validation set: its loss
//! is reported after each pass, and the parameters printed at the end are
//! those of the pass with the lowest validation loss (the fit stops
//! early when the validation loss has risen for two passes), so that a
//! fit that learns the noise of its games is caught.
//!
//! Positions are taken from every game whose variant matches: after the
//! opening (moves without a score comment), not in check, not under
//! bikjang, and only where the move played was not a capture (a quiet
//! position, so the static evaluation is what is being fitted). Each is
//! labelled with the game result and the engine's score in the move's
//! comment (`{+0.52 0.31s}`, pawns, side to move's view). With `--player
//! NAME` only positions where that player (PGN `White`/`Black`) was to
//! move are kept, so that another engine's scores (in its own units) never
//! enter the target.
//!
//! Files of `jiang datagen` (told from PGN by their magic, see the `data`
//! crate) are read too: each record is a position with Jiang's search
//! score and its game's result; the same positions are kept (not in
//! check, best move not a capture, no mate score, not under bikjang),
//! `--every` and `--holdout` count them and their games the same way, and
//! `--player` does not apply (every score is Jiang's).

use ::tune::{fit_k, loss, tune, Group, Sample, TuneOptions};
use data::{Flags, Reader, Record};
use jiang_match::pgn::read::{read_games, PgnGame};
use movegen::{Color, Position, Ranks, Variant};
use search::eval::params::{GameParams, JANGGI, XIANGQI};
use search::eval::Weights;

use crate::cli::args::{ArgError, Args, Opt};
use crate::cli::tools::VARIANTS;

/// Options of `jiang tune`.
#[derive(Clone, Debug)]
pub struct TuneArgs {
    /// Which game's parameters (and games) to tune.
    pub variant: Variant,
    /// Weight of the game result against the search score.
    pub lambda: f64,
    /// Most coordinate-descent passes.
    pub passes: usize,
    /// Keep every N-th eligible position.
    pub every: usize,
    /// Only positions where this player was to move.
    pub player: Option<String>,
    /// Parameter groups left as they are.
    pub frozen: Vec<Group>,
    /// Every N-th game goes to the validation set (0: none).
    pub holdout: usize,
    /// PGN files.
    pub files: Vec<String>,
}

const OPTIONS: &[Opt] = &[
    Opt::value("--variant"),
    Opt::value("--lambda"),
    Opt::value("--passes"),
    Opt::value("--every"),
    Opt::value("--player"),
    Opt::value("--freeze"),
    Opt::value("--holdout"),
];

/// Parse the arguments after `tune`.
pub fn parse_args(args: &[String]) -> Result<TuneArgs, ArgError> {
    let a = Args::parse(args, OPTIONS)?;
    let positive = |name| a.parsed(name, "a positive number", |&n: &usize| n > 0);
    let files = a.positional().to_vec();
    if files.is_empty() {
        return Err(ArgError::Missing("PGN file"));
    }
    let frozen = match a.value("--freeze") {
        None => Vec::new(),
        Some(list) => list
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|reason| ArgError::Invalid {
                what: "--freeze",
                reason,
            })?,
    };
    Ok(TuneArgs {
        variant: a
            .parsed::<Variant>("--variant", VARIANTS, |_| true)?
            .unwrap_or(Variant::Janggi),
        lambda: a
            .parsed("--lambda", "a number from 0 to 1", |l: &f64| {
                (0.0..=1.0).contains(l)
            })?
            .unwrap_or(0.5),
        passes: positive("--passes")?.unwrap_or(6),
        every: positive("--every")?.unwrap_or(1),
        player: a.value("--player").map(str::to_string),
        frozen,
        holdout: positive("--holdout")?.unwrap_or(0),
        files,
    })
}

/// Whether two rule-set names belong to the same game.
fn same_game(a: Variant, b: Variant) -> bool {
    a.is_janggi() == b.is_janggi()
}

/// The samples of one PGN text (games of other games are skipped).
pub fn samples_from_pgn(
    text: &str,
    variant: Variant,
    every: usize,
    player: Option<&str>,
) -> Vec<Sample> {
    samples_by_game(text, variant, every, player)
        .into_iter()
        .flatten()
        .collect()
}

/// The samples of one PGN text, one list per game in the order of the
/// text (empty for a game of the other game, without a result or without
/// scored quiet positions), so that whole games can be set aside.
fn samples_by_game(
    text: &str,
    variant: Variant,
    every: usize,
    player: Option<&str>,
) -> Vec<Vec<Sample>> {
    // `n` counts eligible positions across the games, for `every`.
    let mut n = 0usize;
    read_games(text)
        .iter()
        .map(|game| game_samples(game, variant, every, player, &mut n))
        .collect()
}

/// The samples of one game (none if it is of the other game or has no
/// result); `n` counts the eligible positions seen so far.
fn game_samples(
    game: &PgnGame,
    variant: Variant,
    every: usize,
    player: Option<&str>,
    n: &mut usize,
) -> Vec<Sample> {
    let mut out = Vec::new();
    let gv: Variant = match game.tag("Variant").map(str::parse) {
        Some(Ok(v)) => v,
        _ => Variant::Xiangqi,
    };
    if !same_game(gv, variant) {
        return out;
    }
    let red_result = match game.tag("Result") {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => return out,
    };
    let mut pos = match game.tag("FEN") {
        Some(f) => match Position::from_fen(f, gv) {
            Ok(p) => p,
            Err(_) => return out,
        },
        None => Position::startpos(gv),
    };
    let names = [game.tag("White"), game.tag("Black")];
    for mv in &game.moves {
        let Ok(m) = pos.parse_move(mv.text, Ranks::ZeroBased) else {
            break;
        };
        let mover = names[pos.side_to_move().index()];
        let wanted = player.map_or(true, |p| mover == Some(p));
        // The last comment after the move: a game's closing comment
        // (its end reason) replaces the last move's score.
        let comment = mv.comments.last().map(String::as_str);
        let score = comment.and_then(score_of).filter(|_| wanted);
        let quiet = !m.is_pass() && pos.piece_at(m.to()).is_none();
        let eligible =
            quiet && !pos.in_check() && !(pos.variant().has_bikjang() && pos.generals_facing());
        if let Some(s) = score.filter(|_| eligible) {
            *n += 1;
            if *n % every == 0 {
                if let Ok(p) = Position::from_fen(&pos.to_fen(), gv) {
                    let result = if pos.side_to_move() == Color::Red {
                        red_result
                    } else {
                        1.0 - red_result
                    };
                    out.push(Sample {
                        pos: p,
                        result,
                        score: (s.abs() < 5_000).then_some(s),
                    });
                }
            }
        }
        pos.make_move(m);
    }
    out
}

/// The score in a move comment (`+0.52 0.31s` → 52), if it has one.
fn score_of(comment: &str) -> Option<i32> {
    let first = comment.split_whitespace().next()?;
    let pawns: f64 = first.parse().ok()?;
    Some((pawns * 100.0).round() as i32)
}

/// The samples of a `jiang datagen` file, one list per game in file order
/// (empty for a game of the other game), as [`samples_by_game`] gives
/// them for PGN: positions not in check, whose best move is no capture,
/// whose score is no mate score, and not under bikjang.
pub fn data_samples_by_game(
    bytes: &[u8],
    variant: Variant,
    every: usize,
) -> Result<Vec<Vec<Sample>>, String> {
    let mut games: Vec<Vec<Sample>> = Vec::new();
    let mut n = 0usize;
    // The game of the previous record, and whether it was its last.
    let mut prev: Option<(u64, bool)> = None;
    for r in Reader::new(bytes) {
        let r = r.map_err(|e| e.to_string())?;
        if prev != Some((r.game, false)) {
            games.push(Vec::new());
        }
        prev = Some((r.game, r.is_last()));
        let Some(s) = data_sample(&r, variant) else {
            continue;
        };
        n += 1;
        if let Some(g) = games.last_mut().filter(|_| n % every == 0) {
            g.push(s);
        }
    }
    Ok(games)
}

/// The sample of one record, if it is eligible.
fn data_sample(r: &Record, variant: Variant) -> Option<Sample> {
    let noisy = Flags::IN_CHECK | Flags::CAPTURE | Flags::MATE;
    if !same_game(r.variant, variant) || r.flags.intersects(noisy) {
        return None;
    }
    let pos = r.to_position().ok()?;
    if pos.variant().has_bikjang() && pos.generals_facing() {
        return None;
    }
    Some(Sample {
        pos,
        result: r.result_for_side_to_move(),
        score: Some(i32::from(r.score)),
    })
}

/// The samples of one input file by game: `jiang datagen` data when it
/// starts with its magic, PGN otherwise.
fn file_samples_by_game(f: &str, a: &TuneArgs) -> Result<Vec<Vec<Sample>>, String> {
    let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
    if data::Header::is_header(&bytes) {
        return data_samples_by_game(&bytes, a.variant, a.every).map_err(|e| format!("{f}: {e}"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{f}: neither PGN text nor a jiang datagen file"))?;
    Ok(samples_by_game(
        &text,
        a.variant,
        a.every,
        a.player.as_deref(),
    ))
}

/// Whether game `i` (from 0, in file order) goes to the validation set:
/// every `holdout`-th game, none when `holdout` is 0.
fn held_out(i: usize, holdout: usize) -> bool {
    holdout > 0 && i % holdout == holdout - 1
}

/// Run `jiang tune` with parsed arguments.
pub fn run(a: &TuneArgs) -> Result<(), String> {
    let (mut samples, mut held) = (Vec::new(), Vec::new());
    for f in &a.files {
        let games = file_samples_by_game(f, a)?;
        for (i, game) in games.into_iter().enumerate() {
            if held_out(i, a.holdout) {
                held.extend(game);
            } else {
                samples.extend(game);
            }
        }
    }
    if samples.is_empty() {
        return Err("no positions of that game in the files".into());
    }
    let start: GameParams = if a.variant.is_janggi() {
        JANGGI
    } else {
        XIANGQI
    };
    let w = Weights::new(start);
    let k = fit_k(&samples, &w);
    let lambda = a.lambda;
    // The validation loss as text, where there is a validation set.
    let checked = |w: &Weights| match held.is_empty() {
        true => String::new(),
        false => format!(", validation {:.6}", loss(&held, w, k, lambda)),
    };
    eprintln!(
        "{} positions ({} held out), k = {k:.3}, loss {:.6}{}",
        samples.len(),
        held.len(),
        loss(&samples, &w, k, lambda),
        checked(&w)
    );
    let opts = TuneOptions {
        lambda,
        passes: a.passes,
        frozen: a.frozen.clone(),
    };
    // The parameters with the lowest validation loss so far, and how many
    // passes in a row the validation loss has risen.
    let mut best = (loss(&held, &w, k, lambda), start);
    let mut worse = 0;
    let tuned = tune(&samples, &start, k, &opts, |p, params| {
        let pw = Weights::new(*params);
        let v = loss(&held, &pw, k, lambda);
        eprintln!(
            "pass {}: loss {:.6}{}, {} changed",
            p.pass,
            p.loss,
            checked(&pw),
            p.changed
        );
        // The parameters so far, so that a long run can be cut short.
        eprintln!("{params:#?}");
        if held.is_empty() || v < best.0 {
            best = (v, *params);
            worse = 0;
        } else {
            worse += 1;
        }
        worse < 2
    });
    if held.is_empty() {
        println!("{tuned:#?}");
    } else {
        eprintln!("best validation loss {:.6}", best.0);
        println!("{:#?}", best.1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str =
        "[Event \"t\"]\n[White \"w\"]\n[Black \"b\"]\n[Variant \"janggi\"]\n[Result \"0-1\"]\n\n\
        1. a3a4 {book} a6a5 {book} 2. b0c2 {+0.10 0.1s} b9c7 {-0.20 0.1s} \
        3. i3i4 {+0.15 0.1s} 0-1\n";

    #[test]
    fn reads_scored_quiet_positions() {
        let s = samples_from_pgn(PGN, Variant::Janggi, 1, None);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].score, Some(10));
        assert_eq!(s[0].result, 0.0);
        assert_eq!(s[1].score, Some(-20));
        assert_eq!(s[1].result, 1.0);
        assert!(samples_from_pgn(PGN, Variant::Xiangqi, 1, None).is_empty());
        let black = samples_from_pgn(PGN, Variant::Janggi, 1, Some("b"));
        assert_eq!(black.len(), 1);
        assert_eq!(black[0].score, Some(-20));
    }

    #[test]
    fn player_names_are_unescaped() {
        // The match writes `b"q\` as `b\"q\\`.
        let pgn = PGN.replace("[Black \"b\"]", "[Black \"b\\\"q\\\\\"]");
        let black = samples_from_pgn(&pgn, Variant::Janggi, 1, Some("b\"q\\"));
        assert_eq!(black.len(), 1);
        assert_eq!(black[0].score, Some(-20));
        assert!(samples_from_pgn(&pgn, Variant::Janggi, 1, Some("b")).is_empty());
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(parse_args(&v(&[])).is_err());
        assert!(parse_args(&v(&["--lambda", "2", "x.pgn"])).is_err());
        assert!(parse_args(&v(&["--bogus", "x.pgn"])).is_err());
        assert!(parse_args(&v(&["--variant", "janggi", "x.pgn"])).is_ok());
        assert!(parse_args(&v(&["--freeze", "pst,bogus", "x.pgn"])).is_err());
        assert!(parse_args(&v(&["--holdout", "0", "x.pgn"])).is_err());
        let a = parse_args(&v(&["--freeze", "pst,king", "--holdout", "5", "x.pgn"]));
        let a = a.expect("valid arguments");
        assert_eq!(a.frozen, vec![Group::Pst, Group::King]);
        assert_eq!(a.holdout, 5);
    }

    #[test]
    fn holdout_sets_every_nth_game_aside() {
        let text = format!("{PGN}{PGN}{PGN}{PGN}");
        let games = samples_by_game(&text, Variant::Janggi, 1, None);
        assert_eq!(games.len(), 4);
        assert!(games.iter().all(|g| g.len() == 3));
        let held: Vec<bool> = (0..4).map(|i| held_out(i, 2)).collect();
        assert_eq!(held, [false, true, false, true]);
        assert!((0..4).all(|i| !held_out(i, 0)));
    }
}
