//! The writer: compact JSON with the bytes `serde_json::to_string` produced for these formats.

use std::fmt::Write as _;

/// `s` between backticks for a message, with the characters one cannot see written as
/// `\u{hex}`: control characters, whitespace other than the space, zero-width characters and
/// the byte order mark. (Not `str::escape_debug`, whose Unicode tables a page would carry.)
pub fn quoted(s: &str) -> String {
    let mut out = String::from("`");
    for c in s.chars() {
        let unseen = c.is_control()
            || (c.is_whitespace() && c != ' ')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}');
        if unseen {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
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
