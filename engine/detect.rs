//! Protocol detection and the protocol loop (docs/PROTOCOL.md §2).
//!
//! The first meaningful line chooses the protocol: `uci`, `ucci`,
//! `xboard` (or `protover`), and UCI-Cyclone's bare `fen …`/`startpos …`
//! lines select UCI with ranks 0–9. Anything else also starts UCI (tools
//! that send `position …` or `go perft …` straight away expect that), and
//! that first line is then handled as a UCI command.

use std::sync::mpsc::{Receiver, Sender};

use crate::io::{Event, Out};
use crate::protocol::{Flow, Protocol};
use crate::{ucci, uci, xboard};

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolName {
    /// UCI (also UCI-Cyclone).
    Uci,
    /// UCCI.
    Ucci,
    /// XBoard / CECP.
    Xboard,
}

/// The protocol a first line selects; `None` for a blank line.
pub fn detect(line: &str) -> Option<ProtocolName> {
    let first = line.split_whitespace().next()?.to_ascii_lowercase();
    Some(match first.as_str() {
        "ucci" => ProtocolName::Ucci,
        "xboard" | "protover" => ProtocolName::Xboard,
        _ => ProtocolName::Uci,
    })
}

/// Read events until `quit` or the end of input, choosing the protocol
/// from the first meaningful line. `tx` lets XBoard's search callbacks
/// post their results into the same loop.
pub fn run(rx: &Receiver<Event>, tx: &Sender<Event>, out: Out) {
    let (kind, first) = loop {
        match rx.recv() {
            Ok(Event::Line(l)) => {
                if let Some(k) = detect(&l) {
                    break (k, l);
                }
            }
            Ok(Event::Done(..)) => {}
            Ok(Event::Eof) | Err(_) => return,
        }
    };
    let mut proto: Box<dyn Protocol> = match kind {
        ProtocolName::Uci => Box::new(uci::Uci::new(out)),
        ProtocolName::Ucci => Box::new(ucci::Ucci::new(out)),
        ProtocolName::Xboard => Box::new(xboard::Xboard::new(out, tx.clone())),
    };
    if proto.handle(&first) == Flow::Quit {
        return quit(proto);
    }
    loop {
        match rx.recv() {
            Ok(Event::Line(l)) => {
                if proto.handle(&l) == Flow::Quit {
                    return quit(proto);
                }
            }
            Ok(Event::Done(id, best)) => proto.search_done(id, best),
            Ok(Event::Eof) | Err(_) => {
                proto.finish(true);
                return;
            }
        }
    }
}

/// `quit`: the front-end stops its search and says goodbye; then the
/// session is leaked on purpose. Dropping it would join the search threads
/// and free the hash table, which only delays an exit in which the
/// operating system reclaims both anyway (quit latency matters to GUIs
/// that restart engines between games).
fn quit(mut proto: Box<dyn Protocol>) {
    proto.finish(false);
    std::mem::forget(proto);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_line_chooses() {
        assert_eq!(detect("uci"), Some(ProtocolName::Uci));
        assert_eq!(detect("  ucci "), Some(ProtocolName::Ucci));
        assert_eq!(detect("xboard"), Some(ProtocolName::Xboard));
        assert_eq!(detect("protover 2"), Some(ProtocolName::Xboard));
        assert_eq!(detect("fen 9/9 w"), Some(ProtocolName::Uci));
        assert_eq!(detect("startpos moves h2e2"), Some(ProtocolName::Uci));
        assert_eq!(detect("   "), None);
    }
}
