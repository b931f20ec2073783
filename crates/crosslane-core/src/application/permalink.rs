//! The permalink codec: a [`Scenario`] as short, URL-safe text, and back.
//!
//! Format `v1.` + base64url without padding (RFC 4648 §5) of the zlib stream (RFC 1950, deflate
//! inside, Adler-32 at the end) of the scenario's JSON. The zlib checksum catches a link that
//! was cut or altered in transit; the `v1.` prefix versions the *link* format (encoding and
//! compression), independently of the scenario's own `"version"`.
//!
//! Links arrive from anyone, so [`decode`] bounds its work before doing it: the link at most
//! [`MAX_LINK_LEN`] bytes, the inflated JSON at most [`MAX_JSON_LEN`] bytes — checked while
//! inflating, so a compression bomb stops at the cap instead of being allocated. [`decode`] is
//! three steps, each public: [`unpack`] (length, prefix, base64url), [`inflate`] (miniz_oxide)
//! and [`scenario_of_json`]; the page's first module runs the first and the last and inflates
//! with the browser's `DecompressionStream`, under the same cap and with the same errors, so
//! that it carries no inflater (crates/crosslane-web/src/permalink/inflate.rs). Strings inside
//! a scenario (`<script>` included) are data: they round-trip as the same plain text and the
//! link itself contains only `[A-Za-z0-9_-]` after its prefix.

use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::{DecodeError, Engine};
use miniz_oxide::inflate::TINFLStatus;

use crate::scenario::{Scenario, ScenarioError};

/// The link format prefix this build writes and reads.
pub const PREFIX: &str = "v1.";

/// Longest link [`decode`] accepts, in bytes (16 KiB; far above any scenario typed by hand, well
/// under what browsers keep in a URL).
pub const MAX_LINK_LEN: usize = 16 * 1024;

/// Largest inflated scenario JSON [`decode`] accepts, in bytes (256 KiB).
pub const MAX_JSON_LEN: usize = 256 * 1024;

/// zlib level 9: links are made once and read often, so the smallest output is worth it.
const LEVEL: u8 = 9;

/// Base64url, no padding written or accepted. Trailing bits are allowed so that a link cut
/// mid-character reaches the inflater and is reported as truncated, not as bad base64.
const B64: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// Why a text is not a permalink this build can read. Every message is one line a user can act
/// on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PermalinkError {
    /// No `vN.` prefix at all.
    #[error("not a crosslane permalink: it must start with `{PREFIX}`")]
    NoPrefix,
    /// A `vN.` prefix of another link format version.
    #[error("permalink format `{found}` is not supported; this build reads `{PREFIX}` links")]
    WrongVersion {
        /// The prefix found, e.g. `v9.`.
        found: String,
    },
    /// The link or its inflated content is over its cap.
    #[error("permalink too large: {what} is over {limit} bytes")]
    TooLarge {
        /// `link` or `inflated scenario`.
        what: &'static str,
        /// The cap in bytes.
        limit: usize,
    },
    /// A character outside base64url.
    #[error("permalink damaged: `{0}` is not base64url (A-Z a-z 0-9 - _)")]
    NotBase64(String),
    /// The data ends early: the link was cut (copied or wrapped short).
    #[error("permalink truncated: the link was cut short; copy the whole link")]
    Truncated,
    /// Base64 is fine but the bytes inside are not a zlib stream, or its checksum fails.
    #[error("permalink damaged: its data does not inflate ({0})")]
    Corrupt(String),
    /// Inflated fine but is not a scenario this build reads.
    #[error("permalink content: {0}")]
    NotAScenario(#[from] ScenarioError),
}

/// Encodes a scenario as a permalink (`v1.…`).
///
/// The result may exceed [`MAX_LINK_LEN`] for a scenario holding a very large kernel text;
/// [`decode`] refuses such a link, so a caller that offers the link should check its length.
pub fn encode(scenario: &Scenario) -> String {
    encode_json(&scenario.to_json())
}

