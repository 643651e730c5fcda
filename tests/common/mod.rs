//! Shared by the native reliability tests (`tests/fuzz.rs`, `tests/json_diff.rs`, `tests/soak.rs`):
//! a seeded PRNG of the tests' own (so a bug in the core's generator cannot hide one in the
//! tests), case counts and seeds from the environment, and mutations of JSON text, byte-wise and
//! on the parsed tree.
//!
//! Each test file uses a part of this module.
#![allow(dead_code)]

use idempotency_playground::json::{write_str, Json, Member, Value};

/// Fails with how many `failures` there are and the first ten, one a line; `what` names them
/// ("failures", "unexplained differences").
pub fn assert_none(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} {what} (first 10):\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// 64 bits of state, every seed is good, and it is a few lines.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of case `case` of a run seeded `seed`: each case can be replayed alone.
    pub fn for_case(seed: u64, case: u64) -> Rng {
        let mut r = Rng(seed ^ case.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32 for the `n` used here).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..hi` (`lo < hi`).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo < hi, "range({lo}, {hi})");
        lo + ((u128::from(self.next_u64()) * u128::from(hi - lo)) >> 64) as u64
    }

    /// True `percent` times in 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A random item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A length that is usually short and sometimes long: 1..=max, about log-uniform.
    pub fn len(&mut self, max: usize) -> usize {
        let max = max.max(1);
        let bits = usize::BITS - max.leading_zeros();
        let cap = (1usize << self.below(bits as usize + 1)).min(max);
        1 + self.below(cap)
    }
}

/// A whole number from the environment variable `name`, if set; a value that is not one stops
/// the test with a message rather than being ignored.
pub fn env_u64(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim().replace('_', "");
    Some(
        text.parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a whole number")),
    )
}

/// The text of `bytes` as the readers see it: they take `&str` (the browser hands them UTF-16
/// strings), so invalid UTF-8 becomes U+FFFD.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// At most `max` characters of `s`, escaped, for a failure message.
pub fn excerpt(s: &str, max: usize) -> String {
    let n = s.chars().count();
    let head: String = s.chars().take(max).collect();
    if n > max {
        format!("{head:?}… ({n} characters)")
    } else {
        format!("{head:?}")
    }
}

// ---- values worth trying -------------------------------------------------------------------

/// Numbers put in place of a number or any value: zero, signs, every limit of the formats and one
/// past it (amounts, balance, attempts, inputs, durations, key lengths), 32/53/64/128-bit edges,
/// f64 extremes, fractions and exponents the readers refuse.
pub const NUMBERS: [&str; 56] = [
    "0",
    "1",
    "-1",
    "-0",
    "2",
    "3",
    "9",
    "10",
    "11",
    "20",
    "21",
    "30",
    "31",
    "200",
    "201",
    "255",
    "256",
    "999",
    "1000",
    "20000",
    "20001",
    "60000",
    "60001",
    "600000",
    "600001",
    "3600000",
    "3600001",
    "86400000",
    "2592000000",
    "2592000001",
    "99999999",
    "100000000",
    "1000000000000",
    "1000000000001",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "-18446744073709551616",
    "170141183460469231731687303715884105727",
    "170141183460469231731687303715884105728",
    "123456789012345678901234567890123456789012345678901234567890",
    "1e308",
    "1e309",
    "-1e308",
    "1.7976931348623157e308",
    "5e-324",
    "1e-400",
    "1.5",
    "1.0",
    "1E+2",
];

/// Strings put in place of a string or any value: empty, at and past the key (255) and
/// description (200) limits in ASCII, CJK and astral characters, control characters, separators
/// and marks that look like nothing, and text that looks like the formats' own syntax.
pub fn awkward_strings() -> Vec<String> {
    vec![
        String::new(),
        " ".into(),
        "x".into(),
        "k".repeat(255),
        "k".repeat(256),
        "鍵".repeat(255),
        "鍵".repeat(256),
        "d".repeat(200),
        "d".repeat(201),
        "😀".repeat(300),
        "e\u{301}".repeat(150),
        "\u{0}".into(),
        "\u{0}\u{1}\u{1f}\u{7f}\u{80}\u{9f}".into(),
        "\u{feff}".into(),
        "\u{200b}\u{200d}\u{2028}\u{2029}".into(),
        "\u{202e}lab\u{202c}".into(),
        "\u{fffd}\u{fffe}\u{ffff}\u{10ffff}".into(),
        "\"quoted\" \\back\\ /slash/".into(),
        "{\"version\":1}".into(),
        "#/lab?s=e30".into(),
        "s=e30&k=1".into(),
        "%00%ff%".into(),
        "x".repeat(70_000),
    ]
}

/// Bytes and tokens inserted into text: the syntax of JSON, of share links and of base64, and
/// characters a parser must treat with care.
pub const TOKENS: [&str; 44] = [
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    ":",
    "0",
    "1",
    "-",
    ".",
    "e",
    "E",
    "+",
    " ",
    "\n",
    "\t",
    "\r\n",
    "null",
    "true",
    "false",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\u0000",
    "\\uD83D\\uDE00",
    "\u{0}",
    "\u{feff}",
    "\u{7f}",
    "é",
    "日本",
    "😀",
    "\"\"",
    "[]",
    "{}",
    "1e999",
    "-0",
    "=",
    "&",
    "%",
    "?",
    "#",
    "_-",
];

// ---- byte-wise mutation ----------------------------------------------------------------------

/// A range `start..end` inside `0..len` (`len > 0`), usually short.
fn span(rng: &mut Rng, len: usize) -> (usize, usize) {
    let start = rng.below(len);
    let end = start + rng.len(len - start);
    (start, end)
}

/// One byte-level edit of `bytes`: a bit flipped, a byte set, a token inserted, a range deleted,
/// duplicated or replaced by one of `donor`, a truncation, a number or a string's contents
/// replaced by an extreme one.
pub fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>, donor: &[u8], strings: &[String]) {
    if bytes.is_empty() {
        bytes.extend_from_slice(rng.pick(&TOKENS).as_bytes());
        return;
    }
    match rng.below(10) {
        0 => {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
        }
        1 => {
            let i = rng.below(bytes.len());
            bytes[i] = rng.next_u64() as u8;
        }
        2 => {
            let i = rng.below(bytes.len() + 1);
            let token = rng.pick(&TOKENS).as_bytes();
            bytes.splice(i..i, token.iter().copied());
        }
        3 => {
            let (a, b) = span(rng, bytes.len());
            bytes.drain(a..b);
        }
        4 => {
            let (a, b) = span(rng, bytes.len());
            let copy = bytes[a..b].to_vec();
            let at = if rng.chance(50) {
                b
            } else {
                rng.below(bytes.len() + 1)
            };
            bytes.splice(at..at, copy);
        }
        5 => {
            let at = rng.below(bytes.len());
            bytes.truncate(at);
        }
        6 if !donor.is_empty() => {
            let (a, b) = span(rng, bytes.len());
            let (c, d) = span(rng, donor.len());
            bytes.splice(a..b, donor[c..d].iter().copied());
        }
        7 => replace_number(rng, bytes, donor, strings),
        8 if !strings.is_empty() => replace_string(rng, bytes, donor, strings),
        _ => {
            // Insert random bytes, printable or not.
            let i = rng.below(bytes.len() + 1);
            let n = rng.len(8);
            let noise: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            bytes.splice(i..i, noise);
        }
    }
}

/// A run of digits (and the signs, dots and exponents around them) becomes another number; with
/// no number in `bytes`, another edit.
fn replace_number(rng: &mut Rng, bytes: &mut Vec<u8>, donor: &[u8], strings: &[String]) {
    let numeric = |b: u8| b.is_ascii_digit() || b"-+.eE".contains(&b);
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !numeric(bytes[i - 1])))
        .collect();
    if starts.is_empty() {
        return mutate_bytes(rng, bytes, donor, strings);
    }
    let a = *rng.pick(&starts);
    let a = if a > 0 && bytes[a - 1] == b'-' {
        a - 1
    } else {
        a
    };
    let mut b = a + 1;
    while b < bytes.len() && numeric(bytes[b]) {
        b += 1;
    }
    bytes.splice(a..b, rng.pick(&NUMBERS).bytes());
}

/// The contents of a string literal become another string, escaped; with no string in `bytes`,
/// another edit.
fn replace_string(rng: &mut Rng, bytes: &mut Vec<u8>, donor: &[u8], strings: &[String]) {
    let quotes: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\'))
        .collect();
    if quotes.len() < 2 {
        return mutate_bytes(rng, bytes, donor, strings);
    }
    let q = rng.below(quotes.len() - 1);
    let (a, b) = (quotes[q], quotes[q + 1]);
    let mut lit = String::new();
    let s: &String = rng.pick(strings);
    write_str(&mut lit, s);
    bytes.splice(a..=b, lit.bytes());
}

// ---- tree mutation ---------------------------------------------------------------------------

/// Values, arrays and objects in `j`, itself included.
pub fn node_count(j: &Json) -> usize {
    1 + match &j.value {
        Value::Array(items) => items.iter().map(node_count).sum(),
        Value::Object(members) => members.iter().map(|m| node_count(&m.value)).sum(),
        _ => 0,
    }
}

/// The `n`th node of `j` in document order (0 is `j`).
pub fn node_mut<'j>(j: &'j mut Json, n: &mut usize) -> Option<&'j mut Json> {
    if *n == 0 {
        return Some(j);
    }
    *n -= 1;
    match &mut j.value {
        Value::Array(items) => {
            for item in items {
                if let Some(found) = node_mut(item, n) {
                    return Some(found);
                }
            }
        }
        Value::Object(members) => {
            for m in members {
                if let Some(found) = node_mut(&mut m.value, n) {
                    return Some(found);
                }
            }
        }
        _ => {}
    }
    None
}

/// The `n`th node of `j`, read-only.
pub fn node(j: &Json, n: usize) -> &Json {
    fn go<'j>(j: &'j Json, n: &mut usize) -> Option<&'j Json> {
        if *n == 0 {
            return Some(j);
        }
        *n -= 1;
        match &j.value {
            Value::Array(items) => items.iter().find_map(|i| go(i, n)),
            Value::Object(members) => members.iter().find_map(|m| go(&m.value, n)),
            _ => None,
        }
    }
    go(j, &mut { n }).expect("n < node_count")
}

/// The document-order numbers of the nodes of `j` that `fits`, from `*next` on.
fn matching(j: &Json, fits: &dyn Fn(&Json) -> bool, next: &mut usize, out: &mut Vec<usize>) {
    if fits(j) {
        out.push(*next);
    }
    *next += 1;
    match &j.value {
        Value::Array(items) => items.iter().for_each(|i| matching(i, fits, next, out)),
        Value::Object(members) => members
            .iter()
            .for_each(|m| matching(&m.value, fits, next, out)),
        _ => {}
    }
}

/// A random node of `j`.
pub fn random_node<'j>(rng: &mut Rng, j: &'j Json) -> &'j Json {
    node(j, rng.below(node_count(j)))
}

/// The value of some member named `key` anywhere in `j`.
fn find_member<'j>(rng: &mut Rng, j: &'j Json, key: &str) -> Option<&'j Json> {
    let mut found = Vec::new();
    fn go<'j>(j: &'j Json, key: &str, found: &mut Vec<&'j Json>) {
        match &j.value {
            Value::Array(items) => items.iter().for_each(|i| go(i, key, found)),
            Value::Object(members) => {
                for m in members {
                    if m.key == key {
                        found.push(&m.value);
                    }
                    go(&m.value, key, found);
                }
            }
            _ => {}
        }
    }
    go(j, key, &mut found);
    (!found.is_empty()).then(|| *rng.pick(&found))
}

/// Every string value and field name in `j`: the formats' own words, for replacements that the
/// readers may accept.
pub fn words(j: &Json, out: &mut Vec<String>) {
    match &j.value {
        Value::Str(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| words(i, out)),
        Value::Object(members) => {
            for m in members {
                out.push(m.key.clone());
                words(&m.value, out);
            }
        }
        _ => {}
    }
}

fn leaf(value: Value) -> Json {
    Json { at: 0, value }
}

/// One structural edit of `doc`: a value replaced by an extreme or nudged number, an awkward or
/// meaningful string, a literal, a value of another document or the same field's value in
/// another document; a member or item removed, doubled, renamed or reordered; a value wrapped or
/// buried under ~128 levels of nesting.
///
/// `gentle` keeps to the edits a reader is likely to accept (numbers nudged, the same field from
/// another document, array items removed, doubled or swapped), so that it reads on past them.
pub fn mutate_tree(
    rng: &mut Rng,
    doc: &mut Json,
    donors: &[Json],
    strings: &[String],
    gentle: bool,
) {
    let donor = rng.pick(donors);
    let (op, n) = if gentle {
        let Some(edit) = gentle_edit(rng, doc) else {
            return;
        };
        edit
    } else {
        (rng.below(13), rng.below(node_count(doc)))
    };
    let target = node_mut(doc, &mut { n }).expect("n < node_count");
    match op {
        0 | 1 => {
            let text = *rng.pick(&NUMBERS);
            *target = leaf(Value::Number(text.into()));
        }
        11 | 12 => nudge(rng, target),
        2 => *target = leaf(Value::Str(rng.pick(strings).clone())),
        3 => *target = random_node(rng, donor).clone(),
        4 => same_field(rng, target, donor),
        5 => match &mut target.value {
            Value::Array(items) if !items.is_empty() => {
                items.remove(rng.below(items.len()));
            }
            Value::Object(members) if !members.is_empty() => {
                members.remove(rng.below(members.len()));
            }
            _ => *target = leaf(Value::Null),
        },
        6 => double(rng, target),
        7 => rename(rng, target, strings),
        8 => reorder(rng, target),
        9 => bury(rng, target),
        _ => {
            *target = leaf(
                [
                    Value::Null,
                    Value::Bool(true),
                    Value::Bool(false),
                    Value::Array(vec![]),
                    Value::Object(vec![]),
                ][rng.below(5)]
                .clone(),
            )
        }
    }
}

/// A gentle edit, and a node it applies to: a container, or a whole number to nudge (none if
/// `doc` has neither).
fn gentle_edit(rng: &mut Rng, doc: &Json) -> Option<(usize, usize)> {
    let op = *rng.pick(&[4, 5, 6, 8, 11, 12]);
    let fits = |j: &Json| match j.value {
        Value::Int(_) => op >= 11,
        Value::Object(ref m) => op < 11 && !m.is_empty(),
        Value::Array(ref a) => op < 11 && op != 4 && !a.is_empty(),
        _ => false,
    };
    let mut candidates = Vec::new();
    matching(doc, &fits, &mut 0, &mut candidates);
    if candidates.is_empty() {
        return None;
    }
    Some((op, *rng.pick(&candidates)))
}

/// A whole number nudged: often still in range, so the reader goes on past it.
fn nudge(rng: &mut Rng, target: &mut Json) {
    let n = match target.value {
        Value::Int(n) => n,
        _ => rng.below(100) as i128,
    };
    let nudged = match rng.below(7) {
        0 => n + 1,
        1 => n - 1,
        2 => n.saturating_mul(2),
        3 => n / 2,
        4 => -n,
        5 => 0,
        _ => rng.below(usize::try_from(n.unsigned_abs().min(1 << 40)).unwrap_or(0) * 2 + 2) as i128,
    };
    *target = leaf(Value::Int(nudged));
}

/// The same field taken from another document: the swap most likely to be read.
fn same_field(rng: &mut Rng, target: &mut Json, donor: &Json) {
    if let Value::Object(members) = &mut target.value {
        if !members.is_empty() {
            let i = rng.below(members.len());
            if let Some(v) = find_member(rng, donor, &members[i].key) {
                members[i].value = v.clone();
                return;
            }
        }
    }
    *target = random_node(rng, donor).clone();
}

/// An item repeated, or a member doubled; anything else becomes a boolean.
fn double(rng: &mut Rng, target: &mut Json) {
    match &mut target.value {
        Value::Array(items) if !items.is_empty() => {
            let i = rng.below(items.len());
            let copy = items[i].clone();
            let times = rng.len(40);
            for _ in 0..times {
                items.insert(i, copy.clone());
            }
        }
        Value::Object(members) if !members.is_empty() => {
            let i = rng.below(members.len());
            let copy = members[i].clone();
            members.insert(rng.below(members.len() + 1), copy);
        }
        _ => *target = leaf(Value::Bool(rng.chance(50))),
    }
}

/// A member renamed; anything else becomes an empty object.
fn rename(rng: &mut Rng, target: &mut Json, strings: &[String]) {
    match &mut target.value {
        Value::Object(members) if !members.is_empty() => {
            let i = rng.below(members.len());
            let other = members[rng.below(members.len())].key.clone();
            let key = &mut members[i].key;
            *key = match rng.below(5) {
                0 => format!("{key}_"),
                1 => key.to_uppercase(),
                2 => other,
                3 => rng.pick(strings).clone(),
                _ => String::new(),
            };
        }
        _ => *target = leaf(Value::Object(vec![])),
    }
}

/// Members or items reordered; anything else becomes an empty array.
fn reorder(rng: &mut Rng, target: &mut Json) {
    match &mut target.value {
        Value::Object(members) if members.len() > 1 => {
            if rng.chance(50) {
                members.reverse();
            } else {
                let (a, b) = (rng.below(members.len()), rng.below(members.len()));
                members.swap(a, b);
            }
        }
        Value::Array(items) if items.len() > 1 => {
            let (a, b) = (rng.below(items.len()), rng.below(items.len()));
            items.swap(a, b);
        }
        _ => *target = leaf(Value::Array(vec![])),
    }
}

/// Buried: near the nesting limit (128) the document itself counts too.
fn bury(rng: &mut Rng, target: &mut Json) {
    let depth = if rng.chance(50) {
        rng.below(3) + 1
    } else {
        120 + rng.below(12)
    };
    let mut v = std::mem::replace(target, leaf(Value::Null));
    for _ in 0..depth {
        v = if rng.chance(50) {
            leaf(Value::Array(vec![v]))
        } else {
            leaf(Value::Object(vec![Member {
                key: "x".into(),
                at: 0,
                value: v,
            }]))
        };
    }
    *target = v;
}

// ---- writing a tree back ---------------------------------------------------------------------

/// How [`write`] lays text out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// No whitespace, the minimal escapes (what the page writes).
    Compact,
    /// Random whitespace between tokens and random escapes inside strings (`\u` forms, surrogate
    /// pairs, `\/`): the same value, written differently.
    Random,
}

/// Writes `j` as JSON text. `Value::Number` is written as it stands, so a tree may carry any
/// number text (even one that is not JSON).
pub fn write(rng: &mut Rng, j: &Json, layout: Layout, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        if layout == Layout::Random && rng.chance(30) {
            let space = *rng.pick(&[" ", "\n", "\t", "\r\n", "  ", " \n\t "]);
            out.push_str(space);
        }
    };
    ws(rng, out);
    match &j.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => out.push_str(&n.to_string()),
        Value::Number(text) => out.push_str(text),
        Value::Str(s) => write_string(rng, s, layout, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(rng, item, layout, out);
            }
            ws(rng, out);
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, m) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                write_string(rng, &m.key, layout, out);
                ws(rng, out);
                out.push(':');
                write(rng, &m.value, layout, out);
            }
            ws(rng, out);
            out.push('}');
        }
    }
    ws(rng, out);
}

/// A string literal; in the random layout some characters are written as escapes.
pub fn write_string(rng: &mut Rng, s: &str, layout: Layout, out: &mut String) {
    if layout == Layout::Compact || rng.chance(50) {
        write_str(out, s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        let must = c == '"' || c == '\\' || (c as u32) < 0x20;
        if !must && !rng.chance(20) {
            out.push(c);
            continue;
        }
        match (c, rng.below(3)) {
            ('"', 0) => out.push_str("\\\""),
            ('\\', 0) => out.push_str("\\\\"),
            ('/', 0) => out.push_str("\\/"),
            ('\n', 0) => out.push_str("\\n"),
            ('\r', 0) => out.push_str("\\r"),
            ('\t', 0) => out.push_str("\\t"),
            ('\u{8}', 0) => out.push_str("\\b"),
            ('\u{c}', 0) => out.push_str("\\f"),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    if rng.chance(50) {
                        out.push_str(&format!("\\u{u:04x}"));
                    } else {
                        out.push_str(&format!("\\u{u:04X}"));
                    }
                }
            }
        }
    }
    out.push('"');
}

/// `j` as compact text.
pub fn compact(j: &Json) -> String {
    let mut out = String::new();
    write(&mut Rng::new(0), j, Layout::Compact, &mut out);
    out
}
