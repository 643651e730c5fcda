//! The page's JSON parser (`idempotency_playground::json::parse`) against serde_json
//! (`serde_json::from_str::<serde_json::Value>`, default features) on random documents: values of
//! every kind, nested, with escapes, unicode and awkward numbers, written compactly or with random
//! whitespace and escapes; mutations of them; token soup; random bytes. The two must agree on
//! accepting or refusing each document and, when both accept, on the value.
//!
//! The documented differences, each checked exactly by `documented_differences_at_their_edges`
//! and counted (not failed) in the random run:
//! 1. **Nesting**: ours accepts up to `MAX_JSON_DEPTH` (128) arrays and objects open at once and
//!    refuses 129; serde_json's recursion limit (128) refuses the 128th level, so it accepts only
//!    127. A document nested exactly 128 deep is ours alone.
//! 2. **Numbers beyond f64**: ours keeps a number it cannot hold as an integer as the text written
//!    (`Value::Number`), of any size, and leaves the range to the field reader; serde_json's `Value`
//!    holds f64, so it refuses a number whose magnitude rounds past f64::MAX (`1e309`, 400 digits)
//!    with "number out of range". Its rounding (point 3) also moves the edge by a few units in
//!    the last place: it refuses `1.79769313486231576937e308`, which rounds to f64::MAX, and may
//!    read a number that correctly rounds past MAX as MAX.
//! 3. **Number precision**: ours keeps integers exactly (i128) and other numbers as text; serde_json
//!    keeps integers that fit i64/u64 exactly and turns the rest into f64. Those are compared as
//!    f64: our text read by Rust's correctly rounded `str::parse::<f64>` against serde_json's
//!    value, which without its `float_roundtrip` feature is not always correctly rounded; up to
//!    [`SERDE_FLOAT_ULPS`] units in the last place apart counts as equal (the largest distance
//!    seen is printed).
//! 4. **Duplicate keys**: ours keeps every member in document order (the field reader refuses a
//!    duplicate of a field it reads); serde_json's map keeps the last. Compared as "last wins".
//! 5. **Member order**: ours keeps document order, serde_json's map (no `preserve_order`) sorts
//!    keys. Objects are compared as maps.
//!
//! Anything else fails the test, printing the seed, the case and the document.
//!
//! `cargo test` runs [`DEFAULT_CASES`]; `JSON_DIFF_CASES=<n>` runs more, `JSON_DIFF_SEED=<s>`
//! another sequence, `JSON_DIFF_CASE=<i>` case `i` alone.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;

use common::{env_u64, excerpt, mutate_bytes, text, Layout, Rng, NUMBERS, TOKENS};
use idempotency_playground::json::{self, Json, Member, Value};
use idempotency_playground::limits::MAX_JSON_DEPTH;
use serde_json::Value as Serde;

/// Cases in `cargo test`: under a second in a debug build on the 2-core VM.
const DEFAULT_CASES: u64 = 20_000;
const DEFAULT_SEED: u64 = 0x6a73_6f6e_6469_6666;
/// How far (in units in the last place) serde_json's f64 may be from the correctly rounded one.
const SERDE_FLOAT_ULPS: u64 = 2;

// ---- random documents --------------------------------------------------------------------

fn leaf(value: Value) -> Json {
    Json { at: 0, value }
}

fn digits(rng: &mut Rng, n: usize, out: &mut String) {
    for _ in 0..n {
        out.push(char::from(b'0' + rng.below(10) as u8));
    }
}

