//! The field reader: a parsed document read field by field, each error naming the field (unknown,
//! missing, duplicate, wrong type or out of range) and where it is.

use super::{Json, JsonError, Member, Value};

/// The value as a message shows it: `null`, `true`, `12`, `"text"`, `an array`, `an object`.
fn shown(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Number(text) => text.clone(),
        // As JSON writes it (quotes, escapes), cut at 40 characters.
        Value::Str(s) => {
            let mut out = String::new();
            match s.char_indices().nth(40) {
                Some((cut, _)) => {
                    super::write_str(&mut out, &s[..cut]);
                    out.push('…');
                }
                None => super::write_str(&mut out, s),
            }
            out
        }
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
                        "unknown field {}{}, expected {}",
                        super::write::quoted(&m.key),
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
