//! A persistent vector: elements in fixed-size chunks behind `Rc`s, so cloning copies one pointer
//! per chunk and a write copies only the chunk it lands in. It exists for cheap checkpoint copies:
//! the playground steps back by cloning saved worlds and replaying a few steps, and a world's
//! append-mostly tables (trace, store rows, ledger, client operations, ...) would otherwise make
//! every copy cost as much as the whole run so far.
//!
//! Only full chunks are shared; the last `len % CHUNK` elements (the tail) are owned, so pushes
//! and writes to recent elements, the hot path of a running world, cost what they cost in a
//! `Vec`, and a clone copies at most `CHUNK - 1` elements. The layout depends only on the length,
//! so vectors with equal contents are chunked alike whatever their history.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{Bound, Index, IndexMut, RangeBounds};
use std::rc::Rc;

const SHIFT: u32 = 7;
/// Elements per chunk.
pub const CHUNK: usize = 1 << SHIFT;
const MASK: usize = CHUNK - 1;

/// A vector whose clones share their full chunks until written (copy-on-write per chunk).
pub struct PVec<T> {
    /// Full chunks (`CHUNK` elements each), shared between clones.
    chunks: Vec<Rc<Vec<T>>>,
    /// The elements after the full chunks: fewer than `CHUNK`, owned.
    tail: Vec<T>,
}

impl<T> PVec<T> {
    /// An empty vector (allocates nothing).
    pub const fn new() -> Self {
        Self {
            chunks: Vec::new(),
            tail: Vec::new(),
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        (self.chunks.len() << SHIFT) + self.tail.len()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty() && self.tail.is_empty()
    }

    /// The element at `index`, if any.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        match self.chunks.get(index >> SHIFT) {
            Some(chunk) => chunk.get(index & MASK),
            // Past the full chunks, so the subtraction cannot underflow.
            None => self.tail.get(index - (self.chunks.len() << SHIFT)),
        }
    }

    /// The first element.
    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    /// The last element.
    #[inline]
    pub fn last(&self) -> Option<&T> {
        match self.tail.last() {
            Some(x) => Some(x),
            None => self.chunks.last().and_then(|c| c.last()),
        }
    }

    /// All elements, in order.
    pub fn iter(&self) -> Iter<'_, T> {
        self.range(..)
    }

    /// Block `b`: full chunk `b`, or the tail after the last full chunk.
    fn block(&self, b: usize) -> &[T] {
        match self.chunks.get(b) {
            Some(chunk) => chunk,
            None => &self.tail,
        }
    }

    /// The elements in `range`; panics, like slicing, when it is out of bounds.
    pub fn range(&self, range: impl RangeBounds<usize>) -> Iter<'_, T> {
        let len = self.len();
        let start = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.saturating_add(1),
            Bound::Excluded(&e) => e,
            Bound::Unbounded => len,
        };
        assert!(
            start <= end && end <= len,
            "range {start}..{end} out of bounds for a PVec of length {len}"
        );
        if start == end {
            return Iter {
                chunks: [].iter(),
                front: [].iter(),
                back: [].iter(),
                len: 0,
            };
        }
        let (first, last) = (start >> SHIFT, (end - 1) >> SHIFT);
        let (from, to) = (start & MASK, ((end - 1) & MASK) + 1);
        if first == last {
            return Iter {
                chunks: [].iter(),
                front: self.block(first)[from..to].iter(),
                back: [].iter(),
                len: end - start,
            };
        }
        Iter {
            // Blocks strictly before `last` are full chunks.
            chunks: self.chunks[first + 1..last].iter(),
            front: self.block(first)[from..].iter(),
            back: self.block(last)[..to].iter(),
            len: end - start,
        }
    }

    /// The index of the first element for which `pred` is false, the elements being partitioned
    /// by it (true first), like `slice::partition_point`: a binary search.
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let b = self
            .chunks
            .partition_point(|c| c.last().is_some_and(&mut pred));
        (b << SHIFT) + self.block(b).partition_point(pred)
    }

    /// The elements from `start` on; empty when `start` is past the end.
    #[inline]
    pub fn iter_from(&self, start: usize) -> Iter<'_, T> {
        let full = self.chunks.len() << SHIFT;
        if start < full {
            return self.range(start..);
        }
        // Within the tail (the common case: the events of the step just taken).
        let front = self.tail.get(start - full..).unwrap_or(&[]);
        Iter {
            chunks: [].iter(),
            front: front.iter(),
            back: [].iter(),
            len: front.len(),
        }
    }
}

