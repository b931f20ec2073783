//! The report of `crosslane sort --len N [--seed S] [--values LIST] [--json]` (docs/cli.md,
//! "Command-line contract"): the network's figures, its stages for small n, the input and the
//! sorted output, and the checks. The CLI prints [`SortReport`]'s `Display` table or
//! [`SortReport::to_json`]; the page can show the same fields.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::verify::{verify, VerifyReport, MAX_EXHAUSTIVE_LEN};
use super::{closed_form, exec, figures, NetworkFigures, Stage, MAX_NETWORK_LEN};
use crate::error::InputError;
use crate::params::parse_int;

/// The longest input a report sorts: 2^20 keys.
pub const MAX_REPORT_LEN: usize = 1 << 20;

/// Stages are listed (comparator by comparator) up to this many keys.
pub const MAX_LISTED_LEN: usize = 64;

/// Random keys are drawn from `0..RANDOM_KEY_RANGE` by [`super::keys`](fn@super::keys) (the one generator every
/// sort shares).
pub const RANDOM_KEY_RANGE: i64 = super::keys::KEY_RANGE as i64;

/// Random inputs checked by the report's verification.
pub const REPORT_TRIALS: u64 = 100;

/// Where the input keys came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeysFrom {
    /// Drawn from the seed, uniform in `0..RANDOM_KEY_RANGE`.
    Random,
    /// Given with `--values`.
    Values,
}

/// Everything `crosslane sort` reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SortReport {
    /// Number of keys n.
    pub len: usize,
    /// Seed of the random input and of the random verification.
    pub seed: u64,
    /// Where the keys came from.
    pub keys_from: KeysFrom,
    /// Comparator and stage counts with their formulas.
    pub figures: NetworkFigures,
    /// The stages with their comparators, for `len ≤` [`MAX_LISTED_LEN`].
    pub stages: Option<Vec<Stage>>,
    /// The input keys.
    pub input: Vec<i64>,
    /// The keys after the network ([`exec::sort_keys`]).
    pub output: Vec<i64>,
    /// Whether `output` equals `input` sorted by `sort_unstable`.
    pub matches_sort_unstable: bool,
    /// 0-1 principle and random checks, for `len ≤` [`MAX_NETWORK_LEN`].
    pub verify: Option<VerifyReport>,
}

impl SortReport {
    /// Whether every check passed (the CLI exits 1 otherwise).
    pub fn ok(&self) -> bool {
        self.matches_sort_unstable && self.verify.as_ref().is_none_or(|v| v.ok)
    }

    /// The report as JSON (the CLI's `--json`; `{:#}` pretty-prints it): the fields of
    /// [`SortReport`] plus `"ok"` ([`SortReport::ok`]).
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(object) = json.as_object_mut() {
            object.insert("ok".to_string(), serde_json::Value::Bool(self.ok()));
        }
        json
    }
}

/// Builds the report: `values` (a comma list of integers) if given, else `len` random keys from
/// `seed`.
///
/// # Errors
/// [`InputError`] on `len` when neither is given, when `len` is outside
/// `1..=`[`MAX_REPORT_LEN`], or when it disagrees with the number of values; on `values[i]` for
/// an item that is not an integer.
pub fn report(
    len: Option<usize>,
    seed: u64,
    values: Option<&str>,
) -> Result<SortReport, InputError> {
    let (input, keys_from) = match values.filter(|v| !v.trim().is_empty()) {
        Some(text) => {
            let keys = text
                .split(',')
                .enumerate()
                .map(|(i, item)| {
                    parse_int(item).ok_or_else(|| {
                        InputError::new(
                            format!("values[{i}]"),
                            format!(
                                "`{}` is not an integer (decimal, 0x hex, or negative)",
                                item.trim()
                            ),
                        )
                    })
                })
                .collect::<Result<Vec<i64>, _>>()?;
            if let Some(n) = len.filter(|&n| n != keys.len()) {
                return Err(InputError::new(
                    "len",
                    format!("--len {n} but --values has {} items", keys.len()),
                ));
            }
            (keys, KeysFrom::Values)
        }
        None => {
            let n = len.ok_or_else(|| {
                InputError::new("len", "give --len N (1..=1048576) or --values LIST")
            })?;
            check_len(n)?;
            let keys = super::keys(n, seed).into_iter().map(i64::from).collect();
            (keys, KeysFrom::Random)
        }
    };
    let n = input.len();
    check_len(n)?;
    let mut output = input.clone();
    exec::sort_keys(&mut output);
    let mut expected = input.clone();
    expected.sort_unstable();
    let verify = if n <= MAX_NETWORK_LEN {
        Some(verify(n, seed, REPORT_TRIALS)?)
    } else {
        None
    };
    Ok(SortReport {
        len: n,
        seed,
        keys_from,
        figures: figures(n),
        stages: (n <= MAX_LISTED_LEN).then(|| closed_form::network(n).stages),
        matches_sort_unstable: output == expected,
        input,
        output,
        verify,
    })
}

