#!/usr/bin/env bash
# The collector against a real BPF producer (also run under TSan by tests/sanitize.sh).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-collector
c_suite "$OUTPUT/tests/host/collector_test"
end_suite
