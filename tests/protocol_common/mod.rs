//! Driving the built `jiang` binary through a pipe, for the protocol and
//! CLI tests: send lines, read lines with a deadline, keep a transcript for
//! failure messages.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous deadline for answers that should come at once (CI machines
/// can be slow and busy).
pub const SOON: Duration = Duration::from_secs(20);

/// A running engine.
pub struct Jiang {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    pub transcript: Vec<String>,
    /// What the engine wrote on stderr.
    pub stderr: Arc<Mutex<Vec<String>>>,
}

impl Jiang {
    /// Start the binary with no arguments (protocol mode).
    pub fn start() -> Jiang {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiang"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start jiang");
        let stderr_lines = Arc::new(Mutex::new(Vec::new()));
        if let Some(err) = child.stderr.take() {
            let sink = Arc::clone(&stderr_lines);
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines() {
                    let Ok(line) = line else { break };
                    eprintln!("jiang stderr: {line}");
                    if let Ok(mut v) = sink.lock() {
                        v.push(line);
                    }
                }
            });
        }
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Jiang {
            child,
            stdin,
            rx,
            transcript: Vec::new(),
            stderr: stderr_lines,
        }
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to jiang");
        stdin.flush().expect("flush");
    }

    /// Send several lines without reading.
    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    fn fail(&self, what: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        panic!(
            "{what}\n--- transcript (last 60 lines) ---\n{}",
            tail.join("\n")
        );
    }

    /// Next line, or `None` when `deadline` passes.
    pub fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => self.fail("jiang closed its output"),
        }
    }

    /// Read lines until one satisfies `done`; returns all lines read,
    /// the matching one last. Fails the test after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => self.fail("timed out waiting for an expected line"),
            }
        }
    }

    /// Read until a line equal to `line`.
    pub fn until_line(&mut self, line: &str) -> Vec<String> {
        self.until(SOON, |l| l == line)
    }

    /// Read until a line starting with `prefix`; returns that line.
    pub fn until_prefix(&mut self, prefix: &str) -> String {
        let lines = self.until(SOON, |l| l.starts_with(prefix));
        lines.last().cloned().unwrap_or_default()
    }

    /// Start the binary in XBoard mode (`xboard`, `protover 2`); returns
    /// it with the lines up to `feature done=1`.
    pub fn start_xboard() -> (Jiang, Vec<String>) {
        let mut e = Jiang::start();
        e.send("xboard");
        e.send("protover 2");
        let features = e.until_line("feature done=1");
        (e, features)
    }

    /// Send `cmd`, then a sync command (`isready`/`ping`) and read up to
    /// its answer; returns the lines in between.
    pub fn ask(&mut self, cmd: &str, sync: &str, answer: &str) -> Vec<String> {
        self.send(cmd);
        self.send(sync);
        let mut lines = self.until_line(answer);
        lines.pop();
        lines
    }

    /// UCI/UCCI: `cmd` then `isready`; the lines before `readyok`.
    pub fn uci(&mut self, cmd: &str) -> Vec<String> {
        self.ask(cmd, "isready", "readyok")
    }

    /// Lines arriving within `d` (for checking that nothing comes).
    pub fn quiet(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline) {
            got.push(l);
        }
        got
    }

    /// Assert a condition, with the transcript on failure.
    pub fn check(&self, ok: bool, what: &str) {
        if !ok {
            self.fail(what);
        }
    }

    /// Wait for the process to exit by itself (after `quit` or closing
    /// stdin); returns whether it exited successfully within `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// Fail unless the process exits successfully within `timeout`.
    pub fn expect_exit(&mut self, timeout: Duration, what: &str) {
        let ok = self.wait_exit(timeout);
        self.check(ok, what);
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Close stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Remaining output after the process ended.
    pub fn drain(&mut self) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(l) = self.rx.recv_timeout(Duration::from_millis(200)) {
            self.transcript.push(format!("< {l}"));
            v.push(l);
        }
        v
    }
}

impl Drop for Jiang {
    fn drop(&mut self) {
        // A test that failed midway must not leave an engine behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Whether a UCI move text names a legal move in a FEN (ranks 0–9 or 1–10).
pub fn legal_in(fen: &str, variant: movegen::Variant, text: &str, ranks: movegen::Ranks) -> bool {
    movegen::Position::from_fen(fen, variant).is_ok_and(|p| p.parse_move(text, ranks).is_ok())
}
