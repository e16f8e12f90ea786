#!/usr/bin/env bash
# The whole suite (`npm test`): type check, lint, build, unit and integration
# tests on the embedded PGlite and on the PostgreSQL at 127.0.0.1:5432, the
# reliability and security suites on both (tests/reliability, tests/security),
# then the Playwright suite in Debian's Chromium (installed when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n=== %s ===\n' "$*"; }

step "type check"
npx tsc --noEmit
step "lint"
npx eslint .
step "build"
npx prisma generate >/dev/null
npx next build >/tmp/taxi-build.log 2>&1 || { cat /tmp/taxi-build.log; exit 1; }

step "unit, integration, reliability and security tests on PGlite"
TEST_DB=pglite npx vitest run
step "integration tests on PostgreSQL"
TEST_DB=postgres npx vitest run --project integration
step "reliability and security tests on PostgreSQL"
TEST_DB=postgres npx vitest run --project reliability

if ls e2e/*.spec.ts >/dev/null 2>&1; then
  step "browser tests (Playwright, Debian Chromium)"
  bash scripts/ensure-chromium.sh
  npx playwright test
fi
