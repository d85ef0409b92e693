//! Benchmark programs live in this package's `[[bench]]` targets (see
//! `Cargo.toml`); run them with `cargo bench -p jiang-bench`. This library
//! holds what they share: a running fairy-stockfish to compare against and
//! a blocking search on Jiang's engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use movegen::{Position, Variant};
use search::{Engine, Limits};

/// A running fairy-stockfish speaking UCI, the peer the benchmarks compare
/// against. Found as `$FAIRY_STOCKFISH`, then `fairy-stockfish` on `PATH`,
/// then `/usr/games/fairy-stockfish`.
pub struct Peer {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Peer {
    /// Start the peer and wait for `uciok`; `None` if none can be started.
    pub fn start() -> Option<Peer> {
        let candidates = [
            std::env::var("FAIRY_STOCKFISH").unwrap_or_default(),
            "fairy-stockfish".to_string(),
            "/usr/games/fairy-stockfish".to_string(),
        ];
        for cmd in candidates.iter().filter(|c| !c.is_empty()) {
            let spawned = Command::new(cmd)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn();
            if let Ok(mut child) = spawned {
                let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                    continue;
                };
                let mut peer = Peer {
                    child,
                    input,
                    output: BufReader::new(output),
                };
                peer.send("uci");
                if peer.read_until("uciok").is_some() {
                    return Some(peer);
                }
            }
        }
        None
    }

    /// Send one command line.
    pub fn send(&mut self, line: &str) {
        let _ = writeln!(self.input, "{line}");
        let _ = self.input.flush();
    }

    /// The lines read up to and including one starting with `prefix`
    /// (`None` if the peer's output ends first).
    pub fn read_until(&mut self, prefix: &str) -> Option<Vec<String>> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let done = line.starts_with(prefix);
            lines.push(line.trim().to_string());
            if done {
                return Some(lines);
            }
        }
    }

    /// Select the game (`UCI_Variant`).
    pub fn set_variant(&mut self, variant: Variant) {
        let name = if variant.is_janggi() {
            "janggi"
        } else {
            "xiangqi"
        };
        self.send(&format!("setoption name UCI_Variant value {name}"));
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// Run one search on `engine` to completion; the number of nodes searched.
pub fn search_blocking(engine: &mut Engine, pos: &Position, limits: Limits) -> u64 {
    // The count is read from the engine; the result itself is not needed.
    let _ = engine.search_to_end(pos, limits);
    engine.last_search_nodes()
}
