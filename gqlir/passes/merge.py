"""Cypher's ``MERGE`` in GQL, which has none, where the rewrite means the same (pass ``merge``).

GQL has no MERGE statement (its data-modifying statements are INSERT, SET, REMOVE and DELETE:
opengql/grammar ``GQL.g4``, ``primitiveDataModifyingStatement``), but it has OPTIONAL MATCH, OPTIONAL CALL, FILTER and FOR, which say the same where a target has
them (capabilities ``graph_writes``, ``call_subquery``, ``optional_call``, ``filter_step``).

``MERGE (a:L {k: 1}) ON CREATE SET c ON MATCH SET m`` becomes::

    OPTIONAL MATCH (m:L {k: 1})
    OPTIONAL CALL (m) { FILTER m IS NULL INSERT (c:L {k: 1}) SET <c on c> RETURN c }
    OPTIONAL CALL (m) { FILTER m IS NOT NULL SET <m on m> RETURN m AS u }
    FOR a IN [m, c] FILTER a IS NOT NULL

The OPTIONAL MATCH finds every existing match (each is a row, as in Cypher); the first call
inserts the pattern only for a row that found none, the second runs the ON MATCH updates for a
row that found one, and the FOR names whichever was found or made (exactly one of the two is
not null). Bound variables stay as they are; the new ones are renamed in the match and in the
insert, and the helper names never reach a result (``*`` is written out from the emitter's
scope, which forgets them).

Cypher's MERGE works one row at a time: a row's match sees what the rows before it created.
The rewrite matches for all rows before it inserts for any, so it is exact only when no row can
match what another row creates:

* at most one row reaches the MERGE: it opens the query, or every step before it keeps at most
  one row (CREATE, SET, an aggregation without grouping keys, ``LIMIT 1`` …); or
* the pattern is one directed relationship between two nodes that earlier MATCHes bound, and
  the rows hold nothing else (every element of those MATCHes is named and is one of the two):
  the rows are then different pairs, and a relationship created between one pair cannot match
  another.
* the pattern is one node whose key comes from an UNWIND of distinct literals of one type
  (``UNWIND [1, 2] AS v MERGE (n:L {id: v})``), and the updates touch that node and no key: a
  node created or updated for one key never has another row's key.

Cypher also fails on a null property value in a MERGE pattern, where an insert would just leave
the property out, so the values must be literals (or come from an UNWIND of literals), and the
bound nodes must be known to exist.
Everything else is refused: the MERGE is left as a :class:`~gqlir.ir.RefusedStep`, which the
printer raises where it writes it. The lowered steps are followed by a
:class:`~gqlir.ir.ScopeNote` that hides the helper names from a later ``*`` and keeps the merged
variables' kinds (node, edge), unless the MERGE ends its query.
"""

from __future__ import annotations

from dataclasses import replace

from ..analysis.aggregates import aggregates
from ..analysis.scope import pattern_bindings
from ..analysis.types import VType
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import free_variables
from ..ir.node import Node
from .fresh import FreshNames
from .scoped import ScopedRewrite

__all__ = ["applies", "lower_merges"]

_LITERALS = (e.Boolean, e.Integer, e.Float, e.String, e.TemporalLiteral)
#: Literals whose IR equality is Cypher's equality (a key that must differ in every row).
_KEY_LITERALS = (e.Boolean, e.Integer, e.Float, e.String)
_DEFAULT_REWRITE = (
    "OPTIONAL MATCH the pattern, then INSERT it in an OPTIONAL CALL filtered on the match being "
    "null"
)


def applies(target: Dialect) -> bool:
    """Whether ``target`` has the statements the rewrite is made of."""
    caps = target.capabilities
    return caps.graph_writes and caps.call_subquery and caps.optional_call and caps.filter_step


def lower_merges(node: Node, target: Dialect) -> Node:
    """Every MERGE of ``node`` as its GQL steps, or as a refusal (a :class:`q.RefusedStep`)."""
    return _Merges(target, node).run(node)


class _Refusal(Exception):
    def __init__(self, construct: str, why: str, rewrite: str | None = None) -> None:
        super().__init__(construct)
        self.construct, self.why, self.rewrite = construct, why, rewrite


