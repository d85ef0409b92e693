//! `jiang train` end to end: a tiny network trained on the trainer's
//! committed data, its files readable, and mistakes answered with the
//! usage (exit 2) or a message (exit 1) before any training.

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

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("jiang-train-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn trains_a_tiny_network_and_writes_its_files() {
    let dir = scratch();
    let out = dir.join("tiny.jnn");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let o = jiang(&[
        "--out",
        &out.display().to_string(),
        "--hidden",
        "16",
        "--buckets",
        "2",
        "--epochs",
        "2",
        "--batch",
        "1000",
        "--holdout",
        "5",
        &data.display().to_string(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
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
    }
    assert!(dir.join("tiny.jnn.ckpt").is_file());
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
