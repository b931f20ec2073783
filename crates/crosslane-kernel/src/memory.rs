//! Simulated global and shared memory: named, typed arrays the page shows and edits.
//!
//! A cell is `None` until written (uninitialized memory reads as undefined). Indexing outside a
//! buffer never touches anything: it is reported at the line that did it.

use serde::Serialize;

use super::budget::cell_bytes;
use super::types::{KVal, Scalar, ValTy};
use crosslane_core::error::InputError;
use crosslane_core::fill::Fill;
use crosslane_core::params::parse_int;

/// Where a buffer lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "space")]
pub enum Space {
    /// Global memory: a pointer or reference parameter of the kernel, shared by all blocks.
    Global,
    /// Shared memory of one block (`__shared__`).
    Shared {
        /// The block.
        block: u32,
    },
    /// A local array of one lane (`int a[4];`): each lane has its own buffer, so an index past
    /// its end is out of bounds rather than another lane's cell.
    Local {
        /// The block.
        block: u32,
        /// The warp within the block.
        warp: u32,
        /// The lane within the warp.
        lane: u32,
    },
}

/// One array. Serialized with its raw `cells` and, beside them, `values`: each cell as a number
/// of the element type (`null` where the cell is undefined, a string for a NaN or infinity), a
/// vector cell flattened component by component, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// The name in the kernel (`dst`, `sharedData`).
    pub name: String,
    /// Global or a block's shared memory.
    pub space: Space,
    /// Element type.
    pub elem: ValTy,
    /// Cells; `None` = never written.
    pub cells: Vec<Option<KVal>>,
}

/// A value as a JSON number of its type: a signed or unsigned integer, or a float (a string for
/// NaN and the infinities, which JSON has no number for); vectors flattened into `out`.
fn push_values(v: Option<&KVal>, lanes: u8, out: &mut Vec<serde_json::Value>) {
    use serde_json::Value as J;
    match v {
        None => out.extend(std::iter::repeat_n(J::Null, usize::from(lanes.max(1)))),
        Some(KVal::Vector { items, .. }) => {
            for item in items {
                push_values(Some(item), 1, out);
            }
        }
        Some(KVal::Float { x, .. }) => out.push(
            serde_json::Number::from_f64(*x).map_or_else(|| J::String(format!("{x}")), J::Number),
        ),
        Some(k @ KVal::Int { .. }) => out.push(match k.as_int() {
            Some(n) => i64::try_from(n)
                .map(J::from)
                .or_else(|_| u64::try_from(n).map(J::from))
                .unwrap_or(J::Null),
            None => J::Null,
        }),
        Some(_) => out.push(J::Null),
    }
}

impl Serialize for Buffer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut values = Vec::with_capacity(self.cells.len());
        for c in &self.cells {
            push_values(c.as_ref(), self.elem.lanes, &mut values);
        }
        let mut st = s.serialize_struct("Buffer", 5)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("space", &self.space)?;
        st.serialize_field("elem", &self.elem)?;
        st.serialize_field("cells", &self.cells)?;
        st.serialize_field("values", &values)?;
        // Cells stored from a value of an inexact math function: their bound, beside
        // `values` (`null` where exact); absent when no cell has one.
        if self.cells.iter().flatten().any(|c| c.approx().is_some()) {
            let ulp: Vec<Option<u32>> = self
                .cells
                .iter()
                .map(|c| c.as_ref().and_then(KVal::approx).and_then(|a| a.ulp()))
                .collect();
            let notes = super::mathlib::note_lines(
                "cells",
                self.cells.iter().map(Option::as_ref).enumerate(),
            );
            st.serialize_field("ulp", &ulp)?;
            st.serialize_field("accuracy", &notes)?;
        }
        st.end()
    }
}

