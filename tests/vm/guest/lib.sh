# Helpers for guest tests (busybox ash; sourced). Each check prints one "PASS vm/NAME" or
# "FAIL vm/NAME: why" line; run.sh counts them from the console.
pass() { echo "PASS vm/$1"; }
fail() { echo "FAIL vm/$1: $2"; }
