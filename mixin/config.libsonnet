// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// What a fleet changes: the job's selector, the thresholds and how long each must hold.
// Override any field from a file of your own:
//   (import 'mixin.libsonnet') + { _config+:: { p99For: '10m' } }
{
  _config+:: {
    // Selects lattop's scrape job(s) in every query.
    selector: 'job="lattop"',
    // The label that names a host on the dashboard (Prometheus sets instance per target).
    hostLabel: 'instance',
    // Window of the rate() in the recording rules.
    window: '5m',

    // p99 per program: the first entry whose label matcher selects the program applies,
    // else the default. A matcher may name a program or any of its labels, e.g.
    //   { matcher: 'prog_name="xdp_fw"', seconds: 20e-6 },
    //   { matcher: 'prog_type="sched_cls"', seconds: 50e-6 },
    p99Default: 100e-6,
    p99Thresholds: [],
    p99For: '5m',

    // Any event lost (ring buffer, queue, recursion, nest, span losses ...) for this long.
    lostFor: '5m',

    // Probe cost, in CPUs: lattop_probe_cpu_ratio (the probed runs times the cost of a run
    // lattop measured at start-up), else the probe floor times the probed runs per second.
    probeCostBudget: 0.05,
    // lattop's own CPU (lattop_process_cpu_seconds_total), in CPUs.
    cpuBudget: 0.10,
    costFor: '15m',

    // lattop down (up == 0 or the target gone) and lattop closing no interval.
    downFor: '5m',
  },
}
