//! Race detection on shared memory between the warps of a block, and on global memory between
//! the warps of a block and between blocks, in the manner of `compute-sanitizer --tool
//! racecheck`.
//!
//! The engine runs a block's warps one after another between barriers (docs/kernels.md,
//! "Scheduling"), so a kernel whose warps touch one `__shared__` cell in the same barrier
//! interval shows the value of this one schedule. Such accesses are hazards: the Compute
//! Sanitizer documentation, "Racecheck Tool", names three kinds between threads whose order no
//! barrier fixes — write-after-write (WAW), write-after-read (WAR) and read-after-write (RAW).
//! The CUDA C++ Programming Guide, "Synchronization Functions" (`__syncthreads()`: "accesses to
//! shared memory made by threads prior to the barrier are visible to all threads in the block
//! after the barrier") is what orders them; without it nothing does.
//!
//! What is tracked, per cell of each `__shared__` buffer of the running block (and per global
//! cell the block touches, [`MAX_GLOBAL_CELLS`] at most), since the
//! block's last barrier opened ([`RaceCheck::barrier`], called where the scheduler releases
//! `__syncthreads`, its `_count/_and/_or` votes, `cg::this_thread_block().sync()`, HIP's
//! `__syncthreads`, WGSL's `workgroupBarrier`, MACA's block barriers): the first and the latest
//! other warp that wrote it (with a fingerprint of the value) and the first and latest other
//! warp that read it. A read of a cell another warp wrote, a write of a cell another warp read,
//! and a write of a cell another warp wrote are hazards.
//!
//! What is not a hazard:
//! - accesses of one warp: its lanes run in lock-step here and `__syncwarp` is modelled as such
//!   (`machine/warp_sync.rs`); two lanes writing one cell in one statement already get their
//!   own warning (`machine/place.rs`). Independent thread scheduling within a warp is not
//!   modelled, so intra-warp races are not reported;
//! - an atomic against an atomic (`atomicAdd` on a shared counter from every warp): atomics
//!   of one cell are ordered among themselves (C++17 [intro.races]/21: a data race needs two
//!   conflicting actions "at least one of which is not atomic"; CUDA C++ Programming Guide,
//!   "Atomic Functions": the read-modify-write "is guaranteed to be performed without
//!   interference from other threads");
//! - a read-modify-write of a vector cell that stores one component (an artefact of how a
//!   component store is done, not a read the kernel makes), and MACA's queued copies (their
//!   own visibility rules, `machine/maca_mem.rs`);
//! - buffers with reserved names (`__…`, C++17 [lex.name]/3): the model's own lowerings, such
//!   as the shared count of `__syncthreads_count` (`parser/sync_vote.rs`);
//!
//! Global memory. Within a block the same rule holds: `__syncthreads()` also makes the
//! block's global-memory accesses before it visible to the block's threads after it (CUDA C++
//! Programming Guide, "Synchronization Functions": "all global and shared memory accesses made
//! by these threads prior to `__syncthreads()` are visible to all threads in the block"), so
//! two warps of a block touching one global cell in one barrier interval are the same three
//! hazards. Between blocks no barrier exists (`grid.sync()` is refused), and blocks run one
//! after another here: a write of a global cell that another block wrote with a different
//! value is a write-after-write hazard (a warning: the device may keep either), the same value
//! an info, as for shared memory. Reads across blocks are not checked: the ordering kernels
//! use between blocks — a `__threadfence()` and an atomic flag or counter, as the Programming
//! Guide's "last block" reduction under "Memory Fence Functions" — is invisible to a check of
//! plain accesses, so a read of another block's write would be reported even where it is
//! ordered. The cross-block log holds the first and latest writer of another block per cell,
//! for [`MAX_GLOBAL_CELLS`] cells a launch; past it a note says later cells are not checked.
//!
//! Atomics against plain reads. A plain read and an atomic of one cell by two warps of a block
//! with no barrier between them are a data race all the same (the atomic is the write of
//! C++17 [intro.races]/21, its one conflicting action that is atomic): a read of a cell another
//! warp updated atomically is a read-after-atomic hazard, an atomic of a cell another warp read
//! an atomic-after-read hazard. The atomics of each cell touched by one are logged in a map of
//! their own ([`MAX_GLOBAL_CELLS`] cells at most), by block and barrier interval. Between
//! blocks, an atomic of a global cell that an earlier block read with a plain read (after an
//! atomic of the cell in this launch, which is when reads of it start being logged) is an
//! atomic-after-read hazard: the earlier block's read saw the value before the later block's
//! update only because blocks run one after another here. A read of a cell an earlier block
//! updated is not reported, for the reason above: the last block of a "last block" reduction
//! reads what every other block added, ordered by their `__threadfence()` and ticket.
//!
//! Severity. A RAW, a WAR and a WAW of different values are warnings: the device may give
//! another value than this run. A WAW where both warps stored the same value is an info: every
//! order leaves that value in the cell (a read racing with either write is still reported as a
//! RAW or WAR), the shape of `if (found) s_flag = 1;` from many warps, which is written on
//! purpose. It is still reported, lower, because C++17 [intro.races]/21 calls it a data
//! race all the same; it is an info rather than nothing so that a user chasing a wrong value
//! sees every unordered pair.
//!
//! The values read stay the ones this schedule computed, with the warning saying the device may
//! give another. They are not marked undefined: under the PTX memory model a weak load that
//! races still returns the value of one of the writes to the cell (PTX ISA, "Memory Consistency
//! Model"; PTX does not require data-race freedom, Lustig et al., ASPLOS 2019), so the value
//! here is one the device can return, not arbitrary bits; and an undefined value would end the
//! run at the first branch on it, hiding the rest of the kernel.
//!
//! Reporting: one diagnostic per (kind, line of the first access, line of the second), at the
//! second access's statement, naming the cell, the two warps, lanes and threads and both lines;
//! at most [`MAX_RACE_REPORTS`] pairs, then one line saying further hazards are not listed.
//!
//! Cost: a block of one warp tracks nothing; a buffer that is not `__shared__` costs one
//! lookup per access in a vector indexed by buffer. A shared cell costs [`CELL_BYTES`] bytes of
//! bookkeeping while its block runs, charged with the block's lane variables; a buffer whose
//! bookkeeping would pass the memory budget is left unchecked, with a note.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use super::StepCtx;
use crate::ast::Span;
use crate::budget::Meter;
use crate::exec::Executor;
use crate::memory::{Memory, Space};
use crate::types::KVal;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// Most distinct (kind, line, line) hazards reported in one run; past it one diagnostic says
/// that further ones are not listed. A kernel racing in a loop over many lines would otherwise
/// flood the diagnostics (they are also bounded by `Limits::max_diagnostics`).
pub const MAX_RACE_REPORTS: usize = 16;