/// All buffers of a launch.
///
/// JSON: `buffers`, `limit_bytes`, `used_bytes`, and `structs`: each buffer of structs as the
/// kernel declared it. The front end lowers a struct buffer to one buffer per member, named
/// `NAME.MEMBER` (`parser/structs/`); `structs` puts them back together, one entry per
/// `NAME` with its `members` (the member buffers' names, in declaration order) and `values`
/// flattened element by element, field by field in declaration order ("struct and
/// vector elements are flattened field by field"), `null` where undefined.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Memory {
    /// Buffers, by index (a pointer value names its buffer by this index).
    pub buffers: Vec<Buffer>,
    /// The most bytes all buffers together may hold (see [`cell_bytes`]).
    pub limit_bytes: u64,
    /// Bytes held by all buffers now.
    pub used_bytes: u64,
    /// The string literals the kernel evaluated as values (`cond ? "odd" : "even"`, `const
    /// char* s = "x";`), each its characters without the terminating null; a pointer to one
    /// names buffer [`STRING_BUF`] `+` its index here. Not serialized: they are no buffer the
    /// kernel was given or declared.
    pub strings: Vec<String>,
}

pub use crate::types::STRING_BUF;

/// The most string literals one run holds as values (distinct texts; a repeated literal is
/// one).
const MAX_STRINGS: usize = 4096;

impl Serialize for Memory {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Memory", 4)?;
        st.serialize_field("buffers", &self.buffers)?;
        st.serialize_field("limit_bytes", &self.limit_bytes)?;
        st.serialize_field("used_bytes", &self.used_bytes)?;
        st.serialize_field("structs", &self.structs())?;
        st.end()
    }
}

/// A buffer of structs put back together from its members' buffers (see [`Memory`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StructBuffer {
    /// The kernel's name for the buffer (`out` for `Pair* out`).
    pub name: String,
    /// Global or a block's shared memory.
    pub space: Space,
    /// The member buffers, in declaration order (`out.v`, `out.idx`; nested members
    /// `out.a.x`).
    pub members: Vec<String>,
    /// Elements (structs) in the buffer.
    pub len: usize,
    /// Every element's members in declaration order, a vector member's components in order;
    /// `null` where undefined.
    pub values: Vec<serde_json::Value>,
}

impl Memory {
    /// An empty memory holding at most `limit_bytes` bytes of cells.
    pub fn new(limit_bytes: u64) -> Self {
        Memory {
            buffers: Vec::new(),
            limit_bytes,
            used_bytes: 0,
            strings: Vec::new(),
        }
    }

    /// The buffer index of string literal `text` (its characters, escapes already read):
    /// [`STRING_BUF`] plus its index in [`Memory::strings`], the same index for the same text.
    /// `None` past 4096 distinct texts.
    pub fn intern_string(&mut self, text: &str) -> Option<usize> {
        if let Some(k) = self.strings.iter().position(|s| s == text) {
            return Some(STRING_BUF + k);
        }
        if self.strings.len() >= MAX_STRINGS {
            return None;
        }
        self.strings.push(text.to_string());
        Some(STRING_BUF + self.strings.len() - 1)
    }

    /// The string literal buffer `buf` names, when it names one.
    pub fn string_of(&self, buf: usize) -> Option<&str> {
        self.strings
            .get(buf.checked_sub(STRING_BUF)?)
            .map(String::as_str)
    }

