"""Binding a template: labels and types (an assignment), properties for property holes, a
witness in the graph, and from it the literals, operators, aggregates, sort directions and hop
bounds. One random generator drives every choice, so a seed gives the same binding."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from ..schema.model import NodeType, Property, SchemaGraph
from ..schema.types import TypeKind
from . import propclass
from .assign import assignments
from .graphindex import GraphIndex
from .library import Template
from .realism import Assignment
from .structure import Structure, ValueUse, read_structure
from .witness import Witness, find_witness

DEFAULT_HOPS = [(1, 2), (1, 3), (2, 3)]
_ROLES = ("name", "key", "start", "end")


@dataclass
class Binding:
    assignment: Assignment
    props: dict[tuple[str, str], str] = field(default_factory=dict)
    values: dict[str, ir.Expr] = field(default_factory=dict)
    ops: dict[str, Any] = field(default_factory=dict)
    aggs: dict[str, str] = field(default_factory=dict)
    dirs: dict[str, bool] = field(default_factory=dict)  # descending
    hops: dict[str, tuple[int, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The choices, JSON-safe, for the dataset record."""
        from ..api import emit

        return {
            "labels": dict(self.assignment.labels),
            "types": dict(self.assignment.types),
            "properties": {f"{v}.{h}": p for (v, h), p in sorted(self.props.items())},
            "values": {k: emit(v, "neo4j") for k, v in sorted(self.values.items())},
            "operators": {k: getattr(v, "value", str(v)) for k, v in sorted(self.ops.items())},
            "aggregates": dict(sorted(self.aggs.items())),
            "hops": {k: list(v) for k, v in sorted(self.hops.items())},
        }


class Unbindable(Exception):
    """This attempt found no fitting property, witness or value (try another)."""


def display_property(nt: NodeType, index: GraphIndex) -> str | None:
    """The property a question names a node by: ``name``/``title``, else a unique string,
    else the key."""
    present = [p for p in nt.properties if index.present("node", nt.label, p.name)]
    names = {p.name: p for p in present}
    for preferred in ("name", "title"):
        if preferred in names:
            return preferred
    for p in present:
        if p.type.kind == TypeKind.STRING and (p.unique or nt.keys == (p.name,)):
            return p.name
    for p in present:
        if p.name in nt.keys:
            return p.name
    return None


def _unique(owner: NodeType, prop: str) -> bool:
    p = owner.prop(prop)
    return p is not None and (p.unique or owner.keys == (prop,))