/// Bytes of bookkeeping per tracked shared cell, as counted against the memory budget (the
/// size of [`CellLog`] on a 64-bit host).
pub const CELL_BYTES: u64 = 56;

/// Most global cells logged: per block (the warps' log) and per launch (the blocks' writes).
/// Past it further cells are not checked, with one note: a log entry is about 100 bytes, and a
/// kernel that writes millions of cells would otherwise spend more on the check than on its
/// own memory.
pub const MAX_GLOBAL_CELLS: usize = 1 << 16;

/// The kind of hazard (Compute Sanitizer, "Racecheck Tool").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// A read of a cell another warp wrote in the same barrier interval.
    Raw,
    /// A write of a cell another warp read in the same barrier interval.
    War,
    /// Writes of one cell by two warps in the same barrier interval: different values.
    Waw,
    /// The same, where both stored the same value.
    WawSame,
    /// Writes of one global cell by two blocks: different values.
    BlockWaw,
    /// The same, where both stored the same value.
    BlockWawSame,
    /// A plain read of a cell another warp updated atomically in the same barrier interval.
    AtomicRaw,
    /// An atomic of a cell another warp read with a plain read in the same barrier interval.
    AtomicWar,
    /// An atomic of a global cell an earlier block read with a plain read.
    BlockAtomicWar,
}

/// A cell some atomic touched: the block and barrier interval of `atomics`, the first and
/// latest other warp that updated it atomically there, and the plain reads of it by blocks
/// in this launch since (global cells only), each as (block, access).
#[derive(Clone, Copy, Debug)]
struct AtomicLog {
    block: u32,
    epoch: u32,
    atomics: [Access; 2],
    reads: [(u32, Access); 2],
}

