"""NGDBench's numeric error metrics (aggregation answers) and step-wise session accuracy.

Definitions (ŷ prediction, y gold, N items), as in the NGDBench paper's appendix F:

* MdRE  = median_i |ŷ_i − y_i| / |y_i|; a zero gold value divides by ``eps`` instead;
* MSLE  = (1/N) Σ (ln(1 + ŷ_i) − ln(1 + y_i))²; defined for values ≥ 0 only;
* sMAPE = (1/N) Σ |ŷ_i − y_i| / ((|ŷ_i| + |y_i|) / 2), a term being 0 when both are 0; a
  fraction in [0, 2] (× 100 for percent, ``percent=True``);
* MLRE  = (1/N) Σ |ln((ŷ_i + ε) / (y_i + ε))|, ε = 1e-6; defined for values ≥ 0 only.

Items outside a metric's domain (negative values for MSLE and MLRE) are not silently clipped:
:func:`numeric_scores` leaves them out and says how many it left out.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import MetricsError

__all__ = [
    "NumericScores",
    "mdre",
    "mlre",
    "msle",
    "numeric_scores",
    "session_accuracy",
    "smape",
    "step_accuracy",
]

EPS = 1e-6


def _pairs(preds: Sequence[float], golds: Sequence[float]) -> list[tuple[float, float]]:
    if len(preds) != len(golds):
        raise MetricsError(
            f"{len(preds)} predictions for {len(golds)} values", code="METRICS_LENGTH"
        )
    return [(float(p), float(g)) for p, g in zip(preds, golds)]


def _relative_error(p: float, g: float, eps: float) -> float:
    return abs(p - g) / (abs(g) if g != 0 else eps)


def _log_sq_error(p: float, g: float) -> float:
    return (math.log1p(p) - math.log1p(g)) ** 2


def _smape_term(p: float, g: float) -> float:
    denom = (abs(p) + abs(g)) / 2
    return abs(p - g) / denom if denom else 0.0


def _log_ratio_error(p: float, g: float, eps: float) -> float:
    return abs(math.log((p + eps) / (g + eps)))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _check_non_negative(pairs: list[tuple[float, float]], name: str) -> None:
    if any(p < 0 or g < 0 for p, g in pairs):
        raise MetricsError(f"{name} is defined for values >= 0", code="METRICS_DOMAIN")


def mdre(preds: Sequence[float], golds: Sequence[float], *, eps: float = EPS) -> float:
    """Median relative error (NaN for no items)."""
    errors = [_relative_error(p, g, eps) for p, g in _pairs(preds, golds)]
    return statistics.median(errors) if errors else math.nan


def msle(preds: Sequence[float], golds: Sequence[float]) -> float:
    """Mean squared logarithmic error (values must be ≥ 0)."""
    pairs = _pairs(preds, golds)
    _check_non_negative(pairs, "MSLE")
    return _mean([_log_sq_error(p, g) for p, g in pairs])


def smape(preds: Sequence[float], golds: Sequence[float], *, percent: bool = False) -> float:
    """Symmetric mean absolute percentage error, as a fraction in [0, 2] (or percent)."""
    value = _mean([_smape_term(p, g) for p, g in _pairs(preds, golds)])
    return value * 100 if percent else value


def mlre(preds: Sequence[float], golds: Sequence[float], *, eps: float = EPS) -> float:
    """Mean log-ratio error (values must be ≥ 0)."""
    pairs = _pairs(preds, golds)
    _check_non_negative(pairs, "MLRE")
    return _mean([_log_ratio_error(p, g, eps) for p, g in pairs])


@dataclass(frozen=True, slots=True)
class NumericScores:
    """All four numeric metrics over the same items; ``undefined`` counts the items left out of
    MSLE and MLRE for a negative value."""

    n: int
    mdre: float
    msle: float
    smape: float
    mlre: float
    undefined: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mdre": self.mdre,
            "msle": self.msle,
            "smape": self.smape,
            "mlre": self.mlre,
            "undefined": self.undefined,
        }


def numeric_scores(preds: Sequence[float], golds: Sequence[float]) -> NumericScores:
    pairs = _pairs(preds, golds)
    defined = [(p, g) for p, g in pairs if p >= 0 and g >= 0]
    return NumericScores(
        n=len(pairs),
        mdre=mdre([p for p, _ in pairs], [g for _, g in pairs]),
        msle=_mean([_log_sq_error(p, g) for p, g in defined]),
        smape=smape([p for p, _ in pairs], [g for _, g in pairs]),
        mlre=_mean([_log_ratio_error(p, g, EPS) for p, g in defined]),
        undefined=len(pairs) - len(defined),
    )


# -- management sessions ----------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    from .values import value_key

    return value_key(a) == value_key(b)


def step_accuracy(
    preds: Sequence[Any],
    golds: Sequence[Any],
    equal: Callable[[Any, Any], bool] = _same,
) -> float:
    """NGDBench's L_step for one session of T steps: (1/T) Σ_t 1[â_t = a_t]. A missing
    predicted step (the prediction is shorter) is wrong; extra predicted steps are ignored."""
    if not golds:
        return 0.0
    hits = sum(1 for t, gold in enumerate(golds) if t < len(preds) and equal(preds[t], gold))
    return hits / len(golds)


def session_accuracy(
    sessions: Sequence[tuple[Sequence[Any], Sequence[Any]]],
    equal: Callable[[Any, Any], bool] = _same,
) -> float:
    """The mean of :func:`step_accuracy` over sessions of (predicted, gold) answers."""
    if not sessions:
        return 0.0
    return sum(step_accuracy(p, g, equal) for p, g in sessions) / len(sessions)
