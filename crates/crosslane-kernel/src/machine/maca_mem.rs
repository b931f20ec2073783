//! The MACA memory builtins on kernel memory (seed 002 §3.1): `ldg_*_predicator(_ret)`,
//! `stg_*_predicator`, `ldg_*_bsm` and `load_shared_trans_*` called with the kernel's pointers,
//! and the fences that complete their queued accesses (`arrive*`, `barrier_and_wait*`,
//! `barrier_ex`, `__syncthreads`).
//!
//! Each call is run by the builtin's own [`crosslane_core::OpSpec`] (dialect/maca/memory.rs) on the bytes
//! of the buffer its pointer names: the op decides which lanes execute and what a lane that does
//! not execute gets (`ret0_en`, `ret_val`, the compare), and its [`crosslane_core::Step`] is the call's
//! lane drawing. The bytes then move with the same helpers the op uses ([`memory::store`],
//! [`memory::ldg_bsm`], [`memory::read_bytes`]), with one addition the op view lacks: a byte of
//! kernel memory can be uninitialized, and a load of it is undefined.
//!
//! Visibility (seed 002 §3.1.4, §3.1.6–3.1.10; dialect/maca/sync.rs): an `ldg_*_bsm` copy enters
//! the warp's global queue ([`MemQueues`]) and its shared cells stay "not yet visible" until a
//! fence completes it (`barrier_and_wait*` with its `ret_flag`, an `arrive` whose counter covers
//! it, `barrier_ex(0|1)` or `__syncthreads()`); a read before that is undefined. The predicated
//! loads and stores with `is_async = false` complete at once (the compiler waits for a load's
//! register before its first use). With `is_async = true` the program must
//! wait itself: until an `arrive` (or barrier) completes the load, its result is undefined "not
//! yet visible"; the fence then writes the loaded values into the variables that the load's line
//! assigned (a copy taken before the fence stays undefined, as the stale register it copied).

use std::collections::{BTreeSet, HashMap};

use half::{bf16, f16};

use super::StepCtx;
use crate::ast::{Expr, Span};
use crate::exec::Executor;
use crate::trace::{LaneVal, MemWrite, Undef};
use crate::types::{KVal, Scalar, ValTy};
use crosslane_core::dialect::maca::memory::{self, Elem, View};
use crosslane_core::dialect::maca::sync::{MemQueues, Queue};
use crosslane_core::lanes::LaneMask;
use crosslane_core::request::OpRequest;
use crosslane_core::result::{Level, Source};
use crosslane_core::trace::Step;

/// Queues of outstanding accesses per warp, the shared cells a queued copy has not yet filled,
/// and the results of asynchronous loads not yet waited for.
#[derive(Clone, Debug, Default)]
pub(crate) struct MacaMem {
    queues: HashMap<usize, MemQueues>,
    /// (buffer, cell) → (warp, ticket, line of the copy, builtin).
    pending: HashMap<(usize, i64), (usize, u64, u32, String)>,
    /// ticket → an `is_async` load whose register is not yet written.
    loads: HashMap<u64, AsyncLoad>,
}

impl MacaMem {
    /// Whether an `is_async` load is waiting for its fence.
    pub(crate) fn loads_pending(&self) -> bool {
        !self.loads.is_empty()
    }

