// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Recording rules: the figures the alerts and the dashboard read, per program and per lattop.
{
  local c = self._config,
  local s = c.selector,
  local w = c.window,

  prometheusRules+:: {
    groups+: [{
      name: 'lattop.rules',
      rules: [
        // Per-program quantiles from classic buckets when the scrape kept them, else from
        // the native histogram (a Prometheus with --enable-feature=native-histograms).
        {
          record: 'lattop_program:latency_seconds:p%s_rate%s' % [q.name, w],
          expr: |||
            histogram_quantile(%(q)s, rate(lattop_program_latency_seconds_bucket{%(s)s}[%(w)s]))
            or
            histogram_quantile(%(q)s, rate(lattop_program_latency_seconds{%(s)s}[%(w)s]))
          ||| % { q: q.q, s: s, w: w },
        }
        for q in [{ name: '50', q: '0.5' }, { name: '99', q: '0.99' }]
      ] + [
        {
          record: 'lattop_program:runs:rate' + w,
          expr: 'rate(lattop_program_runs_total{%s}[%s])' % [s, w],
        },
        {
          record: 'lattop_program:cpu:rate' + w,
          expr: 'rate(lattop_program_run_time_seconds_total{%s}[%s])' % [s, w],
        },
        {
          record: 'lattop:lost_events:rate' + w,
          expr: 'rate(lattop_lost_events_total{%s}[%s])' % [s, w],
        },
        {
          record: 'lattop:process_cpu:rate' + w,
          expr: 'rate(lattop_process_cpu_seconds_total{%s}[%s])' % [s, w],
        },
        // CPU seconds per second the probes add: what lattop measured (the probed runs times
        // the cost of a run it measured at start-up), else, from a lattop that does not export
        // it (the ring buffer's path, older versions), the floor times the probed runs; 0 from
        // a lattop with no probe attached (a kernel without fentry on BPF programs).
        {
          record: 'lattop:probe_cost:rate' + w,
          expr: |||
            avg_over_time(lattop_probe_cpu_ratio{%(s)s}[%(w)s])
            or
            lattop_probe_floor_seconds{%(s)s}
            * on (job, instance) group_left ()
            sum by (job, instance) (
              rate(lattop_program_latency_seconds_count{%(s)s}[%(w)s])
              or
              histogram_count(rate(lattop_program_latency_seconds{%(s)s}[%(w)s]))
            )
            or
            lattop_probed_programs{%(s)s} == 0
          ||| % { s: s, w: w },
        },
      ],
    }],
  },
}