class _Merges(ScopedRewrite):
    """The walk: the variables in scope where each MERGE stands (as the printer has them), the
    steps before it in its linear query, and how deep in subqueries it is."""

    def __init__(self, target: Dialect, root: Node) -> None:
        super().__init__(target)
        self.names = FreshNames(root)

    def _linear(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] = []
        changed = False
        last = len(steps) - 1
        for i, step in enumerate(steps):
            if isinstance(step, q.Merge):
                out.extend(self.merge(step, steps[:i], final=i == last))
                changed = True
                continue
            new = self.step(step)
            changed = changed or new is not step
            out.append(new)
        return tuple(out) if changed else steps

    def run(self, node: Node) -> Node:
        if isinstance(node, q.Merge):  # a MERGE on its own: the rows that reach it are unknown
            self.scope = {}
            return self.merge(node, None, final=True)[0]
        return super().run(node)

    def merge(
        self, step: q.Merge, prior: tuple[q.Step, ...] | None, *, final: bool
    ) -> list[q.Step]:
        """The GQL steps for ``step`` (the scope then holds what it binds), or its refusal."""
        try:
            steps, kinds, helpers = self._lower(step, prior)
        except _Refusal as refusal:
            self.scope = {**self.scope, **pattern_bindings((step.pattern,))}
            message = f"{refusal.construct} has no GQL equivalent here" + (
                f": {refusal.why}" if refusal.why else ""
            )
            return [
                q.RefusedStep(
                    step, step, "MERGE", message, refusal.rewrite or _DEFAULT_REWRITE, pos=step.pos
                )
            ]
        self.scope = {**self.scope, **{name: VType(kind) for name, kind in kinds.items()}}
        if final:
            while isinstance(steps[-1], (q.Unwind, q.Filter)):
                steps.pop()  # nothing reads what the MERGE bound
            return steps
        hidden = tuple(sorted(helpers))
        return [*steps, q.ScopeNote(hidden, tuple(sorted(kinds.items())))]

    def _lower(
        self, step: q.Merge, prior: tuple[q.Step, ...] | None
    ) -> tuple[list[q.Step], dict[str, str], set[str]]:
        """The GQL steps for ``step``, the kinds of the variables it binds, and the helper
        names; :class:`_Refusal` when the rewrite would not mean the same."""
        pattern = step.pattern
        chain = pattern.path
        if pattern.variable is not None:
            raise _Refusal("MERGE with a path variable", "GQL's INSERT binds no path")
        if not isinstance(chain, p.PathChain) or pattern.search is not None or pattern.mode:
            raise _Refusal("MERGE of this pattern", "only a plain path can be merged")
        if prior is None:
            raise _Refusal("MERGE on its own", "the rows that reach it are not known")
        if self.depth > 0:
            raise _Refusal(
                "MERGE in a subquery",
                "a subquery runs once per outer row, and each run's MERGE must see what the "
                "runs before it created",
            )
        scope = self.scope
        bound = {x.variable for x in chain.elements if x.variable in scope}
        literal = _literal_variables(prior)
        for element in chain.elements:
            _check_element(element, bound, literal)
        if all(x.variable in bound for x in chain.elements):
            raise _Refusal("MERGE of bound variables only", "the pattern adds nothing")
        if _at_most_one_row(prior):
            if not bound <= _existing(prior):
                raise _Refusal(
                    "MERGE on a node that may be null",
                    "Cypher fails on a missing node, which GQL's OPTIONAL MATCH would skip",
                )
        elif not (
            _rows_are_distinct_pairs(set(scope), chain, bound, prior)
            or _rows_have_distinct_keys(chain, prior, step.actions)
        ):
            raise _Refusal(
                "MERGE over several rows",
                "Cypher merges one row at a time, so a row matches what an earlier row "
                "created; GQL would match for all rows first",
                rewrite="MERGE over distinct pairs of bound nodes (MATCH (a), (b) … MERGE "
                "(a)-[:T]->(b)) or on a key from an UNWIND of distinct literals",
            )
        return _rewrite(step, chain, bound, set(scope), self.names)


