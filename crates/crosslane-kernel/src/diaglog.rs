//! The diagnostics budget: a diagnostic is merged per line, column, level, rule and message
//! shape (lanes were already merged within a step), listed on its first few steps only, and
//! past [`super::budget::Limits::max_diagnostics`] distinct ones the rest are only counted. A
//! loop that emits a diagnostic every step therefore costs a counter, not a list entry per
//! iteration; [`DiagLog::summary`] says what was left out ("and N more").

use std::collections::HashMap;

use serde::Serialize;

use super::KernelDiagnostic;
use crosslane_core::result::Level;

/// One entry of a run's merged diagnostic list ([`DiagLog::merged`]): every report of the same
/// diagnostic — the same level, rule, line:col and message shape, from any lane, warp, block or
/// step — is one entry. The top-level `"diagnostics"` of `crosslane run --json` (either trace
/// mode) and the text output's closing list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergedDiagnostic {
    /// Severity.
    pub level: Level,
    /// The first report's message; when later reports said it with other numbers or lanes,
    /// without its lane list (" (lanes …)") and marked as the first of them.
    pub message: String,
    /// Line (1-based; 0 for the "and N more" line of diagnostics beyond the limit).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// The rule or document it comes from (may be empty).
    pub rule: String,
    /// Times it was reported: once per warp and step it fired at (all of one warp's lanes at
    /// one step are one report), once for the parse's and the launch's own.
    pub count: u64,
}

/// How many occurrences of one diagnostic are listed on their steps before the rest are counted.
pub const SHOWN_REPEATS: u64 = 3;

type Key = (u32, u32, u8, String, String);

/// Occurrences of each diagnostic so far.
#[derive(Clone, Debug, Default)]
pub struct DiagLog {
    counts: HashMap<Key, (u64, usize)>,
    /// First occurrence of each distinct diagnostic, in order.
    first: Vec<KernelDiagnostic>,
    /// Per distinct diagnostic: whether a later occurrence's message differed from the first's
    /// (its numbers or lane list).
    differs: Vec<bool>,
    max: u64,
    /// Occurrences of diagnostics beyond the distinct limit.
    dropped: u64,
    /// Distinct diagnostics beyond the limit (counted once each, approximately: by key set).
    dropped_keys: HashMap<Key, ()>,
}

/// The message's shape: numbers removed and the lane list / example tail cut, so that
/// "1 + 2 overflows" and "7 + 9 overflows" at one line count as the same diagnostic.
fn shape(message: &str) -> String {
    let cut = message
        .find(" (lanes ")
        .into_iter()
        .chain(message.find(" (e.g. "))
        .min()
        .unwrap_or(message.len());
    message[..cut]
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .take(160)
        .collect()
}

fn level_code(l: Level) -> u8 {
    match l {
        Level::Info => 0,
        Level::Warning => 1,
        Level::Error => 2,
    }
}

impl DiagLog {
    /// A log keeping at most `max` distinct diagnostics.
    pub fn new(max: u64) -> Self {
        DiagLog {
            max,
            ..DiagLog::default()
        }
    }

    /// Counts `d`; returns whether it should be listed (its first [`SHOWN_REPEATS`] occurrences
    /// among the first `max` distinct diagnostics).
    pub fn admit(&mut self, d: &KernelDiagnostic) -> bool {
        let key: Key = (
            d.line,
            d.col,
            level_code(d.level),
            d.rule.clone(),
            shape(&d.message),
        );
        if let Some((n, i)) = self.counts.get_mut(&key) {
            *n += 1;
            if self.first.get(*i).is_some_and(|f| f.message != d.message) {
                if let Some(x) = self.differs.get_mut(*i) {
                    *x = true;
                }
            }
            return *n <= SHOWN_REPEATS;
        }
        if self.counts.len() as u64 >= self.max {
            self.dropped += 1;
            if (self.dropped_keys.len() as u64) < self.max.saturating_mul(8).max(1024) {
                self.dropped_keys.insert(key, ());
            }
            return false;
        }
        self.counts.insert(key, (1, self.first.len()));
        self.first.push(d.clone());
        self.differs.push(false);
        true
    }

    /// Keeps the listed ones of `ds`, counting all of them.
    pub fn filter(&mut self, ds: Vec<KernelDiagnostic>) -> Vec<KernelDiagnostic> {
        ds.into_iter().filter(|d| self.admit(d)).collect()
    }

