// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// One Grafana dashboard (JSON model, schema 37): the programs overview, p50/p99 over time per
// program, latency heatmaps (native histogram and classic buckets), losses, lattop's own cost.
// Variables: datasource, host (the hostLabel of lattop's targets), program (prog_name).
{
  local c = self._config,
  local s = c.selector,
  local h = c.hostLabel,
  local w = c.window,
  local ds = { type: 'prometheus', uid: '${datasource}' },
  local host = '%s,%s=~"$host"' % [s, h],
  local prog = host + ',prog_name=~"$program"',
  local lat = 'lattop_program_latency_seconds',

  // A quantile from classic buckets where the scrape kept them, else from native histograms.
  local quantile(q, sel) =
    'histogram_quantile(%s, rate(%s_bucket{%s}[$__rate_interval]))\nor\nhistogram_quantile(%s, rate(%s{%s}[$__rate_interval]))'
    % [q, lat, sel, q, lat, sel],

  local target(expr, legend, ref, instant=false, format='time_series') = {
    datasource: ds,
    expr: expr,
    legendFormat: legend,
    refId: ref,
    instant: instant,
    range: !instant,
    format: format,
  },

  local panel(id, type, title, desc, x, y, wd, ht, targets, unit='s', extra={}) = {
    id: id,
    type: type,
    title: title,
    description: desc,
    datasource: ds,
    gridPos: { x: x, y: y, w: wd, h: ht },
    targets: targets,
    fieldConfig: { defaults: { unit: unit }, overrides: [] },
    options: {},
  } + extra,

  local rec(name) = '%s{%s}' % [name, prog],

  local panels = [
    panel(1, 'table', 'Programs',
          'Every program lattop exports on the selected hosts: p50 and p99 over %s (recording rules), runs per second and CPU (bpf_stats).' % w,
          0, 0, 24, 8, [
            target(rec('lattop_program:latency_seconds:p50_rate' + w), '{{%s}} {{prog_name}}' % h, 'A', true, 'table'),
            target(rec('lattop_program:latency_seconds:p99_rate' + w), '{{%s}} {{prog_name}}' % h, 'B', true, 'table'),
            target(rec('lattop_program:runs:rate' + w), '{{%s}} {{prog_name}}' % h, 'C', true, 'table'),
            target(rec('lattop_program:cpu:rate' + w), '{{%s}} {{prog_name}}' % h, 'D', true, 'table'),
          ], unit='none', extra={ transformations: [{ id: 'merge', options: {} }] }),
    panel(2, 'timeseries', 'p50 and p99 per program',
          'Per-invocation latency quantiles of each selected program.',
          0, 8, 24, 8, [
            target(quantile('0.5', prog), 'p50 {{%s}} {{prog_name}}' % h, 'A'),
            target(quantile('0.99', prog), 'p99 {{%s}} {{prog_name}}' % h, 'B'),
          ]),
    panel(3, 'heatmap', 'Latency heatmap (native histograms)',
          'Per-invocation latency of the selected programs, from the native histograms (Prometheus with --enable-feature=native-histograms): 128 buckets per power of two.',
          0, 16, 12, 9, [
            target('sum(rate(%s{%s}[$__rate_interval]))' % [lat, prog], '', 'A', false, 'heatmap'),
          ], extra={ options: { calculate: false, yAxis: { unit: 's' } } }),
    panel(4, 'heatmap', 'Latency heatmap (classic buckets)',
          'The same from the classic buckets (powers of two), for a Prometheus without native histograms.',
          12, 16, 12, 9, [
            target('sum by (le) (rate(%s_bucket{%s}[$__rate_interval]))' % [lat, prog], '{{le}}', 'A', false, 'heatmap'),
          ], extra={ options: { calculate: false, yAxis: { unit: 's' } } }),
    panel(5, 'timeseries', 'Runs per second',
          'Runs of each selected program per second (bpf_stats).',
          0, 25, 12, 8, [
            target('rate(lattop_program_runs_total{%s}[$__rate_interval])' % prog, '{{%s}} {{prog_name}}' % h, 'A'),
          ], unit='ops'),
    panel(6, 'timeseries', 'Lost events',
          'Events lattop lost per second, by reason (any above zero means figures miss runs).',
          12, 25, 12, 8, [
            target('sum by (%s, reason) (rate(lattop_lost_events_total{%s}[$__rate_interval]))' % [h, host], '{{%s}} {{reason}}' % h, 'A'),
          ], unit='ops'),
    panel(7, 'timeseries', "lattop's own cost",
          "CPU lattop's process uses (CPUs) and the UI-thread time its last snapshot took to publish.",
          0, 33, 12, 8, [
            target('rate(lattop_process_cpu_seconds_total{%s}[$__rate_interval])' % host, 'cpu {{%s}}' % h, 'A'),
            target('lattop_publish_seconds{%s}' % host, 'publish {{%s}}' % h, 'B'),
          ], unit='none'),
    panel(8, 'timeseries', 'Probe cost (fentry probes)',
          'CPU seconds per second the per-invocation probes add (a recording rule: the probed runs times the cost of a run lattop measured at start-up, else times the probe floor), the probe floor, and the measured cost of a run; lattop exports these only when it attaches fentry probes.',
          12, 33, 12, 8, [
            target('lattop:probe_cost:rate%s{%s}' % [w, host], 'cost {{%s}}' % h, 'A'),
            target('lattop_probe_floor_seconds{%s}' % host, 'floor {{%s}}' % h, 'B'),
            target('lattop_probe_run_cost_seconds{%s}' % host, 'run cost {{%s}}' % h, 'C'),
          ], unit='none'),
    panel(9, 'stat', 'Scrape health',
          'up per host: 1 while Prometheus scrapes lattop there; intervals closed per second.',
          0, 41, 24, 4, [
            target('up{%s}' % host, 'up {{%s}}' % h, 'A', true),
            target('rate(lattop_intervals_total{%s}[$__rate_interval])' % host, 'intervals/s {{%s}}' % h, 'B', true),
          ], unit='none'),
  ],

  local variable(name, label, query, multi) = {
    name: name,
    label: label,
    type: 'query',
    datasource: ds,
    query: { query: query, refId: name },
    definition: query,
    refresh: 2,
    multi: multi,
    includeAll: multi,
    allValue: if multi then '.*' else null,
    sort: 1,
  },

  grafanaDashboards+:: {
    'lattop.json': {
      uid: 'lattop-fleet',
      title: 'lattop: BPF program latency',
      tags: ['lattop', 'ebpf'],
      editable: true,
      schemaVersion: 37,
      time: { from: 'now-1h', to: 'now' },
      refresh: '30s',
      panels: panels,
      templating: {
        list: [
          { name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus' },
          variable('host', 'Host', 'label_values(up{%s}, %s)' % [s, h], true),
          variable('program', 'Program', 'label_values(lattop_program_runs_total{%s}, prog_name)' % host, true),
        ],
      },
    },
  },
}