/// A number as JSON text: small and huge integers, every edge in [`NUMBERS`], random decimal
/// forms with fractions and exponents (some far past f64), and random f64 values written by Rust.
fn number(rng: &mut Rng) -> String {
    match rng.below(7) {
        0 => format!("{}", rng.range(0, 1000) as i64 - 500),
        1 => rng.pick(&NUMBERS).to_string(),
        2 => match rng.below(3) {
            0 => rng.next_u64().to_string(),
            1 => (rng.next_u64() as i64).to_string(),
            _ => ((u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) as i128
                >> rng.below(64))
            .to_string(),
        },
        3 | 4 => {
            let mut s = String::new();
            if rng.chance(30) {
                s.push('-');
            }
            if rng.chance(20) {
                s.push('0');
            } else {
                s.push(char::from(b'1' + rng.below(9) as u8));
                let n = rng.len(40) - 1;
                digits(rng, n, &mut s);
            }
            if rng.chance(50) {
                s.push('.');
                let n = rng.len(25);
                digits(rng, n, &mut s);
            }
            if rng.chance(50) {
                s.push(*rng.pick(&['e', 'E']));
                let sign = *rng.pick(&["", "+", "-"]);
                s.push_str(sign);
                let n = rng.len(3);
                digits(rng, n, &mut s);
            }
            s
        }
        5 => {
            let f = f64::from_bits(rng.next_u64());
            if !f.is_finite() {
                return "0.5".into();
            }
            if rng.chance(50) {
                format!("{f:e}")
            } else {
                format!("{f}")
            }
        }
        _ => rng
            .pick(&[
                "-0", "0.0", "-0.0", "0e0", "0E-0", "1e-400", "-1e-400", "2.5e-324",
            ])
            .to_string(),
    }
}

/// A random character: mostly ASCII, then control characters, Latin, CJK, astral, and the
/// characters parsers get wrong (line and paragraph separators, BOM, non-characters).
fn character(rng: &mut Rng) -> char {
    let c = match rng.below(10) {
        0..=3 => rng.range(0x20, 0x7f) as u32,
        4 => rng.range(0, 0x20) as u32,
        5 => rng.range(0x80, 0x800) as u32,
        6 => rng.range(0x3040, 0x9fff) as u32,
        7 => rng.range(0x1_0000, 0x11_0000) as u32,
        8 => *rng.pick(&[
            0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff, 0x7f, 0x22, 0x5c, 0x2f,
        ]),
        _ => rng.range(0xe000, 0x1_0000) as u32,
    };
    char::from_u32(c).unwrap_or('\u{fffd}')
}

fn string(rng: &mut Rng) -> String {
    let n = rng.len(30) - 1;
    (0..n).map(|_| character(rng)).collect()
}

/// Field names from a small pool (so objects repeat keys) or random.
fn key(rng: &mut Rng) -> String {
    if rng.chance(60) {
        rng.pick(&["a", "b", "", "version", "é", "😀", "a\u{0}b", "\""])
            .to_string()
    } else {
        string(rng)
    }
}

/// A random value up to `depth` levels deep; sometimes a chain near the nesting limit.
fn value(rng: &mut Rng, depth: usize) -> Json {
    if depth == 0 {
        return leaf(Value::Null);
    }
    match rng.below(12) {
        0 => leaf(Value::Null),
        1 => leaf(Value::Bool(rng.chance(50))),
        2 | 3 => leaf(Value::Number(number(rng))),
        4 | 5 => leaf(Value::Str(string(rng))),
        6 | 7 => {
            let n = rng.len(6) - 1;
            leaf(Value::Array(
                (0..n).map(|_| value(rng, depth - 1)).collect(),
            ))
        }
        8 | 9 => {
            let n = rng.len(6) - 1;
            leaf(Value::Object(
                (0..n)
                    .map(|_| Member {
                        key: key(rng),
                        at: 0,
                        value: value(rng, depth - 1),
                    })
                    .collect(),
            ))
        }
        10 if rng.chance(10) => {
            // Nested 124..=131 deep: both sides of both limits.
            let mut v = value(rng, 1);
            for _ in 0..(124 + rng.below(8)) {
                v = if rng.chance(50) {
                    leaf(Value::Array(vec![v]))
                } else {
                    leaf(Value::Object(vec![Member {
                        key: key(rng),
                        at: 0,
                        value: v,
                    }]))
                };
            }
            v
        }
        _ => value(rng, depth - 1),
    }
}

