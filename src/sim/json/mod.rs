//! A small JSON codec, written out for the few formats this page reads and writes (the scenario,
//! the lab's saved state, the last run): a parser into [`Json`] that reports where it stopped, a
//! field reader that names the field in every error, and a compact writer that produces the same
//! bytes `serde_json::to_string` produced for these formats. Nothing here is generic over the
//! types it reads, so each format costs only its own code in the page.
//!
//! Numbers: the formats hold only whole numbers. An integer literal is kept as [`Value::Int`];
//! anything else (a fraction, an exponent, `-0`, more digits than fit) is kept as written in
//! [`Value::Number`] and refused by the field reader with the field's name.

use crate::sim::limits::{InputError, MAX_JSON_DEPTH};
use std::fmt::Write as _;

/// A parsed value and the byte offset where it starts in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json {
    /// Byte offset of the value's first character.
    pub at: usize,
    /// The value.
    pub value: Value,
}

/// A JSON value. Objects keep their members in document order, duplicates included (the field
/// reader refuses a duplicate of a field it reads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number written without fraction or exponent (`-0` excepted).
    Int(i128),
    /// Any other number, as written: `1.5`, `1e2`, `-0`, or an integer too long for `Int`.
    Number(String),
    /// A string, escapes decoded.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object's members in document order.
    Object(Vec<Member>),
}

/// One member of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The field name, escapes decoded.
    pub key: String,
    /// Byte offset of the field name's opening quote.
    pub at: usize,
    /// The value.
    pub value: Json,
}

/// Why text was not read: a message and the byte offset it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset in the text.
    pub at: usize,
    /// What was wrong, in English.
    pub message: String,
}

impl JsonError {
    fn new(at: usize, message: String) -> Self {
        Self { at, message }
    }

    /// The error as an [`InputError::JsonInvalid`], with the line and column of its offset in
    /// `text`.
    pub fn into_input_error(self, text: &str) -> InputError {
        let (line, column) = line_column(text, self.at);
        InputError::JsonInvalid {
            line,
            column,
            message: self.message,
        }
    }
}

/// The 1-based line and column (in characters) of byte offset `at` in `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = 1 + before.bytes().filter(|b| *b == b'\n').count();
    (line, 1 + before[line_start..].chars().count())
}

