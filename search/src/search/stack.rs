//! What the search keeps per ply: the search stack (static evaluation,
//! killers, excluded move and the move played of each node on the current
//! path, and the current ply itself) and the triangular table of principal
//! variations.
//!
//! The stack's ply moves with the position: [`Stack::push`] when the search
//! makes a move (or a null move), [`Stack::pop`] when it takes it back, so
//! a node reads its own ply instead of being told it.

use crate::history::PieceTo;
use crate::MAX_PLY;
use movegen::Move;

/// One node's entry on the search stack.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// Static evaluation of the node (`-INF` in check), for `improving`.
    pub static_eval: i32,
    /// Quiet moves that caused a cut-off at this ply, newest first.
    pub killers: [Option<Move>; 2],
    /// A move the node's search leaves out (the hash move, while the
    /// singular-extension test searches its alternatives).
    pub excluded: Option<Move>,
    /// The move made from this node on the current path, as the
    /// continuation history knows it (`None` for a null move or a pass).
    pub played: Option<PieceTo>,
}

/// The search stack: a frame per ply of the current path and the ply of
/// the node being searched. Two frames beyond the deepest ply let a node
/// clear its grandchildren's killers.
pub(super) struct Stack {
    frames: Box<[Frame; MAX_PLY + 2]>,
    ply: usize,
}

impl Stack {
    /// An empty stack at the root.
    pub fn new() -> Stack {
        let frame = Frame {
            static_eval: 0,
            killers: [None; 2],
            excluded: None,
            played: None,
        };
        Stack {
            frames: Box::new([frame; MAX_PLY + 2]),
            ply: 0,
        }
    }

    /// Start a search at the root.
    pub fn start(&mut self) {
        self.ply = 0;
    }

    /// Forget the killers of every ply (a new search).
    pub fn clear_killers(&mut self) {
        for f in self.frames.iter_mut() {
            f.killers = [None; 2];
        }
    }

    /// Ply of the node being searched (0 at the root).
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Enter the child reached by a move.
    #[inline]
    pub fn push(&mut self) {
        self.ply += 1;
    }

    /// Return to the parent.
    #[inline]
    pub fn pop(&mut self) {
        self.ply -= 1;
    }

    /// The frame at `ply`.
    #[inline]
    pub fn at(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }

    /// The frame at `ply`, to change.
    #[inline]
    pub fn at_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}

/// Triangular table of principal variations: the line of each ply starts
/// with that ply's best move, followed by its child's line.
pub(super) struct PvTable {
    lines: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    /// An empty table.
    pub fn new() -> PvTable {
        PvTable {
            lines: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            len: [0; MAX_PLY + 1],
        }
    }

    /// Empty the line of `ply` (a node starts without a line).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// `m` is the new best move at `ply`: its line is `m` and the child's.
    #[inline]
    pub fn update(&mut self, ply: usize, m: Move) {
        let n = self.len[ply + 1].min(MAX_PLY - ply - 1);
        self.lines[ply][0] = Some(m);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.len[ply] = n + 1;
    }

    /// The line of `ply`.
    pub fn line(&self, ply: usize) -> impl Iterator<Item = Move> + '_ {
        self.lines[ply][..self.len[ply]].iter().flatten().copied()
    }
}
