//! Any text as the sort's `--values` list (and a length and seed from the first bytes): a report
//! or an `InputError`, never a panic — integer text past i64 or i128 included.

#![no_main]

use crosslane_core::network::report;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (len, rest) = match data.split_first() {
        Some((l, rest)) => (usize::from(*l), rest),
        None => return,
    };
    let text = String::from_utf8_lossy(rest);
    let _ = report(Some(len), 1, Some(&text));
    let _ = report(None, u64::from(len as u8), Some(&text));
    let _ = crosslane_core::params::parse_int(&text);
});