/// "No warp" in an access slot.
const NONE: u16 = u16::MAX;

/// One access: the warp (index in the block), the lane, the statement's line, and for a write
/// its value's fingerprint (`defined` false for an undefined value, which equals nothing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Access {
    warp: u16,
    /// The lane within the warp.
    pub(crate) lane: u8,
    defined: bool,
    pub(crate) line: u32,
    value: u64,
}

impl Access {
    const EMPTY: Access = Access {
        warp: NONE,
        lane: 0,
        defined: false,
        line: 0,
        value: 0,
    };
}

/// A cell's accesses since the barrier interval `epoch` began: the first writer and the latest
/// writer of another warp than the first (so that for any warp at least one of the two, when
/// both are set, is another warp's), and the same for readers.
#[derive(Clone, Copy, Debug)]
struct CellLog {
    epoch: u32,
    writes: [Access; 2],
    reads: [Access; 2],
}

impl CellLog {
    fn fresh(epoch: u32) -> Self {
        CellLog {
            epoch,
            writes: [Access::EMPTY; 2],
            reads: [Access::EMPTY; 2],
        }
    }
}

/// Records `a` in a pair of slots: the first access stays; a later one of another warp than
/// the first replaces the second slot.
fn remember(slots: &mut [Access; 2], a: Access) {
    if slots[0].warp == NONE {
        slots[0] = a;
    } else if slots[0].warp != a.warp {
        slots[1] = a;
    }
}

/// The slot of `slots` holding another warp's access than `warp`, if any.
fn other(slots: &[Access; 2], warp: u16) -> Option<Access> {
    slots
        .iter()
        .copied()
        .find(|s| s.warp != NONE && s.warp != warp)
}

/// Whether a buffer is tracked (by buffer index).
#[derive(Clone, Debug, Default)]
enum Track {
    /// Not looked at yet in this block.
    #[default]
    Unknown,
    /// Not a shared buffer of this block.
    Off,
    /// A shared buffer: one log per cell.
    On(Vec<CellLog>),
    /// A global buffer: its cells' logs in [`RaceCheck::global`] and [`RaceCheck::grid`].
    Global,
}

/// A global cell's writes by blocks in this launch: the first writer and the latest writer of
/// another block than the first, each as (block, access).
#[derive(Clone, Copy, Debug)]
struct GridLog {
    writes: [(u32, Access); 2],
}

/// A hazard found, to be reported with the step that found it.
#[derive(Clone, Debug)]
struct Found {
    kind: Kind,
    buf: usize,
    off: i64,
    first: Access,
    second: Access,
    /// The blocks of `first` and `second` (a cross-block hazard's).
    blocks: (u32, u32),
}

/// The race detector's state (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct RaceCheck {
    /// Whether accesses are recorded: the block has more than one warp, or the grid more than
    /// one block.
    on: bool,
    /// Whether the running block has more than one warp (the warps' hazards are checked).
    warps: bool,
    /// Whether the grid has more than one block (the blocks' global writes are checked).
    blocks: bool,
    /// The running block's index.
    block: u32,
    /// Blocks started so far.
    started: u32,
    /// The running block's global cells: (buffer, cell) → log.
    global: HashMap<(usize, i64), CellLog, BuildHasherDefault<FxHasher>>,
    /// The launch's global writes by blocks: (buffer, cell) → log.
    grid: HashMap<(usize, i64), GridLog, BuildHasherDefault<FxHasher>>,
    /// The cells atomics touched in this launch: (buffer, cell) → log.
    atomic: HashMap<(usize, i64), AtomicLog, BuildHasherDefault<FxHasher>>,
    /// Whether a global log reached [`MAX_GLOBAL_CELLS`] (and its note is still to give).
    global_full: Option<bool>,
    /// The barrier interval: a cell log of another epoch is empty.
    epoch: u32,
    /// Per buffer index.
    bufs: Vec<Track>,
    /// (kind, first line, second line) already reported, at most [`MAX_RACE_REPORTS`].
    reported: HashSet<(Kind, u32, u32)>,
    /// Whether the cap's diagnostic was given.
    capped: bool,
    /// Hazards found in the step running, reported when it is recorded.
    pending: Vec<Found>,
    /// Shared buffers left unchecked in the step running (their logs would pass the memory
    /// budget), named when it is recorded.
    unchecked: Vec<String>,
}