    /// The characters from element `offset` of `char` buffer `buf` to its first null, at most
    /// `max` of them (C11 7.21.6.1/8, `%s`: "characters from the array are written up to (but
    /// not including) the terminating null character"), as text (each byte one character,
    /// UTF-8 sequences put back together).
    ///
    /// # Errors
    /// The reason, when a character is undefined or outside the buffer before a null.
    pub fn c_string(&self, buf: usize, offset: i64, max: usize) -> Result<String, String> {
        let mut bytes = Vec::new();
        for k in 0..max {
            let at = offset.saturating_add(k as i64);
            match self.read(buf, at)? {
                Some(v) => match v.as_int() {
                    Some(0) => break,
                    Some(b) => bytes.push(b as u8),
                    None => return Err("a character of the string is not an integer".into()),
                },
                None => {
                    return Err(format!(
                        "character {k} of the string (cell {at}) is undefined"
                    ))
                }
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Character `index` of string literal `text` as a `char` (signed 8-bit on the targets
    /// CUDA and HIP compile for), its terminating null at `index == len`.
    fn string_cell(text: &str, index: i64) -> Result<Option<KVal>, String> {
        let bytes = text.as_bytes();
        let len = bytes.len();
        match usize::try_from(index).ok().filter(|&i| i <= len) {
            Some(i) => {
                let b = bytes.get(i).copied().unwrap_or(0);
                Ok(Some(KVal::int(Scalar::I8, i128::from(b as i8))))
            }
            None => Err(format!(
                "`\"{text}\"[{index}]` is outside the string literal (0..{}): out-of-bounds \
                 access is undefined",
                len + 1
            )),
        }
    }

    /// The buffers of structs, each from its member buffers `NAME.MEMBER` in order; a group
    /// whose members differ in length or memory space is left out (the members stand alone).
    pub fn structs(&self) -> Vec<StructBuffer> {
        let mut groups: Vec<(&str, Vec<&Buffer>)> = Vec::new();
        for b in &self.buffers {
            let Some((base, _)) = b.name.split_once('.') else {
                continue;
            };
            match groups.iter_mut().find(|(n, _)| *n == base) {
                Some((_, members)) => members.push(b),
                None => groups.push((base, vec![b])),
            }
        }
        groups
            .into_iter()
            .filter_map(|(name, members)| {
                let first = members.first()?;
                let len = first.cells.len();
                if members
                    .iter()
                    .any(|m| m.cells.len() != len || m.space != first.space)
                {
                    return None;
                }
                let mut values = Vec::new();
                for i in 0..len {
                    for m in &members {
                        push_values(
                            m.cells.get(i).and_then(Option::as_ref),
                            m.elem.lanes,
                            &mut values,
                        );
                    }
                }
                Some(StructBuffer {
                    name: name.to_string(),
                    space: first.space,
                    members: members.iter().map(|m| m.name.clone()).collect(),
                    len,
                    values,
                })
            })
            .collect()
    }

    /// Cells held by all buffers.
    pub fn total_cells(&self) -> usize {
        self.buffers.iter().map(|b| b.cells.len()).sum()
    }

    /// Bytes `len` cells of `elem` take, or `None` past `u64`.
    fn need(elem: ValTy, len: usize) -> Option<u64> {
        (len as u64).checked_mul(cell_bytes(elem))
    }

    /// The charge of `len` cells of `elem` against the memory limit, or the message that
    /// refuses it. The message states the array's own size (`len` × `sizeof(elem)`, what it
    /// takes on a device) and, apart, what the emulator charges: every cell is held as one
    /// value of [`cell_bytes`] bytes whatever its element type, so `int s[1 << 28]` is 1 GiB
    /// on a device and 8 GiB here.
    fn check(&self, name: &str, elem: ValTy, len: usize) -> Result<u64, String> {
        match Self::need(elem, len) {
            Some(n) if self.used_bytes.saturating_add(n) <= self.limit_bytes => Ok(n),
            n => {
                let device = (len as u64).checked_mul(crate::vector_types::size_of(elem));
                let shown = |v: Option<u64>| {
                    v.map_or_else(|| "2^64 or more".to_string(), |n| n.to_string())
                };
                Err(format!(
                    "memory limit reached by `{name}` ({len} cells of {}: {} bytes; the emulator \
                     holds each cell in {} bytes, so it needs {} bytes; {} of the {} bytes left \
                     to buffers are in use); raise it with --max-memory",
                    elem.name(),
                    shown(device),
                    cell_bytes(elem),
                    shown(n),
                    self.used_bytes,
                    self.limit_bytes,
                ))
            }
        }
    }

    /// Adds a buffer and returns its index.
    ///
    /// # Errors
    /// A message when the memory limit would be passed.
    pub fn alloc(
        &mut self,
        name: &str,
        space: Space,
        elem: ValTy,
        cells: Vec<Option<KVal>>,
    ) -> Result<usize, String> {
        let n = self.check(name, elem, cells.len())?;
        self.used_bytes += n;
        self.buffers.push(Buffer {
            name: name.to_string(),
            space,
            elem,
            cells,
        });
        Ok(self.buffers.len() - 1)
    }

    /// Adds a buffer of `len` uninitialized cells, checking the limit before allocating.
    ///
    /// # Errors
    /// A message when the memory limit would be passed.
    pub fn alloc_uninit(
        &mut self,
        name: &str,
        space: Space,
        elem: ValTy,
        len: usize,
    ) -> Result<usize, String> {
        // Checked before the cells exist: a launch asking for 2^40 cells allocates nothing.
        self.check(name, elem, len)?;
        self.alloc(name, space, elem, vec![None; len])
    }

    /// The buffer named `name` in `space`.
    pub fn find(&self, name: &str, space: Space) -> Option<usize> {
        self.buffers
            .iter()
            .position(|b| b.name == name && b.space == space)
    }

    /// Reads cell `index` of buffer `buf`.
    ///
    /// # Errors
    /// A message naming the buffer and its length when `index` is outside it.
    pub fn read(&self, buf: usize, index: i64) -> Result<Option<KVal>, String> {
        if let Some(text) = self.string_of(buf) {
            return Self::string_cell(text, index);
        }
        let b = self
            .buffers
            .get(buf)
            .ok_or_else(|| "pointer to no buffer (a null pointer?): undefined".to_string())?;
        usize::try_from(index)
            .ok()
            .and_then(|i| b.cells.get(i))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "`{}[{index}]` is outside the buffer (0..{}): out-of-bounds access is undefined",
                    b.name,
                    b.cells.len()
                )
            })
    }

    /// Writes cell `index` of buffer `buf` (the value is converted to the element type by the
    /// caller).
    ///
    /// # Errors
    /// A message naming the buffer and its length when `index` is outside it.
    pub fn write(&mut self, buf: usize, index: i64, value: Option<KVal>) -> Result<(), String> {
        if let Some(text) = self.string_of(buf) {
            return Err(format!(
                "writes the string literal `\"{text}\"`: modifying a string literal is \
                 undefined (C++17 [lex.string]/16)"
            ));
        }
        let b = self
            .buffers
            .get_mut(buf)
            .ok_or_else(|| "pointer to no buffer (a null pointer?): undefined".to_string())?;
        let len = b.cells.len();
        let name = b.name.clone();
        let cell = usize::try_from(index)
            .ok()
            .and_then(|i| b.cells.get_mut(i))
            .ok_or_else(|| {
                format!(
                    "`{name}[{index}]` is outside the buffer (0..{len}): out-of-bounds access is undefined"
                )
            })?;
        *cell = value;
        Ok(())
    }

    /// Sets a cell from text typed in the page (`42`, `-1.5`, `0x1f`, `1:2` for a 2-vector,
    /// `undef` to clear it).
    ///
    /// # Errors
    /// [`InputError`] on field `memory` for an unknown buffer, an index outside it or text that
    /// is not a value of the element type.
    pub fn set_text(&mut self, buf: usize, index: usize, text: &str) -> Result<(), InputError> {
        let b = self
            .buffers
            .get_mut(buf)
            .ok_or_else(|| InputError::new("memory", format!("no buffer {buf}")))?;
        let len = b.cells.len();
        let value = parse_cell(b.elem, text, &format!("{}[{index}]", b.name))?;
        let cell = b
            .cells
            .get_mut(index)
            .ok_or_else(|| InputError::out_of_range("memory", index as i64, 0, len as i64 - 1))?;
        *cell = value;
        Ok(())
    }
}

fn parse_scalar(s: Scalar, text: &str, field: &str) -> Result<KVal, InputError> {
    let t = text.trim();
    let bad = || {
        // A decimal in an integer buffer: most often bytes the kernel reads through a
        // `float*`, which a typed fill gives.
        let hint = if !s.is_float() && t.parse::<f64>().is_ok() {
            " (for a buffer the kernel reads through another type, give a typed fill: `f32:1.5,2.5` lays the floats' bytes over the cells)"
        } else {
            ""
        };
        InputError::new(
            field,
            format!(
                "`{text}` is not {} value{hint}",
                crosslane_core::error::with_article(s.name())
            ),
        )
    };
    if s.is_float() {
        let x: f64 = match t.to_ascii_lowercase().as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => other.parse().map_err(|_| bad())?,
        };
        Ok(KVal::float(s, x))
    } else if matches!(t, "true" | "false") {
        Ok(KVal::int(s, i128::from(t == "true")))
    } else {
        let v = parse_int(t).map(i128::from);
        // `u64` cells reach 2^64 − 1, past `i64`: 2^63 ..= 2^64 − 1 written in decimal or hex.
        let v = v.or_else(|| (s == Scalar::U64).then(|| wide_u64(t)).flatten());
        Ok(KVal::int(s, v.ok_or_else(bad)?))
    }
}