class Binder:
    """Everything a template needs on one graph, computed once; :meth:`bind` per attempt."""

    def __init__(self, template: Template, schema: SchemaGraph, index: GraphIndex) -> None:
        self.template = template
        self.schema = schema
        self.index = index
        self.structure: Structure = read_structure(template.query, template.anti_query)
        self.assignments, self.dropped = assignments(template, self.structure, schema, index)
        self._classes: dict[tuple[str, str, str], set[str]] = {}

    # -- properties -------------------------------------------------------------------------
    def owner(self, a: Assignment, var: str) -> tuple[str, str] | None:
        """(``node`` or ``edge``, label or type) of a variable."""
        if var in self.structure.node_slots:
            label = a.var_label(var)
            return ("node", label) if label else None
        for i, rel in enumerate(self.structure.rels):
            rel_type = a.rel_types[i]
            if rel.variable == var and rel_type is not None:
                return "edge", rel_type
        return None

    def prop_type(self, kind: str, owner: str, name: str) -> Property | None:
        element = self.schema.node(owner) if kind == "node" else self.schema.edge(owner)
        return element.prop(name) if element is not None else None

    def classes(self, kind: str, owner: str, prop: Property) -> set[str]:
        key = (kind, owner, prop.name)
        found = self._classes.get(key)
        if found is None:
            values = self.index.values(kind, owner, prop.name)
            rows = len(self.index.by_label.get(owner, ())) if kind == "node" else 0
            rows = rows or sum(1 for e in self.index.edges if e[0] == owner)
            found = propclass.classes(prop, len(values), rows)
            self._classes[key] = found
        return found

    def role_property(self, role: str, kind: str, owner: str) -> list[str]:
        if kind == "node":
            nt = self.schema.node(owner)
            if nt is None:
                return []
            shown = display_property(nt, self.index)
            if role == "name":
                return [shown] if shown else []
            if shown and _unique(nt, shown):
                return [shown]
            return [p.name for p in nt.properties if _unique(nt, p.name)][:1]
        if role in ("start", "end"):
            et = self.schema.edge(owner)
            props = et.property_names if et else ()
            return [p for p in props if p.lower().startswith(role)][:1]
        return []

    def choose_props(self, a: Assignment, rng: random.Random) -> dict[tuple[str, str], str]:
        chosen: dict[tuple[str, str], str] = {}
        shared: dict[tuple[str, str], str] = {}
        for (var, hole), uses in sorted(self.structure.prop_holes.items()):
            slot = self.structure.node_slot_of(var)
            share = (slot, hole) if slot and slot.startswith("?") else (var, hole)
            if share in shared:  # one hole name on two nodes of one label: one property
                chosen[(var, hole)] = shared[share]
                continue
            owner = self.owner(a, var)
            if owner is None:
                raise Unbindable(f"no type for {var}")
            kind, label = owner
            if hole in _ROLES:
                options = self.role_property(hole, kind, label)
            else:
                options = self.generic_options(kind, label, var, hole, uses)
            taken = {p for (v, h), p in chosen.items() if v == var and h != hole}
            options = [p for p in options if p not in taken]
            if not options:
                raise Unbindable(f"no property for {var}.{hole} of {label}")
            chosen[(var, hole)] = shared[share] = rng.choice(options)
        return chosen

    def generic_options(
        self, kind: str, owner: str, var: str, hole: str, uses: set[str]
    ) -> list[str]:
        wanted = self.template.constraints.types.get(f"{var}.{hole}")
        element = self.schema.node(owner) if kind == "node" else self.schema.edge(owner)
        if element is None:
            return []
        out = []
        for p in element.properties:
            if isinstance(element, NodeType) and _unique(element, p.name) and wanted != "any":
                continue  # ids and other unique values make no question
            if not self.index.present(kind, owner, p.name):
                continue
            cls = self.classes(kind, owner, p)
            if wanted is not None and wanted not in cls:
                continue
            if all(propclass.fits(u, cls) for u in (uses or {"scalar"})):
                out.append(p.name)
        return out

    # -- the whole binding ------------------------------------------------------------------
    def bind(self, rng: random.Random, attempts: int = 4) -> tuple[Binding, Witness]:
        """A binding and its witness; a few assignments are tried before giving up."""
        if not self.assignments:
            raise Unbindable("no assignment of labels and types fits this graph")
        for _ in range(attempts - 1):
            try:
                return self.bind_once(rng)
            except Unbindable:
                pass
        return self.bind_once(rng)

    def bind_once(self, rng: random.Random) -> tuple[Binding, Witness]:
        a = rng.choice(self.assignments)
        b = Binding(a)
        for name in sorted({r.hops for r in self.structure.rels if isinstance(r.hops, str)}):
            lower, upper = rng.choice(self.template.constraints.hops.get(name, DEFAULT_HOPS))
            b.hops[name] = (lower, upper)
        b.props = self.choose_props(a, rng)
        needs_witness = any(u.kind != "free" for u in self.structure.values.values())
        witness = find_witness(self.structure, a, b.hops, self.index, rng)
        if witness is None:
            if needs_witness:
                raise Unbindable("no witness in the graph")
            witness = Witness()  # the engine decides whether the query matches
        for name, use in sorted(self.structure.values.items()):
            b.values[name] = self.value(use, name, b, witness, rng)
        self.fill_operators(b, rng)
        return b, witness

    def fill_operators(self, b: Binding, rng: random.Random) -> None:
        from .holes import AggregateHole, SortHole

        queries = (self.template.query, self.template.anti_query)
        for q in (q for q in queries if q is not None):
            for n in q.walk():
                if isinstance(n, AggregateHole) and n.name not in b.aggs:
                    b.aggs[n.name] = rng.choice(propclass.aggregates(self.arg_classes(n.arg, b)))
                elif isinstance(n, SortHole) and n.name not in b.dirs:
                    b.dirs[n.name] = rng.random() < 0.5

    def arg_classes(self, expr: ir.Expr, b: Binding) -> set[str]:
        from .holes import PropertyHole

        if isinstance(expr, PropertyHole):
            owner = self.owner(b.assignment, expr.variable)
            name = b.props.get((expr.variable, expr.name))
            if owner and name:
                prop = self.prop_type(owner[0], owner[1], name)
                if prop is not None:
                    return self.classes(owner[0], owner[1], prop)
        return {"numeric"}

    # -- values -----------------------------------------------------------------------------
    def value(
        self, use: ValueUse, name: str, b: Binding, w: Witness, rng: random.Random
    ) -> ir.Expr:
        if use.kind == "free":
            choices = self.template.constraints.values.get(name)
            if not choices:
                raise Unbindable(f"value ${name} has no source: give it `values`")
            return literal(rng.choice(choices), None)
        var, prop = use.variable or "", use.prop or ""
        if prop.startswith("?"):
            prop = b.props.get((var, prop[1:]), "")
        owner = self.owner(b.assignment, var)
        if owner is None:
            raise Unbindable(f"no type for {var}")
        ptype = self.prop_type(owner[0], owner[1], prop)
        seen = self.witness_value(owner[0], var, prop, w)
        if seen is None or ptype is None:
            raise Unbindable(f"the witness has no {var}.{prop}")
        if use.kind == "member":
            if not isinstance(seen, list) or not seen:
                raise Unbindable(f"{var}.{prop} is not a list here")
            return literal(rng.choice(seen), ptype.type.element)
        if use.kind == "string":
            return ir.String(_fragment(str(seen), use.op == "STARTS_WITH", rng))
        if use.kind == "cmp":
            return literal(seen, ptype.type)
        cls = self.classes(owner[0], owner[1], ptype)
        op = rng.choice(propclass.operators(cls))
        distinct = self.index.values(owner[0], owner[1], prop)
        if isinstance(op, ir.CompOp) and op not in (ir.CompOp.EQ, ir.CompOp.NE):
            if len(distinct) < 3:
                op = ir.CompOp.EQ
            else:
                low = 1 if op in (ir.CompOp.LT, ir.CompOp.GE) else 0
                high = len(distinct) - (1 if low == 0 else 0)
                seen = distinct[rng.randrange(low, high)]
        b.ops[str(use.op)] = op
        if isinstance(op, ir.StringOp):
            return ir.String(_fragment(str(seen), op is ir.StringOp.STARTS_WITH, rng))
        return literal(seen, ptype.type)

    def witness_value(self, kind: str, var: str, prop: str, w: Witness) -> Any:
        if kind == "node":
            node = w.nodes.get(var)
            return None if node is None else self.index.props[node].get(prop)
        edge = w.edges.get(var)
        return None if edge is None else self.index.edges[edge][3].get(prop)


