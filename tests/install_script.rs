//! `scripts/install.sh` installs the binary and the XBoard plugin file
//! into a staging directory (no root needed), and removes them again.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory under the system's temporary directory, removed
/// when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "jiang-install-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("create temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn install(args: &[&str]) -> (i32, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install.sh");
    let out = Command::new("sh")
        .arg(script)
        .args(args)
        .env_remove("DESTDIR")
        .output()
        .expect("run install.sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn installs_binary_and_xboard_plugin_under_destdir() {
    let tmp = TempDir::new("destdir");
    let dest = tmp.0.to_str().expect("utf-8 path");
    let bin = env!("CARGO_BIN_EXE_jiang");
    let (code, err) = install(&["--prefix", "/usr", "--destdir", dest, "--binary", bin]);
    assert_eq!(code, 0, "{err}");

    // The plugin file as XBoard reads it: spec line, command, variants;
    // the command is the installed path without the staging directory.
    let eng = tmp.0.join("usr/share/games/plugins/xboard/jiang.eng");
    let text = std::fs::read_to_string(&eng).expect("plugin file");
    assert_eq!(text, "plugin spec 0.0\n/usr/games/jiang\nxiangqi,janggi\n");

    // The installed binary runs.
    let installed = tmp.0.join("usr/games/jiang");
    let out = Command::new(&installed)
        .arg("--version")
        .output()
        .expect("run installed jiang");
    let version = String::from_utf8_lossy(&out.stdout);
    assert!(version.starts_with("Jiang "), "{version}");

    let (code, err) = install(&["--prefix=/usr", "--destdir", dest, "--uninstall"]);
    assert_eq!(code, 0, "{err}");
    assert!(!eng.exists() && !installed.exists());
}

#[test]
fn prefix_and_bindir_choose_the_paths() {
    let tmp = TempDir::new("prefix");
    let prefix = tmp.0.join("opt");
    let prefix = prefix.to_str().expect("utf-8 path");
    let bindir = format!("{prefix}/bin");
    let bin = env!("CARGO_BIN_EXE_jiang");
    let (code, err) = install(&["--prefix", prefix, "--bindir", &bindir, "--binary", bin]);
    assert_eq!(code, 0, "{err}");
    let eng = format!("{prefix}/share/games/plugins/xboard/jiang.eng");
    let text = std::fs::read_to_string(eng).expect("plugin file");
    assert_eq!(
        text.lines().nth(1),
        Some(format!("{bindir}/jiang").as_str())
    );
    assert!(Path::new(&bindir).join("jiang").is_file());
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let tmp = TempDir::new("bad");
    let dest = tmp.0.to_str().expect("utf-8 path");
    for args in [
        &["--bogus"][..],
        &["--prefix"],
        &["--prefix", "relative/path"],
        &["--destdir", dest, "--binary", "/nonexistent/jiang"],
    ] {
        let (code, err) = install(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("install.sh: "), "{args:?}: {err}");
    }
}