    /// Whether some memory cell is waiting for a queued copy (a load of it is then not yet
    /// visible: [`Executor::maca_unready`]).
    pub(crate) fn cells_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// An `is_async = true` load (seed 002 §3.1.1, is_async): until a fence completes it, the lanes
/// read the undefined `marker`; the fence writes `values` into the variables its line assigned.
#[derive(Clone, Debug)]
struct AsyncLoad {
    warp: usize,
    line: u32,
    marker: String,
    values: Vec<(usize, KVal)>,
    /// Variables the load's line changed while the load was pending (noted by
    /// [`Executor::maca_note_changes`]): the ones a fence may fill.
    slots: BTreeSet<usize>,
}

const RULE_VISIBLE: &str = "seed 002 §3.1.4 (ldg_*_bsm: complete only after barrier_and_wait* or __syncthreads), §3.1.6-3.1.10";

/// Which MACA memory builtin a name is.
enum Kind {
    Predicated(View),
    Bsm(usize),
    Trans,
}

/// Whether `name` is one of the MACA memory builtins this module runs (seed 002 §3.1).
pub(crate) fn is_memory_call(name: &str) -> bool {
    kind_of(name).is_some()
}

fn kind_of(name: &str) -> Option<Kind> {
    if name.starts_with("__builtin_mxc_load_shared_trans") {
        return Some(Kind::Trans);
    }
    if let Some(bits) = name
        .strip_prefix("__builtin_mxc_ldg_b")
        .and_then(|r| r.strip_suffix("_bsm"))
        .and_then(|b| b.parse::<usize>().ok())
    {
        return Some(Kind::Bsm(bits / 8));
    }
    memory::view_of(name).map(Kind::Predicated)
}

fn scalar_bytes(s: Scalar) -> usize {
    (s.bits() as usize).div_ceil(8)
}

fn elem_size(t: ValTy) -> usize {
    scalar_bytes(t.scalar) * usize::from(t.lanes.max(1))
}

/// A value's little-endian bytes as type `t` (converted first); `None` for pointers.
fn kval_bytes(v: &KVal, t: ValTy) -> Option<Vec<u8>> {
    let v = v.convert(t).ok()?;
    pub(crate) fn scalar(v: &KVal) -> Option<Vec<u8>> {
        match v {
            KVal::Int { ty, bits } => Some(bits.to_le_bytes()[..scalar_bytes(*ty)].to_vec()),
            KVal::Float { ty, x, .. } => Some(match ty {
                Scalar::F16 => f16::from_f64(*x).to_bits().to_le_bytes().to_vec(),
                Scalar::Bf16 => bf16::from_f64(*x).to_bits().to_le_bytes().to_vec(),
                Scalar::F32 => (*x as f32).to_bits().to_le_bytes().to_vec(),
                t if t.is_fp8() => vec![crate::fp8::encode(*t, *x)?],
                _ => x.to_bits().to_le_bytes().to_vec(),
            }),
            _ => None,
        }
    }
    match &v {
        KVal::Vector { items, .. } => items
            .iter()
            .map(scalar)
            .collect::<Option<Vec<_>>>()
            .map(|p| p.concat()),
        other => scalar(other),
    }
}

fn scalar_from(bytes: &[u8], s: Scalar) -> KVal {
    let raw = bytes
        .iter()
        .enumerate()
        .fold(0u64, |acc, (k, b)| acc | (u64::from(*b) << (8 * k)));
    match s {
        Scalar::F16 => KVal::Float {
            ty: s,
            x: f16::from_bits(raw as u16).to_f64(),
            approx: None,
        },
        Scalar::Bf16 => KVal::Float {
            ty: s,
            x: bf16::from_bits(raw as u16).to_f64(),
            approx: None,
        },
        Scalar::F32 => KVal::Float {
            ty: s,
            x: f64::from(f32::from_bits(raw as u32)),
            approx: None,
        },
        Scalar::F64 => KVal::Float {
            ty: s,
            x: f64::from_bits(raw),
            approx: None,
        },
        Scalar::Bool => KVal::bool(raw != 0),
        t if t.is_fp8() => KVal::Float {
            ty: s,
            x: crate::fp8::decode(t, raw as u8).unwrap_or(f64::NAN),
            approx: None,
        },
        _ => KVal::int(s, raw as i128),
    }
}

/// A value of type `t` from its little-endian bytes.
fn bytes_kval(bytes: &[u8], t: ValTy) -> KVal {
    let size = scalar_bytes(t.scalar);
    if t.lanes <= 1 {
        return scalar_from(bytes, t.scalar);
    }
    KVal::Vector {
        ty: t.scalar,
        items: bytes
            .chunks(size)
            .map(|c| scalar_from(c, t.scalar))
            .collect(),
    }
}

fn elem_scalar(e: Elem) -> Scalar {
    match e {
        Elem::U8 => Scalar::U8,
        Elem::U16 => Scalar::U16,
        Elem::U32 => Scalar::U32,
        Elem::I8 => Scalar::I8,
        Elem::I16 => Scalar::I16,
        Elem::F16 => Scalar::F16,
    }
}

/// The type a view's load returns (`v1u32` is a plain `unsigned`).
fn view_ty(v: View) -> ValTy {
    ValTy {
        scalar: elem_scalar(v.elem),
        lanes: v.count().min(255) as u8,
    }
}

/// A buffer as bytes: the words the op reads, which bytes hold a value, and the byte length.
struct Bytes {
    words: Vec<u32>,
    defined: Vec<bool>,
    len: usize,
}

impl Bytes {
    fn get(&self, addr: i64, n: usize) -> Option<(Vec<u8>, bool)> {
        let start = usize::try_from(addr).ok()?;
        if start.checked_add(n)? > self.len {
            return None;
        }
        let b = memory::read_bytes(&self.words, addr, n)?;
        let defined = self.defined.get(start..start + n)?.iter().all(|d| *d);
        Some((b, defined))
    }