/// Case `case`'s document and how it was made.
fn document(rng: &mut Rng) -> (String, &'static str) {
    let layout = if rng.chance(50) {
        Layout::Compact
    } else {
        Layout::Random
    };
    let mut doc = String::new();
    let max_depth = 1 + rng.below(6);
    let v = value(rng, max_depth);
    common::write(rng, &v, layout, &mut doc);
    match rng.below(10) {
        0..=3 => (doc, "generated"),
        4..=7 => {
            let mut donor = String::new();
            let d = value(rng, 3);
            common::write(rng, &d, layout, &mut donor);
            let mut bytes = doc.into_bytes();
            let strings = vec!["\\ud800".to_string(), "x".repeat(40), String::new()];
            for _ in 0..rng.len(4) {
                mutate_bytes(rng, &mut bytes, donor.as_bytes(), &strings);
            }
            (text(&bytes), "mutated")
        }
        8 => {
            let n = rng.len(40);
            let soup: String = (0..n)
                .map(|_| match rng.below(3) {
                    0 => number(rng),
                    1 => format!("\"{}\"", string(rng)),
                    _ => rng.pick(&TOKENS).to_string(),
                })
                .collect();
            (soup, "token soup")
        }
        _ => {
            let n = rng.len(64) - 1;
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            (text(&bytes), "random bytes")
        }
    }
}

// ---- comparison --------------------------------------------------------------------------

/// What the documented differences came to in a run.
#[derive(Default, Debug)]
struct Notes {
    both_accepted: u64,
    both_refused: u64,
    depth_128: u64,
    beyond_f64: u64,
    f64_max_edge: u64,
    duplicate_keys: u64,
    not_correctly_rounded: u64,
    max_ulps: u64,
    wide_integers: u64,
}

/// Distance between two finite f64 in units in the last place (0.0 and -0.0 are 0 apart).
fn ulps(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let bits = x.to_bits() as i64;
        if bits < 0 {
            i64::MIN.wrapping_sub(bits)
        } else {
            bits
        }
    };
    (i128::from(key(a)) - i128::from(key(b))).unsigned_abs() as u64
}

/// Arrays and objects open at once at the deepest point of `j`.
fn depth(j: &Json) -> usize {
    match &j.value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.iter().map(|m| depth(&m.value)).max().unwrap_or(0),
        _ => 0,
    }
}

/// `x` is infinite or within [`SERDE_FLOAT_ULPS`] of ±f64::MAX: where serde_json's rounding may
/// overflow although the correctly rounded value is finite (or the reverse).
fn at_f64_edge(x: f64) -> bool {
    x.is_infinite() || ulps(x.abs(), f64::MAX) <= SERDE_FLOAT_ULPS
}

/// Some number in `j` is beyond f64 or at its edge (by Rust's correctly rounded parse).
fn beyond_f64(j: &Json) -> bool {
    match &j.value {
        Value::Number(text) => text.parse::<f64>().is_ok_and(at_f64_edge),
        Value::Int(i) => at_f64_edge(*i as f64),
        Value::Array(items) => items.iter().any(beyond_f64),
        Value::Object(members) => members.iter().any(|m| beyond_f64(&m.value)),
        _ => false,
    }
}

/// Some number in `j` is past f64::MAX by Rust's correctly rounded parse.
fn contains_infinite(j: &Json) -> bool {
    match &j.value {
        Value::Number(text) => text.parse::<f64>().is_ok_and(f64::is_infinite),
        Value::Array(items) => items.iter().any(contains_infinite),
        Value::Object(members) => members.iter().any(|m| contains_infinite(&m.value)),
        _ => false,
    }
}

/// Compares one number; `Err` says how they differ.
fn same_number(ours: &Value, theirs: &serde_json::Number, notes: &mut Notes) -> Result<(), String> {
    let exact = theirs
        .as_u64()
        .map(i128::from)
        .or_else(|| theirs.as_i64().map(i128::from));
    if let Some(n) = exact {
        return match ours {
            Value::Int(i) if *i == n => Ok(()),
            other => Err(format!("serde_json read the integer {n}, ours {other:?}")),
        };
    }
    let f = theirs
        .as_f64()
        .expect("a serde_json number is u64, i64 or f64");
    let g = match ours {
        Value::Int(i) => {
            notes.wide_integers += 1;
            *i as f64
        }
        Value::Number(text) => text
            .parse::<f64>()
            .map_err(|e| format!("our number text {text:?} is not a float for Rust: {e}"))?,
        other => return Err(format!("serde_json read the number {f:e}, ours {other:?}")),
    };
    if g.is_infinite() {
        if at_f64_edge(f) {
            // Correctly rounded, the text is past f64::MAX; serde_json rounded it down to MAX.
            notes.f64_max_edge += 1;
            return Ok(());
        }
        return Err(format!(
            "serde_json read {f:e} where the correctly rounded value is {g}"
        ));
    }
    let d = ulps(f, g);
    if d > 0 {
        notes.not_correctly_rounded += 1;
        notes.max_ulps = notes.max_ulps.max(d);
    }
    if d > SERDE_FLOAT_ULPS {
        return Err(format!(
            "serde_json read {f:e}, the correctly rounded value is {g:e}: {d} ulps apart"
        ));
    }
    Ok(())
}

