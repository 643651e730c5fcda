//! The simulation kernel every model stands on: an event queue ordered by (time, insertion)
//! whose timers can be cancelled ([`EventQueue`]), the [`Model`] trait a deterministic
//! simulation implements (step one event, count its steps, say what its invariants found), and
//! one generic [`Cursor`] that runs a model to any step and back (by replay from the nearest
//! saved copy, since the core is deterministic: rewinding is replaying).
//!
//! Nothing here knows payments, Kafka or workflows; the kernel imports only `base`.

mod cursor;
mod queue;

pub use cursor::{Cursor, Model, CHECKPOINT_EVERY, MAX_CHECKPOINTS};
pub use queue::{EventQueue, TimerKey};