    fn text(&self) -> String {
        if self.words.is_empty() {
            return "zero:1".into();
        }
        self.words
            .iter()
            .map(|w| format!("0x{w:x}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The first value of an argument among the lanes.
fn first(vals: &[LaneVal], mask: LaneMask) -> Option<KVal> {
    mask.iter()
        .find_map(|l| vals.get(l).and_then(|v| v.as_ref().ok()).cloned())
}

fn flag_text(v: Option<KVal>) -> &'static str {
    if v.and_then(|k| k.truthy()) == Some(true) {
        "true"
    } else {
        "false"
    }
}

fn int_text(v: &LaneVal) -> String {
    v.as_ref()
        .ok()
        .and_then(KVal::as_int)
        .map_or_else(|| "0".into(), |i| i.to_string())
}

/// A lane's vector as the op's `data` / `ret_val` text (`a:b:…`).
fn vector_text(v: &LaneVal, view: View) -> String {
    let t = view_ty(view);
    let comps: Vec<KVal> = match v.as_ref().ok().and_then(|k| k.convert(t).ok()) {
        Some(KVal::Vector { items, .. }) => items,
        Some(k) => vec![k],
        None => vec![KVal::int(t.scalar, 0)],
    };
    comps
        .iter()
        .map(|c| match c {
            KVal::Float { x, .. } => format!("{x}"),
            other => other.as_int().map_or_else(|| "0".into(), |i| i.to_string()),
        })
        .collect::<Vec<_>>()
        .join(":")
}

impl Executor {
    /// The bytes of buffer `buf`.
    fn maca_bytes(&self, buf: usize) -> Option<(Bytes, ValTy)> {
        let b = self.trace.memory.buffers.get(buf)?;
        let es = elem_size(b.elem);
        let len = b.cells.len() * es;
        let mut bytes = vec![0u8; len];
        let mut defined = vec![false; len];
        for (i, c) in b.cells.iter().enumerate() {
            if let Some(raw) = c.as_ref().and_then(|v| kval_bytes(v, b.elem)) {
                for (k, byte) in raw.iter().enumerate().take(es) {
                    bytes[i * es + k] = *byte;
                    defined[i * es + k] = true;
                }
            }
        }
        let words = bytes
            .chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u32, |acc, (k, b)| acc | (u32::from(*b) << (8 * k)))
            })
            .collect();
        Some((
            Bytes {
                words,
                defined,
                len,
            },
            b.elem,
        ))
    }