def _fragment(text: str, prefix: bool, rng: random.Random) -> str:
    """A prefix (STARTS WITH) or a word (CONTAINS) of a value."""
    words = [x for x in text.split() if len(x) >= 3]
    if prefix:
        return text[: max(1, min(len(text), rng.randint(1, 4)))]
    return rng.choice(words) if words else text


def literal(v: Any, ptype: Any) -> ir.Expr:
    """A graph value (JSON form, as the graph files hold it) as an IR literal of its type."""
    kind = ptype.kind if ptype is not None else None
    if isinstance(v, bool):
        return ir.Boolean(v)
    if kind == TypeKind.DATE:
        return ir.TemporalLiteral(ir.TemporalKind.DATE, str(v))
    if kind == TypeKind.DATETIME:
        return ir.TemporalLiteral(ir.TemporalKind.DATETIME, str(v))
    if kind == TypeKind.LOCAL_DATETIME:
        return ir.TemporalLiteral(ir.TemporalKind.LOCAL_DATETIME, str(v))
    if isinstance(v, int):
        return ir.Integer(v)
    if kind in propclass.NUMERIC_KINDS or isinstance(v, float):
        number = float(v)
        return ir.Integer(int(number)) if kind in propclass.INTEGER_KINDS else ir.Float(number)
    return ir.String(str(v))
