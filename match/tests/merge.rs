//! `jiang match -merge`: shards' PGN files counted as one match, and every
//! way the files can be wrong answered by an error that names the game,
//! never a panic. The games are written by the match's own PGN writer.

use jiang_match::config::{SprtConfig, Tournament};
use jiang_match::ending::{Ending, Fault};
use jiang_match::game::GameRecord;
use jiang_match::layout::{GamePlace, MatchLayout};
use jiang_match::merge::{MergeError, Merged};
use jiang_match::pgn::{write_game, Notation, PgnHeader};
use jiang_match::stats::Score;
use movegen::{GameResult, Position, Ranks, Reason, Variant};

const NAMES: [&str; 2] = ["new", "old"];

fn layout(sprt: Option<SprtConfig>) -> MatchLayout {
    MatchLayout {
        id: 0x1234_5678_9abc_def0,
        games: 4,
        engines: 2,
        repeat: 2,
        tournament: Tournament::RoundRobin,
        variant: Variant::Xiangqi,
        sprt,
    }
}

/// Game `round` (from 1) of a 4-game match with `-repeat`: openings shared
/// by rounds 1–2 and 3–4, colours alternating.
fn place(round: u32) -> GamePlace {
    let k = round - 1;
    GamePlace {
        round,
        group: k / 2,
        white: (k % 2) as usize,
        black: 1 - (k % 2) as usize,
    }
}

/// One game as `jiang match` writes it, between engines called `NAMES`.
fn game(l: &MatchLayout, p: GamePlace, result: GameResult, ending: Ending) -> String {
    named_game(NAMES, l, p, result, ending)
}

/// One game as `jiang match` writes it, between engines called `names`
/// (by index).
fn named_game(
    names: [&str; 2],
    l: &MatchLayout,
    p: GamePlace,
    result: GameResult,
    ending: Ending,
) -> String {
    let start = Position::startpos(Variant::Xiangqi);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for t in ["h2e2", "h9g7"] {
        let m = pos.parse_move(t, Ranks::ZeroBased).expect("legal");
        pos.make_move(m);
        moves.push(m);
    }
    let rec = GameRecord {
        start,
        moves,
        book_plies: 0,
        move_info: vec![(Some(10), 100), (None, 120)],
        result,
        ending,
        reason: ending.words(),
        overhead_us: (0, 0),
        ponder: Default::default(),
    };
    let tags = l.tags(&p);
    let h = PgnHeader {
        event: "test",
        date: "2024.01.01",
        round: p.round,
        red: names[p.white],
        black: names[p.black],
        time_control: "-",
        notation: Notation::Iccs,
        more_tags: &tags,
    };
    write_game(&h, &rec)
}

const MATE: Ending = Ending::Rule(Reason::Checkmate);
const REPETITION: Ending = Ending::Rule(Reason::Repetition);

/// The four games: `new` wins as Red, `old` wins as Red (pair: 1 point to
/// `new`), a draw, `new` wins as Black (pair: 1½).
fn four(l: &MatchLayout) -> Vec<String> {
    vec![
        game(l, place(1), GameResult::RedWins, MATE),
        game(l, place(2), GameResult::RedWins, MATE),
        game(l, place(3), GameResult::Draw, REPETITION),
        game(l, place(4), GameResult::BlackWins, MATE),
    ]
}

fn files(texts: &[(&str, String)]) -> Vec<(String, String)> {
    texts
        .iter()
        .map(|(n, t)| (n.to_string(), t.clone()))
        .collect()
}

/// The first encounter's score of a merge.
fn score(m: &Merged) -> Score {
    let cfg = m.config(None);
    m.summary(&cfg).expect("summary").encounters[0].1
}

const WHOLE: Score = Score {
    wins: 2,
    draws: 1,
    losses: 1,
    penta: [0, 0, 1, 1, 0],
};

#[test]
fn shards_merge_to_the_whole_match() {
    let l = layout(None);
    let g = four(&l);
    let one = Merged::gather(&files(&[("all.pgn", g.concat())])).expect("merges");
    // Shards 0/2 and 1/2, and the shards' order does not matter.
    let shards = files(&[
        ("s1.pgn", format!("{}{}", g[1], g[3])),
        ("s0.pgn", format!("{}{}", g[0], g[2])),
    ]);
    let two = Merged::gather(&shards).expect("merges");
    for m in [&one, &two] {
        assert_eq!(score(m), WHOLE);
        assert_eq!((m.present(), m.missing(), m.duplicates), (4, vec![], 0));
        assert_eq!(m.names(), NAMES);
        assert_eq!(m.layout, l);
    }
}

