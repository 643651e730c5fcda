//! The parser: text into a [`Json`] tree, with the byte offset of every value and of the first
//! error, and a nesting limit so the recursive descent cannot exhaust the stack.

use super::{Json, JsonError, Member, Value};
use crate::sim::limits::MAX_JSON_DEPTH;

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
            Some(c) => super::write::quoted(c.encode_utf8(&mut [0; 4])),
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
