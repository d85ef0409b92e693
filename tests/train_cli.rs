//! `jiang train` end to end: a tiny network trained on the trainer's
//! committed data, a tiny general-bucketed one on positions `jiang
//! datagen` makes here, their files readable by the engine, and mistakes
//! answered with the usage (exit 2) or a message (exit 1) before any
//! training.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATA: &str = "train/tests/data/janggi-20g-2000n-seed5.bin";

fn jiang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jiang"))
        .arg("train")
        .args(args)
        .output()
        .expect("jiang runs")
}

/// `jiang train` of a tiny network (16 hidden units, 2 output buckets,
/// 2 epochs) of `data` into `out` with `extra` options, which must
/// succeed; its standard output.
fn train_tiny(out: &Path, data: &Path, extra: &[&str]) -> String {
    let (out, data) = (out.display().to_string(), data.display().to_string());
    let mut args = vec![
        "--out",
        &out,
        "--hidden",
        "16",
        "--buckets",
        "2",
        "--epochs",
        "2",
    ];
    args.extend_from_slice(extra);
    args.push(&data);
    let o = jiang(&args);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    text
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jiang-train-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn trains_a_tiny_network_and_writes_its_files() {
    let dir = scratch("plain");
    let out = dir.join("tiny.jnn");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let text = train_tiny(&out, &data, &["--batch", "1000", "--holdout", "5"]);
    assert!(text.starts_with("janggi: 20 games, "), "{text}");
    assert!(
        text.contains("epoch 2/2") && text.contains("valid "),
        "{text}"
    );
    for f in ["tiny.jnn", "tiny-best.jnn"] {
        let bytes = std::fs::read(dir.join(f)).expect("a network file");
        // The engine's reader, as `EvalFileJanggi` would load it.
        let net =
            nnue::Network::from_bytes_for(&bytes, movegen::Game::Janggi).expect("a valid network");
        assert_eq!((net.hidden(), net.buckets()), (16, 2));
        assert_eq!(net.inputs(), nnue::InputSet::Plain, "the default");
        assert_eq!(bytes[4..8], 1u32.to_le_bytes(), "format version 1");
    }
    assert!(dir.join("tiny.jnn.ckpt").is_file());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn trains_a_general_bucketed_network_on_fresh_datagen_positions() {
    let dir = scratch("buckets");
    let data = dir.join("xq.bin");
    let o = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args([
            "datagen",
            "--variant",
            "xiangqi",
            "--games",
            "4",
            "--nodes",
            "300",
        ])
        .args(["--max-plies", "120", "--seed", "3", "--quiet", "--out"])
        .arg(&data)
        .output()
        .expect("jiang runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("b.jnn");
    let text = train_tiny(
        &out,
        &data,
        &[
            "--inputs",
            "general-buckets",
            "--batch",
            "128",
            "--holdout",
            "2",
            "--keep-noisy",
        ],
    );
    assert!(text.starts_with("xiangqi: 4 games, "), "{text}");
    let positions: usize = text
        .split(", ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(positions >= 100, "{text}");
    assert!(text.contains("epoch 2/2"), "{text}");
    let bytes = std::fs::read(&out).expect("a network file");
    assert_eq!(bytes[4..8], 2u32.to_le_bytes(), "format version 2");
    let net = nnue::Network::from_bytes_for(&bytes, movegen::Game::Xiangqi).expect("valid");
    assert_eq!(net.inputs(), nnue::InputSet::GeneralBuckets);
    assert_eq!((net.hidden(), net.buckets()), (16, 2));
    // The engine's incremental evaluation of it over a short game equals
    // its refresh (the general steps e1-e2 and back).
    let mut pos = movegen::Position::startpos(movegen::Variant::Xiangqi);
    let mut stack = nnue::AccumulatorStack::new(&net, 8);
    stack.reset(&net, &pos);
    for mv in ["e0e1", "e9e8", "h2e2", "e8f8", "e1e0"] {
        let m = pos
            .parse_move(mv, movegen::Ranks::ZeroBased)
            .expect("legal");
        stack.push_move(&pos, m);
        pos.make_move(m);
        assert_eq!(
            stack.evaluate(&net, &pos),
            net.evaluate_position(&pos),
            "{mv}"
        );
    }
    // The checkpoint resumes as a bucketed run only.
    let o = jiang(&[
        "--out",
        &out.display().to_string(),
        "--epochs",
        "3",
        "--resume",
        &data.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1), "a plain run cannot resume it");
    assert!(String::from_utf8_lossy(&o.stderr).contains("general-buckets"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mistakes_are_answered_before_training() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let data = data.display().to_string();
    // Usage mistakes: exit 2, the usage on stderr.
    for bad in [
        &["--out", "x.jnn", "--hidden", "12", &data][..],
        &["--out", "x.jnn", "--lambda", "1.5", &data],
        &["--out", "x.jnn", "--inputs", "halfka", &data],
        &[&data],
        &["--out", "x.jnn"],
    ] {
        let o = jiang(bad);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains("usage: jiang train"), "{err}");
    }
    // Failures: exit 1 and a message naming the file.
    let o = jiang(&["--out", "/nonexistent-dir/x.jnn", &data]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("/nonexistent-dir"), "{err}");
    let o = jiang(&["--out", "x.jnn", "/nonexistent-file.bin"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("nonexistent-file.bin"), "{err}");
}
