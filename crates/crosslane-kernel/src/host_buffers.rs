//! What a device buffer holds at the launch host code makes, beyond a host array copied into
//! it ([`crate::ast::HostArg`]'s `uninit`, `memset`, `write_unread`, `prior_launches`,
//! `ran_before`, read by the parser's `host_mem` module): the run's buffer gets the same, or the
//! run says what it could not read. Never silently the index fill.
//!
//! Sources: CUDA Runtime API, cudaMalloc ("The memory is not cleared"); cudaMemset ("Fills the
//! first count bytes of the memory area pointed to by devPtr with the constant byte value
//! value"); CUDA C++ Programming Guide, "Streams" (launches on one stream run in order, so a
//! launch sees what the launches before it wrote).

use super::ast::{HostArg, HostLaunch, Param};
use super::types::{Scalar, Ty};
use super::{KernelDiagnostic, LaunchConfig};
use crosslane_core::result::Level;

/// The fill of a buffer nothing defined wrote: every cell uninitialized.
const UNDEF: &str = "undef";

/// For buffer parameter `p` given `a` by `launch` (the user set no fill for it): sets its fill
/// in `config.args` where host code's memory says what it holds (undefined cells of fresh
/// memory, a memset's bytes), adds what was taken to `taken`, and returns the notes and
/// warnings that say it (the earlier launches whose result it holds, one that could not run, a
/// write not read).
pub fn buffer_notes(
    launch: &HostLaunch,
    p: &Param,
    a: &HostArg,
    config: &mut LaunchConfig,
    taken: &mut Vec<String>,
) -> Vec<KernelDiagnostic> {
    let name = &p.name;
    let mut notes = Vec::new();
    // Device-to-device copies of cells earlier launches left in another allocation.
    for c in &a.dev_copies {
        let (first, last) = (c.at, c.at + c.len.saturating_sub(1));
        if config.single_launch {
            notes.push(KernelDiagnostic::new(
                launch.span,
                Level::Warning,
                format!(
                    "`{name}`: cells {first}..={last} are copied device-to-device from `{}` \
                     after launches given it that do not run here (--single-launch): they \
                     hold host code's values of `{}` from before those launches, not what \
                     the launches left (set them: --buffer {name}=FILL)",
                    c.src_device, c.src_device
                ),
                "CUDA C++ Programming Guide, Streams",
            ));
        } else {
            taken.push(format!(
                "`{name}` cells {first}..={last} hold what the launches given `{}` left in its \
                 cells {}..={} (run first), copied device-to-device",
                c.src_device,
                c.src_at,
                c.src_at + c.len.saturating_sub(1)
            ));
        }
    }
    if !a.ran_before.is_empty() {
        // The earlier launches ran first (`crate::sequence`): their result is put in after
        // the buffer is made; a cell they do not reach stays undefined, never the index fill.
        config.args.insert(name.clone(), UNDEF.to_string());
        let host = if a.overlay.is_empty() {
            String::new()
        } else {
            format!(
                ", then the {} cell(s) host code writes into its managed memory after them \
                 (last at line {})",
                a.overlay.len(),
                a.overlay_line
            )
        };
        taken.push(format!(
            "`{name}` holds what {} left in it (run first, in order, as the device runs \
             launches on one stream){host}",
            a.ran_before.join(", then ")
        ));
        if a.memset.is_none() {
            return notes;
        }
        // A memset before them: its bytes lie under what they wrote (cells they do not
        // reach keep them).
    }
    if let Some((fill, what)) = &a.memset {
        let byte = fill
            .strip_prefix("u8:")
            .and_then(|l| l.split(',').next())
            .and_then(|b| b.parse::<u8>().ok());
        let nan = match (p.ty, byte) {
            (Ty::Ptr(v), Some(b)) => byte_nan(v.scalar, b),
            _ => false,
        };
        let bool_cells = matches!(p.ty, Ty::Ptr(v) if v.scalar == Scalar::Bool && v.lanes == 1);
        if bool_cells {
            // One byte per `bool`: a byte of 0 is `false`, of 1 `true`; any other byte is no
            // value of `bool` (C++17 [basic.fundamental]/6), so that cell is undefined.
            let (cells, bad) = bool_bytes(fill);
            config.args.insert(name.clone(), cells);
            taken.push(format!("`{name}` holds the bytes {what} sets"));
            if let Some(b) = bad {
                notes.push(KernelDiagnostic::new(
                    launch.span,
                    Level::Warning,
                    format!(
                        "`{name}`: {what} sets `bool` cells to the byte {b:#04x}, and a `bool` \
                         holds only 0 (false) or 1 (true): those cells are undefined here (set \
                         them: --buffer {name}=FILL)"
                    ),
                    "C++17 [basic.fundamental]/6; CUDA Runtime API, cudaMemset",
                ));
            }
        } else if nan && !fill.contains(',') {
            // The emulator keeps no NaN payload: each cell is a NaN, as the device's bytes are.
            config.args.insert(name.clone(), "nan".to_string());
            taken.push(format!(
                "`{name}` holds the bytes {what} sets: each cell is a NaN (its payload is not \
                 kept)"
            ));
        } else {
            config.args.insert(name.clone(), fill.clone());
            taken.push(format!("`{name}` holds the bytes {what} sets"));
            if nan {
                notes.push(KernelDiagnostic::new(
                    launch.span,
                    Level::Warning,
                    format!(
                        "`{name}`: {what} makes the cells it covers NaNs, whose bits the \
                         emulator does not keep: they are undefined here (set them: --buffer \
                         {name}=FILL)"
                    ),
                    "",
                ));
            }
        }
    }
    if let Some(why) = &a.uninit {
        config.args.insert(name.clone(), UNDEF.to_string());
        if a.prior_launches.is_empty() {
            notes.push(KernelDiagnostic::new(
                launch.span,
                Level::Info,
                format!(
                    "`{name}`: {why}, so its cells are undefined (set them: --buffer \
                     {name}=FILL)"
                ),
                "CUDA Runtime API, cudaMalloc: \"The memory is not cleared\"",
            ));
        }
    }
    if let Some(why) = &a.write_unread {
        // What the device holds is not known here: undefined cells, never a made-up fill.
        config.args.insert(name.clone(), UNDEF.to_string());
        notes.push(KernelDiagnostic::new(
            launch.span,
            Level::Warning,
            format!(
                "`{name}`: {why}; its cells are undefined here: set them (CLI: --buffer \
                 {name}=FILL)"
            ),
            "",
        ));
    }
    if !a.prior_launches.is_empty() {
        let holds = if a.uninit.is_some() {
            "its cells are undefined here (the memory was never written by host code)"
        } else {
            "it holds what host code wrote before them"
        };
        notes.push(KernelDiagnostic::new(
            launch.span,
            Level::Warning,
            format!(
                "`{name}`{} is also given to {} before this launch, which did not run here \
                 (--single-launch, or the note that says why), so what they wrote into it is \
                 missing: {holds}. \
                 On the device launches on one stream run in order; give their result here \
                 (--buffer {name}=FILL)",
                if a.text == *name {
                    String::new()
                } else {
                    format!(" (host code's `{}`)", a.text)
                },
                a.prior_launches.join(", ")
            ),
            "CUDA C++ Programming Guide, Streams",
        ));
    }
    notes
}