def _check_element(element: Node, bound: set[str], literal: dict[str, tuple[e.Expr, ...]]) -> None:
    if isinstance(element, p.RelPattern):
        if element.variable in bound:
            raise _Refusal("MERGE on a bound relationship", "it would merge nothing new")
        if element.quantifier is not None:
            raise _Refusal("MERGE of a variable-length relationship", "")
        if not isinstance(element.types, p.Label):
            raise _Refusal("MERGE without one relationship type", "")
    elif not isinstance(element, p.NodePattern):
        raise _Refusal("MERGE of this pattern", "only a plain path can be merged")
    if element.where is not None:
        raise _Refusal("WHERE in a MERGE pattern", "")
    props = element.properties
    if element.variable in bound and (props is not None or element.labels is not None):  # type: ignore[union-attr]
        raise _Refusal("labels or properties on a bound node in MERGE", "Cypher rejects them too")
    if props is None:
        return
    if not isinstance(props, e.MapLiteral) or not all(
        isinstance(v, _LITERALS) or (isinstance(v, e.Variable) and v.name in literal)
        for _, v in props.entries
    ):
        raise _Refusal(
            "MERGE on a computed property value",
            "Cypher fails when a MERGE property is null, and a GQL INSERT would leave it out",
            rewrite="merge on literal values, or on a variable from an UNWIND of literals",
        )


def _at_most_one_row(prior: tuple[q.Step, ...]) -> bool:
    """Whether the steps before the MERGE leave at most one row (the query starts with one)."""
    one = True
    for s in prior:
        if isinstance(s, q.Projection):
            if s.limit is not None and isinstance(s.limit, e.Integer) and s.limit.value <= 1:
                one = True
            elif s.group_by is None and not s.star and _aggregates_only(s):
                one = True  # an aggregation without grouping keys gives exactly one row
        elif isinstance(s, q.Unwind):
            items = s.source.items if isinstance(s.source, e.ListLiteral) else None
            one = one and items is not None and len(items) <= 1
        elif not isinstance(
            s, (q.Create, q.SetClause, q.Remove, q.Delete, q.Filter, q.Let, q.UseGraph)
        ):
            one = False
    return one


def _aggregates_only(step: q.Projection) -> bool:
    return bool(step.items) and all(aggregates(item.expr) for item in step.items)


def _existing(prior: tuple[q.Step, ...]) -> set[str]:
    """The node variables the steps before the MERGE certainly bind to an existing node: those
    a CREATE or a (not optional) MATCH binds, and projections pass on unchanged."""
    names: set[str] = set()
    for s in prior:
        if isinstance(s, q.Create) or (isinstance(s, q.Match) and not s.optional):
            names |= {
                x.variable
                for x in _elements(s.patterns)
                if isinstance(x, p.NodePattern) and x.variable
            }
        elif isinstance(s, q.Projection) and not s.star:
            names = {
                item.alias or item.expr.name
                for item in s.items
                if isinstance(item.expr, e.Variable) and item.expr.name in names
            }
    return names


def _rows_are_distinct_pairs(
    scope: set[str], chain: p.PathChain, bound: set[str], prior: tuple[q.Step, ...]
) -> bool:
    """A directed relationship merged between two bound nodes, over rows that are different
    pairs of them: the steps before are MATCHes (not optional) whose every element is named and
    one of the pair, so each row is a different pair."""
    elements = chain.elements
    if len(elements) != 3 or len(bound) != 2:
        return False
    left, rel, right = elements
    if rel.direction not in (p.Direction.OUT, p.Direction.IN):  # type: ignore[union-attr]
        return False
    if {left.variable, right.variable} != bound or scope != bound:
        return False
    for s in prior:
        if isinstance(s, q.UseGraph):
            continue
        if not isinstance(s, q.Match) or s.optional:
            return False
        for pattern in s.patterns:
            if pattern.variable is not None or not isinstance(pattern.path, p.PathChain):
                return False
            for x in pattern.path.elements:
                if x.variable not in bound or getattr(x, "quantifier", None) is not None:
                    return False
    return True


