#!/usr/bin/env bash
# The whole suite (`npm test`), in two rounds of parallel lanes:
#   1. beside the production build (Next's, and the custom server's
#      build/server/main.mjs, which every suite's servers run): the type
#      check and lint, and the fast tier (every console procedure through
#      createCaller; no build needed);
#   2. on the build: the integration, reliability and security tests on the
#      embedded PGlite and on the PostgreSQL at 127.0.0.1:5432 (each lane with
#      its own servers on free ports and its own databases), and the
#      Playwright suite in Debian's Chromium followed by the unit tests.
# What it needs is set up first: PostgreSQL started (or installed) and
# Chromium installed when missing. Each lane's log is printed when it ends,
# with its time and, for the vitest runs, each test file's time (slowest
# first: tests/support/timing-reporter.ts); the total is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/check-node.mjs "npm test"
export NEXT_TELEMETRY_DISABLED=1
started=$(date +%s)
logs="$(mktemp -d)"

step() { printf '\n=== %s (%ss) ===\n' "$*" "$(($(date +%s) - started))"; }

# Runs each "name:command" at once; prints each log (in the order given) when
# it has ended, with the time it ended; fails if any failed.
parallel() {
  local pids=() names=() failed=0
  for job in "$@"; do
    local name="${job%%:*}" command="${job#*:}"
    bash -c "$command; status=\$?; echo \"[lane $name ended at \$((\$(date +%s) - $started))s]\"; exit \$status" >"$logs/$name.log" 2>&1 &
    pids+=("$!")
    names+=("$name")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then status=ok; else status=FAILED; failed=1; fi
    printf '\n--- %s: %s ---\n' "${names[$i]}" "$status"
    cat "$logs/${names[$i]}.log"
  done
  return "$failed"
}

# The browser tests, then the unit tests, in one lane: both a few minutes, beside the two database lanes.
browser_then_unit() {
  local status=0
  if ls e2e/*.spec.ts >/dev/null 2>&1; then npx playwright test || status=1; fi
  npx vitest run --project unit || status=1
  return "$status"
}
export -f browser_then_unit

step "setting up: PostgreSQL, Chromium"
bash scripts/ensure-postgres.sh
if ls e2e/*.spec.ts >/dev/null 2>&1; then bash scripts/ensure-chromium.sh; fi
npx prisma generate >/dev/null

step "the fast tier, the type check and lint, beside the build"
parallel \
  "fast:npx vitest run --project fast" \
  "checks:npx tsc --noEmit && npx eslint ." \
  "build:npx next build && node scripts/build-server.mjs"

step "on the build: PGlite, PostgreSQL, and the browser then the unit tests, at once"
parallel \
  "pglite:TEST_DB=pglite npx vitest run --project integration --project reliability" \
  "postgres:TEST_DB=postgres npx vitest run --project integration --project reliability" \
  "browser-unit:browser_then_unit"

step "all passed"
