//! Interned identifiers: keys and descriptions are stored once and referred to by small ids, so
//! trace events stay `Copy`-sized and the hot path does not allocate per charge.

use crate::sim::base::pmap::PMap;
use crate::sim::base::pvec::PVec;
use crate::sim::limits::{InputError, Quantity};
use uuid::Uuid;

/// An interned idempotency key; `World::key_text` gives its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(pub u32);

/// A client operation: one `Request`, one `Operation` (all its attempts), or one request of a
/// `Parallel` input. Numbered from 0 in the order they start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub u32);

/// An interned charge description; `World::description_text` gives its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DescId(pub u32);

/// How a key is held: UUIDs as 16 bytes (formatted only when asked), other keys as text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum KeyRepr {
    Uuid(u128),
    Text(Box<str>),
    /// A key as one account's (issue 13: keys scoped by (account, key)); its text is the key's.
    Scoped(u32, KeyId),
}

/// The world's interner of keys and descriptions. Persistent tables: it grows with every key, and
/// copying a world must not copy it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Interner {
    keys: PVec<KeyRepr>,
    by_uuid: PMap<u128, KeyId>,
    by_text: PMap<Box<str>, KeyId>,
    descs: PVec<Box<str>>,
    desc_by_text: PMap<Box<str>, DescId>,
    empty_desc: Option<DescId>,
    scoped: PMap<(u32, u32), KeyId>,
}

fn next_id(len: usize) -> Result<u32, InputError> {
    u32::try_from(len).map_err(|_| InputError::Overflow {
        quantity: Quantity::Ids,
    })
}

impl Interner {
    /// The id of a minted UUID key.
    pub(super) fn uuid(&mut self, uuid: Uuid) -> Result<KeyId, InputError> {
        let bits = uuid.as_u128();
        if let Some(id) = self.by_uuid.get(&bits) {
            return Ok(*id);
        }
        let id = KeyId(next_id(self.keys.len())?);
        self.keys.push(KeyRepr::Uuid(bits));
        self.by_uuid.insert(bits, id);
        Ok(id)
    }

    /// The id of a key given as text. A canonical (lower-case, hyphenated) UUID maps to the same
    /// id as the minted key, so a learner can paste a minted key to retry it by hand.
    pub(super) fn text(&mut self, key: &str) -> Result<KeyId, InputError> {
        if let Ok(uuid) = Uuid::try_parse(key) {
            let mut buf = [0u8; 36];
            if uuid.hyphenated().encode_lower(&mut buf) == key {
                return self.uuid(uuid);
            }
        }
        if let Some(id) = self.by_text.get(key) {
            return Ok(*id);
        }
        let id = KeyId(next_id(self.keys.len())?);
        self.keys.push(KeyRepr::Text(key.into()));
        self.by_text.insert(key.into(), id);
        Ok(id)
    }

    /// The text of a key.
    pub(super) fn key_text(&self, id: KeyId) -> Option<String> {
        match self.keys.get(id.0 as usize)? {
            KeyRepr::Uuid(bits) => Some(Uuid::from_u128(*bits).hyphenated().to_string()),
            KeyRepr::Text(t) => Some(t.to_string()),
            KeyRepr::Scoped(_, key) => self.key_text(*key),
        }
    }

    /// The account a store key is scoped to (0 for a key not scoped to one).
    pub(super) fn key_account(&self, id: KeyId) -> u32 {
        match self.keys.get(id.0 as usize) {
            Some(KeyRepr::Scoped(account, _)) => *account,
            _ => 0,
        }
    }

    /// The id of `key` as account `account`'s: the store's key when keys are scoped to the
    /// account. Account 0 (the single account of old runs) keeps the key's own id.
    pub(super) fn scoped(&mut self, account: u32, key: KeyId) -> Result<KeyId, InputError> {
        if account == 0 {
            return Ok(key);
        }
        if let Some(id) = self.scoped.get(&(account, key.0)) {
            return Ok(*id);
        }
        let id = KeyId(next_id(self.keys.len())?);
        self.keys.push(KeyRepr::Scoped(account, key));
        self.scoped.insert((account, key.0), id);
        Ok(id)
    }

    /// The id of a description.
    pub(super) fn description(&mut self, text: &str) -> Result<DescId, InputError> {
        // The empty description is the default of every request: skip the map for it.
        if text.is_empty() {
            if let Some(id) = self.empty_desc {
                return Ok(id);
            }
        }
        if let Some(id) = self.desc_by_text.get(text) {
            return Ok(*id);
        }
        let id = DescId(next_id(self.descs.len())?);
        self.descs.push(text.into());
        self.desc_by_text.insert(text.into(), id);
        if text.is_empty() {
            self.empty_desc = Some(id);
        }
        Ok(id)
    }

    /// The text of a description.
    pub(super) fn description_text(&self, id: DescId) -> Option<&str> {
        self.descs.get(id.0 as usize).map(|d| &**d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_uuid_maps_to_minted_key() {
        let mut i = Interner::default();
        let u = Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        let minted = i.uuid(u).expect("id");
        let text = i.key_text(minted).expect("text");
        assert_eq!(i.text(&text).expect("id"), minted);
        // Upper case is a different key string, as in real APIs.
        assert_ne!(i.text(&text.to_uppercase()).expect("id"), minted);
        assert_eq!(
            i.text("order-1").expect("id"),
            i.text("order-1").expect("id")
        );
        assert_eq!(i.keys.len(), 3);
        assert_eq!(i.key_text(KeyId(99)), None);
    }

    #[test]
    fn descriptions_are_shared() {
        let mut i = Interner::default();
        let a = i.description("order").expect("id");
        assert_eq!(i.description("order").expect("id"), a);
        assert_eq!(i.description_text(a), Some("order"));
        let e = i.description("").expect("id");
        assert_eq!(i.description("").expect("id"), e);
        assert_ne!(e, a);
        assert_eq!(i.description_text(e), Some(""));
    }
}