#[test]
fn a_partial_merge_counts_what_is_there() {
    let l = layout(None);
    let g = four(&l);
    let m = Merged::gather(&files(&[("s0.pgn", format!("{}{}", g[0], g[2]))])).expect("merges");
    assert_eq!((m.present(), m.missing()), (2, vec![2, 4]));
    // No pair is complete.
    assert_eq!(
        score(&m),
        Score {
            wins: 1,
            draws: 1,
            losses: 0,
            penta: [0; 5]
        }
    );
    // A file with no games adds nothing; no games at all is an error.
    let m = Merged::gather(&files(&[
        ("a.pgn", g[0].clone()),
        ("empty.pgn", String::new()),
    ]))
    .expect("merges");
    assert_eq!(m.present(), 1);
    assert_eq!(
        Merged::gather(&files(&[("empty.pgn", "\n\n".into())])).unwrap_err(),
        MergeError::NoGames
    );
}

#[test]
fn duplicates_count_once_and_conflicts_are_refused() {
    let l = layout(None);
    let g = four(&l);
    // A shard rerun into the same file: the same games again.
    let m = Merged::gather(&files(&[
        ("all.pgn", g.concat()),
        ("again.pgn", g[1].clone()),
    ]))
    .expect("merges");
    assert_eq!((m.present(), m.duplicates), (4, 1));
    assert_eq!(score(&m), WHOLE);
    // Game 2 again with another result.
    let other = game(&l, place(2), GameResult::Draw, REPETITION);
    let e = Merged::gather(&files(&[("all.pgn", g.concat()), ("b.pgn", other)])).unwrap_err();
    assert!(
        matches!(&e, MergeError::Conflict { round: 2, first, second }
            if first.file == "all.pgn" && first.game == 2 && second.file == "b.pgn"),
        "{e:?}"
    );
    assert!(e.to_string().contains("game 2 of the match"), "{e}");
}

#[test]
fn games_of_other_matches_are_refused() {
    let l = layout(None);
    let g = four(&l);
    let mut other = layout(None);
    other.id ^= 1;
    let foreign = game(&other, place(2), GameResult::RedWins, MATE);
    let e = Merged::gather(&files(&[("a.pgn", g[0].clone()), ("b.pgn", foreign)])).unwrap_err();
    assert!(
        matches!(&e, MergeError::OtherMatch { at, what, .. }
            if at.file == "b.pgn" && what.starts_with("MatchId")),
        "{e:?}"
    );
    let mut longer = layout(None);
    longer.games = 6;
    let e = Merged::gather(&files(&[
        ("a.pgn", g[0].clone()),
        (
            "b.pgn",
            game(&longer, place(2), GameResult::Draw, REPETITION),
        ),
    ]))
    .unwrap_err();
    assert!(e.to_string().contains("MatchGames 6 here, 4 there"), "{e}");
    // One engine under two names.
    let renamed = g[1].replace("[White \"old\"]", "[White \"older\"]");
    let e = Merged::gather(&files(&[("a.pgn", g[0].clone()), ("b.pgn", renamed)])).unwrap_err();
    assert!(e.to_string().contains("'older' here, 'old' there"), "{e}");
}

#[test]
fn malformed_games_are_named_not_panicked_on() {
    let l = layout(None);
    let good = game(&l, place(1), GameResult::RedWins, MATE);
    let cases: Vec<(String, &str)> = vec![
        ("just some words\n".into(), "no MatchId tag"),
        (good.replace("[MatchId", "[NoId"), "no MatchId tag"),
        (good.replace("1234", "12x4"), "MatchId"),
        (good.replace("[Round \"1\"]", "[Round \"9\"]"), "Round"),
        (good.replace("[Round \"1\"]", "[Round \"-1\"]"), "Round"),
        (
            good.replace("[Result \"1-0\"]", "[Result \"*\"]"),
            "not a finished game",
        ),
        (good.replace("[Result \"1-0\"]\n", ""), "no Result tag"),
        (
            good.replace("\"checkmate\"]", "\"bored\"]"),
            "TerminationDetails",
        ),
        (
            good.replace("[WhiteIndex \"0\"]", "[WhiteIndex \"1\"]"),
            "both 1",
        ),
        (
            good.replace("[MatchEngines \"2\"]", "[MatchEngines \"1\"]"),
            "MatchEngines",
        ),
        (
            good.replace("[Tournament \"round-robin\"]", "[Tournament \"\"]"),
            "tournament",
        ),
        ("[MatchId \"".into(), "MatchId"),
        (
            good.replace("[White \"new\"]", "[White \"new]"),
            "bad tag line '[White \"new]': the quoted value does not end",
        ),
        (
            good.replace("[Black \"old\"]", "[Black \"old\\\"]"),
            "bad tag line",
        ),
        (
            good.replace("[Event \"test\"]", "[Event]"),
            "no quoted value",
        ),
        ("\u{feff}[[[\n{{{\n)))".into(), "no MatchId"),
    ];
    for (text, named) in cases {
        let e = Merged::gather(&files(&[
            ("x.pgn", good.clone()),
            ("bad.pgn", text.clone()),
        ]))
        .expect_err(&text);
        let msg = e.to_string();
        assert!(
            matches!(&e, MergeError::Malformed { at, .. } if at.file == "bad.pgn" && at.game == 1),
            "{text}: {e:?}"
        );
        assert!(msg.contains(named), "{text}: {msg}");
    }
}

