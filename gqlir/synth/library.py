"""Template libraries: TOML files in ``gqlir/synth/templates/`` compiled into IR templates.

A library file holds

* ``[[match]]`` and ``[[return]]`` tables (CypherBench's MATCH patterns and RETURN templates):
  every match is crossed with every return of the group it names in ``returns``;
* ``[[template]]`` tables: whole queries (special patterns, analytical families, extras);
* ``[[judge]]`` tables: a query and its anti-query (NGDBench's judge pairs), sharing holes.

A whole-query table may name dialects not to write (``exclude_dialects``, dialect → reason):
where a gqlir emitter is known to write a query of the template wrongly, the item says so
instead of carrying a wrong query.

Each table may constrain its holes: ``types`` (property hole ``"var.hole"`` → a type class),
``values`` (value hole → the literals to choose from), ``hops`` (hop hole → ``[lower, upper]``
pairs), ``time_sensitive`` (relationship holes that need a time-sensitive type).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .. import ir
from .compiler import compile_skeleton, join_steps
from .errors import SynthError

LIBRARIES = ("cypherbench", "ngdbench", "extras")
TYPE_CLASSES = ("numeric", "temporal", "string", "categorical", "boolean", "list", "ordered", "any")


@dataclass(frozen=True)
class Constraints:
    types: dict[str, str] = field(default_factory=dict)
    values: dict[str, list[Any]] = field(default_factory=dict)
    hops: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    time_sensitive: frozenset[str] = frozenset()

    def merged(self, other: Constraints) -> Constraints:
        return Constraints(
            {**self.types, **other.types},
            {**self.values, **other.values},
            {**self.hops, **other.hops},
            self.time_sensitive | other.time_sensitive,
        )


@dataclass(frozen=True)
class Template:
    """One template: ``query`` (IR with holes) and what it stands for."""

    id: str
    library: str
    pattern: str  # CypherBench MATCH pattern, NGDBench family or extra kind
    return_pattern: str | None
    query: ir.Query
    constraints: Constraints
    aggregation: bool = False
    anti_query: ir.Query | None = None
    excluded: dict[str, str] = field(default_factory=dict)  # dialect -> why it is not written


def _constraints(table: dict[str, Any], where: str) -> Constraints:
    types = dict(table.get("types", {}))
    for key, value in types.items():
        if value not in TYPE_CLASSES:
            raise SynthError(f"{where}: type class {value!r} of {key} is not one of {TYPE_CLASSES}")
    hops = {k: [(int(a), int(b)) for a, b in v] for k, v in table.get("hops", {}).items()}
    return Constraints(
        types, dict(table.get("values", {})), hops, frozenset(table.get("time_sensitive", ()))
    )


def _require(table: dict[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise SynthError(f"{where}: missing {key!r}")
    return table[key]


def parse_library(name: str, data: dict[str, Any]) -> list[Template]:
    """The templates of one library document."""
    out: list[Template] = []
    returns: dict[str, list[dict[str, Any]]] = {}
    for i, r in enumerate(data.get("return", [])):
        where = f"{name}: return[{i}]"
        returns.setdefault(_require(r, "group", where), []).append(r)
    for i, m in enumerate(data.get("match", [])):
        where = f"{name}: match[{i}]"
        pattern = _require(m, "pattern", where)
        variant = m.get("variant")
        match_ir = compile_skeleton(_require(m, "cypher", where), where)
        group = _require(m, "returns", where)
        if group not in returns:
            raise SynthError(f"{where}: no return group {group!r}")
        for r in returns[group]:
            rid = _require(r, "id", f"{name}: return group {group}")
            tid = f"{name}/{pattern}{'#' + variant if variant else ''}/{rid}"
            query = join_steps(match_ir, compile_skeleton(r["cypher"], tid), tid)
            out.append(
                Template(
                    tid,
                    name,
                    pattern,
                    rid,
                    query,
                    _constraints(m, where).merged(_constraints(r, tid)),
                    bool(r.get("aggregation", False)),
                )
            )
    for kind in ("template", "judge"):
        for i, t in enumerate(data.get(kind, [])):
            where = f"{name}: {kind}[{i}]"
            tid = f"{name}/{_require(t, 'id', where)}"
            anti = None
            if kind == "judge":
                anti = compile_skeleton(_require(t, "anti_cypher", where), where)
            out.append(
                Template(
                    tid,
                    name,
                    _require(t, "pattern", where),
                    t.get("return_pattern"),
                    compile_skeleton(_require(t, "cypher", where), where),
                    _constraints(t, where),
                    bool(t.get("aggregation", False)),
                    anti,
                    dict(t.get("exclude_dialects", {})),
                )
            )
    ids = [t.id for t in out]
    if len(set(ids)) != len(ids):
        dup = next(x for x in ids if ids.count(x) > 1)
        raise SynthError(f"{name}: template id {dup!r} is used twice")
    return out


def load_library(name: str) -> list[Template]:
    """A library shipped with gqlir, by name, or a TOML file by path."""
    if name.endswith(".toml"):
        try:
            with open(name, "rb") as fh:
                data = tomllib.load(fh)
        except OSError as exc:
            raise SynthError(f"cannot read {name}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise SynthError(f"{name}: not valid TOML: {exc}") from None
        return parse_library(str(data.get("library", name)), data)
    if name not in LIBRARIES:
        raise SynthError(f"unknown template library {name!r}; known: {', '.join(LIBRARIES)}")
    text = resources.files("gqlir.synth").joinpath(f"templates/{name}.toml").read_text("utf-8")
    return parse_library(name, tomllib.loads(text))


def load_libraries(names: list[str]) -> list[Template]:
    out: list[Template] = []
    for name in names:
        out.extend(load_library(name))
    return out
