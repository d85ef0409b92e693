//! The `jiang` engine: protocol front-ends and commands over the rules core.
pub mod matchrunner;