    /// Writes the cells of `buf` that bytes `ranges` touched back from `bytes`, recording each
    /// write; a cell with a byte that holds no value becomes uninitialized.
    fn maca_write_back(
        &mut self,
        buf: usize,
        bytes: &Bytes,
        ranges: &[(usize, i64, usize)],
        cx: &mut StepCtx,
    ) -> Vec<i64> {
        let Some(elem) = self.trace.memory.buffers.get(buf).map(|b| b.elem) else {
            return Vec::new();
        };
        let es = elem_size(elem).max(1);
        let mut cells: Vec<(i64, usize)> = Vec::new();
        for &(lane, addr, n) in ranges {
            let Ok(start) = usize::try_from(addr) else {
                continue;
            };
            for c in start / es..(start + n).div_ceil(es) {
                if !cells.iter().any(|(x, _)| *x == c as i64) {
                    cells.push((c as i64, lane));
                }
            }
        }
        for &(c, lane) in &cells {
            let at = c as usize * es;
            let value = match (
                memory::read_bytes(&bytes.words, at as i64, es),
                bytes.defined.get(at..at + es),
            ) {
                (Some(b), Some(d)) if d.iter().all(|x| *x) => Some(bytes_kval(&b, elem)),
                _ => None,
            };
            if self.trace.memory.write(buf, c, value.clone()).is_ok() {
                self.partial.forget(buf, c);
                cx.writes.push(MemWrite {
                    buffer: buf,
                    index: c as usize,
                    value,
                    lane,
                });
            }
        }
        cells.iter().map(|(c, _)| *c).collect()
    }

