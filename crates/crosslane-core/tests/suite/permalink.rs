//! The permalink codec: golden links stay readable forever, every scenario round-trips, and
//! hostile links fail with the right error without doing unbounded work.

use std::collections::BTreeMap;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use crosslane_core::permalink::{
    decode, encode, inflate, scenario_of_json, unpack, PermalinkError, MAX_JSON_LEN, MAX_LINK_LEN,
};
use crosslane_core::scenario::{Scenario, ScenarioError, View};
use crosslane_core::OpRequest;
use proptest::prelude::*;

const GOLDEN: &str = include_str!("../golden_links.json");

fn zlib_link(bytes: &[u8]) -> String {
    format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec_zlib(bytes, 9))
    )
}

fn seed_000() -> Scenario {
    Scenario::new(View::Op(OpRequest {
        dialect: "ascend".into(),
        op: "asc_shfl_xor".into(),
        params: BTreeMap::from([
            ("lane_mask".to_string(), "1".to_string()),
            ("width".to_string(), "16".to_string()),
        ]),
        ..OpRequest::default()
    }))
}

#[test]
fn golden_links_decode_to_their_scenarios() {
    let doc: serde_json::Value = serde_json::from_str(GOLDEN).expect("golden file is JSON");
    let links = doc["links"].as_array().expect("links array");
    assert!(links.len() >= 7, "golden links went missing");
    for case in links {
        let name = case["name"].as_str().unwrap_or("?");
        let link = case["link"].as_str().expect("link text");
        let want = Scenario::from_json(case["scenario"].to_string().as_bytes())
            .unwrap_or_else(|e| panic!("{name}: golden scenario unreadable: {e}"));
        let got = decode(link).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, want, "{name}");
        // And what this build writes for it reads back the same.
        assert_eq!(decode(&encode(&want)), Ok(want), "{name}");
    }
}

#[test]
fn golden_seed_link_means_the_seed_example() {
    let doc: serde_json::Value = serde_json::from_str(GOLDEN).expect("golden file is JSON");
    let first = doc["links"][0]["link"].as_str().expect("link");
    let s = decode(first).expect("decodes");
    assert_eq!(s, seed_000());
    let View::Op(req) = s.view else {
        panic!("op view")
    };
    let step = req.run().expect("runs");
    let lanes: Vec<Option<i64>> = step
        .results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect();
    assert_eq!(lanes[..4], [Some(1), Some(0), Some(3), Some(2)]);
}