/// A `u64` value above `i64::MAX` (decimal, `0x` hex or `0b` binary, `_` separators
/// allowed), or `None`.
fn wide_u64(text: &str) -> Option<i128> {
    let t = text.trim().replace('_', "");
    let t = t.strip_prefix('+').unwrap_or(&t);
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()?
    } else {
        t.parse::<u64>().ok()?
    };
    Some(i128::from(v))
}

/// Parses one cell's text; `undef` (or empty) is an uninitialized cell.
///
/// # Errors
/// [`InputError`] on `field` when the text is not a value of `elem`.
pub fn parse_cell(elem: ValTy, text: &str, field: &str) -> Result<Option<KVal>, InputError> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("undef") || t == "?" {
        return Ok(None);
    }
    if elem.lanes == 1 {
        return parse_scalar(elem.scalar, t, field).map(Some);
    }
    let parts: Vec<&str> = t.split(':').collect();
    let items = if parts.len() == 1 {
        vec![parse_scalar(elem.scalar, parts[0], field)?; elem.lanes as usize]
    } else if parts.len() == elem.lanes as usize {
        parts
            .iter()
            .map(|p| parse_scalar(elem.scalar, p, field))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        return Err(InputError::new(
            field,
            format!(
                "a {}-component vector is written a:b:…, got {} parts",
                elem.lanes,
                parts.len()
            ),
        ));
    };
    Ok(Some(KVal::Vector {
        ty: elem.scalar,
        items,
    }))
}