/// Parses one JSON value; only whitespace may follow it.
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let value = p.value()?;
    p.ws();
    if p.i < p.bytes.len() {
        return Err(p.unexpected("the end of the text after the JSON value"));
    }
    Ok(value)
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// What is at the current position, for messages.
    fn found(&self) -> String {
        match self.text[self.i..].chars().next() {
            None => "the end of the text".into(),
            Some(c) => format!("`{}`", c.escape_debug()),
        }
    }

    fn unexpected(&self, expected: &str) -> JsonError {
        JsonError::new(
            self.i,
            format!("expected {expected}, found {}", self.found()),
        )
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.ws();
        let at = self.i;
        let value = match self.peek() {
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(self.unexpected("a value")),
        };
        Ok(Json { at, value })
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_JSON_DEPTH {
            return Err(JsonError::new(
                self.i,
                format!("more than {MAX_JSON_DEPTH} arrays and objects are nested here"),
            ));
        }
        self.i += 1;
        Ok(())
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        self.enter()?;
        let mut members = Vec::new();
        self.ws();
        if !self.eat(b'}') {
            loop {
                self.ws();
                let at = self.i;
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected("a field name in double quotes"));
                }
                let key = self.string()?;
                self.ws();
                if !self.eat(b':') {
                    return Err(self.unexpected("`:` after the field name"));
                }
                let value = self.value()?;
                members.push(Member { key, at, value });
                self.ws();
                if self.eat(b'}') {
                    break;
                }
                if !self.eat(b',') {
                    return Err(self.unexpected("`,` or `}` after an object member"));
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Object(members))
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.enter()?;
        let mut items = Vec::new();
        self.ws();
        if !self.eat(b']') {
            loop {
                items.push(self.value()?);
                self.ws();
                if self.eat(b']') {
                    break;
                }
                if !self.eat(b',') {
                    return Err(self.unexpected("`,` or `]` after an array item"));
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(value)
        } else {
            // The letters there, so "nope" or "tru" is quoted back rather than a lone letter.
            let len = self.bytes[self.i..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count()
                .min(20);
            Err(JsonError::new(
                self.i,
                format!(
                    "expected a value, found `{}`",
                    &self.text[self.i..self.i + len]
                ),
            ))
        }
    }

    fn digits(&mut self) -> bool {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i > start
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        let negative = self.eat(b'-');
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return Err(JsonError::new(
                        start,
                        "a number must not start with 0 followed by more digits".into(),
                    ));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.unexpected("a digit after `-`")),
        }
        let int_end = self.i;
        let mut whole = true;
        if self.eat(b'.') {
            whole = false;
            if !self.digits() {
                return Err(self.unexpected("a digit after the decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            whole = false;
            self.i += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !self.digits() {
                return Err(self.unexpected("a digit in the exponent"));
            }
        }
        let text = &self.text[start..self.i];
        if whole {
            let digits = &self.text[start + usize::from(negative)..int_end];
            let magnitude = digits.bytes().try_fold(0i128, |n, d| {
                n.checked_mul(10)?.checked_add(i128::from(d - b'0'))
            });
            match magnitude {
                // `-0` is not the integer 0 (serde_json read it as a float).
                Some(0) if negative => {}
                Some(n) => return Ok(Value::Int(if negative { -n } else { n })),
                None => {}
            }
        }
        Ok(Value::Number(text.to_string()))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while matches!(self.peek(), Some(b) if b != b'"' && b != b'\\' && b >= 0x20) {
                self.i += 1;
            }
            // The run ends at an ASCII byte (or the end), so it is whole characters.
            out.push_str(&self.text[start..self.i]);
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(b) => {
                    return Err(JsonError::new(
                        self.i,
                        format!(
                            "control character U+{b:04X} inside a string (write it as an escape such as \\n or \\u{b:04x})"
                        ),
                    ))
                }
                None => {
                    return Err(JsonError::new(
                        open,
                        "this string has no closing `\"`".into(),
                    ))
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let at = self.i;
        self.i += 1;
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.i += 1;
                let first = self.hex4(at)?;
                let c = if (0xD800..0xDC00).contains(&first) {
                    // A high surrogate: only a low one may follow.
                    if !self.bytes[self.i..].starts_with(b"\\u") {
                        return Err(unpaired(at, first));
                    }
                    let second_at = self.i;
                    self.i += 2;
                    let second = self.hex4(second_at)?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(unpaired(at, first));
                    }
                    char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                } else {
                    char::from_u32(first)
                };
                // `None` only for a low surrogate on its own.
                out.push(c.ok_or_else(|| unpaired(at, first))?);
                return Ok(());
            }
            _ => {
                return Err(JsonError::new(
                    at,
                    format!(
                        "invalid escape: `\\` followed by {} (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                        self.found()
                    ),
                ))
            }
        };
        self.i += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self, escape_at: usize) -> Result<u32, JsonError> {
        let mut n = 0;
        for _ in 0..4 {
            let d = self.peek().and_then(|b| char::from(b).to_digit(16));
            let Some(d) = d else {
                return Err(JsonError::new(
                    escape_at,
                    "expected four hex digits after `\\u`".into(),
                ));
            };
            n = n * 16 + d;
            self.i += 1;
        }
        Ok(n)
    }
}

fn unpaired(at: usize, unit: u32) -> JsonError {
    JsonError::new(
        at,
        format!(
            "unpaired surrogate \\u{unit:04x} (a \\ud800-\\udbff escape must be followed by a \\udc00-\\udfff one)"
        ),
    )
}

/// The value as a message shows it: `null`, `true`, `12`, `"text"`, `an array`, `an object`.
fn shown(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Number(text) => text.clone(),
        Value::Str(s) if s.chars().count() > 40 => {
            format!("{:?}…", s.chars().take(40).collect::<String>())
        }
        Value::Str(s) => format!("{s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// `a`, `b`, `c` — for messages listing the accepted names.
fn listed(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// A value found in a document, with what it is (for messages): a field of an object, an item of
/// an array, or the whole document.
#[derive(Debug, Clone, Copy)]
pub struct Got<'j, 'c> {
    /// The value.
    pub json: &'j Json,
    name: &'c str,
    ctx: &'c str,
    /// 1-based position in the array `name` (0: not an array item).
    index: usize,
}

impl<'j, 'c> Got<'j, 'c> {
    /// A value described as `what` ("the scenario", "input 3").
    pub fn new(json: &'j Json, what: &'c str) -> Self {
        Self {
            json,
            name: "",
            ctx: what,
            index: 0,
        }
    }

    /// How messages name the value: "`seed`", "`amount` in input 3", "item 2 of `faults` in
    /// input 3", "input 3".
    pub fn describe(&self) -> String {
        let field = match (self.name.is_empty(), self.index) {
            (true, _) => return self.ctx.to_string(),
            (false, 0) => format!("`{}`", self.name),
            (false, i) => format!("item {i} of `{}`", self.name),
        };
        if self.ctx.is_empty() {
            field
        } else {
            format!("{field} in {}", self.ctx)
        }
    }

    /// An error about this value: "<describe> must be <expected>, found <value>".
    pub fn expected(&self, expected: &str) -> JsonError {
        JsonError::new(
            self.json.at,
            format!(
                "{} must be {expected}, found {}",
                self.describe(),
                shown(&self.json.value)
            ),
        )
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.json.value == Value::Null
    }

    /// A whole number in `min..=max` (the field's type; the scenario's own limits, such as
    /// amounts of 1 to 99,999,999, are checked afterwards with their own messages).
    fn int(&self, min: i128, max: i128) -> Result<i128, JsonError> {
        let digits = |t: &str| {
            let t = t.strip_prefix('-').unwrap_or(t);
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        };
        match &self.json.value {
            Value::Int(n) if (min..=max).contains(n) => Ok(*n),
            Value::Int(n) if *n < 0 && min == 0 => {
                Err(self.expected("a whole number, not negative"))
            }
            Value::Int(n) if *n < min => Err(self.expected(&format!("at least {min}"))),
            Value::Int(_) => Err(self.expected(&format!("at most {max}"))),
            // An integer too long to hold, "-0" aside.
            Value::Number(t) if digits(t) && t != "-0" => {
                Err(self.expected(&if t.starts_with('-') {
                    format!("at least {min}")
                } else {
                    format!("at most {max}")
                }))
            }
            _ => Err(self.expected("a whole number")),
        }
    }

    /// A whole number in `0..=u64::MAX`.
    pub fn u64(&self) -> Result<u64, JsonError> {
        self.int(0, u64::MAX.into()).map(|n| n as u64)
    }

    /// A whole number in `i64::MIN..=i64::MAX`.
    pub fn i64(&self) -> Result<i64, JsonError> {
        self.int(i64::MIN.into(), i64::MAX.into()).map(|n| n as i64)
    }

    /// A whole number in `0..=u32::MAX`.
    pub fn u32(&self) -> Result<u32, JsonError> {
        self.int(0, u32::MAX.into()).map(|n| n as u32)
    }

    /// A whole number in `0..=usize::MAX` (32 bits in the browser).
    pub fn usize(&self) -> Result<usize, JsonError> {
        self.int(0, usize::MAX as i128).map(|n| n as usize)
    }

    /// `true` or `false`.
    pub fn bool(&self) -> Result<bool, JsonError> {
        match self.json.value {
            Value::Bool(b) => Ok(b),
            _ => Err(self.expected("true or false")),
        }
    }

    /// A string.
    pub fn str(&self) -> Result<&'j str, JsonError> {
        match &self.json.value {
            Value::Str(s) => Ok(s),
            _ => Err(self.expected("a string")),
        }
    }

    /// A string, owned.
    pub fn string(&self) -> Result<String, JsonError> {
        self.str().map(str::to_string)
    }

    /// A string that is one of `names`; its index there.
    pub fn one_of(&self, names: &[&str]) -> Result<usize, JsonError> {
        let s = self.str();
        s.ok()
            .and_then(|s| names.iter().position(|n| *n == s))
            .ok_or_else(|| self.expected(&format!("one of {}", listed(names))))
    }

    /// A string naming one of `all` (by `id`, its name in the JSON); that value.
    pub fn pick<T: Copy, const N: usize>(
        &self,
        all: [T; N],
        id: fn(T) -> &'static str,
    ) -> Result<T, JsonError> {
        Ok(all[self.one_of(&all.map(id))?])
    }

    /// An array's items, each described as item i of this field.
    pub fn items(&self) -> Result<impl Iterator<Item = Got<'j, 'c>>, JsonError> {
        let (name, ctx) = (self.name, self.ctx);
        match &self.json.value {
            Value::Array(items) => Ok(items.iter().enumerate().map(move |(i, json)| Got {
                json,
                name,
                ctx,
                index: i + 1,
            })),
            _ => Err(self.expected("an array")),
        }
    }

    /// An array's items as plain values.
    pub fn array(&self) -> Result<&'j [Json], JsonError> {
        match &self.json.value {
            Value::Array(items) => Ok(items),
            _ => Err(self.expected("an array")),
        }
    }

    /// An object, to read by field; `what` names it in messages about its fields.
    pub fn fields<'w>(&self, what: &'w str) -> Result<Fields<'j, 'w>, JsonError> {
        match &self.json.value {
            Value::Object(members) => Ok(Fields {
                members,
                used: vec![false; members.len()],
                at: self.json.at,
                ctx: what,
            }),
            _ => Err(self.expected("an object")),
        }
    }
}

/// An object being read field by field. Each field may be read once; a second member with the
/// name of a field read is an error ("duplicate field"), as are, with [`Fields::deny_unknown`],
/// the members never read.
pub struct Fields<'j, 'c> {
    members: &'j [Member],
    used: Vec<bool>,
    at: usize,
    ctx: &'c str,
}

impl<'j, 'c> Fields<'j, 'c> {
    fn in_ctx(&self) -> String {
        if self.ctx.is_empty() {
            String::new()
        } else {
            format!(" in {}", self.ctx)
        }
    }

    /// The field `name`, if present.
    pub fn opt(&mut self, name: &'c str) -> Result<Option<Got<'j, 'c>>, JsonError> {
        let mut found = None;
        for (i, m) in self.members.iter().enumerate() {
            if m.key == name {
                if found.is_some() {
                    return Err(JsonError::new(
                        m.at,
                        format!("duplicate field `{name}`{}", self.in_ctx()),
                    ));
                }
                self.used[i] = true;
                found = Some(&m.value);
            }
        }
        Ok(found.map(|json| Got {
            json,
            name,
            ctx: self.ctx,
            index: 0,
        }))
    }

    /// The field `name`; an error if it is missing.
    pub fn req(&mut self, name: &'c str) -> Result<Got<'j, 'c>, JsonError> {
        self.opt(name)?.ok_or_else(|| {
            JsonError::new(self.at, format!("missing field `{name}`{}", self.in_ctx()))
        })
    }

    /// The whole number `name` in `0..=u64::MAX`, or `default` if it is missing.
    pub fn opt_u64(&mut self, name: &'c str, default: u64) -> Result<u64, JsonError> {
        self.opt(name)?.map_or(Ok(default), |g| g.u64())
    }

    /// The boolean `name`, or `default` if it is missing.
    pub fn opt_bool(&mut self, name: &'c str, default: bool) -> Result<bool, JsonError> {
        self.opt(name)?.map_or(Ok(default), |g| g.bool())
    }

    /// The string `name`, or an empty one if it is missing.
    pub fn opt_string(&mut self, name: &'c str) -> Result<String, JsonError> {
        self.opt(name)?.map_or(Ok(String::new()), |g| g.string())
    }

    /// An error for the first member that is neither read yet nor one of the fields `expected`
    /// (which the message lists). Called before the fields are read, so a misspelt field is
    /// reported as unknown rather than as the correct one missing.
    pub fn deny_unknown(&self, expected: &[&str]) -> Result<(), JsonError> {
        let unknown = |(m, used): (&Member, &bool)| !used && !expected.contains(&m.key.as_str());
        match self.members.iter().zip(&self.used).position(unknown) {
            None => Ok(()),
            Some(i) => {
                let m = &self.members[i];
                Err(JsonError::new(
                    m.at,
                    format!(
                        "unknown field `{}`{}, expected {}",
                        m.key.escape_debug(),
                        self.in_ctx(),
                        if expected.is_empty() {
                            "no other field".to_string()
                        } else {
                            format!("one of {}", listed(expected))
                        }
                    ),
                ))
            }
        }
    }
}

/// Appends `s` as a JSON string, escaped as serde_json escapes: `"`, `\` and the control
/// characters U+0000..=U+001F (as `\b \t \n \f \r` or `\u00XX`); everything else, `/` and
/// non-ASCII included, as is.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Writes an object's members in the order given: `{"a":1,"b":"x"}`.
pub struct ObjectWriter<'o> {
    out: &'o mut String,
    empty: bool,
}

