"""Optional dependencies: one error, and one message, for every feature that needs one.

gqlir itself needs only Lark; SQL, Parquet, RDF, live databases and the ZetaSQL checker need
packages that come with an extra (``pip install 'gqlir[sql]'``). A feature imports its package
through :func:`require`, so a missing one is always a :class:`MissingDependencyError` that says
what is missing, what for, and the command that brings it (the CLI exits 2 for it: the run
cannot start, whatever the input), never an ``ImportError`` or a silently skipped output.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import GqlirError


class MissingDependencyError(GqlirError):
    """An optional package that a feature needs is not installed."""

    code = "MISSING_DEPENDENCY"

    def __init__(self, package: str, *, extra: str, purpose: str) -> None:
        self.package = package
        self.extra = extra
        self.install = f"pip install 'gqlir[{extra}]'"
        super().__init__(f"{purpose} needs {package}, which is not installed: {self.install}")


def require(module: str, *, extra: str, purpose: str, package: str | None = None) -> ModuleType:
    """``module`` imported, or a :class:`MissingDependencyError` naming ``package`` (the
    distribution to install, when its name differs from the module's) and the ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        name = package or module.partition(".")[0]
        raise MissingDependencyError(name, extra=extra, purpose=purpose) from None
