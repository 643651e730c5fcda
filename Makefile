# The two commands: `make serve` and `make test`. Each installs what it needs first.
.PHONY: serve build test test-native test-browser test-e2e test-pg pg-race lint bench bench-load fuzz soak setup clean

serve:          ## install what is missing, then serve the release build on http://127.0.0.1:8080
	scripts/setup.sh serve
	scripts/serve.sh

build:          ## install what is missing, then build dist/ (relative URLs: any static host or sub-path)
	scripts/setup.sh serve
	scripts/build.sh

test:           ## install what is missing, then run every layer: lint, native, browser, e2e
	scripts/test.sh

test-native:    ## cargo test only
	scripts/test.sh native

test-browser:   ## wasm-pack test in headless Chromium only
	scripts/test.sh browser

test-e2e:       ## Playwright end-to-end tests only
	scripts/test.sh e2e

test-pg:        ## the services as SQL on a throwaway PostgreSQL only
	scripts/test.sh pg

pg-race:        ## the PostgreSQL matrix: 10 connections x 200 trials per variant, forced schedules; writes data/pg-race.json
	scripts/setup.sh test
	scripts/pg-race.sh

lint:           ## core-import check, rustfmt, clippy on both targets
	scripts/test.sh lint

bench:          ## benchmarks natively and in headless Chromium, page weights, load times (see BENCHMARKS.md)
	scripts/setup.sh test
	scripts/bench.sh

bench-load:     ## make bench's load benchmark alone: each page's time to interactive beside a Yew hello world (SKIP_BUILD=1 keeps dist/)
	scripts/setup.sh test
	[ "$${SKIP_BUILD:-}" = 1 ] || scripts/build.sh
	benches/hello/build.sh
	node benches/load.mjs

# Release builds; our crate keeps overflow checks on, so an arithmetic overflow is a panic the
# fuzzer reports rather than a silently wrapped value. A fresh seed each run (printed; set
# FUZZ_SEED / SOAK_SEED to repeat one). See RELIABILITY.md.
fuzz:           ## mutation fuzzing of every reader of outside text (11 readers, 5 pages): 1,000,000 inputs, never a panic
	FUZZ_CASES=$${FUZZ_CASES:-1000000} FUZZ_SEED=$${FUZZ_SEED:-$$(date +%s)} cargo test --release \
	  --config 'profile.release.package.idempotency-playground.overflow-checks=true' --test fuzz -- --nocapture

soak:           ## 100,000 random cases per service and wiring, and per engine (Kafka, durable execution), invariants checked; 1,000 determinism checks
	SOAK_CASES=$${SOAK_CASES:-100000} SOAK_DETERMINISM=$${SOAK_DETERMINISM:-1000} SOAK_SEED=$${SOAK_SEED:-$$(date +%s)} \
	  cargo test --release --config 'profile.release.package.idempotency-playground.overflow-checks=true' \
	  --test soak --test soak_engines -- --nocapture --test-threads 1

setup:          ## install everything the tests need, and nothing else
	scripts/setup.sh test

clean:
	rm -rf target dist
