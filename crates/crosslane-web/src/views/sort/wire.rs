//! The sort worker's answer as the page reads it: the JSON that `worker::sort` writes (serde's
//! derived form of `Result<SortRun, InputError>`, unchanged), read field by field from a
//! `serde_json::Value` instead of through serde's derived deserializers. Those deserializers,
//! one per type of the run and the core's report, were about 13 KB (gzipped) of the page's first
//! module, which the page must download before its first render; this reader is a few hundred
//! bytes. Tested natively against the derived serializer (`model.rs`, tests).

use crosslane_core::network::report::KeysFrom;
use crosslane_core::network::verify::{RandomCheck, VerifyReport, ZeroOneCheck};
use crosslane_core::network::{Comparator, NetworkFigures, SortReport, Stage};
use crosslane_core::InputError;
use serde_json::Value;

use super::model::{Fired, SortRun, StageRun};

/// A field read, or `None` where the answer is not what the worker writes (no message per
/// field: each distinct message is code in the first module, and this never happens with the
/// page's own worker).
type Read<T> = Option<T>;

fn at<'a>(v: &'a Value, name: &str) -> Read<&'a Value> {
    v.get(name)
}

fn u64_at(v: &Value, name: &str) -> Read<u64> {
    at(v, name)?.as_u64()
}

fn usize_at(v: &Value, name: &str) -> Read<usize> {
    usize::try_from(u64_at(v, name)?).ok()
}

fn bool_at(v: &Value, name: &str) -> Read<bool> {
    at(v, name)?.as_bool()
}

fn f64_at(v: &Value, name: &str) -> Read<f64> {
    at(v, name)?.as_f64()
}

fn str_at(v: &Value, name: &str) -> Read<String> {
    at(v, name)?.as_str().map(str::to_string)
}

/// The array `v[name]`, each item read by `item`.
fn list_at<T>(v: &Value, name: &str, item: impl Fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    list(at(v, name)?, item)
}

fn list<T>(v: &Value, item: impl Fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    v.as_array()?.iter().map(item).collect()
}

/// `v[name]`, `None` inside where it is `null` (serde's `Option`).
fn opt_at<T>(v: &Value, name: &str, read: impl Fn(&Value) -> Read<T>) -> Read<Option<T>> {
    match at(v, name)? {
        Value::Null => Some(None),
        x => read(x).map(Some),
    }
}

fn i64s_at(v: &Value, name: &str) -> Read<Vec<i64>> {
    list_at(v, name, Value::as_i64)
}

fn comparator(v: &Value) -> Read<Comparator> {
    Some(Comparator {
        lo: usize_at(v, "lo")?,
        hi: usize_at(v, "hi")?,
    })
}

fn report(v: &Value) -> Read<SortReport> {
    let f = at(v, "figures")?;
    Some(SortReport {
        len: usize_at(v, "len")?,
        seed: u64_at(v, "seed")?,
        keys_from: match at(v, "keys_from")?.as_str()? {
            "random" => KeysFrom::Random,
            "values" => KeysFrom::Values,
            _ => return None,
        },
        figures: NetworkFigures {
            len: usize_at(f, "len")?,
            comparators: u64_at(f, "comparators")?,
            stages: usize_at(f, "stages")?,
            stages_formula: usize_at(f, "stages_formula")?,
            comparators_formula: opt_at(f, "comparators_formula", Value::as_u64)?,
        },
        stages: opt_at(v, "stages", |x| {
            list(x, |s| {
                Some(Stage {
                    p: usize_at(s, "p")?,
                    k: usize_at(s, "k")?,
                    comparators: list_at(s, "comparators", comparator)?,
                })
            })
        })?,
        input: i64s_at(v, "input")?,
        output: i64s_at(v, "output")?,
        matches_sort_unstable: bool_at(v, "matches_sort_unstable")?,
        verify: opt_at(v, "verify", verify)?,
    })
}

fn verify(v: &Value) -> Read<VerifyReport> {
    let r = at(v, "random")?;
    Some(VerifyReport {
        len: usize_at(v, "len")?,
        zero_one: opt_at(v, "zero_one", |z| {
            Some(ZeroOneCheck {
                inputs: u64_at(z, "inputs")?,
                failures: u64_at(z, "failures")?,
                first_failure: opt_at(z, "first_failure", Value::as_u64)?,
            })
        })?,
        random: RandomCheck {
            seed: u64_at(r, "seed")?,
            trials: u64_at(r, "trials")?,
            key_range: u32::try_from(u64_at(r, "key_range")?).ok()?,
            failures: u64_at(r, "failures")?,
            first_failure: opt_at(r, "first_failure", |x| {
                list(x, |k| u32::try_from(k.as_u64()?).ok())
            })?,
        },
        ok: bool_at(v, "ok")?,
    })
}

fn stage_run(v: &Value) -> Read<StageRun> {
    Some(StageRun {
        p: usize_at(v, "p")?,
        k: usize_at(v, "k")?,
        comparators: u64_at(v, "comparators")?,
        swaps: u64_at(v, "swaps")?,
        in_order: f64_at(v, "in_order")?,
        fired: opt_at(v, "fired", |x| {
            list(x, |f| {
                Some(Fired {
                    comparator: comparator(at(f, "comparator")?)?,
                    swapped: bool_at(f, "swapped")?,
                })
            })
        })?,
        keys: i64s_at(v, "keys")?,
    })
}

fn run(v: &Value) -> Read<SortRun> {
    let range = at(v, "key_range")?.as_array()?;
    let [lo, hi] = range.as_slice() else {
        return None;
    };
    Some(SortRun {
        report: report(at(v, "report")?)?,
        drawn: bool_at(v, "drawn")?,
        initial_in_order: f64_at(v, "initial_in_order")?,
        stages: list_at(v, "stages", stage_run)?,
        walk_matches_exec: bool_at(v, "walk_matches_exec")?,
        key_range: (lo.as_i64()?, hi.as_i64()?),
    })
}

/// The worker's answer `json` (`{"Ok": run}` or `{"Err": {"field", "message"}}`): the run, or
/// the error the worker refused the walk with. An answer that does not read (a bug between the
/// page and its worker, never user input) is an [`InputError`] on field `sort`.
pub fn read_answer(json: &str) -> Result<SortRun, InputError> {
    let v: Option<Value> = serde_json::from_str(json).ok();
    let answer = v.as_ref().and_then(|v| match v.get("Err") {
        Some(err) => Some(Err(InputError::new(
            str_at(err, "field")?,
            str_at(err, "message")?,
        ))),
        None => run(at(v, "Ok")?).map(Ok),
    });
    answer.unwrap_or_else(|| {
        Err(InputError::new(
            "sort",
            "the sort worker's answer does not read back as a walk",
        ))
    })
}
