# The two commands: `make serve` and `make test`. Each installs what it needs first.
.PHONY: serve build test test-native test-browser test-e2e lint bench setup clean

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

lint:           ## core-import check, rustfmt, clippy on both targets
	scripts/test.sh lint

bench:          ## benchmarks natively and in headless Chromium (see BENCHMARKS.md)
	scripts/setup.sh test
	scripts/bench.sh

setup:          ## install everything the tests need, and nothing else
	scripts/setup.sh test

clean:
	rm -rf target dist
