//! Host code's device queries: values the runtime writes through out-pointers, read so that
//! host code that sizes or chooses a launch from them reads the launch this run makes.
//!
//! - `cudaGetDeviceProperties(&prop, dev)` / `hipGetDeviceProperties(&prop, dev)` (CUDA Runtime
//!   API, "Device Management", `cudaDeviceProp`; HIP Runtime API, `hipDeviceProp_t`):
//!   `prop.warpSize` is this run's lanes per warp (32 for CUDA, HIP on gfx1100 and Ascend SIMT;
//!   64 for HIP on gfx90a/gfx942 and MACA, as `--arch`/`--lanes` choose), `prop.maxThreadsPerBlock`
//!   is the engine's limit ([`crate::exec::MAX_THREADS_PER_BLOCK`], 1024, the vendors' value),
//!   `prop.multiProcessorCount` is [`MODEL_MULTIPROCESSORS`] and
//!   `prop.maxThreadsPerMultiProcessor` [`MODEL_THREADS_PER_MULTIPROCESSOR`] (crosslane's model
//!   device, stated in a note: the run does not depend on a real device's count).
//!   Other fields have no value (a launch that uses one says so).
//! - `cudaDeviceGetAttribute(&v, attr, dev)` / `hipDeviceGetAttribute(…)`: the same values for
//!   the warp size, the block limit, the multiprocessor count.
//! - `cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, dynSmem, blockSizeLimit)`
//!   (CUDA Runtime API, "Occupancy"; HIP's `hipOccupancyMaxPotentialBlockSize` takes the same):
//!   the block size that maximizes occupancy. crosslane's deterministic answer: the kernel's
//!   `__launch_bounds__` maximum when it declares one, else `maxThreadsPerBlock` (1024); at most
//!   `blockSizeLimit` when that is a positive constant. `minGrid` is the blocks that fill the
//!   model device: `multiProcessorCount × (maxThreadsPerMultiProcessor / block)`, at least 1.
//! - `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocks, kernel, blockSize, dynSmem)`
//!   (CUDA Runtime API, "Occupancy"; HIP's `hipOccupancyMaxActiveBlocksPerMultiprocessor`):
//!   the model device's resident blocks of that size, `min(maxThreadsPerMultiProcessor /
//!   blockSize, 32)` (32 resident blocks per SM: the Programming Guide's table for compute
//!   capability 8.0); shared memory and registers are not counted.

use super::const_eval::HostVal;
use super::host::{split_commas, HostState};
use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crosslane_core::result::Level;

/// Multiprocessors (CUDA SMs, AMD CUs) of crosslane's model device.
pub const MODEL_MULTIPROCESSORS: i128 = 1;

/// Resident threads per multiprocessor of crosslane's model device (the CUDA C++ Programming
/// Guide's "Maximum number of resident threads per SM" for compute capability 8.0: 2048).
pub const MODEL_THREADS_PER_MULTIPROCESSOR: i128 = 2048;

/// Resident blocks per multiprocessor of crosslane's model device (the CUDA C++ Programming
/// Guide's "Maximum number of resident blocks per SM" for compute capability 8.0: 32).
pub const MODEL_BLOCKS_PER_MULTIPROCESSOR: i128 = 32;

/// The name passed by address (`&prop`, `(void**)&x`): the last identifier of an argument.
fn out_name(toks: &[Token]) -> Option<String> {
    toks.iter().rev().find_map(|t| match &t.tok {
        Tok::Ident(n) => Some(n.clone()),
        _ => None,
    })
}