/// The initial cells of a buffer of `len` elements of `elem` from a fill text in the one fill
/// grammar ([`crosslane_core::fill`]: `index`, `i*K+C` with integer or decimal K and C, a number, a comma
/// list, `zero`, `undef`, `random:SEED`). A list shorter than the buffer leaves the cells past
/// its end uninitialized. `i*K+C` is exact: a float buffer holds each value rounded to its type
/// (0.1 as the nearest float), an integer buffer only whole values.
///
/// A typed fill `TYPE:FILL` ([`crosslane_core::fill::split_typed`]) gives values of TYPE laid
/// out as their bytes over the cells ([`typed_cells`]).
///
/// # Errors
/// [`InputError`] on `field` (the fill's field, e.g. `x fill`) for text outside the grammar, a
/// list longer than the buffer, an item that is not a value of `elem`, or a decimal in an
/// integer buffer.
pub fn fill_cells(
    elem: ValTy,
    len: usize,
    fill: &str,
    field: &str,
) -> Result<Vec<Option<KVal>>, InputError> {
    if let Some((ty, rest)) = crosslane_core::fill::split_typed(fill) {
        return typed_cells(elem, len, typed_scalar(ty), rest, field);
    }
    fill_iter(elem, len, fill, field)?.collect()
}

/// The cells a typed list fill (`f32:1.5,2.5`) covers in a buffer of `elem`: its values'
/// bytes, rounded up to whole cells (`None` for any other fill), the buffer's length when
/// none is given.
pub fn typed_list_len(elem: ValTy, fill: &str) -> Option<usize> {
    let (ty, rest) = crosslane_core::fill::split_typed(fill)?;
    let Ok(Fill::List(items)) = crosslane_core::fill::parse_fill(rest, "") else {
        return None;
    };
    let cell = usize::try_from(super::vector_types::size_of(elem))
        .ok()
        .filter(|c| *c > 0)?;
    let bytes = items
        .len()
        .checked_mul((typed_scalar(ty).bits() / 8) as usize)?;
    Some(bytes.div_ceil(cell))
}

/// The scalar a typed fill's type name ([`crosslane_core::fill::TYPED_FILL_TYPES`]) names.
fn typed_scalar(name: &str) -> Scalar {
    match name {
        "i8" => Scalar::I8,
        "u8" => Scalar::U8,
        "i16" => Scalar::I16,
        "u16" => Scalar::U16,
        "u32" => Scalar::U32,
        "i64" => Scalar::I64,
        "u64" => Scalar::U64,
        "f16" => Scalar::F16,
        "bf16" => Scalar::Bf16,
        "f32" => Scalar::F32,
        "f64" => Scalar::F64,
        _ => Scalar::I32,
    }
}

