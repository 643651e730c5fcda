//! Share links: a scenario (seed + inputs) and a step encoded into the URL fragment as base64url
//! JSON, `#/sandbox?s=<payload>&k=<step>`. Decoding never panics: every failure is a `ShareError`
//! the page shows while it keeps working.

use crate::sim::lab::LabError;
use crate::sim::limits::{MAX_JSON_BYTES, MAX_URL_BYTES};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why saved or linked lab state was not restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// The link is longer than `MAX_URL_BYTES`.
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// Not base64url, not text, not JSON, or not the fields of the saved format.
    Unreadable,
    /// Written by another version of the page.
    UnknownVersion {
        /// The version found.
        version: u64,
    },
    /// Readable, but the lab core refused the scenario or the schedule.
    Invalid(LabError),
}

/// Where restored state came from, for the notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This browser's saved lab.
    Storage,
    /// A share link.
    Link,
}

/// Why a link or an import could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The link is longer than `MAX_URL_BYTES`.
    LinkTooLong { bytes: usize },
    /// The payload is not base64url.
    NotBase64,
    /// The decoded payload is not UTF-8 text.
    NotText,
    /// The link has no `s=` payload.
    Missing,
}

/// Encodes bytes as unpadded base64url.
pub fn b64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes unpadded (or padded) base64url.
pub fn b64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return Err(ShareError::NotBase64);
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(ShareError::NotBase64),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// A decoded share link: the scenario JSON and the step to open at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharePayload {
    /// The scenario as JSON (validated by `Scenario::from_json` afterwards).
    pub json: String,
    /// The step the sender was looking at (0 if the link's step is unreadable).
    pub step: usize,
    /// The link's `k=` was not a whole number from 0 up: the run opens at the start.
    pub step_unreadable: bool,
}

/// What the property-check page adds to the query of the link that opens a counterexample in
/// the sandbox: `decode_query` ignores it, and the sandbox says the run came from the property
/// checks rather than that someone shared it.
pub const FROM_PROPERTIES: &str = "from=properties";

/// Builds the query part `s=...&k=...` for a scenario's JSON and a step.
pub fn encode_query(json: &str, step: usize) -> String {
    format!("s={}&k={step}", b64url_encode(json.as_bytes()))
}

/// Reads the query part of a share link (what follows `?` in the hash).
pub fn decode_query(query: &str) -> Result<SharePayload, ShareError> {
    if query.len() > MAX_URL_BYTES {
        return Err(ShareError::LinkTooLong { bytes: query.len() });
    }
    let mut payload = None;
    let mut step = 0;
    let mut step_unreadable = false;
    for part in query.split('&') {
        if let Some(v) = part.strip_prefix("s=") {
            payload = Some(v);
        } else if let Some(v) = part.strip_prefix("k=") {
            // A bad step loses only the step, not the shared run.
            match v.parse() {
                Ok(k) => step = k,
                Err(_) => step_unreadable = true,
            }
        }
    }
    let bytes = b64url_decode(payload.ok_or(ShareError::Missing)?)?;
    if bytes.len() > MAX_JSON_BYTES {
        return Err(ShareError::LinkTooLong { bytes: bytes.len() });
    }
    let json = String::from_utf8(bytes).map_err(|_| ShareError::NotText)?;
    Ok(SharePayload {
        json,
        step,
        step_unreadable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..70usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 % 256) as u8).collect();
            let enc = b64url_encode(&bytes);
            assert!(!enc.contains('=') && !enc.contains('+') && !enc.contains('/'));
            assert_eq!(b64url_decode(&enc).unwrap(), bytes, "len {len}");
        }
        assert_eq!(b64url_encode(b"Man"), "TWFu");
        assert_eq!(b64url_encode(b"Ma"), "TWE");
    }

    #[test]
    fn query_round_trips_and_rejects_garbage() {
        let json = r#"{"version":1,"seed":7,"note":"日本語"}"#;
        let q = encode_query(json, 12);
        assert_eq!(
            decode_query(&q).unwrap(),
            SharePayload {
                json: json.into(),
                step: 12,
                step_unreadable: false,
            }
        );
        assert_eq!(decode_query("s=***"), Err(ShareError::NotBase64));
        assert_eq!(decode_query("k=3"), Err(ShareError::Missing));
        for bad in ["x", "-1", "", "1.5", "99999999999999999999999"] {
            let p = decode_query(&format!("s=TWFu&k={bad}")).expect("the run is kept");
            assert_eq!(
                (p.json.as_str(), p.step, p.step_unreadable),
                ("Man", 0, true),
                "k={bad}"
            );
        }
        let p = decode_query("s=TWFu&k=12").expect("valid");
        assert_eq!((p.step, p.step_unreadable), (12, false));
        assert_eq!(decode_query("s=_w"), Err(ShareError::NotText));
        let long = "s=".to_string() + &"A".repeat(MAX_URL_BYTES);
        assert!(matches!(
            decode_query(&long),
            Err(ShareError::LinkTooLong { .. })
        ));
    }
}
