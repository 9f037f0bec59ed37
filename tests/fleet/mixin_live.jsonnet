// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The mixin as t_fleet.sh loads it into a real Prometheus scraping lattop --demo: the shipped
// rules, with a p99 threshold every demo program passes and no wait, so that the alert fires
// from real classic and native histograms within the test.
(import 'mixin/mixin.libsonnet') + {
  _config+:: { p99Default: 1e-9, p99For: '0s' },
}