impl<'o> ObjectWriter<'o> {
    /// Opens an object.
    pub fn new(out: &'o mut String) -> Self {
        out.push('{');
        Self { out, empty: true }
    }

    /// Writes `"name":` and returns the text to write the value into.
    pub fn key(&mut self, name: &str) -> &mut String {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        write_str(self.out, name);
        self.out.push(':');
        self.out
    }

    /// A string member.
    pub fn str(&mut self, name: &str, value: &str) {
        write_str(self.key(name), value);
    }

    /// An unsigned integer member.
    pub fn u64(&mut self, name: &str, value: u64) {
        let _ = write!(self.key(name), "{value}");
    }

    /// A signed integer member.
    pub fn i64(&mut self, name: &str, value: i64) {
        let _ = write!(self.key(name), "{value}");
    }

    /// A boolean member.
    pub fn bool(&mut self, name: &str, value: bool) {
        self.key(name)
            .push_str(if value { "true" } else { "false" });
    }

    /// An array member: `"name":[...]`, each item written by `write`.
    pub fn array<T>(&mut self, name: &str, items: &[T], mut write: impl FnMut(&mut String, &T)) {
        let out = self.key(name);
        out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write(out, item);
        }
        out.push(']');
    }

    /// Closes the object.
    pub fn end(self) {
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        parse(text).expect(text).value
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = parse(text).expect_err(text);
        let (line, column) = line_column(text, e.at);
        (line, column, e.message)
    }

    fn s(text: &str) -> String {
        match value(text) {
            Value::Str(s) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(value(" null "), Value::Null);
        assert_eq!(value("true"), Value::Bool(true));
        assert_eq!(value("\n\tfalse\r\n"), Value::Bool(false));
        assert_eq!(value("0"), Value::Int(0));
        assert_eq!(value("-12"), Value::Int(-12));
        assert_eq!(value("18446744073709551615"), Value::Int(u64::MAX.into()));
        assert_eq!(value("-9223372036854775808"), Value::Int(i64::MIN.into()));
        for other in ["1.5", "1.0", "1e2", "1E-2", "-0", "-0.0", "1e+3"] {
            assert_eq!(value(other), Value::Number(other.into()), "{other}");
        }
        let long = "9".repeat(45);
        assert_eq!(value(&long), Value::Number(long.clone()));
    }

    #[test]
    fn string_escapes_and_surrogates() {
        assert_eq!(
            s(r#""\"\\\/\b\f\n\r\t\u0000\u00e9\u00E9""#),
            "\"\\/\u{8}\u{c}\n\r\t\u{0}éé"
        );
        assert_eq!(s(r#""\ud83d\ude00""#), "😀");
        assert_eq!(s(r#""\uD83D\uDE00x""#), "😀x");
        assert_eq!(s("\"日本語 \u{7f}\""), "日本語 \u{7f}");
        assert_eq!(s(r#""""#), "");
        for lone in [
            r#""\ud800""#,
            r#""\ud800x""#,
            r#""\ud800\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
        ] {
            let (_, col, msg) = error(lone);
            assert_eq!(col, 2, "{lone}");
            assert!(msg.contains("unpaired surrogate"), "{msg}");
        }
        assert!(error(r#""\u12""#).2.contains("four hex digits"));
        assert!(error(r#""\uZZZZ""#).2.contains("four hex digits"));
        assert!(error(r#""\q""#).2.contains("invalid escape"));
        assert!(error("\"\\").2.contains("invalid escape"));
        let (line, col, msg) = error("\"a\tb\"");
        assert_eq!((line, col), (1, 3));
        assert!(msg.contains("U+0009"), "{msg}");
        assert!(error("\"abc").2.contains("no closing"));
    }

    #[test]
    fn objects_keep_order_and_duplicates() {
        let Value::Object(members) = value(r#"{"b":1,"a":[true,{}],"b":2}"#) else {
            panic!("object");
        };
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(members[1].at, 7);
        assert_eq!(
            members[1].value.value,
            Value::Array(vec![
                Json {
                    at: 12,
                    value: Value::Bool(true)
                },
                Json {
                    at: 17,
                    value: Value::Object(vec![])
                }
            ])
        );
    }

    #[test]
    fn syntax_errors_say_where() {
        let cases: [(&str, (usize, usize), &str); 17] = [
            ("", (1, 1), "expected a value, found the end"),
            ("  ", (1, 3), "expected a value"),
            ("{", (1, 2), "expected a field name"),
            ("{\"a\" 1}", (1, 6), "expected `:`"),
            ("{\"a\":1 \"b\":2}", (1, 8), "expected `,` or `}`"),
            ("{\"a\":1,}", (1, 8), "expected a field name"),
            ("[1 2]", (1, 4), "expected `,` or `]`"),
            ("[1,]", (1, 4), "expected a value"),
            (
                "{\n  \"a\": tru\n}",
                (2, 8),
                "expected a value, found `tru`",
            ),
            ("not json", (1, 1), "expected a value, found `not`"),
            ("{'a':1}", (1, 2), "expected a field name"),
            ("01", (1, 1), "must not start with 0"),
            ("-", (1, 2), "a digit after `-`"),
            ("1.", (1, 3), "after the decimal point"),
            ("1e+", (1, 4), "in the exponent"),
            ("{} x", (1, 4), "expected the end of the text"),
            ("\u{feff}{}", (1, 1), "found `\\u{feff}`"),
        ];
        for (text, at, msg) in cases {
            let (line, col, message) = error(text);
            assert_eq!((line, col), at, "{text:?}: {message}");
            assert!(message.contains(msg), "{text:?}: {message}");
        }
        // Columns count characters, not bytes.
        assert_eq!(error("\"日本\" x").1, 6);
        assert_eq!(error("[\r\n1,\r\n x]").0, 3);
    }

    #[test]
    fn nesting_is_limited() {
        let ok = format!(
            "{}{}",
            "[".repeat(MAX_JSON_DEPTH),
            "]".repeat(MAX_JSON_DEPTH)
        );
        assert!(parse(&ok).is_ok());
        let deep = format!("[{ok}]");
        let (_, col, msg) = error(&deep);
        assert_eq!(col, MAX_JSON_DEPTH + 1);
        assert!(msg.contains("nested"), "{msg}");
        let objects = format!(
            "{}1{}",
            "{\"a\":".repeat(MAX_JSON_DEPTH + 1),
            "}".repeat(MAX_JSON_DEPTH + 1)
        );
        assert!(parse(&objects).is_err());
        // Far deeper text is refused without exhausting the stack.
        assert!(parse(&"[".repeat(1_000_000)).is_err());
    }

    #[test]
    fn field_reader_messages() {
        let doc = parse(r#"{"n":1.5,"m":-1,"s":"x","b":null,"d":1,"d":2,"x":0}"#).unwrap();
        let top = Got::new(&doc, "the scenario");
        let mut f = top.fields("").unwrap();
        let n = f.req("n").unwrap();
        assert_eq!(
            n.u64().unwrap_err().message,
            "`n` must be a whole number, found 1.5"
        );
        assert_eq!(
            f.req("m").unwrap().u64().unwrap_err().message,
            "`m` must be a whole number, not negative, found -1"
        );
        assert_eq!(f.req("m").unwrap().i64(), Ok(-1));
        let huge =
            parse("[123456789012345678901234567890,-123456789012345678901234567890,-0]").unwrap();
        let items: Vec<String> = Got::new(&huge, "x")
            .items()
            .unwrap()
            .map(|g| g.i64().unwrap_err().message)
            .collect();
        assert_eq!(
            items,
            [
                "x must be at most 9223372036854775807, found 123456789012345678901234567890",
                "x must be at least -9223372036854775808, found -123456789012345678901234567890",
                "x must be a whole number, found -0",
            ]
        );
        assert_eq!(
            f.req("s").unwrap().one_of(&["a", "b"]).unwrap_err().message,
            "`s` must be one of `a`, `b`, found \"x\""
        );
        assert!(f.req("b").unwrap().is_null());
        assert_eq!(f.req("d").unwrap_err().message, "duplicate field `d`");
        assert_eq!(f.req("zz").unwrap_err().message, "missing field `zz`");
        let e = f.deny_unknown(&["n", "m"]).unwrap_err();
        assert_eq!(e.message, "unknown field `d`, expected one of `n`, `m`");
        let mut inner = Got::new(&doc, "").fields("input 3").unwrap();
        assert_eq!(
            inner.req("q").unwrap_err().message,
            "missing field `q` in input 3"
        );
        assert_eq!(
            inner.req("s").unwrap().u32().unwrap_err().message,
            "`s` in input 3 must be a whole number, found \"x\""
        );
        assert_eq!(
            top.u64().unwrap_err().message,
            "the scenario must be a whole number, found an object"
        );
        let arr = parse("[1,\"a\"]").unwrap();
        let list = Got::new(&arr, "").fields("x");
        assert!(list.is_err());
    }

    #[test]
    fn writer_escapes_like_serde_json() {
        let mut out = String::new();
        write_str(
            &mut out,
            "q\" b\\ /s \u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f}\u{7f} é 😀 \u{2028}",
        );
        assert_eq!(
            out,
            r#""q\" b\\ /s \u0000\u0001\b\t\n\u000b\f\r\u001f"#.to_string()
                + "\u{7f} é 😀 \u{2028}\""
        );
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.u64("a", u64::MAX);
        o.i64("b", i64::MIN);
        o.bool("c", false);
        o.str("d", "");
        o.key("e").push_str("[]");
        o.end();
        assert_eq!(
            out,
            r#"{"a":18446744073709551615,"b":-9223372036854775808,"c":false,"d":"","e":[]}"#
        );
        let mut empty = String::new();
        ObjectWriter::new(&mut empty).end();
        assert_eq!(empty, "{}");
    }

    #[test]
    fn written_strings_read_back() {
        let all: String = (0u32..0x800)
            .chain([0xfffe, 0x1f600, 0x10ffff])
            .filter_map(char::from_u32)
            .collect();
        let mut out = String::new();
        write_str(&mut out, &all);
        assert_eq!(s(&out), all);
    }
}
