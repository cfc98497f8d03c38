"""The error the metrics and the evaluation harness raise for bad inputs and settings."""

from __future__ import annotations

from ..errors import GqlirError


class MetricsError(GqlirError):
    """A metric got inputs it is not defined for, or an evaluation input is malformed
    (unreadable file, unknown format, an output folder of another configuration)."""

    code = "METRICS"
