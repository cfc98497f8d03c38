"""Property value generators: a value spec (a small JSON object, see docs/graphgen.md) compiled
into a function ``(k, record) -> value`` that makes the value of the k-th element's property.

Values are graph-data values (docs/graph-format.md) of the property's type: integers in the
type's range, decimals as exact text with the type's scale, dates and instants as ISO 8601
text. A compiled spec is checked on sample values with :func:`graphdata.check_value`, so a
spec that cannot make values of its type is an error before anything is written.

``unique`` specs derive the value from the element's index (through a seeded permutation, so
neighbouring elements do not get neighbouring values): uniqueness holds by construction, with
no set of values kept in memory.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import random
import uuid
from collections.abc import Callable
from typing import Any

from ..schema.graphdata import check_value
from ..schema.types import INTEGER_RANGES, PropertyType, TypeKind
from .distributions import zipf_table
from .errors import GraphGenError
from .seeds import AffinePermutation
from .wordlists import words

K = TypeKind
Generator = Callable[[int, dict[str, Any]], Any]

INTEGER_KINDS = frozenset(INTEGER_RANGES)
FLOAT_KINDS = frozenset({K.FLOAT32, K.FLOAT64})
NUMERIC_KINDS = INTEGER_KINDS | FLOAT_KINDS | {K.DECIMAL}

COMPANY_SUFFIXES = (
    "Ltd",
    "Group",
    "Labs",
    "Partners",
    "Holdings",
    "Systems",
    "Works",
    "Trading",
    "Capital",
    "Industries",
)
CONTINENTS = ("Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America")
EMAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example", "post.example")

#: spec keys every distribution accepts
COMMON_KEYS = {"dist", "null_ratio", "unique"}
#: distribution -> the further keys it accepts
DIST_KEYS: dict[str, set[str]] = {
    "uniform": {"min", "max", "decimals"},
    "normal": {"mean", "stddev", "min", "max", "decimals"},
    "lognormal": {"mu", "sigma", "min", "max", "decimals"},
    "zipf": {"n", "s", "values"},
    "categorical": {"values", "weights"},
    "boolean": {"p"},
    "date": {"start", "end", "offset"},
    "time": {"offset"},
    "duration": {"min_minutes", "max_minutes"},
    "name": {"kind"},
    "text": {"min_words", "max_words"},
    "email": set(),
    "url": set(),
    "ipv4": set(),
    "uuid": set(),
    "code": {"prefix", "length", "alphabet"},
    "bytes": {"length"},
    "point": {"x", "y"},
    "list": {"element", "min_len", "max_len"},
    "map": {"keys"},
    "sequence": {"prefix"},
    "after": {"property", "min", "max"},
}
NAME_KINDS = ("full", "first", "last", "company", "city", "country", "continent", "title", "word")
UNIQUE_DISTS = frozenset(
    {"sequence", "uniform", "name", "text", "email", "url", "code", "uuid", "date", "ipv4"}
)


def compile_spec(
    spec: dict[str, Any],
    ptype: PropertyType,
    *,
    rng: random.Random,
    count: int,
    where: str,
    id_of: Callable[[int], int] | None = None,
) -> Generator:
    """The generator of one property. ``count`` is how many elements will be made (unique
    values need a large enough domain); ``id_of`` maps an element index to its node id (a
    ``sequence`` integer key is the node id itself); ``where`` names the property in errors."""
    check_spec(spec, where)
    make = _compile_value(spec, ptype, rng, count, where, id_of)
    null_ratio = float(spec.get("null_ratio", 0.0))
    if null_ratio > 0:
        inner = make

        def make(k: int, record: dict[str, Any]) -> Any:
            if rng.random() < null_ratio:
                return None
            return inner(k, record)

    _check_samples(spec, ptype, make, rng, where)
    return make


def check_spec(spec: Any, where: str) -> None:
    """Reject unknown distributions and keys with the path of the spec."""
    if not isinstance(spec, dict) or not isinstance(spec.get("dist"), str):
        raise GraphGenError(f"{where}: a value spec is an object with a 'dist'")
    dist = spec["dist"]
    if dist not in DIST_KEYS:
        raise GraphGenError(
            f"{where}: unknown dist {dist!r}; known: {', '.join(sorted(DIST_KEYS))}"
        )
    unknown = set(spec) - COMMON_KEYS - DIST_KEYS[dist]
    if unknown:
        raise GraphGenError(f"{where}: {dist} takes no {', '.join(sorted(unknown))}")
    ratio = spec.get("null_ratio", 0.0)
    if not isinstance(ratio, (int, float)) or not 0 <= ratio <= 1:
        raise GraphGenError(f"{where}: null_ratio must be a number in [0, 1]")
    if spec.get("unique") and dist not in UNIQUE_DISTS:
        raise GraphGenError(f"{where}: {dist} values cannot be made unique; use sequence or code")


def _check_samples(
    spec: dict[str, Any], ptype: PropertyType, make: Generator, rng: random.Random, where: str
) -> None:
    """Make a few values with a throw-away copy of the stream and check their type, so a spec
    that does not fit its property fails before any file is written."""
    state = rng.getstate()
    try:
        record: dict[str, Any] = {}
        for k in range(3):
            v = make(k, record)
            if v is not None:
                why = check_value(v, ptype)
                if why:
                    raise GraphGenError(f"{where}: {spec['dist']} made {v!r}, not a {ptype}: {why}")
    except (GraphGenError, ValueError, TypeError, OverflowError, KeyError) as exc:
        if isinstance(exc, GraphGenError):
            raise
        raise GraphGenError(f"{where}: the spec cannot make {ptype} values ({exc})") from None
    finally:
        rng.setstate(state)


# -- finishing raw samples as values of the property's type --------------------------------------


def _finisher(ptype: PropertyType, spec: dict[str, Any]) -> Callable[[Any], Any]:
    k = ptype.kind
    if k in INTEGER_KINDS:
        lo, hi = INTEGER_RANGES[k]
        return lambda x: min(hi, max(lo, round(x)))
    if k in FLOAT_KINDS:
        digits = spec.get("decimals")
        if digits is None:
            return float
        return lambda x: round(float(x), digits)
    if k == K.DECIMAL:
        return decimal_text(ptype, spec.get("decimals"))
    if k == K.STRING and ptype.length is not None:
        n = ptype.length
        return lambda x: str(x)[:n]
    if k == K.STRING:
        return str
    return lambda x: x


def decimal_text(ptype: PropertyType, digits: int | None = None) -> Callable[[Any], str]:
    """Numbers as DECIMAL(p,s) text: rounded to the scale and clipped to what fits."""
    scale = ptype.scale if ptype.scale is not None else (2 if digits is None else digits)
    if ptype.precision is not None:
        whole = ptype.precision - (ptype.scale or 0)
        top = decimal.Decimal(10) ** whole - decimal.Decimal(1).scaleb(-scale)
    else:
        top = None
    quantum = decimal.Decimal(1).scaleb(-scale)

    def finish(x: Any) -> str:
        d = decimal.Decimal(str(x)).quantize(quantum, rounding=decimal.ROUND_HALF_EVEN)
        if top is not None:
            d = max(-top, min(top, d))
        return f"{d:.{scale}f}"

    return finish


# -- distributions -------------------------------------------------------------------------------


def _compile_value(
    spec: dict[str, Any],
    ptype: PropertyType,
    rng: random.Random,
    count: int,
    where: str,
    id_of: Callable[[int], int] | None,
) -> Generator:
    dist = spec["dist"]
    unique = bool(spec.get("unique"))
    if unique and ptype.kind == K.STRING and ptype.length is not None and dist != "code":
        # cutting values to the length could make two of them equal
        raise GraphGenError(f"{where}: unique {ptype} values need the code dist (with a length)")
    finish = _finisher(ptype, spec)
    perm = AffinePermutation(max(count, 1), rng) if unique else None
    if dist == "sequence":
        return _sequence(spec, ptype, id_of)
    if dist in ("uniform", "normal", "lognormal"):
        return _numeric(spec, ptype, rng, count, where, finish, perm)
    if dist == "zipf":
        table = zipf_table(int(spec.get("n", 100)), float(spec.get("s", 1.1)))
        ranked = spec.get("values")
        if ranked is not None:
            if len(ranked) != table.n:
                raise GraphGenError(f"{where}: zipf has n={table.n} but {len(ranked)} values")
            return lambda k, r: finish(ranked[table.rank(rng) - 1])
        return lambda k, r: finish(table.rank(rng))
    if dist == "categorical":
        values = spec.get("values")
        if not isinstance(values, list) or not values:
            raise GraphGenError(f"{where}: categorical needs a non-empty 'values' list")
        weights = spec.get("weights") or [1.0] * len(values)
        if len(weights) != len(values) or any(w < 0 for w in weights) or sum(weights) <= 0:
            raise GraphGenError(f"{where}: categorical needs one non-negative weight per value")
        cum, acc = [], 0.0
        for w in weights:
            acc += w
            cum.append(acc)
        return lambda k, r: finish(rng.choices(values, cum_weights=cum)[0])
    if dist == "boolean":
        p = float(spec.get("p", 0.5))
        return lambda k, r: rng.random() < p
    if dist == "date":
        return _temporal(spec, ptype, rng, count, where, perm)
    if dist == "time":
        offset = spec.get("offset", "+00:00") if ptype.kind == K.TIME else ""

        def make_time(k: int, r: dict[str, Any]) -> str:
            s = rng.randrange(86400)
            return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}{offset}"

        return make_time
    if dist == "duration":
        lo, hi = int(spec.get("min_minutes", 1)), int(spec.get("max_minutes", 600))
        return lambda k, r: _duration_text(rng.randint(lo, hi))
    if dist == "name":
        return _names(spec, rng, where, finish, perm)
    if dist == "text":
        return _text(spec, rng, finish, perm)
    if dist == "email":
        return _email(rng, finish, perm)
    if dist == "url":

        def make_url(k: int, r: dict[str, Any]) -> str:
            host = rng.choice(words("words"))
            tail = f"-{perm(k)}" if perm else ""
            return finish(f"https://www.{host}{tail}.example/{rng.choice(words('words'))}")

        return make_url
    if dist == "ipv4":

        def make_ip(k: int, r: dict[str, Any]) -> str:
            if perm is not None:
                x = perm(k) + (10 << 24)
                return finish(f"{x >> 24}.{x >> 16 & 255}.{x >> 8 & 255}.{x & 255}")
            return finish(".".join(str(rng.randint(1, 254)) for _ in range(4)))

        return make_ip
    if dist == "uuid":
        return lambda k, r: str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if dist == "code":
        return _code(spec, rng, finish, perm, where)
    if dist == "bytes":
        n = int(spec.get("length", 8))
        if ptype.length is not None:
            n = min(n, ptype.length)
        return lambda k, r: base64.b64encode(rng.randbytes(n)).decode("ascii")
    if dist == "point":
        xr, yr = spec.get("x", [-180.0, 180.0]), spec.get("y", [-90.0, 90.0])
        return lambda k, r: {
            "x": round(rng.uniform(xr[0], xr[1]), 6),
            "y": round(rng.uniform(yr[0], yr[1]), 6),
        }
    if dist == "list":
        return _list(spec, ptype, rng, count, where)
    if dist == "map":
        keys = spec.get("keys") or ["note", "source", "tag"]
        return lambda k, r: {key: rng.choice(words("words")) for key in keys if rng.random() < 0.7}
    if dist == "after":
        return _after(spec, ptype, rng, where)
    raise GraphGenError(f"{where}: unknown dist {dist!r}")  # pragma: no cover (check_spec)


def _sequence(
    spec: dict[str, Any], ptype: PropertyType, id_of: Callable[[int], int] | None
) -> Generator:
    ident = id_of or (lambda k: k + 1)
    if ptype.kind in INTEGER_KINDS:
        return lambda k, r: ident(k)
    prefix = str(spec.get("prefix", ""))
    return lambda k, r: f"{prefix}{ident(k)}"


def _numeric(
    spec: dict[str, Any],
    ptype: PropertyType,
    rng: random.Random,
    count: int,
    where: str,
    finish: Callable[[Any], Any],
    perm: AffinePermutation | None,
) -> Generator:
    dist = spec["dist"]
    lo, hi = spec.get("min"), spec.get("max")
    if perm is not None:
        # unique numbers: evenly spaced over [min, max], in a shuffled order
        if dist != "uniform" or lo is None or hi is None:
            raise GraphGenError(f"{where}: unique numbers need a uniform min and max")
        if ptype.kind in INTEGER_KINDS and hi - lo + 1 < count:
            raise GraphGenError(
                f"{where}: {count} unique integers do not fit in [{lo}, {hi}]; widen the range"
            )
        if ptype.kind in INTEGER_KINDS:
            return lambda k, r: finish(lo + perm(k))
        step = (hi - lo) / max(count, 1)
        return lambda k, r: finish(lo + perm(k) * step)

    def clip(x: float) -> float:
        if lo is not None and x < lo:
            return lo
        if hi is not None and x > hi:
            return hi
        return x

    if dist == "uniform":
        a, b = (0 if lo is None else lo), (1000 if hi is None else hi)
        if ptype.kind in INTEGER_KINDS:
            return lambda k, r: finish(rng.randint(int(a), int(b)))
        return lambda k, r: finish(rng.uniform(a, b))
    if dist == "normal":
        mean, sd = float(spec.get("mean", 0.0)), float(spec.get("stddev", 1.0))
        return lambda k, r: finish(clip(rng.gauss(mean, sd)))
    mu, sigma = float(spec.get("mu", 0.0)), float(spec.get("sigma", 1.0))
    return lambda k, r: finish(clip(rng.lognormvariate(mu, sigma)))


def _parse_instant(text: str, where: str) -> dt.datetime:
    try:
        x = dt.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise GraphGenError(f"{where}: {text!r} is not an ISO 8601 date or date-time") from None
    return x.replace(tzinfo=None)


def _temporal(
    spec: dict[str, Any],
    ptype: PropertyType,
    rng: random.Random,
    count: int,
    where: str,
    perm: AffinePermutation | None,
) -> Generator:
    start = _parse_instant(spec.get("start", "2000-01-01"), where)
    end = _parse_instant(spec.get("end", "2024-12-31"), where)
    if end < start:
        raise GraphGenError(f"{where}: the date range ends before it starts")
    k_ = ptype.kind
    if k_ == K.DATE:
        days = (end.date() - start.date()).days
        base = start.date()
        if perm is not None:
            if days + 1 < count:
                raise GraphGenError(f"{where}: {count} unique dates need a longer range")
            return lambda k, r: (base + dt.timedelta(days=perm(k))).isoformat()
        return lambda k, r: (base + dt.timedelta(days=rng.randint(0, days))).isoformat()
    if k_ not in (K.DATETIME, K.LOCAL_DATETIME):
        raise GraphGenError(f"{where}: date makes DATE and date-time values, not {ptype}")
    seconds = int((end - start).total_seconds())
    suffix = spec.get("offset", "+00:00") if k_ == K.DATETIME else ""
    if perm is not None:
        if seconds + 1 < count:
            raise GraphGenError(f"{where}: {count} unique instants need a longer range")
        return lambda k, r: (start + dt.timedelta(seconds=perm(k))).isoformat() + suffix
    return lambda k, r: (start + dt.timedelta(seconds=rng.randint(0, seconds))).isoformat() + suffix


def _duration_text(minutes: int) -> str:
    d, rest = divmod(minutes, 1440)
    h, m = divmod(rest, 60)
    text = "P" + (f"{d}D" if d else "")
    if h or m or not d:
        text += "T" + (f"{h}H" if h else "") + (f"{m}M" if m or not h else "")
    return text


def name_pool(kind: str) -> tuple[int, Callable[[int], str]]:
    """How many distinct base names a kind has, and the i-th of them (full names are the
    product of given and family names, titles of word pairs)."""
    first, last, ws = words("first_names"), words("last_names"), words("words")
    if kind == "full":
        return len(first) * len(last), lambda i: f"{first[i % len(first)]} {last[i // len(first)]}"
    if kind == "first":
        return len(first), lambda i: first[i]
    if kind == "last":
        return len(last), lambda i: last[i]
    if kind == "company":
        n = len(ws) * len(COMPANY_SUFFIXES)
        return n, lambda i: f"{ws[i % len(ws)].title()} {COMPANY_SUFFIXES[i // len(ws)]}"
    if kind == "city":
        return len(words("cities")), lambda i: words("cities")[i]
    if kind == "country":
        return len(words("countries")), lambda i: words("countries")[i]
    if kind == "continent":
        return len(CONTINENTS), lambda i: CONTINENTS[i]
    if kind == "title":
        return len(ws) ** 2, lambda i: f"{ws[i % len(ws)].title()} {ws[i // len(ws)].title()}"
    return len(ws), lambda i: ws[i]


def _names(
    spec: dict[str, Any],
    rng: random.Random,
    where: str,
    finish: Callable[[Any], Any],
    perm: AffinePermutation | None,
) -> Generator:
    kind = spec.get("kind", "full")
    if kind not in NAME_KINDS:
        raise GraphGenError(f"{where}: name kind {kind!r}; known: {', '.join(NAME_KINDS)}")
    size, nth = name_pool(kind)
    if perm is None:
        return lambda k, r: finish(nth(rng.randrange(size)))
    inner = AffinePermutation(size, rng)

    def unique_name(k: int, r: dict[str, Any]) -> str:
        # every base name once per round, rounds told apart by a number
        j = perm(k)
        rnd, i = divmod(j, size)
        base = nth(inner(i))
        return finish(base if rnd == 0 else f"{base} {rnd + 1}")

    return unique_name


def _text(
    spec: dict[str, Any],
    rng: random.Random,
    finish: Callable[[Any], Any],
    perm: AffinePermutation | None,
) -> Generator:
    lo, hi = int(spec.get("min_words", 4)), int(spec.get("max_words", 12))
    ws = words("words")

    def make(k: int, r: dict[str, Any]) -> str:
        n = rng.randint(lo, hi)
        text = " ".join(rng.choice(ws) for _ in range(n))
        text = text[:1].upper() + text[1:] + "."
        return finish(f"{text} #{perm(k)}" if perm is not None else text)

    return make


def _email(
    rng: random.Random, finish: Callable[[Any], Any], perm: AffinePermutation | None
) -> Generator:
    first, last = words("first_names"), words("last_names")

    def make(k: int, r: dict[str, Any]) -> str:
        user = f"{rng.choice(first)}.{rng.choice(last)}".lower()
        tail = str(perm(k)) if perm is not None else str(rng.randrange(100))
        return finish(f"{user}{tail}@{rng.choice(EMAIL_DOMAINS)}")

    return make


def _code(
    spec: dict[str, Any],
    rng: random.Random,
    finish: Callable[[Any], Any],
    perm: AffinePermutation | None,
    where: str,
) -> Generator:
    prefix = str(spec.get("prefix", ""))
    length = int(spec.get("length", 10))
    alphabet = str(spec.get("alphabet", "0123456789"))
    if perm is not None:
        width = max(1, length - len(prefix))
        if len(str(perm.n - 1)) > width:
            raise GraphGenError(f"{where}: {perm.n} unique codes do not fit in {width} digits")
        return lambda k, r: finish(prefix + str(perm(k)).zfill(width))
    return lambda k, r: finish(prefix + "".join(rng.choices(alphabet, k=length)))


def _list(
    spec: dict[str, Any], ptype: PropertyType, rng: random.Random, count: int, where: str
) -> Generator:
    if ptype.kind != K.LIST or ptype.element is None:
        raise GraphGenError(f"{where}: list makes LIST values, not {ptype}")
    element = dict(spec.get("element") or {"dist": "name", "kind": "word"})
    element.pop("unique", None)
    element.pop("null_ratio", None)
    check_spec(element, where + ".element")
    inner = _compile_value(element, ptype.element, rng, count, where + ".element", None)
    lo, hi = int(spec.get("min_len", 1)), int(spec.get("max_len", 3))

    def make(k: int, r: dict[str, Any]) -> list[Any]:
        n = rng.randint(lo, hi)
        out: list[Any] = []
        for _ in range(n * 3):  # distinct elements when the domain allows
            if len(out) == n:
                break
            v = inner(k, r)
            if v not in out:
                out.append(v)
        return out

    return make


def _after(spec: dict[str, Any], ptype: PropertyType, rng: random.Random, where: str) -> Generator:
    base = spec.get("property")
    if not isinstance(base, str):
        raise GraphGenError(f"{where}: after needs the 'property' it follows")
    lo, hi = int(spec.get("min", 0)), int(spec.get("max", 10))
    kind = ptype.kind
    finish = _finisher(ptype, spec)

    def make(k: int, r: dict[str, Any]) -> Any:
        prev = r.get(base)
        if prev is None:
            return None
        step = rng.randint(lo, hi)
        if kind == K.DATE:
            return (dt.date.fromisoformat(prev) + dt.timedelta(days=step)).isoformat()
        if kind in (K.DATETIME, K.LOCAL_DATETIME):
            x = dt.datetime.fromisoformat(prev) + dt.timedelta(seconds=step)
            return x.isoformat()
        if kind == K.DECIMAL:
            return finish(decimal.Decimal(str(prev)) + step)
        return finish(prev + step)

    return make


__all__ = ["compile_spec", "decimal_text", "name_pool"]
