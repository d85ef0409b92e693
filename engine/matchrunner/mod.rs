//! `jiang match`: an engine-match runner and referee for Xiangqi and Janggi.
//!
//! The command line follows cutechess-cli's syntax; our rules core judges every move.

/// Entry point for `jiang match …`; `args` are the words after `match`.
/// Returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    if args.is_empty() || args.iter().any(|a| a == "-help" || a == "--help") {
        eprintln!("usage: jiang match -engine cmd=... -engine cmd=... [-each ...] [options]");
        return if args.is_empty() { 2 } else { 0 };
    }
    eprintln!("jiang match: not ready yet");
    2
}
