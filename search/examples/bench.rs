//! Run the bench: `bench [depth] [threads] [hash]`.
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let depth = a.first().and_then(|d| d.parse().ok());
    let threads = a
        .get(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(search::DEFAULT_THREADS);
    let hash = a
        .get(2)
        .and_then(|d| d.parse().ok())
        .unwrap_or(search::DEFAULT_HASH_MB);
    search::bench(depth, threads, hash, &mut std::io::stdout());
}