impl Parser<'_> {
    /// The device properties this run models: (field, value).
    fn model_properties(&self) -> Vec<(&'static str, i128)> {
        vec![
            ("warpSize", i128::from(self.wave)),
            (
                "maxThreadsPerBlock",
                crate::exec::MAX_THREADS_PER_BLOCK as i128,
            ),
            ("multiProcessorCount", MODEL_MULTIPROCESSORS),
            (
                "maxThreadsPerMultiProcessor",
                MODEL_THREADS_PER_MULTIPROCESSOR,
            ),
        ]
    }

    /// A device query `name(…)` whose name is at `k` (see the module's documentation).
    pub(super) fn device_query(&mut self, st: &mut HostState, name: &str, k: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let parts = split_commas(toks, k + 2, c);
        let line = toks[k].line;
        let span = Span {
            line,
            col: toks[k].col,
        };
        let arg = |i: usize| parts.get(i).map(|&(a, b)| &toks[a..b]);
        let props = self.model_properties();
        if name.ends_with("GetDeviceProperties") {
            let Some(prop) = arg(0).and_then(out_name) else {
                return;
            };
            let mut said = Vec::new();
            for (field, v) in &props {
                st.env.insert(format!("{prop}.{field}"), HostVal::Int(*v));
                said.push(format!("`{prop}.{field}` = {v}"));
            }
            // Any other field: the reason a launch using it gets.
            st.unknown.insert(
                prop.clone(),
                format!(
                    "of the device properties `{name}` gives at line {line}, only warpSize, \
                     maxThreadsPerBlock, multiProcessorCount and maxThreadsPerMultiProcessor \
                     are modelled"
                ),
            );
            self.diag(
                span,
                Level::Info,
                format!(
                    "`{name}` read for this run's model device: {} (warpSize is this run's \
                     lanes per warp, --arch/--lanes; one multiprocessor is crosslane's model, \
                     not a real device's count)",
                    said.join(", ")
                ),
                "CUDA Runtime API, cudaDeviceProp; HIP Runtime API, hipDeviceProp_t",
            );
            return;
        }
        if name.ends_with("DeviceGetAttribute") {
            let (Some(out), Some(attr)) = (arg(0).and_then(out_name), arg(1).and_then(out_name))
            else {
                return;
            };
            let key = attr.to_ascii_lowercase();
            let field = props
                .iter()
                .find(|(f, _)| key.ends_with(&f.to_ascii_lowercase()));
            match field {
                Some((f, v)) => {
                    st.env.insert(out.clone(), HostVal::Int(*v));
                    st.unknown.remove(&out);
                    self.diag(
                        span,
                        Level::Info,
                        format!("`{name}({attr})` read as {v} (the model device's {f})"),
                        "CUDA Runtime API, cudaDeviceGetAttribute; HIP Runtime API, hipDeviceGetAttribute",
                    );
                }
                None => Self::mark_unknown(
                    st,
                    std::slice::from_ref(&out),
                    &format!("`{name}` at line {line} asks for `{attr}`, which is not modelled"),
                ),
            }
            return;
        }
        // `…OccupancyMaxActiveBlocksPerMultiprocessor(&numBlocks, kernel, blockSize, dynSmem)`.
        if name.ends_with("OccupancyMaxActiveBlocksPerMultiprocessor") {
            let Some(out) = arg(0).and_then(out_name) else {
                return;
            };
            let block = parts
                .get(2)
                .and_then(|&(a, b)| self.host_value(st, a, b))
                .and_then(HostVal::int);
            let max = crate::exec::MAX_THREADS_PER_BLOCK as i128;
            match block.filter(|b| (1..=max).contains(b)) {
                Some(b) => {
                    let n =
                        (MODEL_THREADS_PER_MULTIPROCESSOR / b).min(MODEL_BLOCKS_PER_MULTIPROCESSOR);
                    st.env.insert(out.clone(), HostVal::Int(n));
                    st.unknown.remove(&out);
                    self.diag(
                        span,
                        Level::Info,
                        format!(
                            "`{name}` read as `{out}` = {n} blocks of {b} threads per \
                             multiprocessor (the model device: {MODEL_THREADS_PER_MULTIPROCESSOR} \
                             resident threads, at most {MODEL_BLOCKS_PER_MULTIPROCESSOR} blocks; \
                             shared memory and registers not counted); crosslane's \
                             deterministic answer, not a real device's occupancy: set --blocks \
                             to run another grid"
                        ),
                        "CUDA Runtime API, cudaOccupancyMaxActiveBlocksPerMultiprocessor; CUDA \
                         C++ Programming Guide, Compute Capabilities (8.0)",
                    );
                }
                None => Self::mark_unknown(
                    st,
                    std::slice::from_ref(&out),
                    &format!(
                        "`{name}` at line {line} is given a block size with no constant value \
                         from 1 to {max}"
                    ),
                ),
            }
            return;
        }
        // `…OccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, dynSmem, limit)`.
        let (Some(grid_out), Some(block_out), Some(kernel)) = (
            arg(0).and_then(out_name),
            arg(1).and_then(out_name),
            arg(2).and_then(|t| {
                t.iter().find_map(|t| match &t.tok {
                    Tok::Ident(n) => Some(n.clone()),
                    _ => None,
                })
            }),
        ) else {
            return;
        };
        let limit = parts
            .get(4)
            .and_then(|&(a, b)| self.host_value(st, a, b))
            .and_then(HostVal::int)
            .filter(|&n| n > 0);
        let bounds = self.launch_bounds_of(st, &kernel);
        let max = crate::exec::MAX_THREADS_PER_BLOCK as i128;
        let mut block = bounds.unwrap_or(max).clamp(1, max);
        if let Some(l) = limit {
            block = block.min(l);
        }
        let grid = (MODEL_MULTIPROCESSORS * (MODEL_THREADS_PER_MULTIPROCESSOR / block)).max(1);
        st.env.insert(block_out.clone(), HostVal::Int(block));
        st.env.insert(grid_out.clone(), HostVal::Int(grid));
        st.unknown.remove(&block_out);
        st.unknown.remove(&grid_out);
        let why = match (bounds, limit) {
            (Some(b), _) if block == b => format!("`{kernel}`'s __launch_bounds__({b})"),
            (_, Some(l)) if block == l => format!("the blockSizeLimit {l}"),
            _ => format!("maxThreadsPerBlock {max}, `{kernel}` declaring no __launch_bounds__"),
        };
        self.diag(
            span,
            Level::Info,
            format!(
                "`{name}` read as block size `{block_out}` = {block} ({why}) and minimum grid \
                 `{grid_out}` = {grid} (the model device: {MODEL_MULTIPROCESSORS} \
                 multiprocessor × {MODEL_THREADS_PER_MULTIPROCESSOR} threads / {block}); crosslane's \
                 deterministic answer, not a real device's occupancy: set --threads-per-block / \
                 --blocks to run another"
            ),
            "CUDA Runtime API, cudaOccupancyMaxPotentialBlockSize",
        );
    }

    /// The maximum threads per block the kernel `name` declares with `__launch_bounds__(N…)`.
    fn launch_bounds_of(&mut self, st: &HostState, name: &str) -> Option<i128> {
        let toks = self.toks;
        for (k, t) in toks.iter().enumerate() {
            if !matches!(&t.tok, Tok::Ident(w) if w == "__launch_bounds__") {
                continue;
            }
            let Some(c) = self.closing(k + 1) else {
                continue;
            };
            // The declared function: the first identifier followed by `(` after the bounds
            // (within the declaration's head).
            let named = (c + 1..toks.len().min(c + 16)).find_map(|i| {
                match (&toks[i].tok, toks.get(i + 1).map(|t| &t.tok)) {
                    (Tok::Ident(n), Some(Tok::Punct("("))) => Some(n.as_str()),
                    _ => None,
                }
            });
            if named != Some(name) {
                continue;
            }
            let parts = split_commas(toks, k + 2, c);
            let &(a, b) = parts.first()?;
            return self.host_value(st, a, b).and_then(HostVal::int);
        }
        None
    }
}

/// Blocks of `threads` threads the model device holds at once (crosslane's model device, as
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` answers it here:
/// `min(2048 / threads, 32)` per multiprocessor, one multiprocessor; CUDA C++ Programming Guide,
/// Compute Capabilities 8.0). A cooperative launch of more blocks fails (CUDA Runtime API,
/// `cudaLaunchCooperativeKernel`: `cudaErrorCooperativeLaunchTooLarge`).
pub(crate) fn max_coresident_blocks(threads: usize) -> usize {
    let per_sm = (MODEL_THREADS_PER_MULTIPROCESSOR / (threads.max(1) as i128))
        .min(MODEL_BLOCKS_PER_MULTIPROCESSOR);
    usize::try_from(per_sm.saturating_mul(MODEL_MULTIPROCESSORS)).unwrap_or(0)
}