impl<T: Clone> PVec<T> {
    /// Appends an element.
    #[inline]
    pub fn push(&mut self, value: T) {
        if self.tail.len() == self.tail.capacity() {
            self.grow_tail();
        }
        self.tail.push(value);
        if self.tail.len() == CHUNK {
            self.seal_tail();
        }
    }

    /// Room in a fresh or cloned tail for the rest of its chunk, at once.
    #[inline(never)]
    fn grow_tail(&mut self) {
        self.tail.reserve_exact(CHUNK - self.tail.len());
    }

    /// Moves a full tail into the shared chunks.
    #[inline(never)]
    fn seal_tail(&mut self) {
        let full = std::mem::take(&mut self.tail);
        self.chunks.push(Rc::new(full));
    }

    /// The element at `index`, for writing (copies its chunk first if a clone shares it).
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let full = self.chunks.len() << SHIFT;
        match self.chunks.get_mut(index >> SHIFT) {
            Some(chunk) => unique(chunk).get_mut(index & MASK),
            None => self.tail.get_mut(index - full),
        }
    }

    /// The last element, for writing.
    pub fn last_mut(&mut self) -> Option<&mut T> {
        if !self.tail.is_empty() {
            return self.tail.last_mut();
        }
        self.chunks.last_mut().and_then(|c| unique(c).last_mut())
    }

    /// Keeps the first `len` elements (no-op when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        let full = self.chunks.len() << SHIFT;
        if len >= full {
            self.tail.truncate(len - full);
            return;
        }
        // The chunk holding the new last element becomes the tail.
        self.chunks.truncate(len.div_ceil(CHUNK));
        self.tail = Vec::new();
        if len & MASK != 0 {
            if let Some(last) = self.chunks.pop() {
                let mut tail = Rc::try_unwrap(last).unwrap_or_else(|shared| (*shared).clone());
                tail.truncate(len & MASK);
                self.tail = tail;
            }
        }
    }

    /// Removes and returns the element at `index`, shifting the later ones down. Like
    /// `Vec::remove` it is O(len - index); it also unshares the chunks from `index` on.
    pub fn remove(&mut self, index: usize) -> T {
        let len = self.len();
        assert!(
            index < len,
            "remove index {index} out of bounds for a PVec of length {len}"
        );
        let tail: Vec<T> = self.iter_from(index + 1).cloned().collect();
        let removed = self[index].clone();
        self.truncate(index);
        self.extend(tail);
        removed
    }

    /// Grows to `len` with copies of `value`, or shrinks to `len`.
    pub fn resize(&mut self, len: usize, value: T) {
        if len <= self.len() {
            return self.truncate(len);
        }
        while self.len() < len {
            self.push(value.clone());
        }
    }

    /// The elements, copied into a `Vec`.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

/// The chunk, copied first if a clone shares it.
#[inline]
fn unique<T: Clone>(chunk: &mut Rc<Vec<T>>) -> &mut Vec<T> {
    if Rc::get_mut(chunk).is_none() {
        unshare(chunk);
    }
    match Rc::get_mut(chunk) {
        Some(unique) => unique,
        None => unreachable!("a chunk just copied has one owner"),
    }
}

/// Replaces a shared chunk by a copy (the first write to it after a clone).
#[cold]
#[inline(never)]
fn unshare<T: Clone>(chunk: &mut Rc<Vec<T>>) {
    *chunk = Rc::new((**chunk).clone());
}

impl<T> Default for PVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone> Clone for PVec<T> {
    /// Copies one pointer per full chunk, and the tail (fewer than `CHUNK` elements).
    fn clone(&self) -> Self {
        Self {
            chunks: self.chunks.clone(),
            tail: self.tail.clone(),
        }
    }
}

impl<T: PartialEq> PartialEq for PVec<T> {
    fn eq(&self, other: &Self) -> bool {
        // Equal lengths mean equal chunk boundaries; shared chunks need no comparing.
        self.chunks.len() == other.chunks.len()
            && self.tail == other.tail
            && self
                .chunks
                .iter()
                .zip(&other.chunks)
                .all(|(a, b)| Rc::ptr_eq(a, b) || a == b)
    }
}

impl<T: Eq> Eq for PVec<T> {}

impl<T: fmt::Debug> fmt::Debug for PVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T> Index<usize> for PVec<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => panic!(
                "index {index} out of bounds for a PVec of length {}",
                self.len()
            ),
        }
    }
}

impl<T: Clone> IndexMut<usize> for PVec<T> {
    /// Copies the element's chunk first if a clone shares it.
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.len();
        match self.get_mut(index) {
            Some(x) => x,
            None => panic!("index {index} out of bounds for a PVec of length {len}"),
        }
    }
}

