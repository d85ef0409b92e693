//! `jiang train`: the command line of the network trainer (crate
//! `jiang-train`, which does the work): options into a
//! [`train::TrainConfig`], and a line per epoch.
//!
//! ```text
//! jiang train --out FILE [--inputs plain|general-buckets] [--hidden H]
//!             [--buckets B] [--epochs N] [--batch N] [--lr X]
//!             [--schedule cosine|step|constant] … FILES…
//! ```

use std::path::PathBuf;

use nnue::InputSet;
use train::run::{sibling, Event};
use train::{Schedule, Shape, TrainConfig};

use crate::cli::args::{ArgError, Args, Opt};

const OPTIONS: &[Opt] = &[
    Opt::value("--out"),
    Opt::value("--best"),
    Opt::value("--checkpoint"),
    Opt::switch("--resume"),
    Opt::value("--inputs"),
    Opt::value("--hidden"),
    Opt::value("--buckets"),
    Opt::value("--epochs"),
    Opt::value("--batch"),
    Opt::value("--lr"),
    Opt::value("--schedule"),
    Opt::value("--lr-end"),
    Opt::value("--lr-step"),
    Opt::value("--lr-gamma"),
    Opt::value("--wd"),
    Opt::value("--lambda"),
    Opt::value("--scale"),
    Opt::value("--seed"),
    Opt::value("--holdout"),
    Opt::value("--threads"),
    Opt::switch("--keep-noisy"),
    Opt::switch("--no-factorise"),
];

/// Parse the arguments after `train`.
pub fn parse_args(args: &[String]) -> Result<TrainConfig, ArgError> {
    let a = Args::parse(args, OPTIONS)?;
    let files: Vec<PathBuf> = a.positional().iter().map(PathBuf::from).collect();
    if files.is_empty() {
        return Err(ArgError::Missing("data file"));
    }
    let out = PathBuf::from(a.value("--out").ok_or(ArgError::Missing("--out FILE"))?);
    let mut c = TrainConfig::new(files, out);
    let positive = |name| a.parsed(name, "a positive number", |&n: &usize| n > 0);
    let rate = |name| {
        a.parsed(name, "a positive number", |&x: &f32| {
            x > 0.0 && x.is_finite()
        })
    };
    let fraction = |name| {
        a.parsed(name, "a number from 0 to 1", |x: &f32| {
            (0.0..=1.0).contains(x)
        })
    };
    if let Some(p) = a.value("--best") {
        c.best = PathBuf::from(p);
    }
    c.checkpoint = a
        .value("--checkpoint")
        .map_or_else(|| sibling(&c.out, ".ckpt"), PathBuf::from);
    c.resume = a.flag("--resume");
    let shape_text = format!(
        "a multiple of {} from {} to {}",
        nnue::HIDDEN_STEP,
        nnue::HIDDEN_RANGE.start(),
        nnue::HIDDEN_RANGE.end()
    );
    let buckets_text = format!(
        "a number from {} to {}",
        nnue::BUCKET_RANGE.start(),
        nnue::BUCKET_RANGE.end()
    );
    // Each size checked alone against the file format's limits (a shape
    // is valid when both are).
    let hidden_ok = |&h: &usize| {
        Shape {
            hidden: h,
            ..Shape::DEFAULT
        }
        .is_valid()
    };
    let buckets_ok = |&b: &usize| {
        Shape {
            buckets: b,
            ..Shape::DEFAULT
        }
        .is_valid()
    };
    let inputs = match a.value("--inputs") {
        None => c.shape.inputs,
        Some(v) => InputSet::from_name(v).ok_or_else(|| ArgError::BadValue {
            what: "--inputs".into(),
            value: v.into(),
            expected: "plain or general-buckets (docs/NNUE.md, Inputs)".into(),
        })?,
    };
    c.shape = Shape {
        inputs,
        hidden: a
            .parsed("--hidden", &shape_text, hidden_ok)?
            .unwrap_or(c.shape.hidden),
        buckets: a
            .parsed("--buckets", &buckets_text, buckets_ok)?
            .unwrap_or(c.shape.buckets),
    };
    c.epochs = positive("--epochs")?.unwrap_or(c.epochs);
    let h = &mut c.hyper;
    h.batch = positive("--batch")?.unwrap_or(h.batch);
    h.lr = rate("--lr")?.unwrap_or(h.lr);
    h.weight_decay = a
        .parsed("--wd", "a number ≥ 0", |&x: &f32| {
            x >= 0.0 && x.is_finite()
        })?
        .unwrap_or(h.weight_decay);
    h.factorise = !a.flag("--no-factorise");
    h.lambda = fraction("--lambda")?.unwrap_or(h.lambda);
    h.k = rate("--scale")?.unwrap_or(h.k);
    h.schedule = match a.value("--schedule").unwrap_or("cosine") {
        "cosine" => Schedule::Cosine {
            final_ratio: fraction("--lr-end")?.unwrap_or(0.05),
        },
        "step" => Schedule::Step {
            every: positive("--lr-step")?.unwrap_or(4),
            gamma: fraction("--lr-gamma")?.unwrap_or(0.3),
        },
        "constant" => Schedule::Constant,
        v => {
            return Err(ArgError::BadValue {
                what: "--schedule".into(),
                value: v.into(),
                expected: "cosine, step or constant".into(),
            })
        }
    };
    c.seed = a
        .parsed("--seed", "a whole number", |_| true)?
        .unwrap_or(c.seed);
    c.holdout = a
        .parsed("--holdout", "a whole number (0: none)", |_| true)?
        .unwrap_or(c.holdout);
    c.threads = positive("--threads")?.unwrap_or(0);
    c.keep_noisy = a.flag("--keep-noisy");
    Ok(c)
}

