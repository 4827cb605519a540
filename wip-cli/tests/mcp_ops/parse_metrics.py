"""Reads a metrics exposition on stdin and prints its samples as JSON, as the Prometheus
project's own Python client parses it: the text format 0.0.4, or OpenMetrics 1.0 (which also
requires the closing `# EOF`) with `--openmetrics`. A text the parser refuses exits non-zero."""

import json
import sys

from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families,
)
from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
parse = openmetrics_families if "--openmetrics" in sys.argv[1:] else text_string_to_metric_families
samples = [
    {
        "family": family.name,
        "type": family.type,
        "name": sample.name,
        "labels": sample.labels,
        "value": sample.value,
    }
    for family in parse(text)
    for sample in family.samples
]
json.dump(samples, sys.stdout)
