#!/usr/bin/env bash
# The whole suite (`npm test`): type check and lint beside the build, then the
# unit, integration, reliability and security tests on the embedded PGlite and
# on the PostgreSQL at 127.0.0.1:5432 at the same time (each pass has its own
# servers on free ports and its own databases), then the Playwright suite in
# Debian's Chromium on the build already made. What it needs is set up first:
# PostgreSQL started (or installed) and Chromium installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
started=$(date +%s)
logs="$(mktemp -d)"

step() { printf '\n=== %s (%ss) ===\n' "$*" "$(($(date +%s) - started))"; }

# Runs each "name:command" at once, prints each log when it ends, fails if any failed.
parallel() {
  local pids=() names=() failed=0
  for job in "$@"; do
    local name="${job%%:*}" command="${job#*:}"
    bash -c "$command" >"$logs/$name.log" 2>&1 &
    pids+=("$!")
    names+=("$name")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then status=ok; else status=FAILED; failed=1; fi
    printf '\n--- %s: %s (%ss) ---\n' "${names[$i]}" "$status" "$(($(date +%s) - started))"
    cat "$logs/${names[$i]}.log"
  done
  return "$failed"
}

step "setting up: PostgreSQL, Chromium"
bash scripts/ensure-postgres.sh
if ls e2e/*.spec.ts >/dev/null 2>&1; then bash scripts/ensure-chromium.sh; fi

step "the fast tier: every console procedure through createCaller (no build, no server)"
npx prisma generate >/dev/null
npx vitest run --project fast

step "type check and lint, beside the build"
parallel \
  "checks:npx tsc --noEmit && npx eslint ." \
  "build:npx next build"

step "tests on PGlite and on PostgreSQL, at once"
parallel \
  "pglite:TEST_DB=pglite npx vitest run --project unit --project integration --project reliability" \
  "postgres:TEST_DB=postgres npx vitest run --project integration --project reliability"

if ls e2e/*.spec.ts >/dev/null 2>&1; then
  step "browser tests (Playwright, Debian Chromium)"
  npx playwright test
fi
step "all passed"
