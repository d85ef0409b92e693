//! `jiang datagen`: the same bytes for the same seed at any thread count,
//! shards that add up to the whole run, resuming after a kill, `--stats`,
//! and `jiang tune` reading the files. Tiny node budgets and short games
//! keep it fast; nothing here measures time.

use std::path::{Path, PathBuf};
use std::process::Command;

use data::{Reader, Record};
use jiang::datagen::{generate, parse_args, DatagenArgs, DatagenCommand};
use movegen::Variant;

/// A fresh path in the temporary directory, removed again when dropped so
/// that test runs do not pile files up in `/tmp`.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempFile {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

fn temp(name: &str) -> TempFile {
    let p = std::env::temp_dir().join(format!("jiang-datagen-{}-{name}.bin", std::process::id()));
    let _ = std::fs::remove_file(&p);
    TempFile(p)
}

/// Small runs: few games, a few hundred nodes a move, short games.
fn args(variant: &str, out: &Path, extra: &[&str]) -> DatagenArgs {
    let mut words: Vec<String> = [
        "--variant",
        variant,
        "--games",
        "6",
        "--nodes",
        "300",
        "--max-plies",
        "24",
        "--randomplies",
        "4",
        "--seed",
        "42",
        "--quiet",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    words.push(out.display().to_string());
    words.extend(extra.iter().map(|s| s.to_string()));
    match parse_args(&words) {
        Ok(DatagenCommand::Generate(a)) => a,
        other => panic!("bad test arguments: {other:?}"),
    }
}

fn run(a: &DatagenArgs) -> Vec<u8> {
    generate(a).expect("datagen runs");
    std::fs::read(&a.out).expect("the file is there")
}

fn records(bytes: &[u8]) -> Vec<Record> {
    Reader::new(bytes)
        .collect::<Result<_, _>>()
        .expect("a valid file")
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    for variant in ["janggi", "xiangqi"] {
        let (p1, p2) = (
            temp(&format!("t1-{variant}")),
            temp(&format!("t2-{variant}")),
        );
        let one = run(&args(variant, &p1, &["--threads", "1"]));
        let two = run(&args(variant, &p2, &["--threads", "2"]));
        assert_eq!(one, two, "{variant}");
        let recs = records(&one);
        assert!(recs.len() > 30, "{variant}: {} positions", recs.len());
        // Games in order, each ended by its last record.
        let games: Vec<u64> = recs
            .iter()
            .filter(|r| r.is_last())
            .map(|r| r.game)
            .collect();
        assert_eq!(games, (0..6).collect::<Vec<_>>());
        assert!(recs.windows(2).all(|w| w[0].game <= w[1].game));
        let again = run(&args(
            variant,
            &temp(&format!("t3-{variant}")),
            &["--threads", "1"],
        ));
        assert_eq!(one, again);
        // Another seed, other games.
        let other = run(&args(
            variant,
            &temp(&format!("s-{variant}")),
            &["--seed", "43"],
        ));
        assert_ne!(records(&other), recs);
    }
}

#[test]
fn shards_concatenated_hold_the_whole_run() {
    let whole = records(&run(&args("janggi", &temp("whole"), &["--threads", "2"])));
    let mut cat = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let bytes = run(&args(
            "janggi",
            &temp(&format!("shard{i}")),
            &["--shard", &shard],
        ));
        let recs = records(&bytes);
        assert!(recs.iter().all(|r| r.game % 3 == i));
        cat.extend(bytes);
    }
    let mut sharded = records(&cat);
    sharded.sort_by_key(|r| r.game); // stable: each game keeps its order
    assert_eq!(sharded, whole);
}

#[test]
fn resuming_a_cut_file_gives_the_uninterrupted_run() {
    let full_path = temp("full");
    let full = run(&args("janggi", &full_path, &[]));
    let n = full.len();
    // A header only, a cut inside a record, a cut at a record boundary in
    // the middle of a game, and a finished file.
    for cut in [48, n / 2 + 7, 48 * (n / 48 / 3), n] {
        let p = temp(&format!("cut{cut}"));
        std::fs::write(&p, &full[..cut]).expect("write");
        assert_eq!(run(&args("janggi", &p, &[])), full, "cut at {cut}");
    }
    // Fewer games first, then more: the same file.
    let p = temp("grow");
    let mut a = args("janggi", &p, &[]);
    a.games = 2;
    run(&a);
    a.games = 6;
    assert_eq!(run(&a), full);
    // Other settings refuse to continue the file.
    let mut other = args("janggi", &full_path, &["--nodes", "301"]);
    assert!(generate(&other).is_err());
    other.nodes = 300;
    other.variant = Variant::Xiangqi;
    assert!(generate(&other).is_err());
    assert_eq!(std::fs::read(&full_path).expect("read"), full);
}

