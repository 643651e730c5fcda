//! Building blocks with no knowledge of payments: the seeded PRNG, hashing, UUIDs minted from the
//! PRNG, and the persistent vectors and maps that let world copies share their history.
//! Architecture invariant: nothing here imports any other module of this crate.

pub(crate) mod hash;
pub(crate) mod pmap;
pub mod pvec;
pub(crate) mod rng;
pub(crate) mod uuidgen;
