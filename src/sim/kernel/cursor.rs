//! A model at a cursor. Forward is stepping; back is replaying from the nearest copy saved on
//! the way (the core is deterministic, so the replay is exact). Copies are saved every
//! [`CHECKPOINT_EVERY`] steps at first; the spacing doubles whenever more than
//! [`MAX_CHECKPOINTS`] would be kept, so memory stays bounded on long runs and a step back costs
//! at most one spacing of replay. The copies are shared ([`Rc`]), so cloning a cursor (as a
//! page's state does on every action) copies pointers, not runs.

use std::rc::Rc;

/// A deterministic simulation the kernel can run and rewind. Two copies stepped alike stay
/// alike: that is what makes going back by replay exact.
pub trait Model: Clone {
    /// What its invariants found so far (checked after every step).
    type Checked: Clone + PartialEq + core::fmt::Debug;

    /// Takes the next event; false when the run has ended (then nothing counts as a step).
    fn step(&mut self) -> bool;

    /// Steps taken since the start.
    fn steps(&self) -> usize;

    /// What its invariants found so far.
    fn checked(&self) -> Self::Checked;
}

/// Steps between saved copies, at first.
pub const CHECKPOINT_EVERY: usize = 256;
/// Most copies kept.
pub const MAX_CHECKPOINTS: usize = 48;

// Thinning keeps every other copy, so there must be two; a spacing of 0 would save nothing.
const _: () = assert!(CHECKPOINT_EVERY > 0 && MAX_CHECKPOINTS >= 2);

/// A model at a cursor, with copies saved on the way for going back.
#[derive(Clone, Debug)]
pub struct Cursor<M> {
    start: Rc<M>,
    now: M,
    /// `saved[i]`: the model after `(i + 1) * every` steps.
    saved: Vec<Rc<M>>,
    every: usize,
}

impl<M: Model> Cursor<M> {
    /// `start` at its step 0 (or wherever it is: its own step count is the cursor).
    pub fn new(start: M) -> Self {
        Self::with_spacing(start, CHECKPOINT_EVERY)
    }

    /// As [`Cursor::new`], saving a copy every `every` steps (at least 1) at first.
    pub fn with_spacing(start: M, every: usize) -> Self {
        Cursor {
            now: start.clone(),
            start: Rc::new(start),
            saved: Vec::new(),
            every: every.max(1),
        }
    }

    /// The model at the cursor.
    pub fn at(&self) -> &M {
        &self.now
    }

    /// The cursor: steps taken.
    pub fn position(&self) -> usize {
        self.now.steps()
    }

    /// One step forward; false at the end.
    pub fn step(&mut self) -> bool {
        if !self.now.step() {
            return false;
        }
        let k = self.now.steps();
        if k.is_multiple_of(self.every) && k / self.every == self.saved.len() + 1 {
            self.saved.push(Rc::new(self.now.clone()));
            if self.saved.len() > MAX_CHECKPOINTS {
                // Keep the copies at even multiples of the spacing, and double it.
                let mut i = 0;
                self.saved.retain(|_| {
                    i += 1;
                    i % 2 == 0
                });
                self.every *= 2;
            }
        }
        true
    }

    /// To step `k`, or the run's end if it comes first: forward by stepping, back by replaying
    /// from the nearest copy at or before `k`.
    pub fn seek(&mut self, k: usize) {
        if k < self.position() {
            let base = self.start.steps();
            let i = k.saturating_sub(base) / self.every;
            let from = match i.checked_sub(1).and_then(|j| self.saved.get(j)) {
                Some(m) => m,
                None => &self.start,
            };
            self.now = M::clone(from);
        }
        while self.position() < k && self.step() {}
    }

    /// One step back (a replay); nothing at step 0.
    pub fn back(&mut self) {
        let k = self.position();
        if k > self.start.steps() {
            self.seek(k - 1);
        }
    }

    /// Rewrites the run's future from the cursor on, for a model that carries its script (the
    /// learner's actions, a schedule): `edit` is made to the model at the cursor and to every
    /// saved copy at or before it, and the copies after it are dropped. `edit` must leave the
    /// past alone (change only what happens at the cursor's step or later), so that a replay
    /// from any kept copy still passes through the model at the cursor.
    pub fn rewrite(&mut self, edit: impl Fn(&mut M)) {
        let k = self.position();
        self.saved.retain(|m| m.steps() <= k);
        for m in self
            .saved
            .iter_mut()
            .chain(std::iter::once(&mut self.start))
        {
            edit(Rc::make_mut(m));
        }
        edit(&mut self.now);
        debug_assert_eq!(self.now.steps(), k, "a rewrite changed the past");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter that ends at `end`, and remembers the sum of its steps (its "invariant").
    #[derive(Clone, Debug, PartialEq)]
    struct Count {
        n: usize,
        end: usize,
        sum: usize,
    }

    impl Model for Count {
        type Checked = usize;
        fn step(&mut self) -> bool {
            if self.n == self.end {
                return false;
            }
            self.n += 1;
            self.sum += self.n;
            true
        }
        fn steps(&self) -> usize {
            self.n
        }
        fn checked(&self) -> usize {
            self.sum
        }
    }

    #[test]
    fn seeking_back_and_forth_equals_stepping_from_the_start() {
        let start = Count {
            n: 0,
            end: 1_000,
            sum: 0,
        };
        let mut c = Cursor::with_spacing(start.clone(), 3);
        c.seek(2_000);
        assert_eq!(c.position(), 1_000);
        assert!(c.saved.len() <= MAX_CHECKPOINTS);
        for k in [999, 0, 500, 7, 6, 640, 1_000, 1] {
            c.seek(k);
            let mut fresh = start.clone();
            while fresh.steps() < k && fresh.step() {}
            assert_eq!(c.at(), &fresh, "k = {k}");
        }
        c.seek(1);
        c.back();
        assert_eq!(c.position(), 0);
        c.back();
        assert_eq!(c.position(), 0);
    }

    /// A run that follows a script: step n adds `script[n]` (1 where the script is silent).
    #[derive(Clone, Debug, PartialEq)]
    struct Scripted {
        n: usize,
        total: usize,
        script: Vec<(usize, usize)>,
    }

    impl Model for Scripted {
        type Checked = usize;
        fn step(&mut self) -> bool {
            if self.n == 100 {
                return false;
            }
            let n = self.n;
            self.total += self
                .script
                .iter()
                .find(|(at, _)| *at == n)
                .map_or(1, |(_, v)| *v);
            self.n += 1;
            true
        }
        fn steps(&self) -> usize {
            self.n
        }
        fn checked(&self) -> usize {
            self.total
        }
    }

    #[test]
    fn a_rewritten_future_replays_as_a_fresh_run_of_the_new_script() {
        let start = Scripted {
            n: 0,
            total: 0,
            script: vec![(70, 5)],
        };
        let mut c = Cursor::with_spacing(start.clone(), 4);
        c.seek(90);
        c.seek(30);
        // From step 30 on the script says: 1000 at step 30, nothing at 70 any more.
        c.rewrite(|m| m.script = vec![(30, 1_000)]);
        let edited = Scripted {
            script: vec![(30, 1_000)],
            ..start
        };
        for k in [100, 31, 29, 0, 64, 30] {
            c.seek(k);
            let mut fresh = edited.clone();
            while fresh.steps() < k && fresh.step() {}
            assert_eq!(c.at(), &fresh, "k = {k}");
        }
    }
}
