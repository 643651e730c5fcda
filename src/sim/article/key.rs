//! The `IdempotencyKey` newtype the article recommends: a key is not an order id or a request id,
//! and the type keeps them from being swapped.

use crate::sim::limits::{InputError, MAX_KEY_LEN};

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
    fn a_key_goes_where_the_article_takes_str() {
        let key = IdempotencyKey::new("order-1").expect("valid");
        let mut svc = super::super::IdempotentPaymentService::new(100);
        assert!(svc.charge(&key, 10, "x").is_success());
        assert!(svc.charge(&key, 10, "x").is_replay());
    }
}
