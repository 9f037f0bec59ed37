// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The mixin as rules_test.yaml tests it: the shipped rules with per-program thresholds.
(import 'mixin/mixin.libsonnet') + {
  _config+:: {
    p99Thresholds: [
      { matcher: 'prog_name="xdp_fw"', seconds: 20e-6 },
      // Looser than the type's entry below: the first matching entry wins.
      { matcher: 'prog_name="tc_slow"', seconds: 200e-6 },
      { matcher: 'prog_type="sched_cls"', seconds: 50e-6 },
    ],
  },
}