/// The cells of a buffer of `len` elements of `elem` holding the little-endian bytes of the
/// values of `fill` read as `ty` (`f32:1.5,2.5` over 8 `char` cells: 0, 0, -64, 63, 0, 0, 32,
/// 64, the IEEE binary32 encodings of 1.5 and 2.5, least significant byte first, as memory holds
/// them on every NVIDIA and AMD GPU). The buffer's bytes hold `len · sizeof(elem) / sizeof(ty)`
/// values; a cell with a byte of an undefined value, or with bytes no value covers (the tail of
/// a buffer whose size is no multiple of `sizeof(ty)`), is uninitialized. Values are made one
/// at a time, so the fill holds no more than the cells.
///
/// # Errors
/// [`InputError`] on `field`: the fill's own errors (see [`fill_cells`]), a NaN (whose bits
/// the emulator does not keep), or a `bool` buffer (no bytes the emulator names).
pub fn typed_cells(
    elem: ValTy,
    len: usize,
    ty: Scalar,
    fill: &str,
    field: &str,
) -> Result<Vec<Option<KVal>>, InputError> {
    use super::vector_types::{from_raw_bits, raw_bits, size_of};
    if elem.scalar == Scalar::Bool || elem.lanes == 0 {
        return Err(InputError::new(
            field,
            format!(
                "a typed fill lays bytes over the cells, and `{}` cells are no bytes the emulator names: fill it with its own values",
                elem.name()
            ),
        ));
    }
    let comp = (elem.scalar.bits() / 8) as usize;
    let cell_bytes = usize::try_from(size_of(elem)).unwrap_or(1).max(1);
    let tb = (ty.bits() / 8) as usize;
    let total = len.saturating_mul(cell_bytes);
    if let Ok(Fill::List(items)) = crosslane_core::fill::parse_fill(fill, field) {
        if items.len().saturating_mul(tb) > total {
            return Err(InputError::new(
                field,
                format!(
                    "the typed fill gives {} {} values ({} bytes) for a buffer of {total} bytes ({len} cells of {}); a typed fill is {}",
                    items.len(),
                    ty.name(),
                    items.len().saturating_mul(tb),
                    elem.name(),
                    crosslane_core::fill::TYPED_GRAMMAR
                ),
            ));
        }
    }
    let values = fill_iter(ValTy::scalar(ty), total / tb, fill, field)?;
    let mut cells = Vec::with_capacity(len);
    // The bytes of the cell being built, `None` for one of an undefined value.
    let mut pending: Vec<Option<u8>> = Vec::with_capacity(cell_bytes);
    let flush = |pending: &mut Vec<Option<u8>>, cells: &mut Vec<Option<KVal>>| {
        let bytes: Option<Vec<u8>> = pending.drain(..).collect();
        let cell = bytes.and_then(|b| {
            let items: Option<Vec<KVal>> = b
                .chunks(comp)
                .map(|c| {
                    let bits = c
                        .iter()
                        .rev()
                        .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
                    from_raw_bits(elem.scalar, bits).ok()
                })
                .collect();
            let mut items = items?;
            if elem.lanes == 1 {
                items.pop()
            } else {
                Some(KVal::Vector {
                    ty: elem.scalar,
                    items,
                })
            }
        });
        cells.push(cell);
    };
    for (i, v) in values.enumerate() {
        let v = v?;
        let bits = match &v {
            Some(x) => Some(raw_bits(x).ok_or_else(|| {
                InputError::new(
                    field,
                    format!(
                        "value {i} of the typed fill is a NaN, whose bits the emulator does not keep; give the bits as an integer type (`u32:0x7fc00000`)"
                    ),
                )
            })?),
            None => None,
        };
        for k in 0..tb {
            pending.push(bits.map(|b| ((b >> (8 * k)) & 0xff) as u8));
            if pending.len() == cell_bytes {
                flush(&mut pending, &mut cells);
            }
        }
    }
    // Bytes no value covers: the cell holding them (and every cell after) is uninitialized.
    pending.clear();
    cells.resize(len, None);
    Ok(cells)
}

