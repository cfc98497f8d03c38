"""What a template asks of the graph, read once from its IR: the node variables and their
label holes, the relationships between them, and how every property and value hole is used
(which decides the types a hole may take and where its value comes from)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from .errors import SynthError
from .holes import (
    AggregateHole,
    LabelHole,
    OperatorHole,
    PropertyHole,
    QuantifierHole,
    SortHole,
    ValueHole,
)


@dataclass(frozen=True)
class Rel:
    """A relationship pattern between two node variables, oriented ``source -> target`` unless
    ``either``. ``required``: the witness must have it (not negated, not optional)."""

    source: str
    target: str
    type_slot: str | None  # "?hole" or a fixed type, None for any type
    either: bool
    variable: str | None
    hops: tuple[int, int] | str | None  # fixed bounds, a hop hole name, or None (one hop)
    required: bool
    optional: bool
    left: str  # the variable written first (the anchor of an optional pattern)


@dataclass(frozen=True)
class ValueUse:
    """Where a value hole's literal comes from: ``kind`` is ``cmp`` (a comparison with a fixed
    operator), ``ophole``, ``member`` (``$v IN x.list``), ``string`` or ``free`` (given by
    the template's ``values``)."""

    kind: str
    variable: str | None = None
    prop: str | None = None  # "?hole" or a fixed property name
    op: ir.CompOp | str | None = None


@dataclass
class Structure:
    node_slots: dict[str, str | None] = field(default_factory=dict)  # var -> "?hole"/label/None
    rels: list[Rel] = field(default_factory=list)
    label_holes: list[str] = field(default_factory=list)
    type_holes: list[str] = field(default_factory=list)
    prop_holes: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # -> uses
    values: dict[str, ValueUse] = field(default_factory=dict)
    referenced: set[str] = field(default_factory=set)  # variables used outside patterns
    rel_vars: dict[str, str | None] = field(default_factory=dict)  # rel var -> type slot

    def node_slot_of(self, var: str) -> str | None:
        return self.node_slots.get(var)


def _slot(labels: ir.LabelExpr | None) -> str | None:
    if isinstance(labels, LabelHole):
        return "?" + labels.name
    if isinstance(labels, ir.Label):
        return labels.name
    return None


class _Reader:
    def __init__(self) -> None:
        self.s = Structure()
        self.anon = 0

    def var(self, node: ir.NodePattern) -> str:
        name = node.variable
        if name is None:
            self.anon += 1
            name = f"_anon{self.anon}"
        slot = _slot(node.labels)
        if slot is not None or name not in self.s.node_slots:
            if slot is not None and slot.startswith("?"):
                hole = slot[1:]
                if hole not in self.s.label_holes:
                    self.s.label_holes.append(hole)
            if self.s.node_slots.get(name) is None:
                self.s.node_slots[name] = slot
        return name

    def rel(self, rel: ir.RelPattern, left: str, right: str, required: bool, optional: bool):
        slot = _slot(rel.types)
        if slot is not None and slot.startswith("?") and slot[1:] not in self.s.type_holes:
            self.s.type_holes.append(slot[1:])
        hops: tuple[int, int] | str | None = None
        if isinstance(rel.quantifier, QuantifierHole):
            hops = rel.quantifier.name
        elif rel.quantifier is not None:
            hops = (rel.quantifier.lower, rel.quantifier.upper or rel.quantifier.lower + 3)
        src, dst = (right, left) if rel.direction is ir.Direction.IN else (left, right)
        either = rel.direction not in (ir.Direction.IN, ir.Direction.OUT)
        self.s.rels.append(
            Rel(src, dst, slot, either, rel.variable, hops, required, optional, left)
        )
        if rel.variable is not None:
            self.s.rel_vars[rel.variable] = slot

    def chain(self, chain: ir.PathChain, required: bool, optional: bool) -> None:
        elements = list(chain.elements)
        previous: str | None = None
        pending: ir.RelPattern | ir.ParenPath | None = None
        for element in elements:
            if isinstance(element, ir.NodePattern):
                name = self.var(element)
                if pending is not None and previous is not None:
                    if isinstance(pending, ir.ParenPath):
                        self.paren(pending, previous, name, required, optional)
                    else:
                        self.rel(pending, previous, name, required, optional)
                    pending = None
                elif previous is not None and previous != name:
                    raise SynthError("adjacent node patterns must name the same variable")
                previous = name
            else:
                pending = element

    def paren(self, paren: ir.ParenPath, left: str, right: str, required: bool, optional: bool):
        inner = paren.path
        rels = [e for e in getattr(inner, "elements", ()) if isinstance(e, ir.RelPattern)]
        if len(rels) != 1 or paren.quantifier is None:
            raise SynthError("a quantified path template holds one relationship")
        q = paren.quantifier
        quantified = ir.RelPattern(
            rels[0].direction, None, rels[0].types, quantifier=ir.Quantifier(q.lower, q.upper)
        )
        self.rel(quantified, left, right, required, optional)

    def patterns(self, node: ir.Node, required: bool, optional: bool) -> None:
        if isinstance(node, ir.Not) and isinstance(node.operand, ir.Exists):
            self.patterns(node.operand.query, False, optional)
            return
        if isinstance(node, ir.Match):
            for p in node.patterns:
                self.patterns(p, required and not node.optional, optional or node.optional)
            if node.where is not None:
                self.patterns(node.where, required, optional)
            return
        if isinstance(node, ir.PathPattern):
            if isinstance(node.path, ir.PathChain):
                self.chain(node.path, required, optional)
            return
        for child in node.children():
            self.patterns(child, required, optional)


def _prop_target(expr: ir.Expr) -> tuple[str, str] | None:
    if isinstance(expr, PropertyHole) and isinstance(expr.subject, ir.Variable):
        return expr.subject.name, "?" + expr.name
    if isinstance(expr, ir.Property) and isinstance(expr.subject, ir.Variable):
        return expr.subject.name, expr.key
    return None


def _note_value(s: Structure, hole: ValueHole, use: ValueUse) -> None:
    known = s.values.get(hole.name)
    if known is None or known.kind == "free":
        s.values[hole.name] = use


def _uses(s: Structure, node: ir.Node) -> None:
    for n in node.walk():
        if isinstance(n, ir.Variable):
            s.referenced.add(n.name)
        if isinstance(n, PropertyHole):
            s.prop_holes.setdefault((n.variable, n.name), set())
        if isinstance(n, AggregateHole) and isinstance(n.arg, PropertyHole):
            s.prop_holes.setdefault((n.arg.variable, n.arg.name), set()).add("aggregate")
        if isinstance(n, SortHole) and isinstance(n.expr, PropertyHole):
            s.prop_holes.setdefault((n.expr.variable, n.expr.name), set()).add("ordered")
        if isinstance(n, ir.Arithmetic):
            for side in (n.left, n.right):
                if isinstance(side, PropertyHole):
                    s.prop_holes.setdefault((side.variable, side.name), set()).add("numeric")
        if isinstance(n, (OperatorHole, ir.Comparison, ir.StringMatch)):
            left, right = n.left, n.right
            if isinstance(left, ValueHole):
                left, right = right, left
            target = _prop_target(left)
            if isinstance(right, ValueHole) and target is not None:
                if isinstance(n, OperatorHole):
                    use = ValueUse("ophole", target[0], target[1], n.name)
                    if isinstance(left, PropertyHole):
                        s.prop_holes.setdefault((left.variable, left.name), set()).add("compare")
                elif isinstance(n, ir.StringMatch):
                    use = ValueUse("string", target[0], target[1], n.op.name)
                else:
                    use = ValueUse("cmp", target[0], target[1], n.op)
                _note_value(s, right, use)
            elif (
                isinstance(n, ir.Comparison)
                and isinstance(left, PropertyHole)
                and n.op not in (ir.CompOp.EQ, ir.CompOp.NE)
            ):
                s.prop_holes.setdefault((left.variable, left.name), set()).add("ordered")
        if isinstance(n, ir.In) and isinstance(n.item, ValueHole):
            target = _prop_target(n.container)
            if target is not None:
                _note_value(s, n.item, ValueUse("member", target[0], target[1]))
                if isinstance(n.container, PropertyHole):
                    key = (n.container.variable, n.container.name)
                    s.prop_holes.setdefault(key, set()).add("list")
        if isinstance(n, ValueHole) and n.name not in s.values:
            s.values[n.name] = ValueUse("free")


def read_structure(query: ir.Query, anti: ir.Query | None = None) -> Structure:
    reader = _Reader()
    reader.patterns(query, True, False)
    if anti is not None:
        reader.patterns(anti, False, False)
    _uses(reader.s, query)
    if anti is not None:
        _uses(reader.s, anti)
    return reader.s
