// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A fleet's own thresholds on top of the shipped mixin: make mixin MIXIN=mixin/example.jsonnet
// (docs/GUIDE.md, Fleet). Copy it and change the figures.
(import 'mixin.libsonnet') + {
  _config+:: {
    // The firewall must stay fast; traffic control programs may take longer; others 100us.
    p99Thresholds: [
      { matcher: 'prog_name="xdp_fw"', seconds: 20e-6 },
      { matcher: 'prog_type="sched_cls"', seconds: 50e-6 },
    ],
    p99For: '10m',
    cpuBudget: 0.05,
  },
}
