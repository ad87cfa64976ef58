#!/usr/bin/env bash
# Checks that `npm test`'s own embedded Postgres leaves nothing behind after a passing run, a failing run and a run
# interrupted with SIGINT (as Ctrl-C does). Runs each in a network namespace where nothing answers on
# 127.0.0.1:5432, so the runner starts its own server. Needs root (unshare -n).
set -uo pipefail
cd "$(dirname "$0")/.."

leftovers() {
  local dirs procs
  dirs=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'engine-test-pg-*' 2>/dev/null)
  procs=$(pgrep -af 'engine-test-pg-' | grep -v pgrep || true)
  if [ -n "$dirs$procs" ]; then echo "teardown: left behind after $1:"; echo "$dirs"; echo "$procs"; return 1; fi
  echo "teardown: nothing left after $1"
}
isolated() { unshare -n bash -c "ip link set lo up && $1"; }

leftovers "an earlier run" || exit 1
fail=0
LOG=$(mktemp)

isolated "npm test -- test/cli/config.unit.test.ts" >"$LOG" 2>&1
code=$?; grep -q 'started an embedded Postgres' "$LOG" || { echo "teardown: the passing run did not start its own Postgres"; cat "$LOG"; fail=1; }
[ $code -eq 0 ] || { echo "teardown: the passing run failed ($code)"; cat "$LOG"; fail=1; }
leftovers "a passing run" || fail=1

isolated "npm test -- test/cli/config.unit.test.ts --match '__no_such_test__'" >"$LOG" 2>&1
code=$?; [ $code -ne 0 ] || { echo "teardown: the failing run exited 0"; fail=1; }
leftovers "a failing run (exit $code)" || fail=1

# Ctrl-C: SIGINT to the whole process group while ava runs the whole suite (minutes: surely still running).
setsid bash -c "unshare -n bash -c 'ip link set lo up && npm test'" >"$LOG" 2>&1 &
pid=$!
for _ in $(seq 1 240); do grep -q 'started an embedded Postgres' "$LOG" && break; sleep 0.25; done
sleep 3
kill -INT -- "-$pid" 2>/dev/null
wait "$pid"; code=$?
grep -q 'started an embedded Postgres' "$LOG" || { echo "teardown: the interrupted run never started its Postgres"; cat "$LOG"; fail=1; }
[ $code -ne 0 ] || { echo "teardown: the run meant to be interrupted finished first (exit 0)"; fail=1; }
leftovers "a run interrupted with SIGINT (exit $code)" || fail=1

rm -f "$LOG"
exit $fail
