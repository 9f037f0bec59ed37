// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// lattop's monitoring mixin: prometheusAlerts, prometheusRules and grafanaDashboards, with the
// thresholds in _config (config.libsonnet). `make mixin` writes them out with jsonnet.
(import 'config.libsonnet')
+ (import 'rules.libsonnet')
+ (import 'alerts.libsonnet')
+ (import 'dashboards.libsonnet')
