//! The article's thread-free tests and properties in headless Chrome
//! (`wasm-pack test --headless --chrome -- --test article_wasm`). Same text as the native run:
//! `#[test]` is rebound to `wasm_bindgen_test` before the shared file is included.
#![cfg(target_arch = "wasm32")]

use idempotency_playground::*;
use wasm_bindgen_test::wasm_bindgen_test as test;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

include!("article_shared/thread_free.rs");