    /// What was counted but not listed: one line per diagnostic repeated beyond
    /// [`SHOWN_REPEATS`], and "and N more" for those past the distinct limit.
    pub fn summary(&self) -> Vec<KernelDiagnostic> {
        let mut repeated: Vec<(usize, u64)> = self
            .counts
            .values()
            .filter(|(n, _)| *n > SHOWN_REPEATS)
            .map(|&(n, i)| (i, n))
            .collect();
        repeated.sort_unstable();
        let mut out: Vec<KernelDiagnostic> = repeated
            .into_iter()
            .filter_map(|(i, n)| {
                let d = self.first.get(i)?;
                let mut s = d.clone();
                s.message = format!(
                    "{} — {n} times in all; only the first {SHOWN_REPEATS} are listed on their steps",
                    d.message
                );
                Some(s)
            })
            .collect();
        if self.dropped > 0 {
            out.push(KernelDiagnostic {
                line: 0,
                col: 0,
                level: Level::Warning,
                message: format!(
                    "and {} more diagnostic(s) ({}{} distinct) beyond the limit of {} kept; raise it with --max-diagnostics",
                    self.dropped,
                    if self.dropped_keys.len() as u64 >= self.max.saturating_mul(8).max(1024) {
                        "at least "
                    } else {
                        ""
                    },
                    self.dropped_keys.len(),
                    self.max
                ),
                rule: String::new(),
            });
        }
        out
    }

    /// Every diagnostic counted so far, each distinct one once in the order first seen, with
    /// how many times it was reported; past the distinct limit, one "and N more" entry.
    pub fn merged(&self) -> Vec<MergedDiagnostic> {
        let mut counts = vec![0u64; self.first.len()];
        for &(n, i) in self.counts.values() {
            if let Some(c) = counts.get_mut(i) {
                *c = n;
            }
        }
        let mut out: Vec<MergedDiagnostic> = self
            .first
            .iter()
            .zip(counts)
            .zip(&self.differs)
            .map(|((d, count), &differs)| {
                let message = if differs {
                    let base = match d.message.find(" (lanes ") {
                        Some(cut) => {
                            let tail = &d.message[cut + 1..];
                            // The lane list is the parenthesis closing the message's first part.
                            let rest = tail.find(')').map_or("", |e| &tail[e + 1..]);
                            format!("{}{rest}", &d.message[..cut])
                        }
                        None => d.message.clone(),
                    };
                    format!("{base} [the first of {count} reports; the others differ in their numbers or lanes]")
                } else {
                    d.message.clone()
                };
                MergedDiagnostic {
                    level: d.level,
                    message,
                    line: d.line,
                    col: d.col,
                    rule: d.rule.clone(),
                    count,
                }
            })
            .collect();
        if self.dropped > 0 {
            out.extend(self.summary().into_iter().last().map(|d| MergedDiagnostic {
                level: d.level,
                message: d.message,
                line: d.line,
                col: d.col,
                rule: d.rule,
                count: self.dropped,
            }));
        }
        out
    }

    /// Distinct diagnostics listed so far.
    pub fn distinct(&self) -> usize {
        self.first.len()
    }

    /// Occurrences counted in all.
    pub fn total(&self) -> u64 {
        self.counts.values().map(|(n, _)| n).sum::<u64>() + self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(line: u32, m: &str) -> KernelDiagnostic {
        KernelDiagnostic {
            line,
            col: 1,
            level: Level::Warning,
            message: m.into(),
            rule: "C++17 [expr]/4".into(),
        }
    }

    #[test]
    fn repeats_are_counted_and_summarized() {
        let mut log = DiagLog::new(2);
        let shown: Vec<bool> = (0..10)
            .map(|k| log.admit(&d(3, &format!("{k} + 1 overflows int (lanes 0-3)"))))
            .collect();
        assert_eq!(shown.iter().filter(|s| **s).count(), 3);
        assert!(log.admit(&d(4, "other")));
        assert!(!log.admit(&d(5, "third distinct")));
        assert!(!log.admit(&d(6, "fourth distinct")));
        let s = log.summary();
        assert_eq!(s.len(), 2, "{s:?}");
        assert!(s[0].message.contains("10 times in all"), "{}", s[0].message);
        assert!(s[1].message.contains("and 2 more"), "{}", s[1].message);
        assert!(s[1].message.contains("2 distinct"), "{}", s[1].message);
        assert_eq!(log.total(), 13);
        let m = log.merged();
        assert_eq!(m.len(), 3, "{m:?}");
        assert_eq!(m[0].count, 10);
        assert_eq!(
            m[0].message,
            "0 + 1 overflows int [the first of 10 reports; the others differ in their numbers or lanes]"
        );
        assert_eq!(m[1].count, 1);
        assert!(m[2].message.contains("and 2 more"), "{}", m[2].message);
        assert_eq!(m[2].count, 2);
    }
}
