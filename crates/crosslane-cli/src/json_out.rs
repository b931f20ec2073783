//! JSON written to stdout as it is produced, never held whole in memory.
//!
//! A kernel's trace with `--json` can describe millions of buffer cells (about 50 bytes of text
//! each); building that text as one `String` and then copying it for the bidirectional-control
//! escape doubled the process's peak memory beyond what `--max-memory` budgets for the run
//! itself. Streaming keeps the output's cost to one buffer of [`CHUNK`] bytes.

use std::io::{self, Write};

use serde::Serialize;

use crate::error::CliError;

/// Bytes handed to stdout at once.
const CHUNK: usize = 64 * 1024;

/// Serializes `value` to stdout followed by a newline; a closed pipe (`… | head`) is not an
/// error, as for [`crate::print_out`].
///
/// Bidirectional control characters (Trojan Source) inside strings are written as the letters
/// `\u{202e}` with the backslash escaped, the same text [`crate::print_out`] gives JSON, so the
/// output stays valid JSON and never carries the raw character.
///
/// # Errors
/// [`CliError::Io`] when stdout fails other than by a closed pipe, or serialization fails.
pub(crate) fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<(), CliError> {
    let stdout = io::stdout().lock();
    let mut out = BidiEscaped::new(io::BufWriter::with_capacity(CHUNK, stdout));
    let written = serde_json::to_writer(&mut out, value)
        .map_err(io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| CliError::Io(format!("stdout: {e}"))),
    }
}

/// A writer that replaces each bidirectional control character of the UTF-8 text passing
/// through with its escaped letters. A character split across two writes is held until its
/// last byte arrives.
struct BidiEscaped<W: Write> {
    inner: W,
    /// The first bytes of a character whose remaining bytes have not arrived yet (at most 3).
    pending: Vec<u8>,
}

impl<W: Write> BidiEscaped<W> {
    fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes `bytes`, which end on a character boundary, escaping bidirectional controls.
    fn write_whole(&mut self, bytes: &[u8]) -> io::Result<()> {
        // Every bidirectional control (U+202A–E, U+2066–9) is three bytes starting 0xE2; text
        // without that byte is passed through untouched.
        if !bytes.contains(&0xE2) {
            return self.inner.write_all(bytes);
        }
        let text = String::from_utf8_lossy(bytes);
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if crosslane_kernel::bidi::name(c).is_some() {
                self.inner.write_all(&text.as_bytes()[start..i])?;
                write!(self.inner, "\\\\u{{{:x}}}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        self.inner.write_all(&text.as_bytes()[start..])
    }
}

impl<W: Write> Write for BidiEscaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut joined;
        let bytes: &[u8] = if self.pending.is_empty() {
            buf
        } else {
            joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(buf);
            &joined
        };
        // Hold back an incomplete character at the end (a UTF-8 sequence is at most 4 bytes).
        let cut = whole_prefix(bytes);
        self.write_whole(&bytes[..cut])?;
        self.pending = bytes[cut..].to_vec();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.write_whole(&rest)?;
        }
        self.inner.flush()
    }
}

/// The length of the longest prefix of `bytes` that does not end inside a UTF-8 character.
fn whole_prefix(bytes: &[u8]) -> usize {
    let n = bytes.len();
    // Look back at most 3 bytes for the lead byte of a character that runs past the end.
    for back in 1..=n.min(3) {
        let b = bytes[n - back];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: keep looking for its lead
        }
        let len = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if len > back { n - back } else { n };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(chunks: &[&[u8]]) -> String {
        let mut w = BidiEscaped::new(Vec::new());
        for c in chunks {
            w.write_all(c).unwrap();
        }
        w.flush().unwrap();
        String::from_utf8(w.inner).unwrap()
    }

    #[test]
    fn plain_text_passes_unchanged() {
        assert_eq!(through(&[b"{\"a\":1}"]), "{\"a\":1}");
    }

    #[test]
    fn a_bidi_control_becomes_its_escaped_letters_even_split_across_writes() {
        // U+202E RIGHT-TO-LEFT OVERRIDE is E2 80 AE in UTF-8.
        let whole = "\"x\u{202e}y\"".as_bytes();
        assert_eq!(through(&[whole]), "\"x\\\\u{202e}y\"");
        for cut in 1..whole.len() {
            let (a, b) = whole.split_at(cut);
            assert_eq!(through(&[a, b]), "\"x\\\\u{202e}y\"", "split at {cut}");
        }
    }

    #[test]
    fn other_multibyte_characters_survive_a_split() {
        let whole = "é→😀".as_bytes();
        for cut in 1..whole.len() {
            let (a, b) = whole.split_at(cut);
            assert_eq!(through(&[a, b]), "é→😀", "split at {cut}");
        }
    }
}
