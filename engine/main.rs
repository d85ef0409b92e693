//! The `jiang` binary.
fn main() {}