fn check_len(n: usize) -> Result<(), InputError> {
    if (1..=MAX_REPORT_LEN).contains(&n) {
        Ok(())
    } else {
        Err(InputError::out_of_range(
            "len",
            n as i64,
            1,
            MAX_REPORT_LEN as i64,
        ))
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}

fn keys_line(keys: &[i64]) -> String {
    if keys.len() <= MAX_LISTED_LEN {
        keys.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("({} keys; --json lists them)", keys.len())
    }
}

/// `1 key`, `2 keys`: a count with its noun.
fn counted(n: impl fmt::Display, noun: &str) -> String {
    if n.to_string() == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

impl fmt::Display for SortReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fig = &self.figures;
        match self.keys_from {
            KeysFrom::Random => writeln!(
                f,
                "Batcher odd-even merge sort of {} (random, seed {}, keys in 0..{RANDOM_KEY_RANGE})",
                counted(self.len, "key"),
                self.seed
            )?,
            KeysFrom::Values => {
                writeln!(f, "Batcher odd-even merge sort of {} (--values)", counted(self.len, "key"))?
            }
        }
        write!(
            f,
            "network: {} in {} (⌈log2 n⌉(⌈log2 n⌉+1)/2 = {})",
            counted(fig.comparators, "comparator"),
            counted(fig.stages, "stage"),
            fig.stages_formula
        )?;
        match fig.comparators_formula {
            Some(c) => writeln!(f, "; n = 2^m: (m²−m+4)·2^(m−2)−1 = {c}")?,
            None => writeln!(f)?,
        }
        if let Some(stages) = &self.stages {
            writeln!(
                f,
                "{:>5} {:>5} {:>5}  comparators (lo-hi)",
                "stage", "p", "k"
            )?;
            for (i, s) in stages.iter().enumerate() {
                let list: Vec<String> = s
                    .comparators
                    .iter()
                    .map(|c| format!("{}-{}", c.lo, c.hi))
                    .collect();
                writeln!(f, "{:>5} {:>5} {:>5}  {}", i + 1, s.p, s.k, list.join(" "))?;
            }
        }
        writeln!(f, "input:  {}", keys_line(&self.input))?;
        writeln!(f, "output: {}", keys_line(&self.output))?;
        writeln!(
            f,
            "output equals sort_unstable: {}",
            yes(self.matches_sort_unstable)
        )?;
        match &self.verify {
            Some(v) => {
                match &v.zero_one {
                    Some(z) => writeln!(
                        f,
                        "0-1 principle: {} of {} 0-1 inputs sorted{}",
                        z.inputs - z.failures,
                        z.inputs,
                        z.first_failure
                            .map(|x| format!(" (first failure: input {x:#b})"))
                            .unwrap_or_default()
                    )?,
                    None => writeln!(
                        f,
                        "0-1 principle: not exhaustive above n = {MAX_EXHAUSTIVE_LEN}"
                    )?,
                }
                writeln!(
                    f,
                    "random: {} inputs (seed {}, keys in 0..{}): {} failures",
                    v.random.trials, v.random.seed, v.random.key_range, v.random.failures
                )?;
            }
            None => writeln!(f, "verification: skipped above n = {MAX_NETWORK_LEN}")?,
        }
        writeln!(f, "result: {}", if self.ok() { "sorted" } else { "FAILED" })
    }
}
