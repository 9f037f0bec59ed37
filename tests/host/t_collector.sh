#!/usr/bin/env bash
# The collector against a real BPF producer (also run under TSan by tests/sanitize.sh).
cd "$(dirname "$0")/../.." && . tests/lib.sh
"$OUTPUT/tests/host/collector_test"
