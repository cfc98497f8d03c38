"""The error graph generation, perturbation and restoration report."""

from __future__ import annotations

from ..errors import GqlirError


class GraphGenError(GqlirError):
    """A configuration that cannot be met, a malformed config or noise log, or a graph that
    does not match what the operation needs. The message says which and why."""

    code = "GRAPHGEN"


__all__ = ["GraphGenError"]
