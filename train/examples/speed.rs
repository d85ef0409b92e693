//! Where a training step's time goes, on a real data file:
//! `cargo run --release -p jiang-train --example speed -- FILE [HIDDEN]`.
//! Prints positions/s of the single-thread gradient kernel, of the
//! forward pass alone, and of whole optimiser steps on all threads.

use std::path::PathBuf;
use std::time::Instant;

use train::trainer::{gradient, loss, Hyper, Trainer};
use train::{Game, LoadOptions, Network, Shape};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: speed FILE [HIDDEN]");
        std::process::exit(2);
    };
    let hidden = args.get(2).and_then(|h| h.parse().ok()).unwrap_or(256);
    let set = match train::load(
        &[PathBuf::from(file)],
        LoadOptions {
            holdout: 0,
            keep_noisy: false,
        },
    ) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let shape = Shape { hidden, buckets: 8 };
    let hyper = Hyper::default();
    let net = Network::random(Game::Janggi, shape, 1);
    let n = set.train.len().min(65536);
    let samples = &set.train[..n];
    let mut grad = vec![0.0f32; shape.len()];
    let t = Instant::now();
    gradient(&net, samples, &hyper, 1.0, &mut grad);
    let s = t.elapsed().as_secs_f64();
    println!("gradient, 1 thread: {:.0} pos/s", n as f64 / s);
    let t = Instant::now();
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map(|p| p.install(|| loss(&net, samples, &hyper)))
        .ok();
    println!(
        "forward, 1 thread:  {:.0} pos/s",
        n as f64 / t.elapsed().as_secs_f64()
    );
    let mut tr = Trainer::new(net, hyper);
    let t = Instant::now();
    let mut done = 0;
    for b in set.train.chunks(hyper.batch) {
        tr.step(b, 0.001);
        done += b.len();
    }
    println!(
        "steps, all threads: {:.0} pos/s",
        done as f64 / t.elapsed().as_secs_f64()
    );
}