    /// Runs a MACA memory builtin on kernel pointers; `None` when `name` is none of them.
    pub(crate) fn maca_memory_call(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<Vec<LaneVal>> {
        let kind = kind_of(name)?;
        let lanes = self.trace.launch.lanes;
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        let mut out = vec![Err(Undef::idle()); lanes];
        let fail = |cx: &mut StepCtx, out: &mut Vec<LaneVal>, m: String| {
            cx.note(Level::Error, e.span, m.clone(), "seed 002 §3.1", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
        };
        let need = match kind {
            Kind::Predicated(_) => 9,
            Kind::Bsm(_) => 8,
            Kind::Trans => 1,
        };
        if vals.len() != need {
            fail(
                cx,
                &mut out,
                format!("`{name}` takes {need} arguments, got {}", vals.len()),
            );
            return Some(out);
        }
        let result = match kind {
            Kind::Predicated(view) => self.maca_predicated(w, e.span, name, view, &vals, mask, cx),
            Kind::Bsm(bytes) => self.maca_bsm(w, e.span, name, bytes, &vals, mask, cx),
            Kind::Trans => self.maca_trans(e.span, name, mask, cx),
        };
        match result {
            Ok(values) => Some(values),
            Err(m) => {
                fail(cx, &mut out, m);
                Some(out)
            }
        }
    }

    /// The buffer every lane's pointer names and each lane's byte address `ptr + offset`.
    fn maca_addresses(
        &self,
        ptrs: &[LaneVal],
        offsets: Option<&[LaneVal]>,
        mask: LaneMask,
        what: &str,
    ) -> Result<(usize, Vec<i64>), String> {
        let lanes = self.trace.launch.lanes;
        let mut buf = None;
        let mut addr = vec![0i64; lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            match ptrs.get(l) {
                Some(Ok(KVal::Ptr { elem, buf: b, offset })) => {
                    if buf.is_some_and(|x| x != *b) {
                        return Err(format!("{what}: the lanes' pointers name different buffers; the emulator needs one buffer per call"));
                    }
                    buf = Some(*b);
                    let off = offsets
                        .and_then(|o| o.get(l))
                        .and_then(|v| v.as_ref().ok())
                        .and_then(KVal::as_int)
                        .unwrap_or(0) as i64;
                    addr[l] = offset
                        .saturating_mul(elem_size(*elem) as i64)
                        .saturating_add(off);
                }
                Some(Err(u)) => return Err(format!("{what} is undefined in lane {l}: {}", u.why)),
                _ => return Err(format!("{what} must be a pointer to kernel memory (a pointer parameter or a __shared__ array)")),
            }
        }
        buf.map(|b| (b, addr))
            .ok_or_else(|| format!("{what}: no lane executes this call"))
    }

    fn maca_run(
        &self,
        name: &str,
        mask: LaneMask,
        values: String,
        params: Vec<(&str, String)>,
    ) -> Result<Step, String> {
        let lanes = self.trace.launch.lanes;
        OpRequest {
            dialect: "maca".into(),
            op: name.into(),
            lanes: lanes.to_string(),
            active: mask.to_hex(lanes),
            exited: String::new(),
            values,
            // The op's first type: u32 for the loads, stores and copies (the operand row is
            // cmp_operand1, unsigned), i64 for the transposing loads.
            ty: String::new(),
            params: params
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        }
        .run()
        .map_err(|err| format!("{name}: {}: {}", err.field, err.message))
    }

    fn maca_note_step(&self, span: Span, step: &Step, cx: &mut StepCtx) {
        for d in &step.diagnostics {
            // The op's memory listing is the op view's; here the memory panel shows the writes.
            if d.message.starts_with("memory after") || d.message.starts_with("shared memory after")
            {
                continue;
            }
            cx.note(d.level, span, d.message.clone(), &d.rule, None);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn maca_predicated(
        &mut self,
        w: usize,
        span: Span,
        name: &str,
        view: View,
        vals: &[Vec<LaneVal>],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Result<Vec<LaneVal>, String> {
        let lanes = self.trace.launch.lanes;
        let store = name.starts_with("__builtin_mxc_stg_");
        let ret = name.ends_with("_ret");
        let (buf, addr) = self.maca_addresses(&vals[0], Some(&vals[1]), mask, "global_addr")?;
        let (mut bytes, _) = self.maca_bytes(buf).ok_or("global_addr names no buffer")?;
        let buf_name = self
            .trace
            .memory
            .buffers
            .get(buf)
            .map(|b| b.name.clone())
            .unwrap_or_default();
        let op1: Vec<String> = (0..lanes).map(|l| int_text(&vals[6][l])).collect();
        let op2: Vec<String> = (0..lanes).map(|l| int_text(&vals[7][l])).collect();
        let addr_text: Vec<String> = addr.iter().map(i64::to_string).collect();
        let vec_text: Vec<String> = (0..lanes).map(|l| vector_text(&vals[2][l], view)).collect();
        let cmp = first(&vals[8], mask)
            .and_then(|k| k.as_int())
            .unwrap_or(36)
            .to_string();
        let mut params = vec![
            ("memory", bytes.text()),
            ("global_addr", addr_text.join(",")),
            ("offset", "0".into()),
            ("saddr_flag", flag_text(first(&vals[3], mask)).into()),
            ("pred_neg", flag_text(first(&vals[4], mask)).into()),
            ("is_async", flag_text(first(&vals[5], mask)).into()),
            ("cmp_operand2", op2.join(",")),
            ("cmp_flag", cmp),
            ("elem", "0".into()),
        ];
        if store {
            params.push(("data", vec_text.join(",")));
        } else if ret {
            params.push(("ret_val", vec_text.join(",")));
        } else {
            params.push(("ret0_en", flag_text(first(&vals[2], mask)).into()));
        }
        let step = self.maca_run(name, mask, op1.join(","), params)?;
        self.maca_note_step(span, &step, cx);
        let undefined_operand = |l: usize| {
            [6usize, 7].iter().find_map(|&k| match &vals[k][l] {
                Err(u) => Some(format!("cmp_operand{} is undefined: {}", k - 5, u.why)),
                Ok(_) => None,
            })
        };
        let ty = view_ty(view);
        let mut out = vec![Err(Undef::idle()); lanes];
        if store {
            let exec = step
                .results
                .iter()
                .enumerate()
                .filter(|(l, r)| r.source == Source::Computed && undefined_operand(*l).is_none())
                .fold(LaneMask::none(), |m, (l, _)| m.with(l));
            let mut data: Vec<Vec<u8>> = vec![Vec::new(); lanes];
            let mut ranges = Vec::new();
            for l in exec.iter().filter(|&l| l < lanes) {
                let a = addr[l];
                if usize::try_from(a).map_or(true, |s| s + view.bytes > bytes.len) {
                    cx.note(
                        Level::Warning,
                        span,
                        format!(
                            "{name} writes `{buf_name}` outside its {} bytes: nothing is written",
                            bytes.len
                        ),
                        "seed 002 §3.1.2",
                        Some(l),
                    );
                    continue;
                }
                let value = vals[2][l].as_ref().ok().and_then(|v| kval_bytes(v, ty));
                if value.is_none() {
                    cx.note(Level::Warning, span, format!("{name} stores an undefined value: `{buf_name}` holds no value there afterwards"), "seed 002 §3.1.2", Some(l));
                }
                data[l] = value.clone().unwrap_or_else(|| vec![0; view.bytes]);
                ranges.push((l, a, view.bytes));
                let start = a as usize;
                for d in bytes.defined.iter_mut().skip(start).take(view.bytes) {
                    *d = value.is_some();
                }
            }
            let (after, _) = memory::store(&bytes.words, exec, &addr, &data);
            bytes.words = after;
            self.maca_write_back(buf, &bytes, &ranges, cx);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(span, format!("`{name}` returns void")));
            }
            cx.ops.push(step);
            return Ok(out);
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            let Some(r) = step.results.get(l) else {
                continue;
            };
            out[l] = if let Some(why) = undefined_operand(l) {
                Err(Undef::at(span, why))
            } else {
                match r.source {
                    Source::Computed => {
                        match bytes.get(addr[l], view.bytes) {
                            Some((b, true)) => Ok(bytes_kval(&b, ty)),
                            Some((_, false)) => {
                                cx.note(Level::Warning, span, format!("{name} reads bytes of `{buf_name}` that were never written: undefined"), "", Some(l));
                                Err(Undef { uninit: true, ..Undef::at(span, format!("{name} reads `{buf_name}` bytes {}..{} that hold no value", addr[l], addr[l] + view.bytes as i64)) })
                            }
                            None => {
                                cx.note(
                                    Level::Warning,
                                    span,
                                    format!(
                                        "{name} reads `{buf_name}` outside its {} bytes: undefined",
                                        bytes.len
                                    ),
                                    "seed 002 §3.1.1",
                                    Some(l),
                                );
                                Err(Undef::at(
                                    span,
                                    format!("address {} is outside `{buf_name}`", addr[l]),
                                ))
                            }
                        }
                    }
                    Source::Old => vals[2][l]
                        .clone()
                        .and_then(|v| v.convert(ty).map_err(|f| Undef::at(span, f.message))),
                    Source::Zero => Ok(KVal::zero(ty)),
                    _ => Err(Undef::at(
                        span,
                        r.why.clone().unwrap_or_else(|| "not executed".into()),
                    )),
                }
            };
        }
        if flag_text(first(&vals[5], mask)) == "true" {
            self.maca_defer(w, span, name, &mut out, cx);
        }
        cx.ops.push(step);
        Ok(out)
    }

    /// Holds back an asynchronous load's defined lanes until a fence completes it.
    fn maca_defer(
        &mut self,
        w: usize,
        span: Span,
        name: &str,
        out: &mut [LaneVal],
        cx: &mut StepCtx,
    ) {
        let ticket = self.maca.queues.entry(w).or_default().issue(Queue::Global);
        let marker = format!(
            "not yet visible: the asynchronous {name} of line {} (ticket {ticket}) has not completed; wait with __builtin_mxc_arrive* before using its result",
            span.line
        );
        let mut values = Vec::new();
        for (l, v) in out.iter_mut().enumerate() {
            if let Ok(k) = v {
                values.push((l, k.clone()));
                *v = Err(Undef::at(span, marker.clone()));
            }
        }
        cx.note(
            Level::Info,
            span,
            format!("{name} with is_async = true is queued (ticket {ticket}): its result is not visible until an arrive or barrier completes it"),
            "seed 002 §3.1.1 (is_async), §3.1.6",
            None,
        );
        self.maca.loads.insert(
            ticket,
            AsyncLoad {
                warp: w,
                line: span.line,
                marker,
                values,
                slots: BTreeSet::new(),
            },
        );
    }

    /// After a step of warp `w` at `line` that changed `changed`: the pending loads of that
    /// line learn which variables it assigns (so a fence fills those, whatever the trace keeps).
    pub(crate) fn maca_note_changes(&mut self, w: usize, line: u32, changed: &BTreeSet<usize>) {
        for load in self.maca.loads.values_mut() {
            if load.warp == w && load.line == line {
                load.slots.extend(changed.iter().copied());
            }
        }
    }

    /// Writes completed asynchronous loads into the variables their line assigned.
    fn maca_complete_loads(
        &mut self,
        w: usize,
        done: &[u64],
        span: Span,
        name: &str,
        cx: &mut StepCtx,
    ) {
        for t in done {
            let Some(load) = self.maca.loads.remove(t) else {
                continue;
            };
            if load.warp != w {
                continue;
            }
            let mut written = Vec::new();
            for (slot, info) in self.slots.iter().enumerate() {
                if !load.slots.contains(&slot) {
                    continue;
                }
                let Some(reg) = self.warps.get_mut(w).and_then(|x| x.vars.get_mut(slot)) else {
                    continue;
                };
                let mut hit = false;
                for (l, v) in &load.values {
                    if matches!(reg.get(*l, &self.reasons), Some(Err(u)) if u.why == load.marker) {
                        reg.set_val(*l, v.clone());
                        hit = true;
                    }
                }
                if hit {
                    cx.changed.insert(slot);
                    written.push(info.name.clone());
                }
            }
            if !written.is_empty() {
                cx.note(
                    Level::Info,
                    span,
                    format!("`{name}` completes the asynchronous load of line {}: `{}` now holds the loaded values", load.line, written.join("`, `")),
                    "seed 002 §3.1.1 (is_async), §3.1.6",
                    None,
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn maca_bsm(
        &mut self,
        w: usize,
        span: Span,
        name: &str,
        n: usize,
        vals: &[Vec<LaneVal>],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Result<Vec<LaneVal>, String> {
        let lanes = self.trace.launch.lanes;
        // The offset applies to both addresses (seed §3.1.4).
        let (sbuf, saddr) = self.maca_addresses(&vals[0], Some(&vals[2]), mask, "shared_addr")?;
        let (gbuf, gaddr) = self.maca_addresses(&vals[1], Some(&vals[2]), mask, "global_addr")?;
        let (global, _) = self.maca_bytes(gbuf).ok_or("global_addr names no buffer")?;
        let (mut shared, _) = self.maca_bytes(sbuf).ok_or("shared_addr names no buffer")?;
        let text = |a: &[i64]| a.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let mask_arg = first(&vals[3], mask).and_then(|k| k.as_int()).unwrap_or(-1);
        let step = self.maca_run(
            name,
            mask,
            String::new(),
            vec![
                ("memory", global.text()),
                ("shared", shared.text()),
                ("shared_addr", text(&saddr)),
                ("global_addr", text(&gaddr)),
                ("offset", "0".into()),
                ("mask", mask_arg.to_string()),
                ("ret0_en", flag_text(first(&vals[4], mask)).into()),
                ("saddr_flag", flag_text(first(&vals[5], mask)).into()),
                ("pred_neg", flag_text(first(&vals[6], mask)).into()),
                ("is_async", flag_text(first(&vals[7], mask)).into()),
                ("elem", "0".into()),
            ],
        )?;
        self.maca_note_step(span, &step, cx);
        let exec = step
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.source == Source::Computed)
            .fold(LaneMask::none(), |m, (l, _)| m.with(l));
        let mut ranges = Vec::new();
        let mut copied = LaneMask::none();
        for l in exec.iter().filter(|&l| l < lanes) {
            match (global.get(gaddr[l], n), usize::try_from(saddr[l])) {
                (Some((_, defined)), Ok(s)) if s + n <= shared.len => {
                    for d in shared.defined.iter_mut().skip(s).take(n) {
                        *d = defined;
                    }
                    ranges.push((l, saddr[l], n));
                    copied = copied.with(l);
                }
                _ => cx.note(Level::Warning, span, format!("{name}: the source or destination is outside its buffer: nothing is copied"), "seed 002 §3.1.4", Some(l)),
            }
        }
        let (after, _) = memory::ldg_bsm(&global.words, &shared.words, copied, &gaddr, &saddr, n);
        shared.words = after;
        let cells = self.maca_write_back(sbuf, &shared, &ranges, cx);
        let ticket = self.maca.queues.entry(w).or_default().issue(Queue::Global);
        for c in cells {
            self.maca
                .pending
                .insert((sbuf, c), (w, ticket, span.line, name.to_string()));
        }
        if copied.count() > 0 {
            cx.note(
                Level::Info,
                span,
                format!("{name}: the copy is queued (ticket {ticket}); its shared cells are not visible until barrier_and_wait* with this ret_flag, a covering arrive, barrier_ex(0|1) or __syncthreads()"),
                RULE_VISIBLE,
                None,
            );
        }
        let flag_ty = ValTy {
            scalar: Scalar::U32,
            lanes: (n / 4).max(1) as u8,
        };
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match step.results.get(l).map(|r| r.source) {
                Some(Source::Computed) => Ok(if flag_ty.lanes == 1 {
                    KVal::int(Scalar::U32, i128::from(ticket))
                } else {
                    KVal::Vector {
                        ty: Scalar::U32,
                        items: vec![
                            KVal::int(Scalar::U32, i128::from(ticket));
                            usize::from(flag_ty.lanes)
                        ],
                    }
                }),
                Some(Source::Zero) => Ok(KVal::zero(flag_ty)),
                _ => Err(Undef::at(
                    span,
                    format!("{name}: this lane does not execute the copy"),
                )),
            };
        }
        cx.ops.push(step);
        Ok(out)
    }

    fn maca_trans(
        &mut self,
        span: Span,
        name: &str,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Result<Vec<LaneVal>, String> {
        let lanes = self.trace.launch.lanes;
        let step = self.maca_run(name, mask, String::new(), Vec::new())?;
        self.maca_note_step(span, &step, cx);
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            let why = step
                .results
                .get(l)
                .and_then(|r| r.why.clone())
                .unwrap_or_default();
            out[l] = Err(Undef::at(span, why));
        }
        cx.ops.push(step);
        Ok(out)
    }

    /// Why a read of `buf[cell]` sees no value yet: a queued `ldg_*_bsm` copy has not completed.
    pub(crate) fn maca_unready(&self, buf: usize, cell: i64, span: Span) -> Option<Undef> {
        let (_, ticket, line, name) = self.maca.pending.get(&(buf, cell))?;
        Some(Undef::at(
            span,
            format!("not yet visible: the {name} copy of line {line} (ticket {ticket}) is still queued; wait with barrier_and_wait*, arrive or __syncthreads() before reading"),
        ))
    }

    /// A fence or barrier completes queued accesses of warp `w`; their shared cells become
    /// visible. `vals` are the call's argument values.
    pub(crate) fn maca_fence(
        &mut self,
        w: usize,
        name: &str,
        vals: &[Vec<LaneVal>],
        mask: LaneMask,
        span: Span,
        cx: &mut StepCtx,
    ) {
        let arg = |k: usize| vals.get(k).and_then(|v| first(v, mask));
        let int = |k: usize| arg(k).and_then(|v| v.as_int()).unwrap_or(0);
        let q = self.maca.queues.entry(w).or_default();
        let done = match name {
            "__builtin_mxc_arrive" => q.arrive(int(0) as u32),
            "__builtin_mxc_arrive_gvmcnt" => q.wait_until(Queue::Global, int(0).max(0) as usize),
            "__builtin_mxc_arrive_bsmcnt" => q.wait_until(Queue::Shared, int(0).max(0) as usize),
            "__builtin_mxc_barrier_ex" => q.barrier_ex(int(0) as u32),
            "__syncthreads" => q.barrier_ex(0),
            n if n.starts_with("__builtin_mxc_barrier_and_wait") => {
                let ticket = match arg(1) {
                    Some(KVal::Vector { items, .. }) => items.first().and_then(KVal::as_int),
                    Some(k) => k.as_int(),
                    None => None,
                };
                match ticket {
                    Some(t) => q.wait_for(t as u64),
                    None => q.barrier_ex(0),
                }
            }
            _ => return,
        };
        if done.is_empty() {
            return;
        }
        self.maca_complete_loads(w, &done, span, name, cx);
        let before = self.maca.pending.len();
        self.maca
            .pending
            .retain(|_, (pw, t, _, _)| !(*pw == w && done.contains(t)));
        let shown = before - self.maca.pending.len();
        if shown > 0 {
            cx.note(
                Level::Info,
                span,
                format!(
                    "`{name}` completes {} queued copy(ies): {shown} shared cell(s) now visible",
                    done.len()
                ),
                RULE_VISIBLE,
                None,
            );
        }
    }
}
