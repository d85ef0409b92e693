//! One engine child process: stdin for commands, a reader thread that turns
//! stdout into time-stamped lines, and reads with deadlines.
//!
//! The referee never blocks on a pipe: every read goes through
//! [`EngineProc::recv_until`] with a deadline, and writes go through a
//! writer thread, so an engine that stops reading its input cannot stall
//! the referee either. A hung engine costs at most its deadline.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcError {
    /// The process could not be started.
    Spawn(String),
    /// The engine closed its output or its input pipe (it crashed or quit).
    Disconnected,
    /// No expected answer before the deadline.
    Timeout,
}

impl fmt::Display for ProcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcError::Spawn(e) => write!(f, "cannot start engine: {e}"),
            ProcError::Disconnected => f.write_str("engine disconnected (crashed or quit)"),
            ProcError::Timeout => f.write_str("engine did not answer in time"),
        }
    }
}

impl std::error::Error for ProcError {}

/// A line the engine wrote, with the moment the reader thread saw it.
/// Timing moves by this stamp keeps the referee's own latency out of the
/// engine's clock.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text without the line end.
    pub text: String,
    /// When it arrived.
    pub at: Instant,
}

/// How to start an engine.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (the runner's own when `None`).
    pub dir: Option<PathBuf>,
}

/// A running engine process.
pub struct EngineProc {
    child: Child,
    /// Lines for the writer thread; `None` once input is closed.
    stdin: Option<Sender<String>>,
    /// Set by the writer thread when a write fails (the engine is gone).
    write_failed: Arc<AtomicBool>,
    rx: Receiver<Line>,
    /// Name used in debug output.
    label: String,
    /// Echo all traffic on stderr.
    debug: bool,
}

impl EngineProc {
    /// Start the process and its reader thread.
    pub fn spawn(launch: &Launch, label: &str, debug: bool) -> Result<EngineProc, ProcError> {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &launch.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| ProcError::Spawn(format!("{}: {e}", launch.program)))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ProcError::Spawn("no stdout pipe".into()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| ProcError::Spawn("no stdin pipe".into()))?;
        let write_failed = Arc::new(AtomicBool::new(false));
        let threads = spawn_writer(stdin, label, Arc::clone(&write_failed))
            .map_err(|e| format!("writer thread: {e}"))
            .and_then(|wtx| {
                let rx = spawn_reader(stdout, label).map_err(|e| format!("reader thread: {e}"))?;
                Ok((wtx, rx))
            });
        let (wtx, rx) = match threads {
            Ok(t) => t,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ProcError::Spawn(e));
            }
        };
        Ok(EngineProc {
            child,
            stdin: Some(wtx),
            write_failed,
            rx,
            label: label.to_string(),
            debug,
        })
    }

    /// Send one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), ProcError> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        if self.write_failed.load(Ordering::Relaxed) {
            return Err(ProcError::Disconnected);
        }
        let stdin = self.stdin.as_ref().ok_or(ProcError::Disconnected)?;
        stdin
            .send(format!("{line}\n"))
            .map_err(|_| ProcError::Disconnected)
    }

    /// Next line, waiting at most until `deadline`.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<Line, ProcError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(l) => {
                if self.debug {
                    eprintln!("{} > {}", self.label, l.text);
                }
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(ProcError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ProcError::Disconnected),
        }
    }

    /// Read lines until `pred` accepts one or the deadline passes.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<Line, ProcError> {
        loop {
            let l = self.recv_until(deadline)?;
            if pred(&l.text) {
                return Ok(l);
            }
        }
    }

    /// Drop the lines already waiting (output no request is reading);
    /// returns the first of them that `pred` accepts, if any.
    pub fn drain_find(&mut self, mut pred: impl FnMut(&str) -> bool) -> Option<String> {
        let mut found = None;
        while let Ok(l) = self.rx.try_recv() {
            if self.debug {
                eprintln!("{} > {} (dropped)", self.label, l.text);
            }
            if found.is_none() && pred(&l.text) {
                found = Some(l.text);
            }
        }
        found
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// End the process: `quit_cmd` first, then a kill if it lingers.
    pub fn shutdown(&mut self, quit_cmd: &str, grace: Duration) {
        if self.stdin.is_some() {
            let _ = self.send(quit_cmd);
        }
        // Closing stdin tells well-behaved engines to exit too.
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if self.has_exited() {
                let _ = self.child.wait();
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kill the process at once.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The writer thread: it writes the lines it is sent to the engine's
/// input. It ends when the sender is dropped (input closed) or a write
/// fails (then it sets `failed`); dropping `stdin` closes the engine's input.
fn spawn_writer(
    mut stdin: ChildStdin,
    label: &str,
    failed: Arc<AtomicBool>,
) -> std::io::Result<Sender<String>> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::Builder::new()
        .name(format!("write-{label}"))
        .spawn(move || {
            for line in rx {
                let ok = stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush());
                if ok.is_err() {
                    failed.store(true, Ordering::Relaxed);
                    break;
                }
            }
        })?;
    Ok(tx)
}

/// The reader thread: it sends each line of the engine's output with the
/// moment it arrived. It ends by itself when the pipe closes (process exit
/// or kill), so it never outlives the child for long.
fn spawn_reader(stdout: ChildStdout, label: &str) -> std::io::Result<Receiver<Line>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name(format!("read-{label}"))
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        let line = Line {
                            text,
                            at: Instant::now(),
                        };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })?;
    Ok(rx)
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        // Never leave an orphan behind, whatever path dropped us.
        if !self.has_exited() {
            self.kill();
        } else {
            let _ = self.child.wait();
        }
    }
}
