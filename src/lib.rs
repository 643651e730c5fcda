//! Idempotency-key playground: a deterministic simulation core (`sim`) and a Yew UI (`ui`) that
//! only feeds the core inputs and draws its state.
//!
//! Architecture invariant: `sim` never imports yew, web-sys, gloo or wasm-bindgen; `make test`
//! checks it (scripts/check-core-imports.sh).

pub mod sim;
pub mod ui;

pub use sim::*;
