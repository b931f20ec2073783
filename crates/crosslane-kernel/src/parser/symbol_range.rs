//! `cudaMemcpyToSymbol(symbol, src, count, offset)` of part of a table: the copy writes
//! `count` bytes from byte `offset` of the symbol (CUDA Runtime API, cudaMemcpyToSymbol:
//! "copies count bytes from the memory area pointed to by src to the memory area pointed to by
//! offset bytes from the start of symbol symbol"; `hipMemcpyToSymbol` the same). The cells
//! outside that range keep what the table held: its initializer (zero without one, static
//! storage, C++17 [basic.start.static]/2) and the copies before it, in host code's order.

use super::host::SymbolCopy;
use crate::ast::ConstTable;

/// Makes each of `copies` into `t` (in host code's order) the table's whole contents after it:
/// a copy of part of the table lays its cells over what the table held. A copy whose range
/// is not read, is not whole cells, runs past the table or past the host data it copies from
/// has its data unread (the table's cells undefined, as the run says). A `__device__` table
/// copied in part after a launch has its other cells undefined: a launch may have written
/// them, which host code does not know here.
pub(super) fn place_copies(t: &ConstTable, copies: &mut [SymbolCopy]) {
    let e = crate::vector_types::size_of(t.elem);
    let mut cur: Vec<String> = if t.initial.is_empty() {
        vec!["0".to_string(); t.len]
    } else {
        let mut v = t.initial.clone();
        v.resize(t.len, "0".to_string());
        v
    };
    for c in copies.iter_mut().filter(|c| c.symbol == t.name) {
        if c.range_unread {
            c.data = None;
        }
        let Some((off, n)) = c.range else {
            // A whole copy (a struct member's): the table from its first cell.
            match &c.data {
                Some((v, _, _)) => {
                    let mut next = v.clone();
                    next.truncate(t.len);
                    if next.len() < cur.len() {
                        next.extend_from_slice(&cur[next.len()..]);
                    }
                    cur = next;
                }
                None => cur = vec!["undef".to_string(); t.len],
            }
            continue;
        };
        let whole_cells = e > 0 && off % e == 0 && n % e == 0;
        let (first, count) = if whole_cells {
            (off / e, n / e)
        } else {
            (u64::MAX, 0)
        };
        let fits = whole_cells && first.saturating_add(count) <= t.len as u64;
        let placed = match (&c.data, fits) {
            (Some((v, from, line)), true) if v.len() as u64 >= count => {
                let mut next = cur.clone();
                if t.device && c.at > 0 && (first > 0 || count < t.len as u64) {
                    next = vec!["undef".to_string(); t.len];
                }
                let (s, k) = (first as usize, count as usize);
                next[s..s + k].clone_from_slice(&v[..k]);
                Some((next, from.clone(), *line))
            }
            _ => None,
        };
        match placed {
            Some(p) => {
                cur.clone_from(&p.0);
                c.data = Some(p);
            }
            None => {
                c.data = None;
                cur = vec!["undef".to_string(); t.len];
            }
        }
    }
}
