//! The documents against the code: `docs/ARCHITECTURE.md`'s package table
//! must list exactly the workspace's packages, with their directories and
//! dependencies as the manifests declare them, and its table of the
//! `jiang` package must name every module of `engine/lib.rs`.
//!
//! The manifests are read with a few lines of parsing (no TOML crate):
//! they keep to `key = …` lines under `[section]` headers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `key = value` lines of each `[section]` of a manifest, with the
/// `members = [ … ]` list read as one value.
fn sections(text: &str) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut section = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let mut value = value.trim().to_string();
        if value.starts_with('[') && !value.ends_with(']') {
            for more in lines.by_ref() {
                value.push_str(more.trim());
                if more.trim().ends_with(']') {
                    break;
                }
            }
        }
        // `search.workspace = true` is the dependency `search`.
        let key = key.trim().split('.').next().unwrap_or("");
        let key = key.trim_matches('"').to_string();
        out.entry(section.clone()).or_default().push((key, value));
    }
    out
}

fn value<'a>(s: &'a BTreeMap<String, Vec<(String, String)>>, sec: &str, key: &str) -> &'a str {
    s.get(sec)
        .and_then(|kv| kv.iter().find(|(k, _)| k == key))
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} in [{sec}]"))
}

/// What the manifests say: package name → (directory, our dependencies,
/// outside dependencies), all as package names.
type Package = (String, BTreeSet<String>, BTreeSet<String>);

fn workspace() -> BTreeMap<String, Package> {
    let ws = sections(&read(&root().join("Cargo.toml")));
    // Workspace dependency key → package name (ours have a `path`).
    let mut ours = BTreeMap::new();
    for (key, v) in &ws["workspace.dependencies"] {
        if v.contains("path") {
            let name = v
                .split("package = \"")
                .nth(1)
                .and_then(|t| t.split('"').next())
                .unwrap_or(key);
            ours.insert(key.clone(), name.to_string());
        }
    }
    let members = value(&ws, "workspace", "members");
    let members: Vec<&str> = members
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    let mut out = BTreeMap::new();
    for m in members {
        let manifest = if m == "." {
            ws.clone()
        } else {
            sections(&read(&root().join(m).join("Cargo.toml")))
        };
        let name = value(&manifest, "package", "name")
            .trim_matches('"')
            .to_string();
        let dir = if m == "." {
            "engine/".to_string()
        } else {
            format!("{m}/")
        };
        let (mut mine, mut outside) = (BTreeSet::new(), BTreeSet::new());
        for (key, _) in manifest.get("dependencies").into_iter().flatten() {
            match ours.get(key) {
                Some(pkg) => mine.insert(pkg.clone()),
                None => outside.insert(key.clone()),
            };
        }
        out.insert(name, (dir, mine, outside));
    }
    out
}

/// The names in a table cell: backquoted words, or a comma list whose
/// items lose any parenthesised remark; `—` is none.
fn names(cell: &str) -> BTreeSet<String> {
    let cell = cell.trim();
    if cell == "—" {
        return BTreeSet::new();
    }
    let mut depth = 0;
    let mut plain = String::new();
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(',')
        .map(|t| t.trim().trim_matches('`').to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

fn documented() -> BTreeMap<String, Package> {
    let doc = read(&root().join("docs/ARCHITECTURE.md"));
    let table = doc
        .split("| package (lib name) |")
        .nth(1)
        .expect("docs/ARCHITECTURE.md: no package table");
    let mut out = BTreeMap::new();
    for line in table.lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert!(cells.len() >= 5, "short row: {line}");
        let name = cells[0]
            .split('`')
            .nth(1)
            .expect("package name")
            .to_string();
        let dir = cells[1].split('`').nth(1).expect("directory").to_string();
        out.insert(name, (dir, names(cells[2]), names(cells[3])));
    }
    out
}

#[test]
fn architecture_lists_the_workspace_packages_and_their_dependencies() {
    let code = workspace();
    let doc = documented();
    assert_eq!(
        doc.keys().collect::<Vec<_>>(),
        code.keys().collect::<Vec<_>>(),
        "docs/ARCHITECTURE.md's packages against the workspace's members"
    );
    for (name, (dir, mine, outside)) in &code {
        let (ddir, dmine, doutside) = &doc[name];
        assert_eq!(ddir, dir, "{name}: directory");
        assert_eq!(dmine, mine, "{name}: our dependencies");
        assert_eq!(doutside, outside, "{name}: outside dependencies");
    }
}

#[test]
fn architecture_names_every_engine_module() {
    let doc = read(&root().join("docs/ARCHITECTURE.md"));
    let table = doc
        .split("## The `jiang` package")
        .nth(1)
        .and_then(|t| t.split("\n## ").next())
        .expect("docs/ARCHITECTURE.md: no table of the jiang package");
    for line in read(&root().join("engine/lib.rs")).lines() {
        if let Some(m) = line
            .strip_prefix("pub mod ")
            .and_then(|m| m.strip_suffix(';'))
        {
            let file = format!("`{m}.rs`");
            let dir = format!("`{m}/`");
            assert!(
                table.contains(&file) || table.contains(&dir),
                "engine module {m} is missing from docs/ARCHITECTURE.md"
            );
        }
    }
}
