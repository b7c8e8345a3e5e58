#!/bin/bash
# dtx sim: flags, output and exit codes of each simulation (filled in with each simulation).
# usage: test_sim.sh path/to/dtx
set -u
DTX=$1
fail=0
"$DTX" sim --inputs-json >/dev/null || { echo "FAIL: sim --inputs-json"; fail=1; }
exit $fail
