# Costscope — build, run and test. `make help` lists the targets.
#
#   make run    build everything and run Costscope with demo data on http://127.0.0.1:8080
#   make test   every test: Rust (SQLite + PostgreSQL), web typecheck + unit tests, browser e2e
#
# One cargo profile (dev) is used for both tests and `run`, so `make test` after `make run`
# (or the other way round) reuses the same build.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules
# Phases run one after another (cargo and vite already use both cores).
.NOTPARALLEL:

CARGO_TARGET_DIR ?= $(HOME)/.cache/costscope-target
export CARGO_TARGET_DIR
COSTSCOPE_BIN ?= $(CARGO_TARGET_DIR)/debug/costscope
export COSTSCOPE_BIN
# DuckDB's prebuilt shared library (scripts/ensure-duckdb.sh puts it here; binaries find it by rpath).
DUCKDB_LIB_DIR ?= $(CARGO_TARGET_DIR)/duckdb
export DUCKDB_LIB_DIR
COSTSCOPE_TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
export COSTSCOPE_TEST_POSTGRES_URL
# The browser tests drive Debian's /usr/bin/chromium; nothing may download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

CARGO ?= cargo
NPM ?= npm
CARGO_TEST_FLAGS ?=
ADDR ?= 127.0.0.1:8080
DATA_DIR ?= ./data

PHASE := $(CURDIR)/scripts/phase.sh
WEB_STAMP := web/node_modules/.costscope-npm-ci
# Everything the Vite build reads (missing ones are simply ignored by wildcard/find).
WEB_SOURCES := $(shell find web/src web/public web/scripts -type f 2>/dev/null) \
               $(wildcard web/index.html web/package.json web/vite.config.* web/tsconfig*.json)

.PHONY: help run build web web-deps bin test test-rust test-web test-e2e ensure ensure-chromium \
        ensure-postgres ensure-clickhouse ensure-duckdb ensure-focus-validator web-types test-api-types bench bench-sync clean \
        ensure-schemathesis test-schemathesis ensure-cloud-peers print-clickhouse-api-suites

help: ## list the targets
	@echo "Costscope make targets (CARGO_TARGET_DIR=$(CARGO_TARGET_DIR)):"
	@grep -E '^[a-z][a-zA-Z0-9_-]*:.*## ' $(MAKEFILE_LIST) \
	  | sed -E 's/^([^:]+):.*## (.*)/  \1\t\2/' | expand -t 20

# ---------------------------------------------------------------- build and run

run: build ## build everything and run Costscope with demo data on http://127.0.0.1:8080
	$(COSTSCOPE_BIN) serve --demo --addr $(ADDR) --data-dir $(DATA_DIR)

build: web bin ## build the web app (web/dist) and the costscope binary (dev profile)

bin: ensure-duckdb ## cargo build the costscope binary only (embeds whatever web/dist holds)
	@test -d web/dist || { echo "web/dist is missing: run 'make web' (or 'make build') first" >&2; exit 1; }
	$(PHASE) "cargo build" $(CARGO) build -p costscope-server --bin costscope

web: web/dist/index.html ## npm ci (when needed) and npm run build -> web/dist

web/dist/index.html: $(WEB_STAMP) $(WEB_SOURCES)
	cd web && $(PHASE) "web build" $(NPM) run build
	@test -f $@ || { echo "npm run build did not produce $@" >&2; exit 1; }
	@touch $@

web-deps: $(WEB_STAMP) ## npm ci in web/ (scripts/npm-ci.sh) when node_modules is missing or older than package-lock.json

$(WEB_STAMP): web/package-lock.json
	$(PHASE) "npm ci" scripts/npm-ci.sh web
	@touch $@

web/package-lock.json:
	@echo "web/package-lock.json is missing: run 'npm install' in web/ and commit the lock file" >&2
	@exit 1

web-types: ## regenerate web/openapi.json and the SPA's API types from the server
	@# The web build may need the new types, so only the binary is built (with the web/dist there is).
	@mkdir -p web/dist
	$(MAKE) --no-print-directory bin
	$(COSTSCOPE_BIN) openapi > web/openapi.json
	cd web && $(NPM) run gen:api

# ---------------------------------------------------------------- tests

test: ensure test-rust test-schemathesis test-web test-api-types test-e2e ## every test: Rust (SQLite + PostgreSQL + ClickHouse), web unit, browser e2e
	@echo
	@echo "make test: all phases passed"

ensure: ensure-duckdb ensure-chromium ensure-postgres ensure-clickhouse ensure-focus-validator ensure-schemathesis ensure-cloud-peers web-deps ## install chromium, postgres, clickhouse, the FOCUS validator, schemathesis, the cloud peers and npm packages if missing

ensure-chromium: ## apt-get install chromium if /usr/bin/chromium is missing
	$(PHASE) "ensure chromium" scripts/ensure-chromium.sh

ensure-duckdb: ## fetch DuckDB's prebuilt libduckdb.so (npm registry) into $(CARGO_TARGET_DIR)/duckdb
	$(PHASE) "ensure duckdb" scripts/ensure-duckdb.sh

ensure-focus-validator: ## pip install the FinOps Foundation's focus-validator into ~/.cache/costscope-venv (FOCUS export tests)
	$(PHASE) "ensure focus validator" scripts/ensure-focus-validator.sh

