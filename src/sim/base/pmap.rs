//! A persistent hash map for the core's lookup tables: entries are split by hash over a fixed
//! number of shards behind `Rc`s, so cloning copies one pointer per shard and an insert copies
//! only its shard. Like [`super::pvec::PVec`], it keeps checkpoint copies of a world cheap (the
//! interner's maps grow with every key), without a full persistent trie.

use super::hash::{FxHashMap, FxHasher};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

const SHARDS: usize = 64;

/// A hash map whose clones share their shards until written (copy-on-write per shard).
pub(crate) struct PMap<K, V> {
    /// Empty until the first insert, then `SHARDS` maps.
    shards: Vec<Rc<FxHashMap<K, V>>>,
    len: usize,
}

/// The shard of a key. Bits 32.. of the hash: the shard's own table indexes by the low bits and
/// tags by the top 7, so every shard keeps a full spread of both.
fn shard_of<Q: Hash + ?Sized>(key: &Q) -> usize {
    let mut h = FxHasher::default();
    key.hash(&mut h);
    (h.finish() >> 32) as usize % SHARDS
}

impl<K: Hash + Eq, V> PMap<K, V> {
    /// The value of `key`, if any.
    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shards.get(shard_of(key))?.get(key)
    }

    /// Number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl<K: Hash + Eq + Clone, V: Clone> PMap<K, V> {
    /// Inserts or replaces; returns the old value. Copies the key's shard first if a clone
    /// shares it.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.shards.is_empty() {
            // One empty map shared by every shard until its first write.
            let empty = Rc::new(FxHashMap::default());
            self.shards = std::iter::repeat_n(empty, SHARDS).collect();
        }
        let shard = Rc::make_mut(&mut self.shards[shard_of(&key)]);
        let old = shard.insert(key, value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }
}

impl<K, V> Default for PMap<K, V> {
    fn default() -> Self {
        Self {
            shards: Vec::new(),
            len: 0,
        }
    }
}

impl<K, V> Clone for PMap<K, V> {
    /// Copies one pointer per shard; the entries are shared.
    fn clone(&self) -> Self {
        Self {
            shards: self.shards.clone(),
            len: self.len,
        }
    }
}

impl<K: Hash + Eq, V: PartialEq> PartialEq for PMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        // A key's shard depends only on the key, so equal maps have equal shards.
        self.len == other.len
            && (self.len == 0
                || self
                    .shards
                    .iter()
                    .zip(&other.shards)
                    .all(|(a, b)| Rc::ptr_eq(a, b) || a == b))
    }
}

impl<K: Hash + Eq, V: Eq> Eq for PMap<K, V> {}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for PMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.shards.iter().flat_map(|s| s.iter()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_and_clone_isolation() {
        let mut a: PMap<u128, u32> = PMap::default();
        assert_eq!(a.get(&1), None);
        for i in 0..1000u32 {
            assert_eq!(a.insert((u128::from(i) << 70) | u128::from(i), i), None);
        }
        assert_eq!(a.len(), 1000);
        let b = a.clone();
        assert_eq!(a.insert((5 << 70) | 5, 99), Some(5));
        assert_eq!(a.insert(1 << 100, 7), None);
        assert_eq!(a.get(&((5 << 70) | 5)), Some(&99));
        assert_eq!(
            b.get(&((5 << 70) | 5)),
            Some(&5),
            "the clone keeps its value"
        );
        assert_eq!(b.get(&(1 << 100)), None);
        assert_eq!((a.len(), b.len()), (1001, 1000));
        let shared = a.shards.iter().zip(&b.shards);
        assert!(
            shared.filter(|(x, y)| Rc::ptr_eq(x, y)).count() >= SHARDS - 2,
            "only the written shards were copied"
        );
        // Keys spread over the shards.
        assert!(b.shards.iter().all(|s| !s.is_empty()));
    }

    #[test]
    fn equality_by_content_and_borrowed_lookup() {
        let mut a: PMap<Box<str>, u32> = PMap::default();
        let mut b: PMap<Box<str>, u32> = PMap::default();
        assert_eq!(a, b);
        a.insert("x".into(), 1);
        a.insert("y".into(), 2);
        assert_ne!(a, b);
        b.insert("y".into(), 2);
        b.insert("x".into(), 1);
        assert_eq!(a, b, "insertion order does not matter");
        assert_eq!(a.get("x"), Some(&1));
        b.insert("x".into(), 3);
        assert_ne!(a, b);
        assert_eq!(format!("{:?}", b.clone()).len(), format!("{b:?}").len());
    }
}