/// A value's fingerprint for the same-value test: the bits of a scalar (two writes of one
/// cell are both converted to its element type), a mix of the components of a vector.
fn fingerprint(v: &KVal) -> u64 {
    match v {
        KVal::Int { bits, .. } => *bits,
        KVal::Float { x, .. } => x.to_bits(),
        KVal::Vector { items, .. } => items.iter().fold(0xcbf2_9ce4_8422_2325, |h, k| {
            (h ^ fingerprint(k)).wrapping_mul(0x0100_0000_01b3)
        }),
        KVal::Ptr { buf, offset, .. } => (*buf as u64).rotate_left(32) ^ (*offset as u64),
    }
}

/// The rule a hazard cites, in the dialect's documents.
fn race_rule(d: Dialect) -> &'static str {
    match d {
        Dialect::Wgsl => {
            "WGSL spec, Memory Model and workgroupBarrier: workgroup accesses of different invocations not ordered by a barrier race"
        }
        Dialect::Hip => {
            "HIP documentation, Synchronization functions (__syncthreads); Compute Sanitizer, Racecheck Tool (hazard kinds)"
        }
        _ => {
            "CUDA C++ Programming Guide, Synchronization Functions (__syncthreads); Compute Sanitizer, Racecheck Tool"
        }
    }
}

/// The rule a hazard between blocks cites.
fn grid_rule(d: Dialect) -> &'static str {
    match d {
        Dialect::Wgsl => {
            "WGSL spec, Memory Model: storage accesses of invocations of different workgroups are not ordered by workgroupBarrier"
        }
        Dialect::Hip => {
            "HIP Programming Guide, Programming model (blocks run independently, in any order); Compute Sanitizer, Racecheck Tool (hazard kinds)"
        }
        _ => {
            "CUDA C++ Programming Guide, Thread Hierarchy (thread blocks execute independently, in any order); Compute Sanitizer, Racecheck Tool"
        }
    }
}

impl RaceCheck {
    /// The check of a launch of `blocks` blocks.
    pub(crate) fn new(blocks: usize) -> Self {
        RaceCheck {
            blocks: blocks > 1,
            ..RaceCheck::default()
        }
    }

    /// The next block of `warps` warps starts (blocks start in order, the first as block 0):
    /// nothing of the last block is kept but the global writes of the blocks
    /// ([`RaceCheck::grid`]).
    pub(crate) fn start_block(&mut self, warps: usize) {
        self.warps = warps > 1;
        self.on = self.warps || self.blocks;
        self.block = self.started;
        self.started = self.started.saturating_add(1);
        self.global.clear();
        self.bufs.clear();
        self.pending.clear();
        self.unchecked.clear();
        self.barrier();
    }

    /// Block `block` of `warps` warps resumes after `grid.sync()` (`machine/grid_sync.rs`):
    /// like a block starting, but it keeps its index.
    pub(crate) fn resume_block(&mut self, block: usize, warps: usize) {
        let started = self.started;
        self.started = u32::try_from(block).unwrap_or(u32::MAX);
        self.start_block(warps);
        self.started = started;
    }

    /// The grid barrier (`grid.sync()`) opened: every block's global write before it is
    /// ordered before every access after it (CUDA C++ Programming Guide, Cooperative Groups,
    /// Grid Synchronization), so the blocks' logs start over.
    pub(crate) fn grid_barrier(&mut self) {
        self.grid.clear();
        self.atomic.clear();
    }

    /// The block's barrier opened: every access before it is ordered before every access
    /// after it, so each cell's log starts over (by epoch: nothing is walked).
    pub(crate) fn barrier(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2^32 barriers an old log could look current: drop them all.
            for t in &mut self.bufs {
                if let Track::On(cells) = t {
                    cells.fill(CellLog::fresh(0));
                }
            }
            self.epoch = 1;
        }
    }
}

impl RaceCheck {
    /// Whether the running block is checked (it has more than one warp).
    pub(crate) fn on(&self) -> bool {
        self.on
    }

