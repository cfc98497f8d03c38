"""The one error type of benchmark synthesis."""

from __future__ import annotations

from ..errors import GqlirError


class SynthError(GqlirError):
    """A template that does not compile, a bad configuration, or an output folder that cannot be
    written or resumed."""

    code = "SYNTH"
