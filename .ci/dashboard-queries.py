#!/usr/bin/env python3
"""Prints every PromQL query of a Grafana dashboard as a Prometheus recording rule, so that
`promtool check rules` checks their syntax ($name becomes .*, $__rate_interval 1m).

Usage: dashboard-queries.py observability/grafana-dashboard.json > queries.yml
"""
import json, sys
d = json.load(open(sys.argv[1]))
exprs = []
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == 'expr' and isinstance(value, str):
                exprs.append(value)
            walk(value)
    elif isinstance(node, list):
        for item in node:
            walk(item)
walk(d)
print('groups:\n  - name: dashboard-queries\n    rules:')
for i, e in enumerate(exprs):
    e = e.replace('$__rate_interval', '1m').replace('$name', '.*')
    print('      - record: dashboard:query_%d' % i)
    print('        expr: ' + json.dumps(e))