    /// Turns recording off (`false`) or back to what it was; returns the previous state.
    /// Recording stays off in a block of one warp in a grid of one block. An
    /// atomic through a pointer of another type reads and writes its cells with plain loads
    /// and stores ([`super::atomic_view`]), which must not be logged: atomics are no hazard.
    pub(crate) fn set_on(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.on, on)
    }

    /// The log of cell `off` of buffer `buf` when it is a tracked shared cell of the running
    /// block, creating the buffer's logs on its first access: their bytes are charged with the
    /// block's lane variables (`Meter::var_bytes`), which live as long; a buffer whose logs
    /// would pass the memory budget is left unchecked, with a note.
    fn cell(
        &mut self,
        memory: &Memory,
        meter: &mut Meter,
        buf: usize,
        off: i64,
    ) -> Option<&mut CellLog> {
        if self.bufs.len() <= buf {
            self.bufs.resize(buf + 1, Track::Unknown);
        }
        if matches!(self.bufs[buf], Track::Unknown) {
            self.bufs[buf] = match memory.buffers.get(buf) {
                // A reserved name (`__` first: C++17 [lex.name]/3) is the model's own, such as
                // the count `__syncthreads_count` is lowered to (`parser/sync_vote.rs`), whose
                // per-warp clears are no access of the user's: a device does the vote in one
                // instruction.
                Some(b) if b.space == Space::Global && !b.name.starts_with("__") => Track::Global,
                Some(_) if !self.warps => Track::Off,
                Some(b) if matches!(b.space, Space::Shared { .. }) && !b.name.starts_with("__") => {
                    let need = (b.cells.len() as u64).saturating_mul(CELL_BYTES);
                    if meter.fits(memory.used_bytes, need) {
                        meter.var_bytes = meter.var_bytes.saturating_add(need);
                        Track::On(vec![CellLog::fresh(0); b.cells.len()])
                    } else {
                        self.unchecked.push(b.name.clone());
                        Track::Off
                    }
                }
                _ => Track::Off,
            };
        }
        let epoch = self.epoch;
        let cell = match &mut self.bufs[buf] {
            Track::On(cells) => cells.get_mut(usize::try_from(off).ok()?)?,
            Track::Global if self.warps => {
                let full = self.global.len() >= MAX_GLOBAL_CELLS;
                if full && !self.global.contains_key(&(buf, off)) {
                    self.global_full.get_or_insert(true);
                    return None;
                }
                self.global
                    .entry((buf, off))
                    .or_insert_with(|| CellLog::fresh(epoch))
            }
            _ => return None,
        };
        if cell.epoch != epoch {
            *cell = CellLog::fresh(epoch);
        }
        Some(cell)
    }

    /// `me` (see [`Executor::race_who`]) reads cell `off` of buffer `buf` (a plain read, not
    /// an atomic).
    pub(crate) fn read(
        &mut self,
        (memory, meter): (&Memory, &mut Meter),
        me: Access,
        buf: usize,
        off: i64,
    ) {
        if !self.on {
            return;
        }
        if let Some(cell) = self.cell(memory, meter, buf, off) {
            let writer = other(&cell.writes, me.warp);
            remember(&mut cell.reads, me);
            if let Some(first) = writer {
                self.found(Kind::Raw, buf, off, first, me, None);
            }
        }
        if !self.atomic.is_empty() {
            self.read_atomic_cell(buf, off, me);
        }
    }

    /// A plain read by `me` of cell `off` of buffer `buf`, against the atomics of the cell:
    /// a read-after-atomic hazard when another warp of the block updated it atomically in this
    /// barrier interval; the read is logged for the blocks after this one (global cells).
    fn read_atomic_cell(&mut self, buf: usize, off: i64, me: Access) {
        let (block, epoch) = (self.block, self.epoch);
        let global = matches!(self.bufs.get(buf), Some(Track::Global));
        let Some(log) = self.atomic.get_mut(&(buf, off)) else {
            return;
        };
        let updater = if log.block == block && log.epoch == epoch && self.warps {
            other(&log.atomics, me.warp)
        } else {
            None
        };
        if global && self.blocks {
            if log.reads[0].1.warp == NONE {
                log.reads[0] = (block, me);
            } else if log.reads[0].0 != block {
                log.reads[1] = (block, me);
            }
        }
        if let Some(first) = updater {
            self.found(Kind::AtomicRaw, buf, off, first, me, None);
        }
    }

    /// `me` updates cell `off` of buffer `buf` atomically: an atomic-after-read hazard when
    /// another warp of the block read it with a plain read in this barrier interval, or an
    /// earlier block read it (global cells, see the module doc); an atomic against an atomic
    /// is none.
    pub(crate) fn atomic(
        &mut self,
        (memory, meter): (&Memory, &mut Meter),
        me: Access,
        buf: usize,
        off: i64,
    ) {
        if !self.on {
            return;
        }
        let reader = self
            .cell(memory, meter, buf, off)
            .and_then(|cell| other(&cell.reads, me.warp));
        let (block, epoch) = (self.block, self.epoch);
        let tracked = matches!(self.bufs.get(buf), Some(Track::Global) | Some(Track::On(_)));
        if !tracked {
            return;
        }
        let full = self.atomic.len() >= MAX_GLOBAL_CELLS;
        let log = match self.atomic.get_mut(&(buf, off)) {
            Some(log) => log,
            None if full => {
                self.global_full.get_or_insert(true);
                return;
            }
            None => self.atomic.entry((buf, off)).or_insert(AtomicLog {
                block,
                epoch,
                atomics: [Access::EMPTY; 2],
                reads: [(u32::MAX, Access::EMPTY); 2],
            }),
        };
        if log.block != block || log.epoch != epoch {
            log.block = block;
            log.epoch = epoch;
            log.atomics = [Access::EMPTY; 2];
        }
        remember(&mut log.atomics, me);
        let earlier = log
            .reads
            .iter()
            .copied()
            .find(|(b, a)| a.warp != NONE && *b != block);
        if let Some(first) = reader {
            self.found(Kind::AtomicWar, buf, off, first, me, None);
        }
        if let Some((b, first)) = earlier {
            self.found(Kind::BlockAtomicWar, buf, off, first, me, Some((b, block)));
        }
    }

    /// `me` writes `value` (`None`: undefined) to cell `off` of buffer `buf` (a plain write,
    /// not an atomic).
    pub(crate) fn write(
        &mut self,
        (memory, meter): (&Memory, &mut Meter),
        mut me: Access,
        (buf, off): (usize, i64),
        value: Option<&KVal>,
    ) {
        if !self.on {
            return;
        }
        me.defined = value.is_some();
        me.value = value.map_or(0, fingerprint);
        let hazards = self.cell(memory, meter, buf, off).map(|cell| {
            let reader = other(&cell.reads, me.warp);
            let writer = other(&cell.writes, me.warp);
            remember(&mut cell.writes, me);
            (reader, writer)
        });
        if let Some((reader, writer)) = hazards {
            if let Some(first) = reader {
                self.found(Kind::War, buf, off, first, me, None);
            }
            if let Some(first) = writer {
                let same = first.defined && me.defined && first.value == me.value;
                let kind = if same { Kind::WawSame } else { Kind::Waw };
                self.found(kind, buf, off, first, me, None);
            }
        }
        if self.blocks && matches!(self.bufs.get(buf), Some(Track::Global)) {
            self.grid_write(buf, off, me);
        }
    }

    /// `me` of the running block writes global cell `off` of buffer `buf`: a write-after-write
    /// hazard when another block wrote the cell in this launch (see the module doc).
    fn grid_write(&mut self, buf: usize, off: i64, me: Access) {
        let block = self.block;
        let full = self.grid.len() >= MAX_GLOBAL_CELLS;
        let log = match self.grid.get_mut(&(buf, off)) {
            Some(log) => log,
            None if full => {
                self.global_full.get_or_insert(true);
                return;
            }
            None => {
                let writes = [(block, me), (u32::MAX, Access::EMPTY)];
                self.grid.insert((buf, off), GridLog { writes });
                return;
            }
        };
        let earlier = log
            .writes
            .iter()
            .copied()
            .find(|(b, a)| a.warp != NONE && *b != block);
        if log.writes[0].0 != block {
            log.writes[1] = (block, me);
        }
        if let Some((b, first)) = earlier {
            let same = first.defined && me.defined && first.value == me.value;
            let kind = if same {
                Kind::BlockWawSame
            } else {
                Kind::BlockWaw
            };
            self.found(kind, buf, off, first, me, Some((b, block)));
        }
    }

    /// Keeps a hazard for the step's report when its line pair is new and under the cap;
    /// `blocks` are the two blocks of a cross-block hazard (else both are the running block).
    fn found(
        &mut self,
        kind: Kind,
        buf: usize,
        off: i64,
        first: Access,
        second: Access,
        blocks: Option<(u32, u32)>,
    ) {
        let blocks = blocks.unwrap_or((self.block, self.block));
        let key = (kind, first.line, second.line);
        if self.reported.contains(&key) {
            return;
        }
        if self.reported.len() >= MAX_RACE_REPORTS {
            if !self.capped {
                self.capped = true;
                self.pending.push(Found {
                    kind,
                    buf,
                    off: -1,
                    first,
                    second,
                    blocks,
                });
            }
            return;
        }
        self.reported.insert(key);
        self.pending.push(Found {
            kind,
            buf,
            off,
            first,
            second,
            blocks,
        });
    }
}

