//! Input and output plumbing shared by every protocol.
//!
//! Input: one reader thread turns stdin into [`Event::Line`]s on a channel,
//! so that the protocol loop can take `stop`, `isready` or `quit` while a
//! search runs on other threads. Search callbacks post their results on the
//! same channel ([`Event::Done`]) when a protocol needs to act on them in
//! its own loop (XBoard plays the move on its board).
//!
//! Output: [`Out`], one locked writer for stdout. Lines from the protocol
//! loop and from search callbacks never interleave, and every line is
//! flushed at once because GUIs read through pipes.

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};

use search::BestMove;

/// Something the protocol loop has to handle.
#[derive(Debug)]
pub enum Event {
    /// A line of input, without its line ending.
    Line(String),
    /// Input ended (the GUI closed the pipe).
    Eof,
    /// A search finished; the number tells which `go` it belongs to.
    Done(u64, BestMove),
}

/// Start the stdin reader thread; events arrive on the returned receiver,
/// and the sender can be cloned for search callbacks.
pub fn spawn_stdin() -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_tx));
    if spawned.is_err() {
        // Without a reader thread we cannot receive anything: end at once
        // rather than wait forever.
        let _ = tx.send(Event::Eof);
    }
    (tx, rx)
}

/// Forward lines from `input` until it ends or the receiver is gone.
/// Bytes that are not UTF-8 are replaced rather than ending the stream:
/// a stray byte from a GUI must not cost the game.
pub fn read_lines(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// The one writer for protocol output; cheap to clone.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Standard output.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    /// Any writer (tests use an in-memory buffer).
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        // A panic while holding the lock cannot leave a half-written line
        // that matters more than continuing to talk to the GUI.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Write one line and flush. Write errors (a closed pipe) are ignored:
    /// the loop ends by itself when input ends.
    pub fn line(&self, s: &str) {
        let mut w = self.lock();
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }

    /// Write several lines under one lock, then flush.
    pub fn lines<I, S>(&self, lines: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut w = self.lock();
        for l in lines {
            let _ = writeln!(w, "{}", l.as_ref());
        }
        let _ = w.flush();
    }

    /// Take the lock, run `first`, then write several lines and flush.
    /// Whoever reads the lines sees `first`'s effect, and no other output
    /// can come between `first` and the lines.
    pub fn lines_after<I, S>(&self, first: impl FnOnce(), lines: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut w = self.lock();
        first();
        for l in lines {
            let _ = writeln!(w, "{}", l.as_ref());
        }
        let _ = w.flush();
    }

    /// A `Write` adapter whose output goes through this writer (for
    /// functions such as `search::bench` that write to a `dyn Write`).
    pub fn writer(&self) -> OutWriter {
        OutWriter(self.clone())
    }
}

/// See [`Out::writer`].
pub struct OutWriter(Out);

impl Write for OutWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut w = self.0.lock();
        let n = w.write(buf)?;
        w.flush()?;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_splits_lines_and_ends() {
        let (tx, rx) = mpsc::channel();
        read_lines(&b"uci\r\nisready\n\xffbad\nlast"[..], &tx);
        let got: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Eof => "<eof>".into(),
                Event::Done(..) => "<done>".into(),
            })
            .collect();
        assert_eq!(got, ["uci", "isready", "\u{fffd}bad", "last", "<eof>"]);
    }
}
