//! Benchmark programs live in this package's `[[bench]]` targets (see
//! `Cargo.toml`); run them with `cargo bench -p jiang-bench`.