impl Executor {
    /// Lane 0 of warp `w` at the statement it runs, as an access (set `lane` per lane).
    pub(crate) fn race_who(&self, w: usize) -> Access {
        let pc = self.warps.get(w).map_or(0, |x| x.pc);
        let line = match self.pc_line.get(pc) {
            Some(&l) if l > 0 => l,
            _ => self.line_of(pc),
        };
        Access {
            warp: self
                .warps
                .get(w)
                .map_or(NONE - 1, |x| u16::try_from(x.index).unwrap_or(NONE - 1)),
            lane: 0,
            defined: false,
            line,
            value: 0,
        }
    }

    /// Lane `lane` of warp `w` as the race log records an access of its ([`Self::race_who`]
    /// with the lane).
    fn race_lane(&self, w: usize, lane: usize) -> Access {
        Access {
            lane: u8::try_from(lane).unwrap_or(u8::MAX),
            ..self.race_who(w)
        }
    }

    /// Lane `lane` of warp `w` reads cell `off` of buffer `buf` (a plain read).
    pub(crate) fn race_read(&mut self, w: usize, buf: usize, off: i64, lane: usize) {
        self.warp_race_read(w, buf, off, lane);
        if !self.race.on {
            return;
        }
        let me = self.race_lane(w, lane);
        self.race
            .read((&self.trace.memory, &mut self.meter), me, buf, off);
    }

