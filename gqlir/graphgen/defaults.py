"""The value spec a property gets when the config names none: chosen from the property's type,
its name and its owner (a ``name`` of a Person is a full name, of a City a city name), so that
a schema alone gives plausible data. Every choice lands in the written config, where it can be
read and changed.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ..schema.model import EdgeType, NodeType, Property
from ..schema.types import INTEGER_RANGES, PropertyType, TypeKind
from .wordlists import words

K = TypeKind

PERSON_LABELS = {
    "person",
    "people",
    "user",
    "author",
    "customer",
    "member",
    "employee",
    "actor",
    "director",
    "patient",
    "student",
    "writer",
    "artist",
    "player",
    "client",
}
COMPANY_LABELS = {
    "company",
    "organization",
    "organisation",
    "publisher",
    "firm",
    "institution",
    "bank",
    "employer",
    "agency",
}

#: known categorical domains by normalised property name (first match wins)
CATEGORIES: tuple[tuple[str, list[Any]], ...] = (
    ("gender", ["female", "male", "nonbinary"]),
    ("sex", ["female", "male"]),
    ("language", ["en", "zh", "es", "de", "fr", "ja", "pt", "ar"]),
    ("speaks", ["en", "zh", "es", "de", "fr", "ja", "pt", "ar"]),
    ("browser", ["Firefox", "Chrome", "Safari", "Edge", "Opera"]),
    ("chromosome", [str(i) for i in range(1, 23)] + ["X", "Y"]),
    ("risk", ["low", "medium", "high"]),
    ("level", ["low", "medium", "high"]),
    ("status", ["active", "inactive", "pending"]),
    ("relationship", ["family", "business", "friend", "partner"]),
    ("paytype", ["card", "transfer", "cash", "wallet"]),
    ("accounttype", ["personal", "business", "savings", "credit"]),
    ("mediumtype", ["phone", "tablet", "laptop", "kiosk"]),
    ("occupation", ["engineer", "teacher", "physician", "artist", "lawyer", "scientist"]),
    ("government", ["republic", "monarchy", "federation", "parliamentary"]),
    ("business", ["finance", "retail", "energy", "software", "logistics", "healthcare"]),
    ("kind", ["company", "party", "university", "foundation", "agency"]),
)
CATEGORY_SUFFIXES = ("type", "kind", "level", "status", "category", "class", "group", "mode")

#: lognormal (mu, sigma) of amounts by name fragment
AMOUNTS: tuple[tuple[str, float, float], ...] = (
    ("gdp", 25.0, 2.0),
    ("population", 11.0, 2.0),
    ("area", 10.0, 2.0),
    ("budget", 16.0, 1.0),
    ("salary", 10.5, 0.5),
    ("revenue", 15.0, 2.0),
    ("price", 3.0, 0.6),
    ("cost", 4.0, 1.0),
    ("amount", 7.0, 1.5),
    ("balance", 8.0, 1.5),
    ("molecular", 5.8, 0.5),
    ("affinity", 4.0, 2.0),
    ("weight", 4.0, 1.0),
)


def norm(name: str) -> str:
    """A property name lower-cased without separators: ``first_name`` and ``firstName`` match."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def default_spec(
    owner: NodeType | EdgeType,
    prop: Property,
    *,
    is_node: bool,
    rng: random.Random,
) -> dict[str, Any]:
    """The spec of ``prop`` on ``owner`` when the config gives none."""
    unique = prop.unique or (is_node and bool(owner.keys) and owner.keys[0] == prop.name)
    spec = _by_type(owner, prop, prop.type, is_node=is_node, unique=unique, rng=rng)
    if unique:
        spec["unique"] = True
    if not prop.required and "null_ratio" not in spec:
        spec["null_ratio"] = 0.05
    return spec