impl<T: Clone> Extend<T> for PVec<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T: Clone> FromIterator<T> for PVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<'a, T> IntoIterator for &'a PVec<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// An iterator over a run of a [`PVec`]'s elements, from both ends.
pub struct Iter<'a, T> {
    /// Whole chunks between `front` and `back`.
    chunks: std::slice::Iter<'a, Rc<Vec<T>>>,
    front: std::slice::Iter<'a, T>,
    back: std::slice::Iter<'a, T>,
    len: usize,
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            chunks: self.chunks.clone(),
            front: self.front.clone(),
            back: self.back.clone(),
            len: self.len,
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.front.next() {
                self.len -= 1;
                return Some(x);
            }
            match self.chunks.next() {
                Some(chunk) => self.front = chunk.iter(),
                None => break,
            }
        }
        let x = self.back.next()?;
        self.len -= 1;
        Some(x)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }

    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.front.fold(init, &mut f);
        for chunk in self.chunks {
            acc = chunk.iter().fold(acc, &mut f);
        }
        self.back.fold(acc, f)
    }
}

impl<'a, T> DoubleEndedIterator for Iter<'a, T> {
    fn next_back(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.back.next_back() {
                self.len -= 1;
                return Some(x);
            }
            match self.chunks.next_back() {
                Some(chunk) => self.back = chunk.iter(),
                None => break,
            }
        }
        let x = self.front.next_back()?;
        self.len -= 1;
        Some(x)
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

impl<T> FusedIterator for Iter<'_, T> {}

impl<T: fmt::Debug> fmt::Debug for Iter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upto(n: usize) -> PVec<usize> {
        (0..n).collect()
    }