/// [`encode`] of a scenario already serialized ([`Scenario::to_json`]), for a caller that keeps
/// the JSON (the page compares it with the last one before deflating again).
pub fn encode_json(json: &str) -> String {
    link_from_zlib(&miniz_oxide::deflate::compress_to_vec_zlib(
        json.as_bytes(),
        LEVEL,
    ))
}

/// The link of a scenario JSON already deflated into a zlib stream (RFC 1950) by someone else:
/// the page deflates with the browser's `CompressionStream("deflate")`, which writes that
/// format (Compression Streams standard, "deflate": the ZLIB format), so that the page's first
/// module carries no deflater of its own. Any zlib stream of the JSON decodes the same way
/// ([`decode`]); only the compression level, and so the link's length, may differ from
/// [`encode_json`]'s.
pub fn link_from_zlib(packed: &[u8]) -> String {
    let mut link = String::with_capacity(PREFIX.len() + packed.len().div_ceil(3) * 4);
    link.push_str(PREFIX);
    B64.encode_string(packed, &mut link);
    link
}

/// Decodes a permalink (surrounding whitespace ignored): [`unpack`], [`inflate`], then
/// [`scenario_of_json`].
///
/// # Errors
/// [`PermalinkError`]: no or another prefix, over a size cap, not base64url, truncated, corrupt,
/// or not a scenario of a version this build reads.
pub fn decode(link: &str) -> Result<Scenario, PermalinkError> {
    scenario_of_json(&inflate(&unpack(link)?)?)
}

/// The zlib stream (RFC 1950) inside a permalink, not yet inflated: the link's length, prefix
/// and base64url checked. [`decode`]'s first step, public for a reader that inflates with
/// something else: the page's first module inflates with the browser's
/// `DecompressionStream("deflate")`, so that it carries no inflater of its own
/// (docs/benchmarks.md, "Time to first lanes").
///
/// # Errors
/// [`PermalinkError`]: over [`MAX_LINK_LEN`], no or another prefix, nothing after the prefix
/// ([`PermalinkError::Truncated`]), not base64url.
pub fn unpack(link: &str) -> Result<Vec<u8>, PermalinkError> {
    let link = link.trim();
    if link.len() > MAX_LINK_LEN {
        return Err(PermalinkError::TooLarge {
            what: "link",
            limit: MAX_LINK_LEN,
        });
    }
    let body = link
        .strip_prefix(PREFIX)
        .ok_or_else(|| wrong_prefix(link))?;
    if body.is_empty() {
        return Err(PermalinkError::Truncated);
    }
    B64.decode(body).map_err(|e| match e {
        // A length of 4k+1 characters cannot come from an encoder: the link was cut.
        DecodeError::InvalidLength(_) => PermalinkError::Truncated,
        DecodeError::InvalidByte(at, _) | DecodeError::InvalidLastSymbol(at, _) => {
            // `at` is a byte offset; a non-ASCII character is reported whole.
            PermalinkError::NotBase64(
                body.get(at..)
                    .and_then(|t| t.chars().next())
                    .map_or_else(|| format!("byte {at}"), String::from),
            )
        }
        DecodeError::InvalidPadding => PermalinkError::NotBase64("=".into()),
    })
}

/// Inflates a link's zlib stream ([`unpack`]) with miniz_oxide, stopping at [`MAX_JSON_LEN`]
/// bytes of output, so a compression bomb is refused before it is allocated.
///
/// # Errors
/// [`PermalinkError::TooLarge`] over the cap, [`PermalinkError::Truncated`] when the stream
/// ends early, [`PermalinkError::Corrupt`] for anything else (a bad header or block, an
/// Adler-32 mismatch: `checksum mismatch`).
pub fn inflate(packed: &[u8]) -> Result<Vec<u8>, PermalinkError> {
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(packed, MAX_JSON_LEN).map_err(|e| {
        match e.status {
            TINFLStatus::HasMoreOutput => PermalinkError::TooLarge {
                what: "inflated scenario",
                limit: MAX_JSON_LEN,
            },
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                PermalinkError::Truncated
            }
            TINFLStatus::Adler32Mismatch => PermalinkError::Corrupt("checksum mismatch".into()),
            other => PermalinkError::Corrupt(format!("{other:?}")),
        }
    })
}

