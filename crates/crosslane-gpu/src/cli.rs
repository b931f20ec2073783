//! The logic of the `crosslane gpu …` command (the CLI crate only forwards its arguments here).
//!
//! ```text
//! crosslane gpu DIALECT OP [--lanes N] [--active MASK] [--values SPEC] [--type T] [--PARAM VALUE]...
//!                          [--lowering auto|workgroup|subgroup] [--wgsl] [--json]
//! crosslane gpu sort --len N [--seed S] [--json]
//! crosslane gpu info [--json]
//! ```
//! * `DIALECT OP …` runs the op in the emulator and on the native GPU and prints the lane diff
//!   (lane, emulator, GPU, verdict, source) under a header with the adapter, subgroup sizes (min,
//!   max, observed), the lowering and the time. For `wgsl` ops `--lanes` defaults to the device's
//!   subgroup size. `--wgsl` also prints the WGSL that ran.
//! * `sort` sorts N pseudo-random u32 keys with the odd-even merge network on the GPU and checks
//!   them against `sort_unstable`.
//! * `info` prints the device facts.
//!
//! Exit status: 0 = ran and no lane mismatches; 1 = a lane (or the sort) mismatches; 2 = input
//! that does not parse or cannot be encoded, or a request the GPU path cannot run as asked (an op
//! without a GPU lowering, a WGSL lane count that is not the device's subgroup size); the message
//! names the field; 3 = no GPU or a GPU error (validation, device lost, mapping).
//!
//! `--json` prints [`crate::Comparison::to_json`] plus `"wgsl"`, the text that ran.

use std::collections::BTreeMap;

use crosslane_core::{Dialect, OpRequest};

use crate::error::GpuError;
use crate::native::NativeGpu;
use crate::wgsl::LoweringChoice;

/// Runs `crosslane gpu ARGS…` (`args` excludes the program name and `gpu`); returns what to print
/// on stdout (or stderr when the status is not 0 or 1) and the exit status.
pub fn gpu_command(args: &[String]) -> (String, i32) {
    match run(args) {
        Ok(out) => out,
        Err(e @ (GpuError::Input(_) | GpuError::Unsupported { .. })) => {
            (format!("error: {e}\n"), 2)
        }
        Err(e) => (format!("error: {e}\n"), 3),
    }
}

struct Flags {
    positional: Vec<String>,
    named: BTreeMap<String, String>,
    json: bool,
    wgsl: bool,
}

fn parse_flags(args: &[String]) -> Result<Flags, GpuError> {
    let mut f = Flags {
        positional: Vec::new(),
        named: BTreeMap::new(),
        json: false,
        wgsl: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => f.json = true,
            "--wgsl" => f.wgsl = true,
            flag if flag.starts_with("--") => {
                let (name, value) = match flag.split_once('=') {
                    Some((n, v)) => (n.to_string(), v.to_string()),
                    None => {
                        let v = it.next().ok_or_else(|| {
                            GpuError::unsupported(flag.trim_start_matches('-'), "needs a value")
                        })?;
                        (flag.to_string(), v.clone())
                    }
                };
                f.named
                    .insert(name.trim_start_matches('-').replace('-', "_"), value);
            }
            other => f.positional.push(other.to_string()),
        }
    }
    Ok(f)
}