def _literal_variables(prior: tuple[q.Step, ...]) -> dict[str, tuple[e.Expr, ...]]:
    """The variables that hold an item of a literal list of literals (never null): bound by an
    UNWIND of one, and passed on unchanged by the steps after it. Name -> the list's items."""
    out: dict[str, tuple[e.Expr, ...]] = {}
    for s in prior:
        if isinstance(s, q.Unwind):
            out.pop(s.variable, None)
            items = s.source.items if isinstance(s.source, e.ListLiteral) else ()
            if items and all(isinstance(x, _LITERALS) for x in items):
                out[s.variable] = items
        elif isinstance(s, q.Projection) and not s.star:
            out = {
                item.alias or item.expr.name: out[item.expr.name]
                for item in s.items
                if isinstance(item.expr, e.Variable) and item.expr.name in out
            }
        elif isinstance(s, q.Let):
            for binding in s.bindings:
                out.pop(binding.variable, None)
        elif not isinstance(s, (q.Filter, q.SetClause, q.Remove, q.Create, q.Projection)):
            out = {}  # (a MATCH or a subquery could rebind a name)
    return out


def _rows_have_distinct_keys(
    chain: p.PathChain, prior: tuple[q.Step, ...], actions: tuple[q.MergeAction, ...]
) -> bool:
    """A single node merged on a key that differs in every row: an UNWIND of distinct literals
    of one type, after steps that keep at most one row and before steps that add none. What
    one row creates or updates then never has another row's key."""
    if len(chain.elements) != 1:
        return False
    (node,) = chain.elements
    if not isinstance(node, p.NodePattern) or not isinstance(node.properties, e.MapLiteral):
        return False
    unwinds = [i for i, s in enumerate(prior) if isinstance(s, q.Unwind)]
    if not unwinds or not _at_most_one_row(prior[: unwinds[-1]]):
        return False
    if not all(isinstance(s, (q.Filter, q.Projection)) for s in prior[unwinds[-1] + 1 :]):
        return False
    if any(isinstance(s, q.Projection) and _grouping(s) for s in prior[unwinds[-1] + 1 :]):
        return False
    # the key must come from the UNWIND that makes the rows (an earlier one has one item)
    per_row = _literal_variables(prior[unwinds[-1] :])
    keys = set()
    for key, value in node.properties.entries:
        items = per_row.get(value.name) if isinstance(value, e.Variable) else None
        # Distinct as Cypher compares them: literals of one type whose equality is their
        # value's (two temporal texts may name one instant; 1 = 1.0)
        if (
            items
            and len({type(x) for x in items}) == 1
            and isinstance(items[0], _KEY_LITERALS)
            and len(set(items)) == len(items)
        ):
            keys.add(key)
    if not keys:
        return False
    # The updates touch the merged node only (a label or a property given to another node
    # could make it match a later row), and none of the pattern's keys.
    written = {key for key, _ in node.properties.entries}
    for action in actions:
        for item in action.items:
            if isinstance(item, q.SetLabels):
                if item.variable != node.variable:
                    return False
            elif not (
                isinstance(item, q.SetProperty)
                and item.subject == e.Variable(node.variable or "")
                and item.key not in written
            ):
                return False
    return True


def _grouping(step: q.Projection) -> bool:
    return step.group_by is not None or any(aggregates(item.expr) for item in step.items)


def _elements(patterns: tuple[p.PathPattern, ...]) -> list[Node]:
    return [
        x
        for pattern in patterns
        for x in pattern.walk()
        if isinstance(x, (p.NodePattern, p.RelPattern))
    ]