/// The scenario of a link's inflated JSON ([`decode`]'s last step).
///
/// # Errors
/// [`PermalinkError::NotAScenario`]: not JSON, not a scenario, or a scenario version this build
/// does not read.
pub fn scenario_of_json(json: &[u8]) -> Result<Scenario, PermalinkError> {
    Ok(Scenario::from_json(json)?)
}

/// The permalink inside `text`: the text itself, or — for a page URL — what follows its last
/// `#`, then its last `=` (base64url has neither character, so the cut never lands inside a
/// link). `crosslane run` and the JavaScript library's `decodePermalink` both accept a page URL
/// this way.
pub fn link_in_text(text: &str) -> &str {
    let text = text.trim();
    let after_hash = text.rsplit('#').next().unwrap_or(text);
    after_hash.rsplit('=').next().unwrap_or(after_hash)
}

/// The `vN.` format prefix `text` starts with, if any (`Some("v1.")`, `Some("v9.")`): how a
/// caller tells a permalink from a file name, and how [`decode`] tells another version from none.
pub fn format_prefix(text: &str) -> Option<&str> {
    let (head, _) = text.split_once('.')?;
    let digits = head.strip_prefix('v')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.get(..=head.len())
}

/// The error for a link without our prefix: another version (`v9.`) or none at all.
fn wrong_prefix(link: &str) -> PermalinkError {
    match format_prefix(link) {
        Some(found) => PermalinkError::WrongVersion {
            found: found.to_string(),
        },
        None => PermalinkError::NoPrefix,
    }
}

#[cfg(test)]
mod tests {
    use super::{decode, encode_json, format_prefix, link_from_zlib};
    use crate::scenario::{Scenario, View};

    /// A zlib stream (RFC 1950) holding `data` in one stored (uncompressed) deflate block
    /// (RFC 1951 §3.2.4): what any deflater may legally write, and far from miniz's level 9.
    fn stored_zlib(data: &[u8]) -> Vec<u8> {
        // CMF 0x78 (deflate, 32 KiB window), FLG 0x01: (0x78 << 8 | 0x01) % 31 == 0 (RFC 1950 §2.2).
        let mut out = vec![0x78, 0x01];
        // BFINAL = 1, BTYPE = 00, then LEN and its one's complement, little-endian.
        let len = u16::try_from(data.len()).expect("one stored block holds < 64 KiB");
        out.push(0x01);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(data);
        // Adler-32 of the data, big-endian (RFC 1950 §8.2).
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in data {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        out.extend_from_slice(&((b << 16) | a).to_be_bytes());
        out
    }

    #[test]
    fn a_link_from_another_deflater_decodes_to_the_same_scenario() {
        let scenario = Scenario::new(View::Sort {
            len: 8,
            seed: 7,
            values: None,
            dialect: Some("cuda".into()),
            stage: None,
            threshold: None,
        });
        let json = scenario.to_json();
        let ours = encode_json(&json);
        let theirs = link_from_zlib(&stored_zlib(json.as_bytes()));
        assert_ne!(ours, theirs, "a stored block is not level 9's output");
        assert!(theirs.starts_with("v1."), "{theirs}");
        assert_eq!(decode(&theirs), Ok(scenario.clone()));
        assert_eq!(decode(&ours), Ok(scenario));
    }

    #[test]
    fn format_prefix_reads_only_v_digits_dot() {
        assert_eq!(format_prefix("v1.eNo"), Some("v1."));
        assert_eq!(format_prefix("v12.x"), Some("v12."));
        assert_eq!(format_prefix("v.x"), None);
        assert_eq!(format_prefix("vx1.x"), None);
        assert_eq!(format_prefix("scenario.json"), None);
        assert_eq!(format_prefix("v1"), None);
    }
}
