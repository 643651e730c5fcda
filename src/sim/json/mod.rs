//! A small JSON codec, written out for the few formats this page reads and writes (the scenario,
//! the lab's saved state, the last run): a parser into [`Json`] that reports where it stopped, a
//! field reader that names the field in every error, and a compact writer that produces the same
//! bytes `serde_json::to_string` produced for these formats. Nothing here is generic over the
//! types it reads, so each format costs only its own code in the page.
//!
//! Numbers: the formats hold only whole numbers. An integer literal is kept as [`Value::Int`];
//! anything else (a fraction, an exponent, `-0`, more digits than fit) is kept as written in
//! [`Value::Number`] and refused by the field reader with the field's name.

mod parse;
mod read;
mod write;

pub use parse::parse;
pub use read::{Fields, Got};
pub use write::{write_str, ObjectWriter};

use crate::sim::limits::InputError;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::limits::MAX_JSON_DEPTH;

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