/// Compares two trees; `Err` names the path and the difference.
fn same(ours: &Json, theirs: &Serde, path: &str, notes: &mut Notes) -> Result<(), String> {
    let here = |e: String| format!("at {}: {e}", if path.is_empty() { "$" } else { path });
    match (&ours.value, theirs) {
        (Value::Null, Serde::Null) => Ok(()),
        (Value::Bool(a), Serde::Bool(b)) if a == b => Ok(()),
        (v @ (Value::Int(_) | Value::Number(_)), Serde::Number(n)) => {
            same_number(v, n, notes).map_err(here)
        }
        (Value::Str(a), Serde::String(b)) if a == b => Ok(()),
        (Value::Array(a), Serde::Array(b)) => {
            if a.len() != b.len() {
                return Err(here(format!("{} items, serde_json {}", a.len(), b.len())));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                same(x, y, &format!("{path}[{i}]"), notes)?;
            }
            Ok(())
        }
        (Value::Object(members), Serde::Object(map)) => {
            // Last wins, as in serde_json's map.
            let mut last: BTreeMap<&str, &Json> = BTreeMap::new();
            for m in members {
                last.insert(&m.key, &m.value);
            }
            if last.len() < members.len() {
                notes.duplicate_keys += 1;
            }
            let ours_keys: Vec<&str> = last.keys().copied().collect();
            let theirs_keys: Vec<&str> = map.keys().map(String::as_str).collect();
            if ours_keys != theirs_keys {
                return Err(here(format!(
                    "keys {ours_keys:?}, serde_json {theirs_keys:?}"
                )));
            }
            for (k, v) in last {
                same(v, &map[k], &format!("{path}.{k:?}"), notes)?;
            }
            Ok(())
        }
        (a, b) => Err(here(format!("ours {a:?}, serde_json {b}"))),
    }
}

/// Checks one document; `Err` is an unexplained difference.
fn check(doc: &str, notes: &mut Notes) -> Result<(), String> {
    let ours = json::parse(doc);
    let theirs = serde_json::from_str::<Serde>(doc);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            notes.both_accepted += 1;
            same(&a, &b, "", notes)
        }
        (Err(_), Err(_)) => {
            notes.both_refused += 1;
            Ok(())
        }
        (Ok(a), Err(e)) => {
            let message = e.to_string();
            if message.starts_with("recursion limit exceeded") && depth(&a) == MAX_JSON_DEPTH {
                notes.depth_128 += 1;
                Ok(())
            } else if message.starts_with("number out of range") && beyond_f64(&a) {
                if contains_infinite(&a) {
                    notes.beyond_f64 += 1;
                } else {
                    notes.f64_max_edge += 1;
                }
                Ok(())
            } else {
                Err(format!(
                    "ours accepted it, serde_json refused it: {message}"
                ))
            }
        }
        (Err(e), Ok(_)) => Err(format!(
            "serde_json accepted it, ours refused it at byte {}: {}",
            e.at, e.message
        )),
    }
}

