//! Any text, decoded as a permalink, must end in a scenario or a `PermalinkError` — never a
//! panic, never an allocation past the caps — and any scenario it yields must survive a round
//! trip through `encode`.

#![no_main]

use crosslane_core::permalink::{decode, encode, MAX_JSON_LEN, MAX_LINK_LEN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Also reach the inflater with arbitrary bytes behind a valid prefix and base64 body.
    let mut candidates = vec![text.to_string()];
    if !text.starts_with("v1.") {
        use base64::Engine;
        let body = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(data);
        candidates.push(format!("v1.{body}"));
    }
    for link in candidates {
        if let Ok(scenario) = decode(&link) {
            assert!(scenario.to_json().len() <= MAX_JSON_LEN * 2);
            let again = encode(&scenario);
            if again.len() <= MAX_LINK_LEN {
                assert_eq!(decode(&again).ok(), Some(scenario));
            }
        }
    }
});
