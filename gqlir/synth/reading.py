"""What a query asks, read off its IR as a scene: the entities it matches (one per node
variable, with its label and the conditions on its own properties), the relationships between
them (type, direction, hop bounds, negation, a period, a count), and per-entity measures made
by grouping (``WITH b, count(a) AS k``). Questions are written from the scene, so each
condition is attached to the entity it constrains."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..ir.analysis import conjuncts

TIME_START, TIME_END = ("start", "end")


@dataclass
class Cond:
    """A condition on one property of an entity: ``op`` is a comparison or string operator,
    ``known``/``unknown``, or ``has`` (a list holds the value)."""

    key: str
    op: str
    value: ir.Expr | None = None


@dataclass
class Link:
    """A relationship between two entities; ``source`` → ``target`` unless ``directed`` is
    False. ``count`` quantifies the source side (``("more than", 2)``)."""

    source: str
    target: str
    type: str | None
    directed: bool = True
    hops: tuple[int, int | None] | None = None
    negated: bool = False
    optional: bool = False
    when: ir.Expr | None = None  # a year the relationship holds in
    current: bool = False
    count: tuple[str, ir.Expr] | None = None
    measured: str | None = None  # the measure that counts along it


@dataclass
class Entity:
    var: str
    label: str | None
    conds: list[Cond] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)


@dataclass
class Measure:
    """A value per entity made by grouping: ``count`` of ``counted`` along its links, or
    ``sum`` of a property of ``counted``."""

    name: str
    owner: str
    agg: str
    counted: str
    key: str | None = None


@dataclass
class Scene:
    entities: dict[str, Entity] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    measures: dict[str, Measure] = field(default_factory=dict)
    extra: list[ir.Expr] = field(default_factory=list)  # conditions not attached to an entity
    anon: int = 0

    def entity(self, var: str | None, label: str | None) -> str:
        if var is None:
            self.anon += 1
            var = f"_anon{self.anon}"
        e = self.entities.get(var)
        if e is None:
            self.entities[var] = Entity(var, label)
        elif e.label is None and label is not None:
            e.label = label
        return var

    def label(self, var: str) -> str | None:
        e = self.entities.get(var)
        return e.label if e else None


def _label(expr: ir.LabelExpr | None) -> str | None:
    return expr.name if isinstance(expr, ir.Label) else None


def add_pattern(scene: Scene, p: ir.PathPattern, negated: bool = False, optional: bool = False):
    """The entities and links of one path pattern (quantified groups become a hop-bounded
    link from the node before to the node after)."""
    if not isinstance(p.path, ir.PathChain):
        return
    elements = list(p.path.elements)
    prev: str | None = None
    i = 0
    while i < len(elements):
        el = elements[i]
        if isinstance(el, ir.NodePattern):
            prev = scene.entity(el.variable, _label(el.labels))
            i += 1
            continue
        nxt = elements[i + 1] if i + 1 < len(elements) else None
        target = (
            scene.entity(nxt.variable, _label(nxt.labels))
            if isinstance(nxt, ir.NodePattern)
            else scene.entity(None, None)
        )
        link = None
        if isinstance(el, ir.RelPattern):
            q = el.quantifier
            link = Link(
                prev or scene.entity(None, None),
                target,
                _label(el.types),
                directed=el.direction in (ir.Direction.OUT, ir.Direction.IN),
                hops=(q.lower, q.upper) if q is not None else None,
            )
            if el.direction is ir.Direction.IN:
                link.source, link.target = link.target, link.source
        elif isinstance(el, ir.ParenPath):
            inner = [r for r in el.path.walk() if isinstance(r, ir.RelPattern)]
            q = el.quantifier
            r = inner[0] if inner else None
            link = Link(
                prev or scene.entity(None, None),
                target,
                _label(r.types) if r else None,
                directed=r is not None and r.direction in (ir.Direction.OUT, ir.Direction.IN),
                hops=(q.lower, q.upper) if q is not None else (1, 1),
            )
            if r is not None and r.direction is ir.Direction.IN:
                link.source, link.target = link.target, link.source
        if link is not None:
            if p.search is not None and link.hops is None:
                link.hops = (1, 1)
            link.negated, link.optional = negated, optional
            scene.links.append(link)
        prev = target
        i += 2


def _prop(e: ir.Expr) -> tuple[str, str] | None:
    if isinstance(e, ir.Property) and isinstance(e.subject, ir.Variable):
        return e.subject.name, e.key
    return None


OPERATORS = {
    ir.CompOp.EQ: "=",
    ir.CompOp.NE: "<>",
    ir.CompOp.LT: "<",
    ir.CompOp.LE: "<=",
    ir.CompOp.GT: ">",
    ir.CompOp.GE: ">=",
}
_COUNT_WORDS = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most"}
_COUNT_WORDS |= {"=": "exactly", "<>": "other than"}


def _rel_var_links(scene: Scene, query_steps: list[ir.Step]) -> dict[str, Link]:
    """Relationship variables → their links (for period conditions on relationships)."""
    out: dict[str, Link] = {}
    for step in query_steps:
        if not isinstance(step, ir.Match):
            continue
        for p in step.patterns:
            for r in p.walk():
                if isinstance(r, ir.RelPattern) and r.variable:
                    for link in scene.links:
                        if link.type == _label(r.types) and link.hops is None:
                            out.setdefault(r.variable, link)
    return out


def add_condition(scene: Scene, c: ir.Expr, rels: dict[str, Link]) -> None:
    """Attach one conjunct of a WHERE to the entity, link or measure it is about."""
    if isinstance(c, ir.Comparison):
        left = _prop(c.left)
        if left and left[0] in rels and c.op is ir.CompOp.LE:
            rels[left[0]].when = c.right  # start <= year
            return
        if left and left[0] in rels and c.op is ir.CompOp.GE:
            return  # end >= year: part of the same period
        if left and left[0] in scene.entities:
            scene.entities[left[0]].conds.append(Cond(left[1], OPERATORS[c.op], c.right))
            return
        if isinstance(c.left, ir.Variable) and c.left.name in scene.measures:
            m = scene.measures[c.left.name]
            for link in scene.links:
                if link.measured == m.name:
                    link.count = (_COUNT_WORDS[OPERATORS[c.op]], c.right)
            return
        if isinstance(c.left, ir.CountSubquery):
            before = len(scene.links)
            _add_subquery(scene, c.left.query)
            for link in scene.links[before:]:
                link.count = (_COUNT_WORDS[OPERATORS[c.op]], c.right)
            return
        if (
            c.op is ir.CompOp.NE
            and isinstance(c.left, ir.Variable)
            and isinstance(c.right, ir.Variable)
            and c.left.name in scene.entities
        ):
            scene.entities[c.left.name].differs.append(c.right.name)
            if c.right.name in scene.entities:
                scene.entities[c.right.name].differs.append(c.left.name)
            return
    if isinstance(c, ir.StringMatch):
        left = _prop(c.left)
        if left and left[0] in scene.entities:
            scene.entities[left[0]].conds.append(Cond(left[1], c.op.value.lower(), c.right))
            return
    if isinstance(c, ir.In):
        item = c.item
        right = _prop(c.container)
        if right and right[0] in scene.entities:
            scene.entities[right[0]].conds.append(Cond(right[1], "has", item))
            return
    if isinstance(c, ir.IsNull):
        left = _prop(c.operand)
        if left and left[0] in rels:
            if c.negated:
                rels[left[0]].current = True
            return
        if left and left[0] in scene.entities:
            scene.entities[left[0]].conds.append(Cond(left[1], "known" if c.negated else "unknown"))
            return
    if isinstance(c, ir.Or):
        inner = [x for x in (c.left, c.right) if isinstance(x, (ir.Comparison, ir.IsNull))]
        if len(inner) == 2 and all(
            _prop(x.left if isinstance(x, ir.Comparison) else x.operand) for x in inner
        ):
            owner = _prop(
                inner[0].left if isinstance(inner[0], ir.Comparison) else inner[0].operand
            )
            if owner and owner[0] in rels:
                return  # the open end of a period: end >= year OR end IS NULL
    if isinstance(c, ir.Not):
        if isinstance(c.operand, ir.Exists):
            _add_subquery(scene, c.operand.query, negated=True)
            return
        if isinstance(c.operand, ir.Comparison):
            left = _prop(c.operand.left)
            if left and left[0] in scene.entities and c.operand.op is ir.CompOp.EQ:
                scene.entities[left[0]].conds.append(Cond(left[1], "<>", c.operand.right))
                return
    if isinstance(c, ir.Exists):
        _add_subquery(scene, c.query)
        return
    scene.extra.append(c)


def _add_subquery(scene: Scene, q: ir.Query, negated: bool = False) -> None:
    if isinstance(q, ir.LinearQuery):
        for step in q.steps:
            if isinstance(step, ir.Match):
                for p in step.patterns:
                    add_pattern(scene, p, negated=negated)


def read_match(scene: Scene, step: ir.Match, steps: list[ir.Step]) -> None:
    for p in step.patterns:
        add_pattern(scene, p, optional=step.optional)
    rels = _rel_var_links(scene, steps)
    for c in conjuncts(step.where):
        add_condition(scene, c, rels)


def group_measures(scene: Scene, step: ir.Projection) -> None:
    """``WITH b, count(a) AS k``: k is a measure of b counting a along their links."""
    owners = [i.expr.name for i in step.items if isinstance(i.expr, ir.Variable)]
    for item in step.items:
        e = item.expr
        if not isinstance(e, ir.Aggregate) or not item.alias or not e.args or not owners:
            continue
        arg = e.args[0]
        counted = arg.name if isinstance(arg, ir.Variable) else None
        key = None
        prop = _prop(arg)
        if prop is not None:
            counted, key = prop
        if counted is None:
            continue
        m = Measure(item.alias, owners[0], e.name, counted, key)
        scene.measures[item.alias] = m
        for link in scene.links:
            if {link.source, link.target} == {m.owner, m.counted} and link.measured is None:
                link.measured = m.name
