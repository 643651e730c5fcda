//! Idempotency-key playground: a deterministic simulation core (`sim`) and a Yew UI (`ui`) that
//! only feeds the core inputs and draws its state.
//!
//! The core's module is private; its curated list (`sim/mod.rs`) is this crate's root, so each
//! type has one public path and `use idempotency_playground::*;` brings in the article's types.
//! Architecture invariant: `sim` never imports the UI, a clock or OS randomness; `make test`
//! checks it (scripts/check-core-imports.sh).

#[cfg(all(feature = "pg", not(target_arch = "wasm32")))]
pub mod pg;
mod sim;
pub mod ui;

pub use sim::*;