/// Cells made one at a time, each a cell or the fill's error.
type CellIter<'a> = Box<dyn Iterator<Item = Result<Option<KVal>, InputError>> + 'a>;

/// The cells of [`fill_cells`] one at a time (a typed fill makes its values through this, so
/// no list of them is held beside the cells).
fn fill_iter<'a>(
    elem: ValTy,
    len: usize,
    fill: &'a str,
    field: &'a str,
) -> Result<CellIter<'a>, InputError> {
    let grammar = move |m: String| {
        InputError::new(
            field,
            format!("{m}; a fill is {}", crosslane_core::fill::GRAMMAR),
        )
    };
    let whole_cell = move |n: i128| {
        let one = if elem.scalar.is_float() {
            KVal::float(elem.scalar, n as f64)
        } else {
            KVal::int(elem.scalar, n)
        };
        Some(one.convert(elem).unwrap_or_else(|_| KVal::zero(elem)))
    };
    Ok(match crosslane_core::fill::parse_fill(fill, field)? {
        Fill::Affine { mul, add } => Box::new((0..len).map(move |i| {
            let d = crosslane_core::fill::affine_cell(i, mul, add, field)?;
            match d.whole() {
                Some(n) => Ok(whole_cell(n)),
                None if elem.scalar.is_float() => parse_cell(elem, &d.to_string(), field),
                None => Err(grammar(format!(
                    "`{}` gives {d} at cell {i}, and `{}` holds whole numbers only (use \
                     whole K and C, or a float buffer)",
                    fill.trim(),
                    elem.name()
                ))),
            }
        })),
        Fill::Random(seed) => Box::new(
            crosslane_core::fill::random_ints(seed, len)
                .map(move |v| Ok(whole_cell(i128::from(v)))),
        ),
        Fill::Zero => Box::new(std::iter::repeat_n(Ok(Some(KVal::zero(elem))), len)),
        Fill::Undef => Box::new(std::iter::repeat_n(Ok(None), len)),
        Fill::Number(n) => {
            let v = parse_cell(elem, &n, field).map_err(|e| grammar(e.message))?;
            Box::new(std::iter::repeat_n(Ok(v), len))
        }
        Fill::List(items) => {
            if items.len() > len {
                return Err(grammar(format!(
                    "{} values for a buffer of {len} cells",
                    items.len()
                )));
            }
            let n = items.len();
            let cells = items
                .into_iter()
                .enumerate()
                .map(move |(i, s)| {
                    parse_cell(elem, &s, field)
                        .map_err(|e| grammar(format!("item {i}: {}", e.message)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Box::new(
                cells
                    .into_iter()
                    .map(Ok)
                    .chain(std::iter::repeat_n(Ok(None), len - n)),
            )
        }
    })
}

/// The cells of a global buffer of a vector type whose launch gives `scalars` components
/// (`--buffer x:32` for a `float4*` is 8 elements): the fill is read as one scalar sequence
/// and laid out component by component, element by element. A fill that only parses per
/// element (`1:2:3:4`) fills every element with it.
///
/// # Errors
/// A message when `scalars` is not a multiple of the components, or the fill does not parse.
pub fn vector_fill(
    elem: ValTy,
    scalars: usize,
    fill: &str,
    field: &str,
) -> Result<Vec<Option<KVal>>, String> {
    let n = usize::from(elem.lanes.max(1));
    if !scalars.is_multiple_of(n) {
        return Err(format!(
            "buffer `{field}` of {} holds {n} scalar cells per element: {scalars} cells is not a whole number of elements (give a multiple of {n})",
            super::vector_types::cuda_name(elem)
        ));
    }
    let one = ValTy::scalar(elem.scalar);
    match fill_cells(one, scalars, fill, field) {
        Ok(cells) => Ok(cells
            .chunks(n)
            .map(|c| {
                let items: Option<Vec<KVal>> = c.iter().cloned().collect();
                items.map(|items| KVal::Vector {
                    ty: elem.scalar,
                    items,
                })
            })
            .collect()),
        Err(scalar_err) => {
            fill_cells(elem, scalars / n, fill, field).map_err(|_| scalar_err.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_are_scalar_sequences() {
        let f2 = ValTy {
            scalar: Scalar::F32,
            lanes: 2,
        };
        let cells = vector_fill(f2, 6, "index", "x").unwrap();
        assert_eq!(cells.len(), 3);
        assert_eq!(
            cells[1],
            Some(KVal::Vector {
                ty: Scalar::F32,
                items: vec![KVal::float(Scalar::F32, 2.0), KVal::float(Scalar::F32, 3.0)]
            })
        );
        assert!(vector_fill(f2, 5, "index", "x").is_err());
        let cells = vector_fill(f2, 4, "1:2", "x").unwrap();
        assert_eq!(cells.len(), 2);
    }

    #[test]
    fn fills_and_bounds() {
        let int = ValTy::scalar(Scalar::I32);
        let cells = fill_cells(int, 4, "index*2", "dst").unwrap();
        assert_eq!(cells[3], Some(KVal::int(Scalar::I32, 6)));
        let cells = fill_cells(int, 4, "i*3+2", "dst").unwrap();
        assert_eq!(cells[3], Some(KVal::int(Scalar::I32, 11)));
        let cells = fill_cells(int, 4, "i*2-1", "dst").unwrap();
        assert_eq!(cells[0], Some(KVal::int(Scalar::I32, -1)));
        let cells = fill_cells(int, 4, "i+5", "dst").unwrap();
        assert_eq!(cells[2], Some(KVal::int(Scalar::I32, 7)));
        let a = fill_cells(int, 8, "random:7", "dst").unwrap();
        assert_eq!(a, fill_cells(int, 8, "random:7", "dst").unwrap());
        assert_ne!(a, fill_cells(int, 8, "random:8", "dst").unwrap());
        // An independent model of the generator `random:SEED` names (`crosslane_core::fill::random_ints`:
        // fastrand 2's WyRand step, then Lemire's multiply-shift into 0..1000 with its
        // rejection of the biased low products): the first cell of seed 7.
        let first = {
            let mut state = 7u64;
            let mut next = || {
                state = state.wrapping_add(0x2d35_8dcc_aa6c_78a5);
                let t = u128::from(state) * u128::from(state ^ 0x8bb8_4b93_962e_acc9);
                (t as u64) ^ (t >> 64) as u64
            };
            let n = 1000u64;
            let threshold = n.wrapping_neg() % n;
            loop {
                let m = u128::from(next()) * u128::from(n);
                if (m as u64) >= threshold {
                    break (m >> 64) as u64;
                }
            }
        };
        assert_eq!(a[0], Some(KVal::int(Scalar::I32, first as i128)));
        // One generator for every kernel form: the cells a WGSL buffer gets from `random:7`
        // (crosslane_core::fill), and fastrand's WyRand drawn directly as the model.
        let wgsl = crosslane_core::fill::parse_fill("random:7", "dst")
            .unwrap()
            .cells(8, "dst")
            .unwrap();
        let mut rng = fastrand::Rng::with_seed(7);
        for (k, cell) in a.iter().enumerate() {
            let want = rng.i64(0..1000);
            assert_eq!(*cell, Some(KVal::int(Scalar::I32, i128::from(want))), "{k}");
            assert_eq!(wgsl[k], want.to_string(), "{k}");
        }
        let cells = fill_cells(int, 4, "7,8", "dst").unwrap();
        assert_eq!(cells[1], Some(KVal::int(Scalar::I32, 8)));
        assert_eq!(cells[2], None);
        let mut m = Memory::new(10 * cell_bytes(int));
        let b = m.alloc("dst", Space::Global, int, cells).unwrap();
        assert!(m.read(b, 4).unwrap_err().contains("outside"));
        assert!(m.write(b, -1, None).is_err());
        m.set_text(b, 2, "-5").unwrap();
        assert_eq!(m.read(b, 2).unwrap(), Some(KVal::int(Scalar::I32, -5)));
        assert!(m.alloc("big", Space::Global, int, vec![None; 7]).is_err());
    }
}
