//! A small command-line parser for the subcommands (`perft`, `bench`,
//! `tune`): named options (`--name value`, `--name=value`), switches
//! (`--name`) and positional words.
//!
//! Each command lists its options in a table of [`Opt`]s and reads the
//! typed values it needs from [`Args`]; every mistake is an [`ArgError`]
//! that names the argument, so `main` can print it with the command's
//! usage. `jiang match` keeps cutechess-cli's syntax and its own parser in
//! the match crate.

use std::fmt;
use std::str::FromStr;

/// One named option a command accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    /// The name with its dashes, e.g. `--threads`.
    pub name: &'static str,
    /// Whether it takes a value (`--threads 2`) or is a switch (`--divide`).
    pub takes_value: bool,
}

impl Opt {
    /// An option with a value.
    pub const fn value(name: &'static str) -> Opt {
        Opt {
            name,
            takes_value: true,
        }
    }

    /// A switch without a value.
    pub const fn switch(name: &'static str) -> Opt {
        Opt {
            name,
            takes_value: false,
        }
    }
}

/// A mistake in the arguments of a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// An option the command does not know.
    Unknown(String),
    /// An option that needs a value came last.
    MissingValue(&'static str),
    /// A switch was given a value (`--divide=yes`).
    UnexpectedValue(&'static str),
    /// A value that does not parse or is out of range.
    BadValue {
        /// The option or positional argument.
        what: String,
        /// The text given.
        value: String,
        /// What was expected, e.g. "a number from 1 to 12".
        expected: String,
    },
    /// A value that parses but cannot be used (a FEN of an impossible
    /// position, an unknown setup name).
    Invalid {
        /// The option.
        what: &'static str,
        /// Why it cannot be used.
        reason: String,
    },
    /// A required positional argument is missing.
    Missing(&'static str),
    /// More positional arguments than the command takes.
    Extra(String),
    /// Two options that exclude each other.
    Conflict(&'static str, &'static str),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Unknown(a) => write!(f, "unknown argument '{a}'"),
            ArgError::MissingValue(n) => write!(f, "{n} needs a value"),
            ArgError::UnexpectedValue(n) => write!(f, "{n} takes no value"),
            ArgError::BadValue {
                what,
                value,
                expected,
            } => write!(f, "{what}: bad value '{value}', expected {expected}"),
            ArgError::Invalid { what, reason } => write!(f, "{what}: {reason}"),
            ArgError::Missing(what) => write!(f, "missing {what}"),
            ArgError::Extra(a) => write!(f, "unexpected argument '{a}'"),
            ArgError::Conflict(a, b) => write!(f, "give {a} or {b}, not both"),
        }
    }
}

impl std::error::Error for ArgError {}

/// Parsed arguments: option values in the order given, and positionals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    named: Vec<(&'static str, Option<String>)>,
    positional: Vec<String>,
}

impl Args {
    /// Split `args` by the option table `opts`. A word starting with `-`
    /// that is not a number must be one of `opts`; `--` ends the options
    /// (everything after it is positional, e.g. a file named `--x.pgn`).
    pub fn parse(args: &[String], opts: &[Opt]) -> Result<Args, ArgError> {
        let mut parsed = Args::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--" {
                parsed.positional.extend(it.by_ref().cloned());
                break;
            }
            if !arg.starts_with('-') || arg.parse::<f64>().is_ok() {
                parsed.positional.push(arg.clone());
                continue;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            let opt = opts
                .iter()
                .find(|o| o.name == name)
                .ok_or_else(|| ArgError::Unknown(arg.clone()))?;
            let value = match (opt.takes_value, inline) {
                (true, Some(v)) => Some(v),
                (true, None) => Some(it.next().ok_or(ArgError::MissingValue(opt.name))?.clone()),
                (false, None) => None,
                (false, Some(_)) => return Err(ArgError::UnexpectedValue(opt.name)),
            };
            parsed.named.push((opt.name, value));
        }
        Ok(parsed)
    }

    /// Whether option `name` was given (for switches).
    pub fn flag(&self, name: &str) -> bool {
        self.named.iter().any(|(n, _)| *n == name)
    }

    /// The value of option `name`; the last one wins when it is repeated.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of option `name` parsed as `T` and accepted by `ok`;
    /// `expected` describes the accepted values for the error message.
    pub fn parsed<T: FromStr>(
        &self,
        name: &str,
        expected: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<Option<T>, ArgError> {
        self.value(name)
            .map(|v| typed(name, v, expected, &ok))
            .transpose()
    }

    /// The positional arguments, in order.
    pub fn positional(&self) -> &[String] {
        &self.positional
    }

    /// Positional argument `i` (named `what` in messages) parsed as `T`
    /// and accepted by `ok`; `None` when there are fewer arguments.
    pub fn positional_parsed<T: FromStr>(
        &self,
        i: usize,
        what: &str,
        expected: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<Option<T>, ArgError> {
        self.positional
            .get(i)
            .map(|v| typed(what, v, expected, &ok))
            .transpose()
    }

    /// Fail when there are more than `n` positional arguments.
    pub fn at_most(&self, n: usize) -> Result<(), ArgError> {
        match self.positional.get(n) {
            Some(extra) => Err(ArgError::Extra(extra.clone())),
            None => Ok(()),
        }
    }
}

fn typed<T: FromStr>(
    what: &str,
    value: &str,
    expected: &str,
    ok: &impl Fn(&T) -> bool,
) -> Result<T, ArgError> {
    value
        .parse::<T>()
        .ok()
        .filter(ok)
        .ok_or_else(|| ArgError::BadValue {
            what: what.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: &[Opt] = &[Opt::value("--threads"), Opt::switch("--divide")];

    fn parse(v: &[&str]) -> Result<Args, ArgError> {
        let v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        Args::parse(&v, OPTS)
    }

    #[test]
    fn values_switches_and_positionals() {
        let a = parse(&["5", "--threads", "2", "--divide", "x", "--threads=3"]);
        assert_eq!(
            a.as_ref()
                .map(|a| (a.value("--threads"), a.flag("--divide"))),
            Ok((Some("3"), true))
        );
        let a = a.unwrap_or_default();
        assert_eq!(a.positional(), ["5", "x"]);
        assert_eq!(a.parsed::<u32>("--threads", "n", |_| true), Ok(Some(3)));
        assert_eq!(
            a.positional_parsed::<u32>(0, "depth", "n", |_| true),
            Ok(Some(5))
        );
        assert_eq!(
            a.positional_parsed::<u32>(2, "depth", "n", |_| true),
            Ok(None)
        );
        assert_eq!(a.at_most(1), Err(ArgError::Extra("x".into())));
        assert!(!parse(&[]).unwrap_or_default().flag("--divide"));
    }

    #[test]
    fn negative_numbers_and_double_dash_are_positional() {
        let a = parse(&["-3", "--", "--divide"]).unwrap_or_default();
        assert_eq!(a.positional(), ["-3", "--divide"]);
        assert!(!a.flag("--divide"));
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(
            parse(&["--bogus"]),
            Err(ArgError::Unknown("--bogus".into()))
        );
        assert_eq!(
            parse(&["--threads"]),
            Err(ArgError::MissingValue("--threads"))
        );
        assert_eq!(
            parse(&["--divide=1"]),
            Err(ArgError::UnexpectedValue("--divide"))
        );
        let a = parse(&["--threads", "0"]).unwrap_or_default();
        let e = a.parsed::<u32>("--threads", "a positive number", |&t| t > 0);
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("--threads: bad value '0', expected a positive number".into())
        );
    }
}
