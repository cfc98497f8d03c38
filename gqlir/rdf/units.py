"""Unit conversion through pint, with exact decimal arithmetic so that 1.83 m becomes 183 cm,
not 183.00000000000003 cm. pint is imported only when a mapping has quantities."""

from __future__ import annotations

import decimal
from functools import lru_cache
from typing import Any

from ..optional import require


def _pint() -> Any:
    return require("pint", extra="rdf", purpose="unit conversion")


class UnitConversionFailed(Exception):
    """A value could not be converted; the message is the reason the report counts."""


@lru_cache(maxsize=8)
def _registry(definitions: tuple[str, ...]) -> Any:
    pint = _pint()

    registry = pint.UnitRegistry(non_int_type=decimal.Decimal)
    for line in definitions:
        registry.define(line)
    return registry


def registry_problem(definitions: tuple[str, ...]) -> tuple[int, str] | None:
    """(index, reason) of the first unit definition pint refuses, or None."""
    pint = _pint()

    registry = pint.UnitRegistry(non_int_type=decimal.Decimal)
    for i, line in enumerate(definitions):
        try:
            registry.define(line)
        except (pint.PintError, ValueError, TypeError, AttributeError) as exc:
            return i, f"pint refuses the unit definition {line!r}: {exc}"
    return None


def unit_problem(expression: str, definitions: tuple[str, ...]) -> str | None:
    """Why ``expression`` is not a unit pint knows (None when it is)."""
    pint = _pint()

    try:
        _registry(definitions).parse_units(expression)
    except (pint.PintError, ValueError, TypeError, AttributeError, SyntaxError) as exc:
        return f"{expression!r} is not a unit pint knows ({type(exc).__name__}: {exc})"
    return None


def same_unit(source: str, target: str, definitions: tuple[str, ...]) -> bool:
    """Whether two spellings name one unit (``km**2`` and ``km²``)."""
    registry = _registry(definitions)
    return bool(registry.parse_units(source) == registry.parse_units(target))


def convert(
    amount: decimal.Decimal, source: str, target: str, definitions: tuple[str, ...]
) -> decimal.Decimal:
    """``amount`` in ``source`` units expressed in ``target`` units."""
    pint = _pint()

    registry = _registry(definitions)
    try:
        result = registry.Quantity(amount, source).to(target).magnitude
    except pint.DimensionalityError:
        raise UnitConversionFailed(f"cannot convert {source} to {target}") from None
    except (pint.PintError, ValueError, TypeError, ArithmeticError) as exc:
        raise UnitConversionFailed(f"cannot convert {source} to {target}: {exc}") from None
    return decimal.Decimal(result)
