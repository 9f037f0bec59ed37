#!/usr/bin/env bash
# Helpers-mode analysis against the running kernel (tests/host/helpers_test.c).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-helpers
c_suite "$OUTPUT/tests/host/helpers_test"
end_suite