/// A memset's fill (`u8:1` over the whole buffer, or a byte list with `undef` items) as the
/// cells of a `bool` buffer, one byte each: 0 `false`, 1 `true`, any other byte undefined (C++17
/// [basic.fundamental]/6: a `bool` has the values `true` and `false`). Returns the fill and the
/// first byte that is no `bool` value.
fn bool_bytes(fill: &str) -> (String, Option<u8>) {
    let list = fill.strip_prefix("u8:").unwrap_or(fill);
    let mut bad = None;
    let cells: Vec<&str> = list
        .split(',')
        .map(|b| match b.parse::<u8>() {
            Ok(0) => "0",
            Ok(1) => "1",
            Ok(x) => {
                bad = bad.or(Some(x));
                UNDEF
            }
            Err(_) => UNDEF,
        })
        .collect();
    (cells.join(","), bad)
}

/// Whether a cell of float type `s` whose every byte is `b` is a NaN (IEEE 754-2019 3.4: the
/// exponent field all ones and a nonzero significand), as a memset of `b` leaves it.
fn byte_nan(s: Scalar, b: u8) -> bool {
    let bits = u64::from_le_bytes([b; 8]);
    match s {
        Scalar::F32 => f32::from_bits(bits as u32).is_nan(),
        Scalar::F64 => f64::from_bits(bits).is_nan(),
        Scalar::F16 => (bits >> 10) & 0x1f == 0x1f && bits & 0x3ff != 0,
        Scalar::Bf16 => (bits >> 7) & 0xff == 0xff && bits & 0x7f != 0,
        _ => false,
    }
}
