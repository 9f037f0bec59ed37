// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The files `make mixin` writes (jsonnet -S -m DIR): the rules for Prometheus' rule_files and
// the dashboard for Grafana. A file of yours can import mixin.libsonnet with its own _config
// and be written the same way (docs/GUIDE.md, Fleet).
local mixin = std.extVar('mixin');
{
  'alerts.yaml': std.manifestYamlDoc(mixin.prometheusAlerts, indent_array_in_object=true),
  'rules.yaml': std.manifestYamlDoc(mixin.prometheusRules, indent_array_in_object=true),
} + {
  [name]: std.manifestJsonEx(mixin.grafanaDashboards[name], '  ')
  for name in std.objectFields(mixin.grafanaDashboards)
}
