#!/usr/bin/env bash
# Helpers-mode analysis against the running kernel (tests/host/helpers_test.c).
cd "$(dirname "$0")/../.." && . tests/lib.sh
"$OUTPUT/tests/host/helpers_test"