def _by_type(
    owner: NodeType | EdgeType,
    prop: Property,
    t: PropertyType,
    *,
    is_node: bool,
    unique: bool,
    rng: random.Random,
) -> dict[str, Any]:
    n = norm(prop.name)
    k = t.kind
    if k in INTEGER_RANGES:
        return _integer(owner, prop, n, t, unique)
    if k in (K.FLOAT32, K.FLOAT64, K.DECIMAL):
        return _real(n, unique)
    if k == K.BOOLEAN:
        rare = any(w in n for w in ("blocked", "deleted", "banned", "fraud", "closed"))
        return {"dist": "boolean", "p": 0.05 if rare else 0.5}
    if k == K.STRING:
        return _string(owner, prop, n, t, is_node=is_node, unique=unique, rng=rng)
    if k == K.DATE:
        return _date(owner, prop, n, unique)
    if k in (K.DATETIME, K.LOCAL_DATETIME):
        previous = _earlier(owner, prop, ("createtime", "creationdate", "created", "starttime"))
        if previous and any(w in n for w in ("last", "end", "updated", "closed")):
            return {"dist": "after", "property": previous, "min": 0, "max": 31_536_000}
        return {"dist": "date", "start": "2015-01-01T00:00:00", "end": "2024-12-31T23:59:59"}
    if k in (K.TIME, K.LOCAL_TIME):
        return {"dist": "time"}
    if k == K.DURATION:
        return {"dist": "duration", "min_minutes": 5, "max_minutes": 600}
    if k == K.UUID:
        return {"dist": "uuid"}
    if k == K.BYTES:
        return {"dist": "bytes", "length": min(t.length or 16, 16)}
    if k == K.POINT:
        return {"dist": "point"}
    if k == K.LIST and t.element is not None:
        element = _by_type(owner, prop, t.element, is_node=is_node, unique=False, rng=rng)
        element.pop("null_ratio", None)
        return {"dist": "list", "element": element, "min_len": 1, "max_len": 3}
    if k == K.MAP:
        return {"dist": "map"}
    return {"dist": "name", "kind": "word"}


def _integer(
    owner: NodeType | EdgeType, prop: Property, n: str, t: PropertyType, unique: bool
) -> dict[str, Any]:
    lo, hi = INTEGER_RANGES[t.kind]
    if unique:
        return {"dist": "sequence"}
    if "year" in n or n in ("born", "released", "founded", "established"):
        if n.startswith("end") or n.endswith("end"):
            start = _earlier(owner, prop, ("startyear", "start", "fromyear"))
            if start and not prop.required:
                return {"dist": "after", "property": start, "min": 0, "max": 20}
        ranges = {"born": (1930, 2005), "birthyear": (1930, 2005), "released": (1950, 2024)}
        a, b = ranges.get(n, (1800, 2020) if n in ("founded", "established") else (1950, 2024))
        return {"dist": "uniform", "min": a, "max": b}
    if n == "age":
        return {"dist": "normal", "mean": 40, "stddev": 15, "min": 0, "max": 100}
    if n in ("runtime", "duration", "minutes"):
        return {"dist": "normal", "mean": 110, "stddev": 25, "min": 60, "max": 240}
    if any(w in n for w in ("quantity", "count", "num", "number")):
        return {"dist": "zipf", "n": 10, "s": 1.5}
    if n in ("phase", "rank", "order", "authororder", "priority", "stars"):
        return {"dist": "uniform", "min": 1, "max": 4}
    for frag, mu, sigma in AMOUNTS:
        if frag in n or n in ("length", "size"):
            mu, sigma = (5.0, 1.0) if n in ("length", "size") else (mu, sigma)
            return {"dist": "lognormal", "mu": mu, "sigma": sigma, "min": max(lo, 1), "max": hi}
    return {"dist": "uniform", "min": max(lo, 0), "max": min(hi, 1000)}


def _real(n: str, unique: bool) -> dict[str, Any]:
    if unique:
        return {"dist": "uniform", "min": 0.0, "max": 1_000_000.0}
    if n in ("rating", "score", "stars"):
        return {"dist": "uniform", "min": 0.5, "max": 5.0, "decimals": 1}
    if any(w in n for w in ("ratio", "similarity", "frequency", "probability", "share", "rate")):
        return {"dist": "uniform", "min": 0.0, "max": 1.0, "decimals": 3}
    if n == "height":
        return {"dist": "normal", "mean": 170.0, "stddev": 10.0, "decimals": 1}
    if n == "elevation":
        return {"dist": "normal", "mean": 300.0, "stddev": 400.0, "min": -50.0, "decimals": 1}
    if n in ("lat", "latitude"):
        return {"dist": "uniform", "min": -90.0, "max": 90.0, "decimals": 6}
    if n in ("lon", "lng", "longitude"):
        return {"dist": "uniform", "min": -180.0, "max": 180.0, "decimals": 6}
    for frag, mu, sigma in AMOUNTS:
        if frag in n:
            return {"dist": "lognormal", "mu": mu, "sigma": sigma, "decimals": 2}
    return {"dist": "uniform", "min": 0.0, "max": 1000.0, "decimals": 2}