#[test]
fn agrees_with_serde_json_on_random_documents() {
    let seed = env_u64("JSON_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("JSON_DIFF_CASE");
    let cases = env_u64("JSON_DIFF_CASES").unwrap_or(DEFAULT_CASES);
    let started = std::time::Instant::now();
    let mut notes = Notes::default();
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in only.map_or(0..cases, |c| c..c + 1) {
        let mut rng = Rng::for_case(seed, case);
        let (doc, kind) = document(&mut rng);
        *kinds.entry(kind).or_default() += 1;
        if let Err(why) = check(&doc, &mut notes) {
            failures.push(format!(
                "JSON_DIFF_SEED={seed} JSON_DIFF_CASE={case} ({kind}): {why}\n  document: {}",
                excerpt(&doc, 2_000)
            ));
        }
    }
    let n = only.map_or(cases, |_| 1);
    println!(
        "json_diff: seed {seed}, {n} documents ({kinds:?}) in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    println!(
        "  both accepted {} (equal), both refused {}; documented differences: nested exactly 128 deep {}, \
         numbers beyond f64 {}, at f64::MAX's rounding edge {}, objects with duplicate keys {}, integers beyond 64 bits {}, \
         serde_json floats not correctly rounded {} (at most {} ulps; {} allowed)",
        notes.both_accepted,
        notes.both_refused,
        notes.depth_128,
        notes.beyond_f64,
        notes.f64_max_edge,
        notes.duplicate_keys,
        notes.wide_integers,
        notes.not_correctly_rounded,
        notes.max_ulps,
        SERDE_FLOAT_ULPS
    );
    common::assert_none("unexplained differences", &failures);
}

/// Each documented difference, exactly at its edge, and the agreement just inside it.
#[test]
fn documented_differences_at_their_edges() {
    let both = |doc: &str| {
        (
            json::parse(doc).is_ok(),
            serde_json::from_str::<Serde>(doc).is_ok(),
        )
    };
    let nested = |d: usize| format!("{}{}", "[".repeat(d), "]".repeat(d));
    let objects = |d: usize| format!("{}1{}", "{\"a\":".repeat(d), "}".repeat(d));
    // 1. Nesting: 127 both, 128 ours alone, 129 neither.
    assert_eq!(MAX_JSON_DEPTH, 128);
    for doc in [nested(127), objects(127)] {
        assert_eq!(both(&doc), (true, true));
    }
    for doc in [nested(128), objects(128)] {
        assert_eq!(both(&doc), (true, false));
        let e = serde_json::from_str::<Serde>(&doc).unwrap_err().to_string();
        assert!(e.starts_with("recursion limit exceeded"), "{e}");
    }
    for doc in [nested(129), objects(129)] {
        assert_eq!(both(&doc), (false, false));
    }
    // 2. Beyond f64: ours keeps the text, serde_json refuses.
    for doc in ["1e309", "-1e309", "[1.8e308]", &"9".repeat(400)] {
        assert_eq!(both(doc), (true, false), "{doc}");
        let e = serde_json::from_str::<Serde>(doc).unwrap_err().to_string();
        assert!(e.starts_with("number out of range"), "{doc}: {e}");
    }
    // ... and, since its rounding is not exact, a number just under f64::MAX (which rounds to MAX).
    let under_max = "1.79769313486231576937e308";
    assert_eq!(under_max.parse::<f64>(), Ok(f64::MAX));
    assert_eq!(both(under_max), (true, false));
    for doc in ["1.7976931348623157e308", "1e308", "1e-400", "0e99999"] {
        assert_eq!(both(doc), (true, true), "{doc}");
    }
    // 3. Precision: exact integers in ours, f64 past 64 bits in serde_json.
    let wide = "123456789012345678901234567890";
    assert_eq!(
        json::parse(wide).unwrap().value,
        Value::Int(wide.parse().unwrap())
    );
    assert!(serde_json::from_str::<Serde>(wide).unwrap().is_f64());
    assert_eq!(
        json::parse("1.50").unwrap().value,
        Value::Number("1.50".into())
    );
    assert_eq!(json::parse("-0").unwrap().value, Value::Number("-0".into()));
    assert!(serde_json::from_str::<Serde>("-0").unwrap().is_f64());
    // 4. Duplicate keys: ours keeps both, serde_json the last.
    let Value::Object(members) = json::parse(r#"{"a":1,"a":2}"#).unwrap().value else {
        panic!("an object");
    };
    assert_eq!(members.len(), 2);
    assert_eq!(
        serde_json::from_str::<Serde>(r#"{"a":1,"a":2}"#).unwrap()["a"],
        2
    );
    // Both refuse what JSON forbids: lone surrogates, raw control characters, a BOM.
    for doc in [
        r#""\ud800""#,
        r#""\udc00x""#,
        "\"\u{1}\"",
        "\u{feff}1",
        "[1,]",
        "01",
        "1.",
    ] {
        assert_eq!(both(doc), (false, false), "{doc:?}");
    }
    let mut notes = Notes::default();
    assert_eq!(
        check("[0.1, 1e-7, 5e-324, 2.2250738585072014e-308]", &mut notes),
        Ok(())
    );
}