fn run(args: &[String]) -> Result<(String, i32), GpuError> {
    let mut flags = parse_flags(args)?;
    let first = flags.positional.first().cloned().unwrap_or_default();
    match first.as_str() {
        "" => Err(GpuError::unsupported(
            "gpu",
            "usage: crosslane gpu DIALECT OP [flags] | gpu sort --len N | gpu info",
        )),
        "info" => {
            let gpu = NativeGpu::new()?;
            let facts = gpu.facts();
            let text = if flags.json {
                serde_json::to_string_pretty(facts).unwrap_or_default()
            } else {
                format!(
                    "adapter: {}\nbackend: {}\nfallback: {}\nsubgroups: {}\nsubgroup size: min {} max {}\ntimestamps: {}",
                    facts.adapter,
                    facts.backend,
                    facts.is_fallback,
                    facts.subgroups,
                    facts.subgroup_min_size,
                    facts.subgroup_max_size,
                    facts.timestamps
                )
            };
            Ok((text + "\n", 0))
        }
        "sort" => sort(&flags),
        _ => {
            let op = flags.positional.get(1).cloned().ok_or_else(|| {
                GpuError::unsupported("op", "usage: crosslane gpu DIALECT OP [flags]")
            })?;
            let dialect = Dialect::parse(&first)?;
            let take = |f: &mut Flags, k: &str| f.named.remove(k).unwrap_or_default();
            let lowering = LoweringChoice::parse(&take(&mut flags, "lowering"))?;
            let mut lanes = take(&mut flags, "lanes");
            let gpu = NativeGpu::new()?;
            if dialect == Dialect::Wgsl && lanes.is_empty() && gpu.caps().min_size > 0 {
                lanes = gpu.caps().min_size.to_string();
            }
            let request = OpRequest {
                dialect: first.clone(),
                op,
                lanes,
                active: take(&mut flags, "active"),
                exited: String::new(),
                values: take(&mut flags, "values"),
                ty: take(&mut flags, "type"),
                params: std::mem::take(&mut flags.named),
            };
            let step = request.run()?;
            let (cmp, run) = gpu.compare_step(&step, lowering)?;
            let status = i32::from(!cmp.agrees());
            let text = if flags.json {
                let mut v = cmp.to_json();
                if let Some(obj) = v.as_object_mut() {
                    obj.insert("wgsl".into(), run.wgsl.clone().into());
                }
                serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
            } else if flags.wgsl {
                format!("{}\n{}", run.wgsl, cmp.to_table())
            } else {
                cmp.to_table()
            };
            Ok((text, status))
        }
    }
}

/// Most host bytes `gpu sort` may take (16 per key: keys, values, the device's result and the
/// reference sort): 4 GiB, 2^28 keys.
const MAX_HOST_SORT_BYTES: u64 = 4 << 30;

fn sort(flags: &Flags) -> Result<(String, i32), GpuError> {
    let parse = |name: &str, default: u64| -> Result<u64, GpuError> {
        match flags.named.get(name) {
            None => Ok(default),
            Some(t) => crosslane_core::params::parse_int(t)
                .and_then(|n| u64::try_from(n).ok())
                .ok_or_else(|| {
                    GpuError::unsupported(name, format!("`{t}` is not a non-negative integer"))
                }),
        }
    };
    let len = parse("len", 1 << 16)?;
    let max = u64::from(crate::network::MAX_SORT_LEN);
    if len > max {
        return Err(GpuError::unsupported(
            "len",
            format!("must be in 0..={max}, got {len}"),
        ));
    }
    let seed = parse("seed", 1)?;
    // The device's limits first: keys, values and the reference copy take 12 bytes per key on
    // the host, and `--len 1073741824` must not allocate 12 GiB to learn the device binds less.
    let gpu = NativeGpu::new()?;
    let device_max = gpu.max_sort_len();
    if len > device_max {
        return Err(GpuError::unsupported(
            "len",
            format!(
                "{len} keys need {} bytes per buffer; this device binds at most {} keys ({} bytes)",
                len * 4,
                device_max,
                device_max * 4
            ),
        ));
    }
    let host_bytes = len.saturating_mul(16);
    if host_bytes > MAX_HOST_SORT_BYTES {
        return Err(GpuError::unsupported(
            "len",
            format!(
                "{len} keys take {host_bytes} bytes on the host (keys, values, the result and the reference sort); the CLI allows {MAX_HOST_SORT_BYTES}"
            ),
        ));
    }
    let keys = pseudo_random_keys(len as usize, seed);
    let vals: Vec<u32> = (0..len as u32).collect();
    let run = gpu.sorter()?.sort(&keys, &vals)?;
    let mut want = keys.clone();
    want.sort_unstable();
    let agrees = run.keys == want;
    let facts = gpu.facts();
    let text =
        if flags.json {
            serde_json::json!({
                "len": len,
                "seed": seed,
                "adapter": facts.adapter,
                "fallback": facts.is_fallback,
                "passes": run.passes,
                "nanos": run.timing.nanos,
                "timing": run.timing.source,
                "matches_sort_unstable": agrees,
            })
            .to_string()
                + "\n"
        } else {
            format!(
            "odd-even merge sort of {len} u32 keys on {} ({}): {} dispatches, {:.3} ms ({}), {}\n",
            facts.adapter,
            if facts.is_fallback { "fallback" } else { "gpu" },
            run.passes,
            run.timing.nanos as f64 / 1e6,
            run.timing.source.label(),
            if agrees { "matches sort_unstable" } else { "DIFFERS from sort_unstable" }
        )
        };
    Ok((text, i32::from(!agrees)))
}

/// xorshift64* keys, reproducible from `seed`.
pub fn pseudo_random_keys(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        })
        .collect()
}