/// One epoch's line.
fn epoch_line(r: &train::EpochReport) -> String {
    let valid = r
        .valid_loss
        .map_or_else(String::new, |v| format!("  valid {v:.6}"));
    format!(
        "epoch {}/{}  lr {:.6}  train {:.6}{valid}{}  {:.0} pos/s  {:.1} s",
        r.epoch,
        r.epochs,
        r.lr,
        r.train_loss,
        if r.best { " *" } else { "" },
        r.positions_per_s,
        r.seconds
    )
}

/// `jiang train`.
pub fn run(c: &TrainConfig) -> Result<(), String> {
    train::run(c, |e| match e {
        Event::Data(game, d) => println!(
            "{}: {} games, {} training positions, {} validation, {} noisy skipped",
            nnue::game_name(game),
            d.games,
            d.train,
            d.valid,
            d.skipped
        ),
        Event::Resumed(n) => println!("resumed after epoch {n}"),
        Event::Epoch(r) => println!("{}", epoch_line(&r)),
    })
    .map_err(|e| e.to_string())?;
    println!("network: {}", c.out.display());
    if c.holdout > 0 {
        println!("lowest validation loss: {}", c.best.display());
    }
    println!("checkpoint: {}", c.checkpoint.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options() {
        let c = parse_args(&v(&[
            "--out",
            "n.jnn",
            "--hidden",
            "64",
            "--lambda",
            "0.25",
            "--schedule",
            "step",
            "--lr-step",
            "2",
            "a.bin",
            "b.bin",
        ]))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.files.len(), 2);
        assert_eq!(c.shape.hidden, 64);
        assert_eq!(c.shape.inputs, InputSet::Plain, "the default");
        let b = parse_args(&v(&["--out", "n", "--inputs", "general-buckets", "a"]));
        assert_eq!(b.map(|c| c.shape.inputs), Ok(InputSet::GeneralBuckets));
        assert_eq!(c.hyper.lambda, 0.25);
        assert_eq!(
            c.hyper.schedule,
            Schedule::Step {
                every: 2,
                gamma: 0.3
            }
        );
        assert_eq!(c.best, PathBuf::from("n-best.jnn"));
        assert_eq!(c.checkpoint, PathBuf::from("n.jnn.ckpt"));
        for bad in [
            &["a.bin"][..],
            &["--out", "n"],
            &["--out", "n", "--hidden", "12", "a"],
            &["--out", "n", "--buckets", "0", "a"],
            &["--out", "n", "--lambda", "2", "a"],
            &["--out", "n", "--schedule", "linear", "a"],
            &["--out", "n", "--lr", "-1", "a"],
            &["--out", "n", "--inputs", "buckets", "a"],
        ] {
            assert!(parse_args(&v(bad)).is_err(), "{bad:?}");
        }
    }
}