#[test]
fn markup_round_trips_as_plain_text_and_links_are_url_safe() {
    let mut s = seed_000();
    let script = "<script>alert('x')</script>\"&<>";
    s.view = View::Op(OpRequest {
        dialect: script.into(),
        values: script.into(),
        params: BTreeMap::from([(script.to_string(), script.to_string())]),
        ..OpRequest::default()
    });
    let link = encode(&s);
    let body = link.strip_prefix("v1.").expect("prefix");
    assert!(body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    let back = decode(&link).expect("decodes");
    let View::Op(req) = back.view else {
        panic!("op view")
    };
    assert_eq!(req.dialect, script);
    assert_eq!(req.params.get(script).map(String::as_str), Some(script));
}

#[test]
fn truncated_links_say_truncated() {
    let link = encode(&seed_000());
    for cut in [
        link.len() - 1,
        link.len() - 2,
        link.len() - 5,
        link.len() / 2,
        4,
        3,
    ] {
        let e = decode(&link[..cut]).unwrap_err();
        assert_eq!(e, PermalinkError::Truncated, "cut at {cut}");
    }
    assert_eq!(
        PermalinkError::Truncated.to_string(),
        "permalink truncated: the link was cut short; copy the whole link"
    );
}

#[test]
fn bad_base64_names_the_character() {
    let link = encode(&seed_000());
    let bad = format!("{}!{}", &link[..10], &link[11..]);
    assert_eq!(decode(&bad), Err(PermalinkError::NotBase64("!".into())));
    let e = decode("v1.abc$def").unwrap_err();
    assert_eq!(e, PermalinkError::NotBase64("$".into()));
    assert!(e.to_string().contains("not base64url"));
    // Standard base64's '+' and '/' and padding are not base64url.
    assert!(matches!(
        decode("v1.ab+/"),
        Err(PermalinkError::NotBase64(_))
    ));
    assert!(matches!(
        decode("v1.abcd=="),
        Err(PermalinkError::NotBase64(_))
    ));
    assert_eq!(
        decode("v1.ab€d"),
        Err(PermalinkError::NotBase64("€".into()))
    );
}

#[test]
fn other_versions_and_no_prefix_are_refused() {
    let body = encode(&seed_000()).replacen("v1.", "", 1);
    let e = decode(&format!("v9.{body}")).unwrap_err();
    assert_eq!(
        e,
        PermalinkError::WrongVersion {
            found: "v9.".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "permalink format `v9.` is not supported; this build reads `v1.` links"
    );
    assert_eq!(decode(&body), Err(PermalinkError::NoPrefix));
    assert_eq!(decode(""), Err(PermalinkError::NoPrefix));
    assert_eq!(decode("v1."), Err(PermalinkError::Truncated));
    // A scenario of another version inside a v1 link.
    let v2 = zlib_link(br#"{"version":2,"view":{"op":{"dialect":"cuda","op":"x"}}}"#);
    assert_eq!(
        decode(&v2),
        Err(PermalinkError::NotAScenario(
            ScenarioError::UnsupportedVersion { found: 2 }
        ))
    );
}

#[test]
fn a_compression_bomb_stops_at_the_cap() {
    // 10 MB of zeros inflates from about 10 KB: under the link cap, far over the JSON cap.
    let bomb = zlib_link(&vec![0u8; 10 * 1024 * 1024]);
    assert!(bomb.len() <= MAX_LINK_LEN, "bomb is {} bytes", bomb.len());
    assert_eq!(
        decode(&bomb),
        Err(PermalinkError::TooLarge {
            what: "inflated scenario",
            limit: MAX_JSON_LEN
        })
    );
    // Just under the cap inflates, and then is refused as JSON, not as size.
    let under = zlib_link(&vec![b' '; MAX_JSON_LEN]);
    assert!(matches!(
        decode(&under),
        Err(PermalinkError::NotAScenario(_))
    ));
}

#[test]
fn unpack_checks_the_link_without_inflating_it() {
    // The page inflates with the browser (DecompressionStream), so `unpack` must hand back a
    // bomb's few KB of zlib stream untouched, and refuse by itself what needs no inflating.
    let bomb = zlib_link(&vec![0u8; 10 * 1024 * 1024]);
    let packed = unpack(&bomb).expect("a bomb is a well-formed link");
    assert!(packed.len() < MAX_LINK_LEN, "{} bytes", packed.len());
    // RFC 1950 §2.2: CMF 0x78 is deflate with a 32 KiB window; miniz writes FLG 0xDA at level 9.
    assert_eq!(packed[..2], [0x78, 0xDA]);
    assert_eq!(
        unpack(&format!("v1.{}", "A".repeat(MAX_LINK_LEN))),
        Err(PermalinkError::TooLarge {
            what: "link",
            limit: MAX_LINK_LEN
        })
    );
    assert_eq!(unpack("hello"), Err(PermalinkError::NoPrefix));
    assert_eq!(unpack(" v1. "), Err(PermalinkError::Truncated));
    assert_eq!(
        unpack("v1.eNo*!$"),
        Err(PermalinkError::NotBase64("*".into()))
    );
    // The three steps are `decode`.
    let link = encode(&seed_000());
    let json = inflate(&unpack(&link).unwrap()).unwrap();
    assert_eq!(scenario_of_json(&json), Ok(seed_000()));
    assert_eq!(decode(&link), Ok(seed_000()));
}

#[test]
fn oversized_links_are_refused_before_decoding() {
    let long = format!("v1.{}", "A".repeat(MAX_LINK_LEN));
    assert_eq!(
        decode(&long),
        Err(PermalinkError::TooLarge {
            what: "link",
            limit: MAX_LINK_LEN
        })
    );
    // A scenario too big to link: encode makes it, decode refuses it.
    // xorshift64 noise: deflate cannot shrink it much.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let noise: String = (0..40_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(b'!' + (x >> 58) as u8)
        })
        .collect();
    let s = Scenario::new(View::Kernel {
        source: noise,
        blocks: 1,
        threads_per_block: 32,
        lanes: 32,
        step: 0,
    });
    let link = encode(&s);
    assert!(link.len() > MAX_LINK_LEN);
    assert!(matches!(
        decode(&link),
        Err(PermalinkError::TooLarge { what: "link", .. })
    ));
}

#[test]
fn damaged_data_is_corrupt_or_not_a_scenario() {
    // Valid base64, not zlib.
    let e = decode(&format!("v1.{}", URL_SAFE_NO_PAD.encode(b"hello, world"))).unwrap_err();
    assert!(matches!(e, PermalinkError::Corrupt(_)), "{e}");
    // Flip one bit in the middle of a real link's payload: zlib's checksum or structure catches it.
    let link = encode(&seed_000());
    let mut packed = URL_SAFE_NO_PAD.decode(&link[3..]).expect("b64");
    let mid = packed.len() / 2;
    packed[mid] ^= 0x10;
    let e = decode(&format!("v1.{}", URL_SAFE_NO_PAD.encode(&packed))).unwrap_err();
    assert!(
        matches!(
            e,
            PermalinkError::Corrupt(_)
                | PermalinkError::Truncated
                | PermalinkError::NotAScenario(_)
        ),
        "{e}"
    );
    // Inflates to JSON that is not a scenario.
    let e = decode(&zlib_link(br#"{"hello":"world"}"#)).unwrap_err();
    assert!(matches!(
        e,
        PermalinkError::NotAScenario(ScenarioError::NotAScenario(_))
    ));
    let line = e.to_string();
    assert!(!line.contains('\n') && line.contains("version"), "{line}");
}

fn text() -> impl Strategy<Value = String> {
    // Any Unicode (markup, quotes, control characters included), kept short enough to link.
    proptest::string::string_regex("\\PC{0,40}|[<>\"'&\\\\\n\t]{0,8}").expect("regex")
}

fn view() -> impl Strategy<Value = View> {
    let op = (
        text(),
        text(),
        text(),
        text(),
        text(),
        text(),
        proptest::collection::btree_map(text(), text(), 0..5),
    )
        .prop_map(|(dialect, op, lanes, active, values, ty, params)| {
            View::Op(OpRequest {
                dialect,
                op,
                lanes,
                active,
                exited: String::new(),
                values,
                ty,
                params,
            })
        });
    let kernel = (
        text(),
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(
            |(source, blocks, threads_per_block, lanes, step)| View::Kernel {
                source,
                blocks,
                threads_per_block,
                lanes,
                step,
            },
        );
    let sort = (
        any::<u32>(),
        any::<u64>(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(any::<u32>()),
        proptest::option::of(any::<u32>()),
    )
        .prop_map(
            |(len, seed, values, dialect, stage, threshold)| View::Sort {
                len,
                seed,
                values,
                dialect,
                stage,
                threshold,
            },
        );
    let compare = (text(), text(), text(), text(), text()).prop_map(
        |(family, param, width, values, active)| View::Compare {
            family,
            param,
            width,
            values,
            active,
        },
    );
    let reference = (
        text(),
        proptest::option::of(text()),
        proptest::option::of(text()),
    )
        .prop_map(|(search, target, article)| View::Reference {
            search,
            target,
            article,
        });
    prop_oneof![op, kernel, sort, compare, reference]
}

proptest! {
    #[test]
    fn every_scenario_round_trips(
        view in view(),
        gpu_panel in any::<bool>(),
        hex in any::<bool>(),
        tab in proptest::option::of(text()),
    ) {
        let mut s = Scenario { gpu_panel, tab, ..Scenario::new(view) };
        s.display.hex = hex;
        let link = encode(&s);
        prop_assert!(link.len() <= MAX_LINK_LEN);
        prop_assert_eq!(decode(&link), Ok(s));
    }

    #[test]
    fn arbitrary_text_never_panics(junk in "\\PC{0,64}") {
        let _ = decode(&junk);
        let _ = decode(&format!("v1.{junk}"));
    }
}

/// CUDA exited lanes travel in scenarios and links; a request without them writes no `exited`
/// key, so links made before the field existed encode and decode as before.
#[test]
fn exited_lanes_round_trip_and_old_requests_stay_unchanged() {
    let req = OpRequest {
        dialect: "cuda".into(),
        op: "__ballot_sync".into(),
        active: "0xff".into(),
        exited: "0xffffff00".into(),
        params: [("mask".to_string(), "0xffffffff".to_string())]
            .into_iter()
            .collect(),
        ..OpRequest::default()
    };
    let scenario = Scenario::new(View::Op(req));
    let back = decode(&encode(&scenario)).unwrap();
    assert_eq!(back, scenario);
    let View::Op(r) = &back.view else {
        panic!("an op view")
    };
    // CUDA Programming Guide, Warp Vote Functions: lanes 0..7 vote, lane 0's predicate is 0.
    let step = r.run().unwrap();
    assert_eq!(step.results[3].value.map(|v| v.bits), Some(0xfe));
    let old = seed_000();
    assert!(!old.to_json().contains("exited"), "{}", old.to_json());
}

#[test]
fn golden_per_lane_link_rotates() {
    let doc: serde_json::Value = serde_json::from_str(GOLDEN).expect("golden file is JSON");
    let case = doc["links"]
        .as_array()
        .and_then(|l| {
            l.iter().find(|c| {
                c["name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("per-lane"))
            })
        })
        .expect("the per-lane golden link");
    let s = decode(case["link"].as_str().unwrap()).expect("decodes");
    let View::Op(req) = s.view else {
        panic!("op view")
    };
    let step = req.run().expect("runs");
    // Lane i reads lane (i + 1) % 32, which holds 100 + that lane.
    let got: Vec<i64> = step
        .results
        .iter()
        .map(|r| r.value.unwrap().as_i64().unwrap())
        .collect();
    let want: Vec<i64> = (0..32).map(|i| 100 + (i + 1) % 32).collect();
    assert_eq!(got, want);
}

/// A link made before AMD targets existed, with a GFX9-only DPP control and no `arch`, keeps its
/// meaning: it opens on gfx900 (LLVM AMDGPUModifierSyntax, DPP Modifiers: row_bcast is GFX8/9)
/// and gives semantics.md's row_bcast:15 result, lane 16·(i >> 4) − 1, row 0 keeping `old`.
#[test]
fn old_amd_link_with_a_gfx9_control_opens_on_gfx9() {
    let old = Scenario::from_json(
        br#"{"version":1,"view":{"op":{"dialect":"amdgcn","op":"update_dpp","lanes":"64","active":"","values":"","type":"","params":{"dpp_ctrl":"row_bcast:15","old":"1000"}}},"gpu_panel":false}"#,
    )
    .unwrap();
    let back = decode(&encode(&old)).unwrap();
    let View::Op(req) = &back.view else {
        panic!("an op view")
    };
    assert_eq!(req.params.get("arch").map(String::as_str), Some("gfx900"));
    let got: Vec<Option<u64>> = req
        .run()
        .unwrap()
        .results
        .iter()
        .map(|r| r.value.map(|v| v.bits))
        .collect();
    let want: Vec<Option<u64>> = (0..64u64)
        .map(|i| Some(if i < 16 { 1000 } else { 16 * (i >> 4) - 1 }))
        .collect();
    assert_eq!(got, want);
    // A control every target has, or an explicit target, is left as typed.
    let plain = Scenario::from_json(
        br#"{"version":1,"view":{"op":{"dialect":"amdgcn","op":"mov_dpp","lanes":"64","active":"","values":"","type":"","params":{"dpp_ctrl":"row_shl:1"}}},"gpu_panel":false}"#,
    )
    .unwrap();
    let View::Op(req) = &plain.view else {
        panic!("an op view")
    };
    assert!(!req.params.contains_key("arch"));
}

#[test]
fn a_kernel_link_keeps_its_inputs_and_a_memory_edit_as_a_comma_list_fill() {
    let mut s = Scenario::new(View::Kernel {
        source: "__global__ void k(int* d, int s) { d[threadIdx.x] += s; }".into(),
        blocks: 1,
        threads_per_block: 4,
        lanes: 0,
        step: 0,
    });
    // The page's link before any input: no `kernel_inputs` at all (links made before decode
    // the same).
    assert!(!s.to_json().contains("kernel_inputs"));
    s.kernel_inputs.args.insert("s".into(), "5".into());
    // d[1] edited to 100 in the memory table of an `index` fill of 4 cells.
    s.kernel_inputs.args.insert("d".into(), "0,100,2,3".into());
    s.kernel_inputs.buffer_len.insert("d".into(), 4);
    s.kernel_inputs.dialect = Some("hip".into());
    s.kernel_inputs.entry = Some("k".into());
    let back = decode(&encode(&s)).expect("round-trips");
    assert_eq!(back, s);
    assert_eq!(back.kernel_inputs.args["d"], "0,100,2,3");
}

/// A kernel link made while the run was paused keeps `paused` (the page stays paused at the
/// link's step); a link without it (made after the run finished, or before the field existed)
/// reads as not paused, and one not paused writes no `paused` at all, so older links encode as
/// they did.
#[test]
fn a_kernel_link_made_while_paused_says_so_and_older_links_read_as_not_paused() {
    let mut s = Scenario::new(View::Kernel {
        source: "__global__ void k(int* d) { d[threadIdx.x] = 1; }".into(),
        blocks: 1,
        threads_per_block: 32,
        lanes: 0,
        step: 3,
    });
    assert!(!s.to_json().contains("paused"));
    s.kernel_inputs.paused = true;
    assert!(s.to_json().contains(r#""paused":true"#), "{}", s.to_json());
    let back = decode(&encode(&s)).expect("round-trips");
    assert!(back.kernel_inputs.paused);
    assert_eq!(back, s);
    // The JSON of a link made before `paused` existed, with `run_steps`.
    let old = Scenario::from_json(
        br#"{"version":1,"view":{"kernel":{"source":"x","blocks":1,"threads_per_block":32,"lanes":0,"step":2}},"kernel_inputs":{"run_steps":5}}"#,
    )
    .expect("an older kernel link");
    assert!(!old.kernel_inputs.paused);
    assert_eq!(old.kernel_inputs.run_steps, Some(5));
}
