"""Realistic corruption of text and numbers, for the perturbation families.

* **typos** (names): substitute a visually confusable character (``l``→``1``, ``o``→``0``,
  ``rn``-like slips), delete, insert, transpose, flip a letter's case, or two of these;
* **string noise** (other text): swap the case of 20–50 % of the letters and/or insert one to
  three of ``- + * & # @ ! ~`` (NGDBench's CSV-level noise);
* **numeric noise**: scale by a factor of 10^±1..4, keeping the value of its type.

Every function takes the caller's ``random.Random`` and returns a value different from its
input (or None when no change can be made within the type).
"""

from __future__ import annotations

import decimal
import random
import string
from collections.abc import Callable
from typing import Any

from ..schema.graphdata import check_value
from ..schema.types import INTEGER_RANGES, PropertyType, TypeKind

K = TypeKind

#: characters a reader or an OCR pass confuses (written for gqlir)
CONFUSABLE: dict[str, str] = {
    "a": "oeq",
    "b": "6dh",
    "c": "eo",
    "d": "bcl",
    "e": "ca",
    "g": "q9",
    "h": "bn",
    "i": "l1j",
    "l": "i1t",
    "m": "n",
    "n": "mh",
    "o": "0ca",
    "q": "g9",
    "r": "n",
    "s": "5z",
    "t": "lf",
    "u": "vn",
    "v": "uy",
    "z": "s2",
    "0": "oO",
    "1": "li",
    "5": "s",
    "8": "B",
    "B": "8",
    "O": "0Q",
    "S": "5",
    "I": "l1",
}
NOISE_CHARS = "-+*&#@!~"
TYPO_OPERATIONS = ("substitution", "deletion", "insertion", "transposition", "case", "mix")
FACTORS = (10, 100, 1000, 10000, 0.1, 0.01, 0.001, 0.0001)


def _substitute(text: str, rng: random.Random) -> str:
    spots = [i for i, ch in enumerate(text) if ch in CONFUSABLE]
    if spots:
        i = rng.choice(spots)
        return text[:i] + rng.choice(CONFUSABLE[text[i]]) + text[i + 1 :]
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(string.ascii_lowercase) + text[i + 1 :]


def _delete(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + text[i + 1 :]


def _insert(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    near = text[i - 1] if i else text[:1]
    ch = near if rng.random() < 0.5 and near.isalpha() else rng.choice(string.ascii_lowercase)
    return text[:i] + ch + text[i:]


def _transpose(text: str, rng: random.Random) -> str:
    if len(text) < 2:
        return text
    i = rng.randrange(len(text) - 1)
    return text[:i] + text[i + 1] + text[i] + text[i + 2 :]


def _flip_case(text: str, rng: random.Random) -> str:
    spots = [i for i, ch in enumerate(text) if ch.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    return text[:i] + text[i].swapcase() + text[i + 1 :]


_OPS: dict[str, Callable[[str, random.Random], str]] = {
    "substitution": _substitute,
    "deletion": _delete,
    "insertion": _insert,
    "transposition": _transpose,
    "case": _flip_case,
}


def typo(text: str, rng: random.Random, max_length: int | None = None) -> tuple[str, str] | None:
    """(new text, operation) with one realistic typo, or None when ``text`` is too short."""
    if len(text) < 3:
        return None
    for _ in range(12):
        op = rng.choice(TYPO_OPERATIONS)
        if op == "mix":
            a, b = rng.sample(list(_OPS), 2)
            new = _OPS[b](_OPS[a](text, rng), rng)
        else:
            new = _OPS[op](text, rng)
        if new and new != text and (max_length is None or len(new) <= max_length):
            return new, op
    return None


def string_noise(
    text: str, rng: random.Random, max_length: int | None = None
) -> tuple[str, str] | None:
    """(new text, operation): letters' case swapped and/or noise characters inserted."""
    for _ in range(12):
        op = rng.choice(("case_swap", "noise_chars", "both"))
        new = text
        if op in ("case_swap", "both"):
            letters = [i for i, ch in enumerate(new) if ch.isalpha()]
            if letters:
                k = max(1, round(len(letters) * rng.uniform(0.2, 0.5)))
                flip = set(rng.sample(letters, k))
                new = "".join(ch.swapcase() if i in flip else ch for i, ch in enumerate(new))
        if op in ("noise_chars", "both"):
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(new) + 1)
                new = new[:i] + rng.choice(NOISE_CHARS) + new[i:]
        if max_length is not None and len(new) > max_length:
            continue
        if new != text:
            return new, op
    return None


def scale_number(value: Any, ptype: PropertyType, rng: random.Random) -> tuple[Any, str] | None:
    """(new value, "x<factor>") for a nonzero number: scaled by a factor from NGDBench's set,
    rounded to the type (integers stay integers, decimals keep their scale and precision).
    None when the value is zero or no factor gives a different value of the type."""
    if isinstance(value, bool) or value in (0, "0") or value is None:
        return None
    factors = list(FACTORS)
    rng.shuffle(factors)
    for f in factors:
        new = _scaled(value, ptype, f)
        if new is not None and new != value and check_value(new, ptype) is None:
            return new, f"x{f:g}"
    return None


def _scaled(value: Any, ptype: PropertyType, f: float) -> Any:
    k = ptype.kind
    try:
        if k in INTEGER_RANGES:
            return round(value * f)
        if k == K.DECIMAL:
            d = decimal.Decimal(str(value)) * decimal.Decimal(str(f))
            if decimal.Decimal(str(value)).is_zero():
                return None
            scale = ptype.scale if ptype.scale is not None else max(0, -_exponent(value))
            d = d.quantize(decimal.Decimal(1).scaleb(-scale), rounding=decimal.ROUND_HALF_EVEN)
            text = f"{d:.{scale}f}"
            return text if isinstance(value, str) else float(text)
        if isinstance(value, (int, float)):
            return float(value) * f
    except (decimal.InvalidOperation, TypeError, ValueError, OverflowError):
        return None
    return None


def _exponent(value: Any) -> int:
    exp = decimal.Decimal(str(value)).as_tuple().exponent
    return exp if isinstance(exp, int) else 0


__all__ = ["FACTORS", "NOISE_CHARS", "TYPO_OPERATIONS", "scale_number", "string_noise", "typo"]