ensure-postgres: ## start/install PostgreSQL on 127.0.0.1:5432 with a `test` database if needed
	$(PHASE) "ensure postgres" scripts/ensure-postgres.sh

ensure-clickhouse: ## start/install two ClickHouse servers, the shards of cluster `costscope`, on 127.0.0.1:8123 and :8124 with a `test` database if needed
	$(PHASE) "ensure clickhouse" scripts/ensure-clickhouse.sh

ensure-cloud-peers: ## install the local cloud peers the tests start: moto (AWS), Azurite (Azure Storage), cfn-lint
	$(PHASE) "ensure moto" scripts/ensure-moto.sh
	$(PHASE) "ensure azurite" scripts/ensure-azurite.sh
	$(PHASE) "ensure cfn-lint" scripts/ensure-cfn-lint.sh

# The API suites that read or write cost data (cargo test name filters), run a second time by
# test-rust with the cost data in ClickHouse (crates/server/tests/api/engine_under_test.rs).
CLICKHOUSE_API_SUITES := cost_ currency focus_export ingest forecast anomalies budget inventory \
        findings channels digests cloud_sync cloud_accounts providers upload_bounds isolation_sweep \
        tenancy standard_tags told_everywhere compression hardening query_bounds backup cli:: ops::

test-rust: web ensure-duckdb ensure-postgres ensure-clickhouse ensure-focus-validator ensure-cloud-peers ## cargo test --workspace (SQLite, PostgreSQL at COSTSCOPE_TEST_POSTGRES_URL, ClickHouse at COSTSCOPE_TEST_CLICKHOUSE_URL), then the cost API suites on ClickHouse
	$(PHASE) "rust tests" $(CARGO) test --workspace $(CARGO_TEST_FLAGS)
	COSTSCOPE_TEST_COST_ENGINE=clickhouse $(PHASE) "rust API tests on ClickHouse" \
	  $(CARGO) test -p costscope-server --test api $(CARGO_TEST_FLAGS) -- $(CLICKHOUSE_API_SUITES)

print-clickhouse-api-suites: ## print the API test filters test-rust runs on ClickHouse
	@echo $(CLICKHOUSE_API_SUITES)

ensure-schemathesis: ## pip install schemathesis into ~/.cache/costscope-schemathesis-venv
	$(PHASE) "ensure schemathesis" scripts/ensure-schemathesis.sh

test-schemathesis: build ensure-schemathesis ## schemathesis against /openapi.json of `serve --demo` on a free port (no 5xx, statuses and bodies as documented)
	$(PHASE) "schemathesis" scripts/schemathesis.sh

test-web: web-deps ## web typecheck and Vitest unit tests
	cd web && $(PHASE) "web typecheck" $(NPM) run typecheck
	cd web && CI=true $(PHASE) "web unit tests" $(NPM) test

test-api-types: build ## check web/openapi.json and web/src/api/schema.gen.ts match the server (fix: make web-types)
	$(PHASE) "api types up to date" scripts/check-api-types.sh

test-e2e: build ensure-chromium ensure-cloud-peers ## Playwright browser tests against the built binary
	@test -x "$(COSTSCOPE_BIN)" || { echo "$(COSTSCOPE_BIN) is missing: 'make build' did not produce it" >&2; exit 1; }
	@# The browser tests start the BigQuery and Teams stand-ins (costscope-connectors examples) beside moto and Azurite.
	$(PHASE) "cargo build peers" $(CARGO) build -p costscope-connectors --features test-support --example bigquery_standin --example teams_standin
	cd web && $(PHASE) "e2e typecheck" npx --no-install tsc -p e2e
	cd web && CI=true $(PHASE) "browser e2e tests" $(NPM) run test:e2e

# ---------------------------------------------------------------- performance

BENCH_ARGS ?=

bench: ensure-duckdb ensure-postgres ensure-clickhouse ## generate 1M, 10M and 100M FOCUS line items (100M: Parquet only, about an hour), time ingest and the cost API against DuckDB, its floors and PostgreSQL (up to 10M), and side by side on the two local ClickHouse shards (same files, same questions, answers compared; BENCH_ARGS="--engines duckdb" skips it) -> docs/PERFORMANCE.md (quick check: BENCH_ARGS="--rows 100000")
	@# The bench does not need the web app; the binary embeds whatever web/dist holds.
	@mkdir -p web/dist
	$(PHASE) "cargo build" $(CARGO) build -p costscope-server -p costscope-bench --bins
	$(PHASE) "bench" $(CARGO_TARGET_DIR)/debug/costscope-bench $(BENCH_ARGS)

bench-sync: ensure-duckdb ## peak memory of `costscope serve` syncing a 1 GiB gzip AWS Data Export from moto (quick check: SYNC_ARGS="--sync-gzip-mib 64")
	@mkdir -p web/dist
	$(PHASE) "ensure moto" scripts/ensure-moto.sh
	$(PHASE) "cargo build" $(CARGO) build -p costscope-server -p costscope-bench --bins
	$(PHASE) "bench sync" $(CARGO_TARGET_DIR)/debug/costscope-bench --sync-memory $(SYNC_ARGS)

# ---------------------------------------------------------------- housekeeping

clean: ## remove build outputs (cargo target dir, web/dist, node_modules, test reports); keeps ./data
	-$(CARGO) clean
	rm -rf web/dist web/node_modules web/test-results web/playwright-report