    #[test]
    fn push_get_len_across_chunks() {
        let n = 3 * CHUNK + 5;
        let v = upto(n);
        assert_eq!(v.len(), n);
        assert!(!v.is_empty());
        assert!(PVec::<u8>::new().is_empty());
        for i in 0..n {
            assert_eq!(v.get(i), Some(&i));
            assert_eq!(v[i], i);
        }
        assert_eq!(v.get(n), None);
        assert_eq!(v.first(), Some(&0));
        assert_eq!(v.last(), Some(&(n - 1)));
        assert_eq!(PVec::<u8>::new().last(), None);
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn index_past_the_end_panics() {
        let v = upto(CHUNK);
        let _ = v[CHUNK];
    }

    #[test]
    fn clones_are_isolated_copy_on_write() {
        let mut a = upto(2 * CHUNK + 3);
        let b = a.clone();
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]), "a clone shares");
        *a.get_mut(1).expect("in range") = 100;
        a[CHUNK + 1] = 200;
        a.push(300);
        *a.last_mut().expect("non-empty") += 1;
        assert_eq!(b.to_vec(), (0..2 * CHUNK + 3).collect::<Vec<_>>());
        assert_eq!((a[1], a[CHUNK + 1], a[2 * CHUNK + 3]), (100, 200, 301));
        assert_eq!(a.len(), b.len() + 1);
        // The written chunks were copied; the others are still shared.
        assert!(!Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(!Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        let mut c = a.clone();
        c[0] = 7;
        assert!(!Rc::ptr_eq(&a.chunks[0], &c.chunks[0]));
        assert!(Rc::ptr_eq(&a.chunks[1], &c.chunks[1]));
        assert_eq!(a[0], 0);
        // Filling a tail seals it into a chunk; writing the sealed chunk of a clone copies it.
        let mut f = upto(CHUNK - 1);
        let g = f.clone();
        f.push(CHUNK - 1);
        let h = f.clone();
        assert!(Rc::ptr_eq(&f.chunks[0], &h.chunks[0]));
        f[3] = 0;
        assert_eq!((f[3], h[3], g.len(), h.len()), (0, 3, CHUNK - 1, CHUNK));
        // Writing the original leaves the clone alone too.
        let mut d = upto(CHUNK + 1);
        let e = d.clone();
        d.push(9);
        d[0] = 9;
        assert_eq!(e.to_vec(), (0..=CHUNK).collect::<Vec<_>>());
    }

    #[test]
    fn iteration_in_order_and_reversed() {
        let n = 2 * CHUNK + 7;
        let v = upto(n);
        let want: Vec<usize> = (0..n).collect();
        assert_eq!(v.iter().copied().collect::<Vec<_>>(), want);
        assert_eq!(v.iter().rev().copied().collect::<Vec<_>>(), {
            let mut r = want.clone();
            r.reverse();
            r
        });
        assert_eq!(v.iter().len(), n);
        let folded = (&v).into_iter().fold(Vec::new(), |mut acc, x| {
            acc.push(*x);
            acc
        });
        assert_eq!(folded, want);
        // Both ends at once meet in the middle without repeating an element.
        let mut it = v.iter();
        let mut seen = Vec::new();
        while let (Some(a), b) = (it.next(), it.next_back()) {
            seen.push(*a);
            seen.extend(b.copied());
        }
        seen.sort_unstable();
        assert_eq!(seen, want);
        assert_eq!(v.iter().rposition(|x| *x == CHUNK), Some(CHUNK));
    }

    #[test]
    fn ranges_match_slices() {
        let n = 3 * CHUNK + 2;
        let v = upto(n);
        let want: Vec<usize> = (0..n).collect();
        let edges = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, n - 1, n];
        for &s in &edges {
            for &e in edges.iter().filter(|e| **e >= s) {
                let got: Vec<usize> = v.range(s..e).copied().collect();
                assert_eq!(got, want[s..e], "{s}..{e}");
                assert_eq!(v.range(s..e).len(), e - s);
                let back: Vec<usize> = v.range(s..e).rev().copied().collect();
                assert_eq!(back, want[s..e].iter().rev().copied().collect::<Vec<_>>());
            }
            assert_eq!(v.iter_from(s).copied().collect::<Vec<_>>(), want[s..]);
        }
        assert_eq!(v.range(2..=4).copied().collect::<Vec<_>>(), [2, 3, 4]);
        assert_eq!(v.iter_from(n + 10).len(), 0);
    }

    #[test]
    fn partition_point_matches_slices() {
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5] {
            let v = upto(n);
            let want: Vec<usize> = (0..n).collect();
            for cut in 0..=n + 1 {
                assert_eq!(
                    v.partition_point(|x| *x < cut),
                    want.partition_point(|x| *x < cut),
                    "n {n} cut {cut}"
                );
            }
        }
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn range_past_the_end_panics() {
        let _ = upto(5).range(2..6);
    }

    #[test]
    fn equality_is_by_content_whatever_the_history() {
        let n = 2 * CHUNK + 1;
        let pushed = upto(n);
        let mut edited = upto(n + CHUNK);
        let shared = edited.clone();
        edited.truncate(n);
        assert_eq!(pushed, edited);
        assert_eq!(edited.iter().len(), n);
        let mut removed: PVec<usize> = (0..n + 1).collect();
        removed.remove(CHUNK / 2);
        assert_ne!(pushed, removed);
        let fresh: PVec<usize> = (0..n + 1).filter(|x| *x != CHUNK / 2).collect();
        assert_eq!(removed, fresh);
        assert_ne!(pushed, shared);
        let mut resized = upto(3);
        resized.resize(n, 0);
        assert_ne!(resized, pushed);
        for i in 3..n {
            resized[i] = i;
        }
        assert_eq!(resized, pushed);
        let mut tail_differs = upto(CHUNK + 2);
        tail_differs[CHUNK + 1] = 0;
        assert_ne!(tail_differs, upto(CHUNK + 2));
        assert_eq!(
            shared.len(),
            n + CHUNK,
            "truncating a clone leaves the original"
        );
        assert_eq!(format!("{:?}", upto(3)), "[0, 1, 2]");
    }

    #[test]
    fn remove_and_truncate_keep_order() {
        let n = 2 * CHUNK + 3;
        let mut v = upto(n);
        let keep = v.clone();
        assert_eq!(v.remove(1), 1);
        assert_eq!(v.remove(CHUNK), CHUNK + 1);
        let mut want: Vec<usize> = (0..n).collect();
        want.remove(1);
        want.remove(CHUNK);
        assert_eq!(v.to_vec(), want);
        assert_eq!(keep.to_vec(), (0..n).collect::<Vec<_>>());
        v.truncate(CHUNK);
        assert_eq!(v.to_vec(), want[..CHUNK]);
        v.push(5);
        assert_eq!(v.len(), CHUNK + 1);
        assert_eq!(v.last(), Some(&5));
        v.truncate(0);
        assert!(v.is_empty());
        assert_eq!(v, PVec::new());
        // Within the tail.
        let mut t = upto(CHUNK + 10);
        t.truncate(CHUNK + 4);
        assert_eq!(t.to_vec(), (0..CHUNK + 4).collect::<Vec<_>>());
        assert_eq!(t.remove(CHUNK + 2), CHUNK + 2);
        let want: Vec<usize> = (0..CHUNK + 2).chain([CHUNK + 3]).collect();
        assert_eq!(t.to_vec(), want);
        t.truncate(CHUNK + 10);
        assert_eq!(t.len(), CHUNK + 3, "truncating to more is a no-op");
    }
}