    /// Lane `lane` of warp `w` writes `value` (`None`: undefined) to cell `off` of buffer
    /// `buf` (a plain write).
    pub(crate) fn race_write(
        &mut self,
        w: usize,
        buf: usize,
        off: i64,
        lane: usize,
        value: Option<&KVal>,
    ) {
        self.warp_race_write(w, buf, off, lane);
        if !self.race.on {
            return;
        }
        let me = self.race_lane(w, lane);
        self.race
            .write((&self.trace.memory, &mut self.meter), me, (buf, off), value);
    }

    /// Lane `lane` of warp `w` updates cell `off` of buffer `buf` atomically.
    pub(crate) fn race_atomic(&mut self, w: usize, buf: usize, off: i64, lane: usize) {
        if !self.race.on {
            return;
        }
        let me = self.race_lane(w, lane);
        self.race
            .atomic((&self.trace.memory, &mut self.meter), me, buf, off);
    }

    /// Adds the hazards found during the step at `span` to its diagnostics.
    pub(crate) fn race_report(&mut self, span: Span, cx: &mut StepCtx) {
        if self.race.pending.is_empty()
            && self.race.unchecked.is_empty()
            && self.race.global_full != Some(true)
        {
            return;
        }
        if self.race.global_full == Some(true) {
            self.race.global_full = Some(false);
            cx.note(
                Level::Info,
                span,
                format!("racecheck: global memory is checked for races in its first {MAX_GLOBAL_CELLS} cells touched (per block, and written across blocks); later cells are not checked"),
                "",
                None,
            );
        }
        let lanes = self.trace.launch.lanes;
        let rule = race_rule(self.trace.launch.dialect);
        for name in std::mem::take(&mut self.race.unchecked) {
            cx.note(
                Level::Info,
                span,
                format!("racecheck: `{name}` is not checked for races: its access logs ({CELL_BYTES} bytes a cell) would pass the memory budget (--max-memory)"),
                "",
                None,
            );
        }
        for f in std::mem::take(&mut self.race.pending) {
            if f.off < 0 {
                cx.note(
                    Level::Warning,
                    span,
                    format!("racecheck: {MAX_RACE_REPORTS} racing pairs of lines are reported; further hazards in this run are not listed"),
                    rule,
                    None,
                );
                continue;
            }
            // A one-cell buffer is a `__shared__` scalar (or an array of one): its name alone.
            let cell = match self.trace.memory.buffers.get(f.buf) {
                Some(b) if b.cells.len() == 1 => format!("`{}`", b.name),
                Some(b) => format!("`{}[{}]`", b.name, f.off),
                None => format!("cell {}", f.off),
            };
            let who = |a: &Access| {
                let t = usize::from(a.warp) * lanes + usize::from(a.lane);
                format!("warp {} lane {} (thread {t})", a.warp, a.lane)
            };
            let (a, b) = match f.kind {
                Kind::BlockWaw | Kind::BlockWawSame | Kind::BlockAtomicWar => (
                    format!("block {} {}", f.blocks.0, who(&f.first)),
                    format!("block {} {}", f.blocks.1, who(&f.second)),
                ),
                _ => (who(&f.first), who(&f.second)),
            };
            let (l1, l2) = (f.first.line, f.second.line);
            let (level, message) = match f.kind {
                Kind::Raw => (
                    Level::Warning,
                    format!("racecheck: read-after-write hazard on {cell}: {b} reads it at line {l2}, {a} wrote it at line {l1}, with no barrier between them: the read here sees that write (warps run one after another), the device may read the value from before it"),
                ),
                Kind::War => (
                    Level::Warning,
                    format!("racecheck: write-after-read hazard on {cell}: {b} writes it at line {l2}, {a} read it at line {l1}, with no barrier between them: the read here saw the value from before this write (warps run one after another), on the device it may see this write"),
                ),
                Kind::Waw => (
                    Level::Warning,
                    format!("racecheck: write-after-write hazard on {cell}: {b} writes it at line {l2}, {a} wrote another value at line {l1}, with no barrier between them: the cell keeps the later write here, the device may keep either"),
                ),
                Kind::BlockWaw => (
                    Level::Warning,
                    format!("racecheck: write-after-write hazard on {cell} between blocks: {b} writes it at line {l2}, {a} wrote another value at line {l1}, and nothing orders two blocks: the cell keeps the later write here (blocks run one after another), the device may keep either"),
                ),
                Kind::BlockWawSame => (
                    Level::Info,
                    format!("racecheck: write-after-write hazard on {cell} of the same value between blocks: {b} writes it at line {l2}, {a} wrote it at line {l1}, and nothing orders two blocks; either order leaves the same value (benign, but still unordered)"),
                ),
                Kind::AtomicRaw => (
                    Level::Warning,
                    format!("racecheck: read-after-atomic hazard on {cell}: {b} reads it with a plain read at line {l2}, {a} updated it atomically at line {l1}, with no barrier between them (an atomic against a plain access is a data race): the read here sees that update (warps run one after another), the device may read the value from before it"),
                ),
                Kind::AtomicWar => (
                    Level::Warning,
                    format!("racecheck: atomic-after-read hazard on {cell}: {b} updates it atomically at line {l2}, {a} read it with a plain read at line {l1}, with no barrier between them (an atomic against a plain access is a data race): the read here saw the value from before this update (warps run one after another), on the device it may see it"),
                ),
                Kind::BlockAtomicWar => (
                    Level::Warning,
                    format!("racecheck: atomic-after-read hazard on {cell} between blocks: {b} updates it atomically at line {l2}, {a} read it with a plain read at line {l1}, and nothing orders two blocks: the read here saw the value from before this update (blocks run one after another), on the device it may see it"),
                ),
                Kind::WawSame => (
                    Level::Info,
                    format!("racecheck: write-after-write hazard on {cell} of the same value: {b} writes it at line {l2}, {a} wrote it at line {l1}, with no barrier between them; either order leaves the same value (benign, but still unordered)"),
                ),
            };
            let rule = match f.kind {
                Kind::BlockWaw | Kind::BlockWawSame | Kind::BlockAtomicWar => {
                    grid_rule(self.trace.launch.dialect)
                }
                _ => rule,
            };
            cx.note(level, span, message, rule, None);
        }
    }
}
