// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Alerts: a program's p99 over its threshold, events lost, the probes or lattop costing more
// than their budget (a fixed share of a CPU, and lattop's own --budget), lattop down or closing
// no interval.
{
  local c = self._config,
  local s = c.selector,
  local w = c.window,
  local p99 = 'lattop_program:latency_seconds:p99_rate' + w,
  // A threshold as people write it: 20us, 1.5ms, 2s.
  local pct(x) = '%g%%' % (x * 100),
  local dur(x) = if x < 1e-3 then '%gus' % (x * 1e6) else if x < 1 then '%gms' % (x * 1e3) else '%gs' % x,

  // One rule per threshold entry, then one for the default: a program takes the first entry
  // whose matcher selects it (the earlier entries' programs are taken out with unless).
  local p99Rules =
    local entries = c.p99Thresholds;
    local earlier(i) = std.join(' or ', ['%s{%s}' % [p99, entries[j].matcher] for j in std.range(0, i - 1)]);
    local rule(sel, seconds, i) = {
      alert: 'LattopProgramP99High',
      expr: '%s{%s} > %g' % [p99, sel, seconds]
            + (if i > 0 then ' unless on (job, instance, prog_id) (%s)' % earlier(i) else ''),
      'for': c.p99For,
      labels: { severity: 'warning' },
      annotations: {
        summary: 'BPF program {{ $labels.prog_name }} p99 {{ $value | humanizeDuration }} over %s' % dur(seconds),
        description: 'The p99 latency of BPF program {{ $labels.prog_name }} (id {{ $labels.prog_id }}, type {{ $labels.prog_type }}) on {{ $labels.instance }} has been {{ $value | humanizeDuration }} over the last %s, above its threshold of %s, for %s.' % [w, dur(seconds), c.p99For],
      },
    };
    [rule(s + ',' + entries[i].matcher, entries[i].seconds, i) for i in std.range(0, std.length(entries) - 1)]
    + [rule(s, c.p99Default, std.length(entries))],

  prometheusAlerts+:: {
    groups+: [{
      name: 'lattop.alerts',
      rules: p99Rules + [
        {
          alert: 'LattopEventsLost',
          expr: 'increase(lattop_lost_events_total{%s}[%s]) > 0' % [s, w],
          'for': c.lostFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop on {{ $labels.instance }} loses events ({{ $labels.reason }}{{ with $labels.span }}, span {{ . }}{{ end }})',
            description: 'lattop on {{ $labels.instance }} lost {{ $value | humanize }} events for reason {{ $labels.reason }}{{ with $labels.span }} (span {{ . }}){{ end }} in the last %s: its figures miss those runs. lattop(8) names each reason.' % w,
          },
        },
        {
          alert: 'LattopProbeCostOverBudget',
          expr: 'lattop:probe_cost:rate%s{%s} > %g' % [w, s, c.probeCostBudget],
          'for': c.costFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop probes on {{ $labels.instance }} cost {{ $value | humanizePercentage }} of a CPU, over %s' % pct(c.probeCostBudget),
            description: "lattop's per-invocation probes on {{ $labels.instance }} cost {{ $value | humanizePercentage }} of a CPU over the last %s (lattop_probe_cpu_ratio as lattop measured it, else lattop_probe_floor_seconds times the probed runs per second), over the budget of %s. Watch fewer programs (-p)." % [w, pct(c.probeCostBudget)],
          },
        },
        {
          // lattop's own --budget (a share of the machine): its probes' measured cost over
          // the window above it. Sessions with --budget max export no budget: no alert.
          alert: 'LattopProbeBudgetExceeded',
          expr: 'avg_over_time(lattop_probe_machine_ratio{%s}[%s]) > lattop_probe_budget_ratio{%s}' % [s, w, s],
          'for': c.costFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop probes on {{ $labels.instance }} cost {{ $value | humanizePercentage }} of the machine, over their --budget',
            description: "lattop's per-invocation probes on {{ $labels.instance }} cost {{ $value | humanizePercentage }} of the whole machine on average over the last %s (lattop_probe_machine_ratio), more than the --budget it was started with (lattop_probe_budget_ratio): its plan reacts an interval late to busier programs, and this says it has not caught up. Watch fewer programs with -p, or raise --budget." % w,
          },
        },
        {
          alert: 'LattopCPUOverBudget',
          expr: 'lattop:process_cpu:rate%s{%s} > %g' % [w, s, c.cpuBudget],
          'for': c.costFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop on {{ $labels.instance }} uses {{ $value | humanizePercentage }} of a CPU, over %s' % pct(c.cpuBudget),
            description: 'lattop on {{ $labels.instance }} has used {{ $value | humanizePercentage }} of a CPU (lattop_process_cpu_seconds_total) over the last %s, over its budget of %s.' % [w, pct(c.cpuBudget)],
          },
        },
        {
          alert: 'LattopDown',
          expr: 'up{%s} == 0' % s,
          'for': c.downFor,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'lattop on {{ $labels.instance }} is down',
            description: 'Prometheus has not scraped lattop on {{ $labels.instance }} (job {{ $labels.job }}) for %s: no BPF program there is measured.' % c.downFor,
          },
        },
        {
          alert: 'LattopAbsent',
          expr: 'absent(up{%s})' % s,
          'for': c.downFor,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'No lattop target is scraped',
            description: 'Prometheus has had no target for {%s} for %s: no lattop is measured anywhere.' % [s, c.downFor],
          },
        },
        {
          alert: 'LattopNotClosingIntervals',
          expr: 'up{%(s)s} == 1 and on (job, instance) increase(lattop_intervals_total{%(s)s}[%(w)s]) == 0' % { s: s, w: w },
          'for': c.downFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop on {{ $labels.instance }} answers but closes no interval',
            description: 'lattop on {{ $labels.instance }} is scraped but lattop_intervals_total has not moved in %s: its figures are stale (its session is stuck or its programs are not read).' % w,
          },
        },
        {
          alert: 'LattopNoPrograms',
          expr: 'up{%(s)s} == 1 unless on (job, instance) (lattop_program_runs_total{%(s)s} or lattop_program_latency_seconds_count{%(s)s} or lattop_program_latency_seconds{%(s)s})' % { s: s },
          'for': c.downFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'lattop on {{ $labels.instance }} exports no BPF program',
            description: 'lattop on {{ $labels.instance }} answers but has exported no program figure for %s: no BPF program is loaded there, or it runs with --no-stats and probes nothing.' % c.downFor,
          },
        },
      ],
    }],
  },
}