/// The header's network field (bytes 44–47).
fn header_network(bytes: &[u8]) -> u32 {
    let mut b = [0u8; data::RECORD_SIZE];
    b.copy_from_slice(&bytes[..data::RECORD_SIZE]);
    data::Header::decode(&b).expect("a header").recipe.network
}

/// The checksum of `game`'s embedded network, as the header records it.
fn embedded_checksum(game: movegen::Game) -> u32 {
    let bytes = nnue::embedded(game).expect("each game has a network");
    nnue::Network::from_bytes(bytes)
        .expect("the embedded network loads")
        .checksum()
}

#[test]
fn the_evaluation_played_is_recorded_and_kept_on_resume() {
    let embedded = nnue::embedded(movegen::Game::Janggi).expect("janggi has a network");
    let checksum = embedded_checksum(movegen::Game::Janggi);
    // By default each game plays with its embedded network;
    // `--classical` and `--eval-file` choose.
    let net_path = temp("net");
    let net = run(&args("janggi", &net_path, &[]));
    assert_eq!(header_network(&net), checksum);
    let classical_path = temp("classical");
    let classical = run(&args("janggi", &classical_path, &["--classical"]));
    assert_eq!(header_network(&classical), 0);
    assert_ne!(
        records(&net),
        records(&classical),
        "the network changes the games"
    );
    let file = temp("file.jnn");
    std::fs::write(&file, embedded).expect("write");
    let file_arg = file.display().to_string();
    let from_file = temp("fromfile");
    assert_eq!(
        run(&args("janggi", &from_file, &["--eval-file", &file_arg])),
        net
    );
    let x = temp("x");
    assert_eq!(
        header_network(&run(&args("xiangqi", &x, &[]))),
        embedded_checksum(movegen::Game::Xiangqi)
    );
    // A file made with one evaluation is not continued with another.
    let mut a = args("janggi", &net_path, &["--classical"]);
    a.games = 7;
    assert!(generate(&a).is_err());
    assert_eq!(std::fs::read(&net_path).expect("read"), net);
    // A network of the other game, or not a network, is refused.
    let bad = temp("bad");
    assert!(generate(&args("xiangqi", &bad, &["--eval-file", &file_arg])).is_err());
    let junk = temp("junk.jnn");
    std::fs::write(&junk, b"not a network").expect("write");
    let junk_arg = junk.display().to_string();
    assert!(generate(&args("janggi", &bad, &["--eval-file", &junk_arg])).is_err());
    assert!(parse_args(&[
        "--out".into(),
        "x".into(),
        "--classical".into(),
        "--eval-file".into(),
        "n".into()
    ])
    .is_err());
}

#[test]
fn stats_summarise_and_bad_files_are_errors() {
    let p = temp("stats");
    run(&args("janggi", &p, &[]));
    let jiang = env!("CARGO_BIN_EXE_jiang");
    let out = Command::new(jiang)
        .args(["datagen", "--stats"])
        .arg(&p)
        .output()
        .expect("jiang runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("6 games, "), "{text}");
    for words in ["janggi:", "results", "per game", "-inf ..", "score "] {
        assert!(text.contains(words), "{words}: {text}");
    }
    // A truncated file and a text file: exit code 1 and a message.
    let bytes = std::fs::read(&p).expect("read");
    let cut = temp("stats-cut");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).expect("write");
    let text_file = temp("stats-text");
    std::fs::write(&text_file, "1. h2e2 h9g7 *\n").expect("write");
    for (bad, words) in [(&cut, "truncated"), (&text_file, "not a jiang data file")] {
        let out = Command::new(jiang)
            .args(["datagen", "--stats"])
            .arg(bad)
            .output()
            .expect("jiang runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(words) && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn tune_reads_datagen_files() {
    let p = temp("tune");
    let bytes = run(&args("janggi", &p, &["--max-plies", "40"]));
    let games = jiang::tune::data_samples_by_game(&bytes, Variant::Janggi, 1).expect("valid");
    assert_eq!(games.len(), 6);
    let samples: Vec<_> = games.iter().flatten().collect();
    assert!(samples.len() > 40);
    assert!(samples
        .iter()
        .all(|s| !s.pos.in_check() && s.score.is_some()));
    assert!(samples.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
    let none = jiang::tune::data_samples_by_game(&bytes, Variant::Xiangqi, 1).expect("valid");
    assert!(none.iter().all(|g| g.is_empty()));
    // The command reads it like a PGN file.
    let out = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args(["tune", "--variant", "janggi", "--passes", "1", "--freeze"])
        .arg("material,pst,mobility,king,chariots,crowd,palace,threats,pst-lines")
        .arg(&p)
        .output()
        .expect("jiang runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!("{} positions", samples.len())),
        "{err}"
    );
}
