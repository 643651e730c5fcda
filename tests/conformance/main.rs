//! Conformance suites: each case is translated from a real system's own unit test, integration
//! test or documented example, cites it (repository, commit or version, file, test name), and
//! asserts what that system does, not what our model happens to do. A deliberate simplification
//! is an `#[ignore]`d case whose reason names it; the same simplification is listed on its page
//! under "What this model leaves out". Native only (`make test`'s native layer runs them).
//!
//! One file per system: `kafka.rs` (apache/kafka), `temporal.rs`, `restate.rs`, `dbos.rs`
//! (the durable-execution engines), `http.rs` (the IETF Idempotency-Key draft, Stripe,
//! rocket-rides).
#![cfg(not(target_arch = "wasm32"))]

mod dbos;
mod http;
mod kafka;
mod restate;
mod temporal;