def _rewrite(
    step: q.Merge, chain: p.PathChain, bound: set[str], scope: set[str], fresh: FreshNames
) -> tuple[list[q.Step], dict[str, str], set[str]]:
    matched: dict[str, str] = {}  # pattern variable -> its name in the OPTIONAL MATCH
    made: dict[str, str] = {}  # pattern variable -> its name in the INSERT
    match_elements: list[Node] = []
    insert_elements: list[Node] = []
    test: str | None = None  # the first new element, null when nothing matched
    first_made = ""
    kinds: dict[str, str] = {}
    for element in chain.elements:
        if element.variable in bound:
            match_elements.append(element)
            insert_elements.append(element)
            continue
        if element.variable in matched:  # a variable the pattern names twice: one element
            m, c = matched[element.variable], made[element.variable]
        else:
            m, c = fresh.named("_m"), fresh.named("_c")
        if element.variable is not None:
            matched[element.variable] = m
            made[element.variable] = c
            kinds[element.variable] = "node" if isinstance(element, p.NodePattern) else "edge"
        if test is None:
            test, first_made = m, c
        match_elements.append(replace(element, variable=m))
        inserted = replace(element, variable=c)
        if isinstance(inserted, p.RelPattern) and inserted.direction not in (
            p.Direction.OUT,
            p.Direction.IN,
        ):
            # Cypher creates an undirected MERGE's relationship from left to right.
            inserted = replace(inserted, direction=p.Direction.OUT)
        insert_elements.append(inserted)
    assert test is not None
    # the bound variables, and those the property values read
    read = set().union(*(free_variables(x) for x in chain.elements))
    imports = tuple(sorted(bound | {n for n in read if n in scope}))
    on_create = [i for a in step.actions if a.on_create for i in a.items]
    on_match = [i for a in step.actions if not a.on_create for i in a.items]

    match = q.Match(
        (p.PathPattern(p.PathChain(tuple(match_elements))),),  # type: ignore[arg-type]
        optional=True,
        pos=step.pos,
    )
    create_body: list[q.Step] = [
        q.Filter(e.IsNull(e.Variable(test))),
        q.Create((p.PathPattern(p.PathChain(tuple(insert_elements))),)),  # type: ignore[arg-type]
    ]
    if on_create:
        create_body.append(q.SetClause(tuple(_renamed(i, made) for i in on_create)))
    returned = [*made.values()] or [first_made]
    create_body.append(q.Projection(tuple(q.ReturnItem(e.Variable(c)) for c in returned)))
    steps: list[q.Step] = [
        match,
        _call(create_body, (test, *imports, *_reads(on_create, made, scope))),
    ]
    helpers = {test, *matched.values(), *returned}
    if on_match:
        done = fresh.named("_u")
        steps.append(
            _call(
                [
                    q.Filter(e.IsNull(e.Variable(test), negated=True)),
                    q.SetClause(tuple(_renamed(i, matched) for i in on_match)),
                    q.Projection((q.ReturnItem(e.Variable(test), done),)),
                ],
                (test, *imports, *matched.values(), *_reads(on_match, matched, scope)),
            )
        )
        helpers.add(done)
    for name in matched:
        # One of the two is null in every row. (A LET of COALESCE(m, c) would say the same, but
        # grafeo 0.6 reads an edge that went through an expression as the node of that id.)
        pair = e.ListLiteral((e.Variable(matched[name]), e.Variable(made[name])))
        steps.append(q.Unwind(pair, name))
        steps.append(q.Filter(e.IsNull(e.Variable(name), negated=True)))
    return steps, kinds, helpers


def _call(body: list[q.Step], imports: tuple[str, ...]) -> q.CallSubquery:
    return q.CallSubquery(
        q.LinearQuery(tuple(body)), imports=tuple(dict.fromkeys(imports)), optional=True
    )


def _reads(items: list[q.SetItem], renames: dict[str, str], scope: set[str]) -> list[str]:
    """The outer variables the update items read (besides the merged ones)."""
    names: set[str] = set()
    for item in items:
        names |= free_variables(item)
        if isinstance(item, (q.SetLabels, q.SetProperties)):
            names.add(item.variable)
    return sorted(n for n in names if n in scope and n not in renames)


def _renamed(item: q.SetItem, renames: dict[str, str]) -> q.SetItem:
    def rename(node: Node) -> Node:
        if isinstance(node, e.Variable) and node.name in renames:
            return e.Variable(renames[node.name], pos=node.pos)
        return node

    item = item.transform(rename)  # type: ignore[assignment]
    if isinstance(item, (q.SetLabels, q.SetProperties)) and item.variable in renames:
        item = replace(item, variable=renames[item.variable])
    return item
