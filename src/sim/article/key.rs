//! The `IdempotencyKey` newtype the article recommends: a key is not an order id or a request id,
//! and the type keeps them from being swapped.

use crate::sim::limits::{InputError, KEY_CHARS, MAX_KEY_LEN};

/// A validated idempotency key: 1..=`MAX_KEY_LEN` characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Validates and wraps a key.
    pub fn new(key: impl Into<String>) -> Result<Self, InputError> {
        let key = key.into();
        validate_key(&key)?;
        Ok(Self(key))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Unwraps the key.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Checks a key's length without allocating: non-empty and at most `MAX_KEY_LEN` characters.
pub fn validate_key(key: &str) -> Result<(), InputError> {
    if key.is_empty() {
        return Err(InputError::KeyEmpty);
    }
    // A character is at least one byte, so short byte strings need no count.
    if key.len() <= MAX_KEY_LEN {
        return Ok(());
    }
    let len = key.chars().count();
    if len <= MAX_KEY_LEN {
        Ok(())
    } else {
        Err(InputError::KeyTooLong {
            len,
            max: MAX_KEY_LEN,
        })
    }
}

/// The IETF draft's rule for a key on the wire (draft-ietf-httpapi-idempotency-key-header, 2.1:
/// "Its value MUST be a String", RFC 8941 section 3.3.3): every character within [`KEY_CHARS`],
/// printable ASCII. The article's [`IdempotencyKey`] and the world take any text of the right
/// length (a run read from an old link keeps its keys); a key the learner types is checked by
/// [`validate_header_key`].
pub fn check_key_chars(key: &str) -> Result<(), InputError> {
    for (i, c) in key.chars().enumerate() {
        if !KEY_CHARS.contains(&c) {
            return Err(InputError::KeyNotSfString {
                at: i + 1,
                code: c.into(),
            });
        }
    }
    Ok(())
}

/// A key the learner types, as the draft's header carries it: its length ([`validate_key`]),
/// then its characters ([`check_key_chars`]).
pub fn validate_header_key(key: &str) -> Result<(), InputError> {
    validate_key(key)?;
    check_key_chars(key)
}

/// The key as the `Idempotency-Key` header's value: an RFC 8941 sf-string, in double quotes with
/// `"` and `\` escaped by a backslash (RFC 8941 section 4.1.6); an error for a key with a
/// character an sf-string cannot hold.
pub fn sf_string(key: &str) -> Result<String, InputError> {
    check_key_chars(key)?;
    let mut out = String::with_capacity(key.len() + 2);
    out.push('"');
    for c in key.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Ok(out)
}

impl TryFrom<&str> for IdempotencyKey {
    type Error = InputError;
    fn try_from(key: &str) -> Result<Self, InputError> {
        Self::new(key)
    }
}

impl TryFrom<String> for IdempotencyKey {
    type Error = InputError;
    fn try_from(key: String) -> Result<Self, InputError> {
        Self::new(key)
    }
}

// Lets a key be passed where the article's services take `&str`: `svc.charge(&key, ...)`.
impl std::ops::Deref for IdempotencyKey {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for IdempotencyKey {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_one_to_max_characters() {
        assert!(IdempotencyKey::new("k").is_ok());
        assert!(IdempotencyKey::new("k".repeat(MAX_KEY_LEN)).is_ok());
        // Multi-byte characters count as one each.
        assert!(IdempotencyKey::new("鍵".repeat(MAX_KEY_LEN)).is_ok());
    }

    #[test]
    fn rejects_empty_and_long_keys() {
        assert_eq!(IdempotencyKey::new(""), Err(InputError::KeyEmpty));
        assert_eq!(
            IdempotencyKey::new("k".repeat(MAX_KEY_LEN + 1)),
            Err(InputError::KeyTooLong {
                len: MAX_KEY_LEN + 1,
                max: MAX_KEY_LEN
            })
        );
    }

    #[test]
    fn a_header_key_is_printable_ascii_and_the_error_names_the_character() {
        for key in [
            "8e03978e-40d5-43e8-bc93-6894a57f9324",
            "clkyoesmbgybucifusbbtdsbohtyuuwz",
            " ~!\"#\\ order 1",
        ] {
            assert_eq!(validate_header_key(key), Ok(()), "{key}");
        }
        assert_eq!(
            validate_header_key("order-é"),
            Err(InputError::KeyNotSfString { at: 7, code: 0xE9 })
        );
        assert_eq!(
            validate_header_key("鍵"),
            Err(InputError::KeyNotSfString {
                at: 1,
                code: 0x9375
            })
        );
        assert_eq!(
            validate_header_key("a\tb"),
            Err(InputError::KeyNotSfString { at: 2, code: 9 })
        );
        assert_eq!(
            validate_header_key("a\u{7f}"),
            Err(InputError::KeyNotSfString { at: 2, code: 0x7F })
        );
        // Length first: an empty or long key is told so, whatever its characters.
        assert_eq!(validate_header_key(""), Err(InputError::KeyEmpty));
        assert!(matches!(
            validate_header_key(&"é".repeat(MAX_KEY_LEN + 1)),
            Err(InputError::KeyTooLong { .. })
        ));
        // The article's key type keeps its own rule: any text of the right length.
        assert!(IdempotencyKey::new("鍵").is_ok());
    }

    #[test]
    fn a_header_key_is_sent_quoted_with_quote_and_backslash_escaped() {
        assert_eq!(
            sf_string("8e03978e-40d5-43e8-bc93-6894a57f9324").as_deref(),
            Ok("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"")
        );
        assert_eq!(
            sf_string(r#"say "hi" \ bye"#).as_deref(),
            Ok(r#""say \"hi\" \\ bye""#)
        );
        assert_eq!(
            sf_string("ü"),
            Err(InputError::KeyNotSfString { at: 1, code: 0xFC })
        );
    }

    #[test]
    fn a_key_goes_where_the_article_takes_str() {
        let key = IdempotencyKey::new("order-1").expect("valid");
        let mut svc = super::super::IdempotentPaymentService::new(100);
        assert!(svc.charge(&key, 10, "x").is_success());
        assert!(svc.charge(&key, 10, "x").is_replay());
    }
}
