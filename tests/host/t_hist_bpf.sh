#!/usr/bin/env bash
# The shared bucket function (bpf/hist_bucket.h) as clang builds it for BPF and the verifier
# accepts it, run on every bucket boundary: the same buckets and bounds as the user-side
# histogram (tests/host/hist_bpf.c).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-hist-bpf
c_suite "$OUTPUT/tests/host/hist_bpf"
end_suite
