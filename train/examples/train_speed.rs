//! Where a training step's time goes, on a real data file:
//! `cargo run --release -p jiang-train --example train_speed -- FILE MODE [HIDDEN]`
//! with MODE `grad` (the single-thread gradient kernel), `fwd` (the
//! forward pass alone), `step1` or `step2` (whole optimiser steps on one
//! or two threads). Prints positions/s; run under `perf stat` for cycles
//! per position, which a loaded machine disturbs less than the clock.

use std::path::PathBuf;
use std::time::Instant;

use train::trainer::{gradient, loss, Hyper, Trainer};
use train::{Game, LoadOptions, Network, Shape};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(mode)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: speed FILE grad|fwd|step1|step2 [HIDDEN]");
        std::process::exit(2);
    };
    let hidden = args.get(3).and_then(|h| h.parse().ok()).unwrap_or(256);
    let opts = LoadOptions {
        holdout: 0,
        keep_noisy: false,
    };
    let set = match train::load(&[PathBuf::from(file)], opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let shape = Shape {
        hidden,
        buckets: 8,
        ..Shape::DEFAULT
    };
    let hyper = Hyper::default();
    let net = Network::random(Game::Janggi, shape, 1);
    let threads = if mode == "step2" { 2 } else { 1 };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let Ok(pool) = pool else { return };
    let samples = &set.train;
    let t = Instant::now();
    pool.install(|| match mode.as_str() {
        "grad" => {
            let mut grad = vec![0.0f32; shape.len()];
            gradient(&net, samples, &hyper, 1.0, &mut grad);
        }
        "load" => {}
        "fwd" => {
            loss(&net, samples, &hyper);
        }
        _ => {
            let mut tr = Trainer::new(net.clone(), hyper);
            for b in samples.chunks(hyper.batch) {
                tr.step(b, 0.001);
            }
        }
    });
    let pps = samples.len() as f64 / t.elapsed().as_secs_f64();
    println!("{mode}: {} positions, {pps:.0} pos/s", samples.len());
}