#[test]
fn names_with_quotes_and_backslashes_merge() {
    let l = layout(None);
    for names in [
        ["a\"b", "c\\d"],
        ["x\\\"y", ""],
        ["\"", "\\"],
        ["new \"x\" [1]", "old\\"],
    ] {
        let g: Vec<String> = [
            (1, GameResult::RedWins, MATE),
            (2, GameResult::RedWins, MATE),
            (3, GameResult::Draw, REPETITION),
            (4, GameResult::BlackWins, MATE),
        ]
        .into_iter()
        .map(|(r, res, end)| named_game(names, &l, place(r), res, end))
        .collect();
        let shards = files(&[
            ("s0.pgn", format!("{}{}", g[0], g[2])),
            ("s1.pgn", format!("{}{}", g[1], g[3])),
        ]);
        let m = Merged::gather(&shards).expect("merges");
        assert_eq!(m.names(), names, "{}", g[0]);
        assert_eq!(score(&m), WHOLE);
        // The same game again is a duplicate, not a conflict.
        let again = files(&[("all.pgn", g.concat()), ("again.pgn", g[0].clone())]);
        assert_eq!(Merged::gather(&again).expect("merges").duplicates, 1);
    }
    // Names that differ only after a quote are told apart.
    let a = named_game(["e\"1", "old"], &l, place(1), GameResult::RedWins, MATE);
    let b = named_game(["e\"2", "old"], &l, place(2), GameResult::RedWins, MATE);
    let e = Merged::gather(&files(&[("a.pgn", a), ("b.pgn", b)])).unwrap_err();
    assert!(
        e.to_string()
            .contains("engine 1 is 'e\"2' here, 'e\"1' there"),
        "{e}"
    );
}

#[test]
fn sprt_settings_come_from_the_games_or_the_merge() {
    let s = |elo1| SprtConfig {
        elo0: 0.0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    };
    let (with, without) = (layout(Some(s(5.0))), layout(None));
    let texts = files(&[
        ("a.pgn", game(&without, place(1), GameResult::RedWins, MATE)),
        ("b.pgn", game(&with, place(2), GameResult::Draw, MATE)),
    ]);
    let m = Merged::gather(&texts).expect("merges");
    assert_eq!(m.sprt(None), Ok(Some(s(5.0))));
    assert_eq!(m.sprt(Some(s(10.0))), Ok(Some(s(10.0))));
    let texts = files(&[
        ("a.pgn", game(&with, place(1), GameResult::RedWins, MATE)),
        (
            "b.pgn",
            game(&layout(Some(s(3.0))), place(2), GameResult::Draw, MATE),
        ),
    ]);
    let m = Merged::gather(&texts).expect("merges");
    assert!(matches!(m.sprt(None), Err(MergeError::SprtConflict { .. })));
    assert_eq!(m.sprt(Some(s(3.0))), Ok(Some(s(3.0))));
}

#[test]
fn faults_and_endings_are_counted() {
    let l = layout(None);
    let texts = files(&[(
        "a.pgn",
        [
            // `old` (Black) crashes; `new` (Black) loses on time.
            game(
                &l,
                place(1),
                GameResult::RedWins,
                Ending::Fault(Fault::Crash),
            ),
            game(
                &l,
                place(2),
                GameResult::RedWins,
                Ending::Fault(Fault::TimeForfeit),
            ),
            game(&l, place(3), GameResult::Draw, REPETITION),
        ]
        .concat(),
    )]);
    let m = Merged::gather(&texts).expect("merges");
    let cfg = m.config(None);
    let s = m.summary(&cfg).expect("summary");
    assert_eq!(s.faults.get(&(1, Fault::Crash)), Some(&1));
    assert_eq!(s.faults.get(&(0, Fault::TimeForfeit)), Some(&1));
    assert_eq!(s.reasons.get(&REPETITION), Some(&1));
    assert_eq!(s.games, 3);
    assert_eq!(s.overhead_us, None);
}
