//! The option table in each protocol's words: the `option …` lines of
//! `uci` and `ucci`, XBoard's `feature option="…"`, and UCI's tolerant
//! `setoption` syntax.

use super::table::{Dialect, Kind, OptionId, OptionRow, OPTIONS};

/// How UCI and UCCI write an empty string default (Stockfish's
/// convention); `setoption … value <empty>` sets the empty string.
pub const EMPTY: &str = "<empty>";

/// The UCI `option` lines, in table order (UCCI-only rows left out),
/// and in a tuning build the search's parameters after them.
pub fn uci_lines() -> Vec<String> {
    let lines = OPTIONS.iter().filter_map(uci_line);
    #[cfg(feature = "tune")]
    let lines = lines.chain(super::tunables::uci_lines());
    lines.collect()
}

/// The UCCI `option` lines, in table order (rows UCCI lacks left out).
pub fn ucci_lines() -> Vec<String> {
    OPTIONS.iter().filter_map(ucci_line).collect()
}

/// The XBoard `feature option=` lines for the rows XBoard shows, with
/// each option's current value from `current`.
pub fn xboard_lines(current: impl Fn(OptionId) -> String) -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|r| r.xboard)
        .filter_map(|r| xboard_feature(r, &current(r.id)))
        .collect()
}

/// An option in UCI form: `option name Hash type spin default 16 min 1
/// max …`; `None` for a row UCI does not have.
pub fn uci_line(row: &OptionRow) -> Option<String> {
    Some(uci_line_named(row.uci?, row.kind))
}

/// The UCI `option` line of an option called `name` of this kind.
pub fn uci_line_named(name: &str, kind: Kind) -> String {
    option_line(&format!("name {name}"), kind, false)
}

/// An option in UCCI form, without the `name` keyword and with the limits
/// before the default: `option hashsize type spin min 1 max … default
/// 16`; `None` for a row UCCI does not have.
pub fn ucci_line(row: &OptionRow) -> Option<String> {
    Some(option_line(row.ucci?, row.kind, true))
}

/// `option <head> type <kind>` followed by the default and the limits
/// (`min … max …`, or the combo's `var …` words) in the protocol's order.
fn option_line(head: &str, kind: Kind, limits_first: bool) -> String {
    let (kind_word, default, limits) = match kind {
        Kind::Spin { default, min, max } => {
            ("spin", default.to_string(), format!("min {min} max {max}"))
        }
        Kind::Check { default } => ("check", default.to_string(), String::new()),
        Kind::Combo { default, values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            ("combo", default.to_string(), vars.join(" "))
        }
        Kind::Button => return format!("option {head} type button"),
        Kind::Text { default } => {
            let shown = if default.is_empty() { EMPTY } else { default };
            ("string", shown.to_string(), String::new())
        }
    };
    let default = format!("default {default}");
    let mut words = vec![format!("option {head} type {kind_word}")];
    if limits_first {
        words.extend([limits, default]);
    } else {
        words.extend([default, limits]);
    }
    words.retain(|w| !w.is_empty());
    words.join(" ")
}

/// An option in XBoard form, `feature option="Move Overhead -spin 10 0
/// 5000"`, showing `current`; `None` for a row without a UCI name (XBoard
/// sets options by those).
pub fn xboard_feature(row: &OptionRow, current: &str) -> Option<String> {
    let name = row.uci?;
    let body = match row.kind {
        Kind::Spin { min, max, .. } => format!("{name} -spin {current} {min} {max}"),
        Kind::Check { .. } => format!("{name} -check {}", u8::from(current == "true")),
        Kind::Combo { values, .. } => {
            let list: Vec<String> = values
                .iter()
                .map(|v| {
                    if *v == current {
                        format!("*{v}")
                    } else {
                        (*v).to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", list.join(" /// "))
        }
        Kind::Button => format!("{name} -button"),
        // XBoard's file chooser; its value is the path as typed.
        Kind::Text { .. } => format!("{name} -file {current}"),
    };
    Some(format!("feature option=\"{body}\""))
}

/// Split a tolerant UCI `setoption` argument list into name and value:
/// `name Clear Hash`, `name Hash value 64`, and the keyword-less
/// `Threads 4` some GUIs send (the last word is the value then, unless the
/// whole text names an option).
pub fn split_setoption(args: &str) -> Option<(String, String)> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let name_at = lower.iter().position(|w| w == "name");
    let value_at = lower.iter().position(|w| w == "value");
    match (name_at, value_at) {
        (Some(n), Some(v)) if v > n => Some((words[n + 1..v].join(" "), words[v + 1..].join(" "))),
        (Some(n), None) => Some((words[n + 1..].join(" "), String::new())),
        (None, Some(v)) => Some((words[..v].join(" "), words[v + 1..].join(" "))),
        _ => {
            let all = words.join(" ");
            if OptionId::find(&all, Dialect::Uci).is_some() || words.len() == 1 {
                Some((all, String::new()))
            } else {
                let (last, rest) = words.split_last()?;
                Some((rest.join(" "), (*last).to_string()))
            }
        }
    }
}
