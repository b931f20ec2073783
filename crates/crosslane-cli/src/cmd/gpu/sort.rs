//! `crosslane gpu sort [--len N] [--seed S] [--json]`: sorts the N keys
//! [`crosslane_core::network::keys`](fn@crosslane_core::network::keys) draws from the seed — the keys `crosslane sort --seed S`
//! sorts — with the odd-even merge network on the GPU and checks them against `sort_unstable`.
//!
//! A huge `--len` is refused before anything is allocated: first the network's own limit
//! ([`crosslane_gpu::network::MAX_SORT_LEN`]), then the device's storage-binding and buffer-size
//! limits ([`NativeGpu::max_sort_len`]), then a host cap ([`MAX_HOST_SORT_BYTES`]) — all before a
//! key is generated.

use clap::Args;
use crosslane_core::network;
use crosslane_core::params::parse_int;
use crosslane_core::InputError;
use crosslane_gpu::native::NativeGpu;

use super::gpu_error;
use crate::error::CliError;
use crate::print_out;

/// Keys sorted when `--len` is not given: 2^16.
pub const DEFAULT_LEN: u64 = 1 << 16;

/// Most host bytes `gpu sort` may take (16 per key: keys, values, the device's result and the
/// reference sort): 4 GiB, 2^28 keys.
pub const MAX_HOST_SORT_BYTES: u64 = 4 << 30;

/// Keys are listed in the output (`input`, `output` in JSON) up to this many, as `crosslane
/// sort` lists its stages.
pub const MAX_LISTED_KEYS: u64 = network::report::MAX_LISTED_LEN as u64;

/// Flags of `crosslane gpu sort`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuSortArgs {
    /// Number of keys (decimal or 0x hex), at most what the device binds; default 65536.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub len: Option<String>,
    /// Seed of the keys (the same keys as `crosslane sort --seed S`); default 1.
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    pub seed: Option<String>,
    /// Print one JSON object instead of a line.
    #[arg(long)]
    pub json: bool,
}

/// A non-negative integer flag (decimal, `0x` hex), or its default.
fn count(flag: &str, text: Option<&str>, default: u64) -> Result<u64, CliError> {
    match text {
        None => Ok(default),
        Some(t) => parse_int(t)
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| {
                CliError::Input(InputError::new(
                    flag,
                    format!("`{}` is not a non-negative integer", t.trim()),
                ))
            }),
    }
}

/// Runs `crosslane gpu sort`.
///
/// # Errors
/// [`CliError::Input`] (exit 2) for a `--len` or `--seed` that does not parse or a length over
/// a limit (the message names it); [`CliError::Gpu`] (exit 3) without a usable GPU;
/// [`CliError::Failed`] (exit 1) when the device's result differs from `sort_unstable`.
pub fn run(args: &GpuSortArgs) -> Result<(), CliError> {
    let len = count("len", args.len.as_deref(), DEFAULT_LEN)?;
    let seed = count("seed", args.seed.as_deref(), 1)?;
    let max = u64::from(crosslane_gpu::network::MAX_SORT_LEN);
    if len > max {
        return Err(InputError::new("len", format!("must be in 0..={max}, got {len}")).into());
    }
    // The device's limits first: keys, values and the reference copy take 12 bytes per key on
    // the host, and `--len 1073741824` must not allocate 12 GiB to learn the device binds less.
    let gpu = NativeGpu::new().map_err(gpu_error)?;
    let device_max = gpu.max_sort_len();
    if len > device_max {
        return Err(InputError::new(
            "len",
            format!(
                "{len} keys need {} bytes per buffer; this device binds at most {device_max} keys ({} bytes)",
                len * 4,
                device_max * 4
            ),
        )
        .into());
    }
    let host_bytes = len.saturating_mul(16);
    if host_bytes > MAX_HOST_SORT_BYTES {
        return Err(InputError::new(
            "len",
            format!(
                "{len} keys take {host_bytes} bytes on the host (keys, values, the result and the reference sort); the CLI allows {MAX_HOST_SORT_BYTES}"
            ),
        )
        .into());
    }
    // Both bounds above hold `len` under 2^30, so it fits usize and u32.
    let n = usize::try_from(len).map_err(|_| InputError::new("len", "too large"))?;
    let keys = network::keys(n, seed);
    let vals: Vec<u32> = (0..u32::try_from(len).unwrap_or(u32::MAX)).collect();
    let run = gpu
        .sorter()
        .and_then(|s| s.sort(&keys, &vals))
        .map_err(gpu_error)?;
    let mut want = keys.clone();
    want.sort_unstable();
    let agrees = run.keys == want;
    let facts = gpu.facts();
    let text = if args.json {
        let mut v = serde_json::json!({
            "len": len,
            "seed": seed,
            "adapter": facts.adapter,
            "fallback": facts.is_fallback,
            "passes": run.passes,
            "nanos": run.timing.nanos,
            "timing": run.timing.source,
            "matches_sort_unstable": agrees,
        });
        if len <= MAX_LISTED_KEYS {
            v["input"] = keys.into();
            v["output"] = run.keys.clone().into();
        }
        v.to_string() + "\n"
    } else {
        format!(
            "odd-even merge sort of {len} u32 keys (seed {seed}) on {} ({}): {} dispatches, {:.3} ms ({}), {}\n",
            facts.adapter,
            if facts.is_fallback { "fallback" } else { "gpu" },
            run.passes,
            run.timing.nanos as f64 / 1e6,
            run.timing.source.label(),
            if agrees { "matches sort_unstable" } else { "DIFFERS from sort_unstable" }
        )
    };
    print_out(&text)?;
    if agrees {
        Ok(())
    } else {
        Err(CliError::Failed(
            "the GPU's sort differs from sort_unstable".into(),
        ))
    }
}