def _string(
    owner: NodeType | EdgeType,
    prop: Property,
    n: str,
    t: PropertyType,
    *,
    is_node: bool,
    unique: bool,
    rng: random.Random,
) -> dict[str, Any]:
    label = norm(owner.label)
    if unique and t.length is not None:
        return {"dist": "code", "length": t.length}
    if n == "id" or (unique and n.endswith("id")):
        return {"dist": "sequence", "prefix": f"{owner.label}::"}
    if "email" in n:
        return {"dist": "email"}
    if n in ("url", "website", "homepage", "link"):
        return {"dist": "url"}
    if n.endswith("ip") or n == "ipaddress":
        return {"dist": "ipv4"}
    if n in ("firstname", "givenname"):
        return {"dist": "name", "kind": "first"}
    if n in ("lastname", "surname", "familyname"):
        return {"dist": "name", "kind": "last"}
    if n in ("nickname", "username", "handle", "roles", "role", "character"):
        return {"dist": "name", "kind": "first"}
    if n == "name" and is_node:
        return {"dist": "name", "kind": _name_kind(label)}
    if n in ("orgname", "company", "employer", "organization", "publisher"):
        return {"dist": "name", "kind": "company"}
    if n in ("city", "location", "birthplace", "hometown", "place"):
        return {"dist": "name", "kind": "city"}
    if n in ("country", "nationality"):
        return {"dist": "name", "kind": "country"}
    if n in ("title", "name", "label", "headline"):
        return {"dist": "name", "kind": "title"}
    if any(w in n for w in ("content", "description", "text", "comment", "summary", "tagline")):
        return {"dist": "text", "min_words": 4, "max_words": 14}
    if n == "isbn":
        return {"dist": "code", "prefix": "978", "length": 13}
    if n in ("symbol", "ticker", "sku"):
        return {"dist": "code", "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "length": 5}
    if any(w in n for w in ("ordernum", "number", "phone", "code", "inchikey", "iban")):
        return {"dist": "code", "alphabet": "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", "length": 12}
    if not unique:
        for frag, values in CATEGORIES:
            if frag in n:
                return _categorical(values)
        if prop.categorical or n.endswith(CATEGORY_SUFFIXES) or n in ("sources", "tags"):
            picked = rng.sample(words("words"), 6)
            return _categorical(picked)
    return {"dist": "name", "kind": "title"}


def _name_kind(label: str) -> str:
    if label in PERSON_LABELS:
        return "full"
    if label in COMPANY_LABELS:
        return "company"
    if "city" in label or "town" in label:
        return "city"
    if "country" in label or label == "nation":
        return "country"
    if label == "continent":
        return "continent"
    return "title"


def _categorical(values: list[Any]) -> dict[str, Any]:
    """A categorical spec whose weights fall off like a Zipf law (a few common categories)."""
    weights = [round(1.0 / (i + 1), 4) for i in range(len(values))]
    return {"dist": "categorical", "values": list(values), "weights": weights}


def _date(owner: NodeType | EdgeType, prop: Property, n: str, unique: bool) -> dict[str, Any]:
    if any(w in n for w in ("death", "died", "end", "until")):
        base = _earlier(owner, prop, ("birthdate", "birthday", "born", "dob", "startdate", "start"))
        if base and not prop.required:
            return {"dist": "after", "property": base, "min": 7000, "max": 33000, "null_ratio": 0.6}
    if any(w in n for w in ("birth", "born", "dob")):
        return {"dist": "date", "start": "1940-01-01", "end": "2005-12-31"}
    if any(w in n for w in ("found", "established", "first", "award")):
        return {"dist": "date", "start": "1900-01-01", "end": "2020-12-31"}
    if unique:
        return {"dist": "date", "start": "1900-01-01", "end": "2099-12-31"}
    return {"dist": "date", "start": "2000-01-01", "end": "2024-12-31"}


def _earlier(owner: NodeType | EdgeType, prop: Property, names: tuple[str, ...]) -> str | None:
    """A property of the same kind declared before ``prop`` whose normalised name is one of
    ``names`` (values are made in declaration order, so only an earlier one can be followed)."""
    for p in owner.properties:
        if p.name == prop.name:
            return None
        if norm(p.name) in names and p.type.kind == prop.type.kind:
            return p.name
    return None


__all__ = ["default_spec", "norm"]
