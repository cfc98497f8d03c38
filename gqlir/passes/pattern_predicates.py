"""``EXISTS { pattern }`` as a bare pattern predicate, for a target that has only the latter.

TuGraph's Cypher rejects ``EXISTS { }`` subqueries but reads ``WHERE (a)-[:R]->()``
(Lcypher.g4 ``oC_Atom`` includes ``oC_RelationshipsPattern``; dialects/tugraph-cypher.toml).
The two mean the same: a pattern predicate is true when the pattern has a match (openCypher 9,
"Pattern predicates"; the IR reads both as :class:`~gqlir.ir.expr.Exists`). A pattern
predicate may not introduce variables, so an EXISTS is marked to be written as one only when
it is one plain MATCH of a single pattern with a relationship and no WHERE; a variable it
introduces that is named once and read nowhere is dropped (``EXISTS { (n)-->(m) }`` is
``(n)-->()``), and every other variable must be bound where the EXISTS stands, and known not
to be null there: with a null node ``EXISTS { }`` is false but a pattern predicate is null
(and FalkorDB drops the row of a CASE testing one: make fuzz, seed 20261121), so a variable an
OPTIONAL MATCH, an UNWIND or a computed column binds keeps the EXISTS. Where the target reads a
pattern as a predicate only under AND, OR and NOT of a WHERE (``pattern_predicate_anywhere``
false: FalkorDB reads it as the list of its paths elsewhere), an EXISTS elsewhere stays one. The printer then
decides as for a predicate it read (gqlir/emitter/cypher.py ``exists``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import column_name
from ..ir.node import Node

__all__ = ["applies", "lower_pattern_predicates"]


def applies(target: Dialect) -> bool:
    """A target with pattern predicates and without EXISTS subqueries."""
    caps = target.capabilities
    return caps.pattern_predicate and not caps.exists_subquery


def lower_pattern_predicates(root: Node, target: Dialect) -> Node:
    """``root`` with each EXISTS that can be a pattern predicate marked as one."""
    if not applies(target):
        return root
    anywhere = target.capabilities.pattern_predicate_anywhere
    counts = target.capabilities.pattern_comprehension

    def linear(node: Node) -> Node:
        if not isinstance(node, q.LinearQuery):
            return node
        bound: set[str] = set()
        present: set[str] = set()  # bound and never null
        steps: list[q.Step] = []
        for step in node.steps:
            here, sure = bound, present
            if isinstance(step, q.Match):  # (its own variables are matched where it tests them)
                here, sure = bound | _pattern_names(step), present | _pattern_names(step)
            marker = _marker(here, sure)
            if anywhere:
                step = step.transform(marker)  # type: ignore[assignment]
            else:  # a pattern read as a predicate elsewhere is an EXISTS there
                step = _mark_where(step.transform(_unmark), marker)  # type: ignore[arg-type]
            if counts:
                step = _count_outside_where(step, here, sure)
            steps.append(step)
            present = _present_after(step, present)
            bound = _after(step, bound)
        new = tuple(steps)
        if all(a is b for a, b in zip(new, node.steps, strict=True)):
            return node
        return replace(node, steps=new)

    return root.transform(linear)


def _mark_where(step: q.Step, marker: Callable[[Node], Node]) -> q.Step:
    """``step`` with the EXISTS marked that are operands of AND, OR or NOT at the top of its
    WHERE (``pattern_predicate_anywhere`` false: FalkorDB reads a pattern as a predicate only
    there)."""
    where = getattr(step, "where", None)
    if not isinstance(step, (q.Match, q.Projection)) or where is None:
        return step
    new = _mark_connectives(where, marker)
    return step if new is where else replace(step, where=new)


def _count_outside_where(step: q.Step, bound: set[str], present: set[str]) -> q.Step:
    """``step`` with its EXISTS outside a WHERE (and outside a MATCH) counted by
    :func:`_counted`: FalkorDB resolves no pattern comprehension in a WHERE ("Unable to resolve
    filtered alias", observed), where a pattern predicate is the form it reads."""
    if isinstance(step, q.Match):
        return step
    where = getattr(step, "where", None)
    base = replace(step, where=None) if where is not None else step  # type: ignore[call-arg]
    new = base.transform(lambda x: _counted(x, bound, present))
    if new is base:
        return step
    if where is None:
        return new  # type: ignore[return-value]
    return replace(new, where=where)  # type: ignore[call-arg,return-value]


def _counted(node: Node, bound: set[str], present: set[str]) -> Node:
    """An EXISTS that stays one, written ``size([pattern WHERE w | 1]) > 0``: a pattern
    comprehension lists one item per match, so it is not empty exactly when the EXISTS holds.
    Only for one pattern with at most one relationship of one hop (edge uniqueness and the
    path semantics of variable-length relationships differ between the targets) whose bound
    variables are known not to be null (a pattern comprehension from a null node is null in
    some engines)."""
    if not isinstance(node, e.Exists):
        return node
    match = _one_pattern_match(node)
    if match is None:
        return node
    pattern = match.patterns[0]
    if pattern.variable is not None or pattern.search is not None or pattern.mode is not None:
        return node
    if not isinstance(pattern.path, p.PathChain):
        return node
    rels = [x for x in pattern.path.elements if isinstance(x, p.RelPattern)]
    if len(rels) > 1 or any(r.quantifier is not None for r in rels):
        return node
    if not all(isinstance(x, (p.NodePattern, p.RelPattern)) for x in pattern.path.elements):
        return node
    if not (_pattern_names(match) & bound) <= present:
        return node
    listed = e.PatternComprehension(pattern, match.where, e.Integer(1), pos=node.pos)
    size = e.FunctionCall("size", (listed,), pos=node.pos)
    return e.Comparison(e.CompOp.GT, size, e.Integer(0), pos=node.pos)


def _unmark(node: Node) -> Node:
    if isinstance(node, e.Exists) and node.pattern_predicate:
        return replace(node, pattern_predicate=False)
    return node


def _mark_connectives(node: e.Expr, marker: Callable[[Node], Node]) -> e.Expr:
    if isinstance(node, e.Exists):
        return marker(node)  # type: ignore[return-value]
    if isinstance(node, (e.And, e.Or)):
        left = _mark_connectives(node.left, marker)
        right = _mark_connectives(node.right, marker)
        if left is node.left and right is node.right:
            return node
        return replace(node, left=left, right=right)
    if isinstance(node, e.Not):
        operand = _mark_connectives(node.operand, marker)
        return node if operand is node.operand else replace(node, operand=operand)
    return node


def _one_pattern_match(node: e.Exists) -> q.Match | None:
    """The MATCH of an EXISTS not yet a pattern predicate that is one plain MATCH of one
    pattern, else None."""
    if node.pattern_predicate:
        return None
    query = node.query
    if not isinstance(query, q.LinearQuery) or len(query.steps) != 1:
        return None
    match = query.steps[0]
    if not isinstance(match, q.Match) or match.optional or len(match.patterns) != 1:
        return None
    return match


def _marker(bound: set[str], present: set[str]) -> Callable[[Node], Node]:
    return lambda node: _mark(node, bound, present)


def _mark(node: Node, bound: set[str], present: set[str]) -> Node:
    if not isinstance(node, e.Exists):
        return node
    match = _one_pattern_match(node)
    if match is None or match.where is not None:
        return node
    query = node.query
    assert isinstance(query, q.LinearQuery)  # as _one_pattern_match found
    pattern = match.patterns[0]
    if not any(isinstance(x, p.RelPattern) for x in pattern.walk()):
        return node
    if not (_pattern_names(match) & bound) <= present:
        return node
    new = _pattern_names(match) - bound
    if new:
        if not all(_named_once(match, name) for name in new):
            return node
        match = match.transform(lambda x: _anonymous(x, new))  # type: ignore[assignment]
        query = replace(query, steps=(match,))
    return replace(node, query=query, pattern_predicate=True)


def _named_once(match: q.Match, name: str) -> bool:
    """Whether ``name`` is declared once in ``match`` and read nowhere in it."""
    declared = read = 0
    for x in match.walk():
        if isinstance(x, (p.NodePattern, p.RelPattern, p.PathPattern)) and x.variable == name:
            declared += 1
        elif isinstance(x, e.Variable) and x.name == name:
            read += 1
    return declared == 1 and read == 0


def _anonymous(node: Node, names: set[str]) -> Node:
    if isinstance(node, (p.NodePattern, p.RelPattern, p.PathPattern)) and node.variable in names:
        return replace(node, variable=None)
    return node


def _pattern_names(step: q.Match) -> set[str]:
    names: set[str] = set()
    for pattern in step.patterns:
        if pattern.variable is not None:
            names.add(pattern.variable)
        for x in pattern.walk():
            if isinstance(x, (p.NodePattern, p.RelPattern)) and x.variable is not None:
                names.add(x.variable)
    return names


def _after(step: q.Step, bound: set[str]) -> set[str]:
    """The variables bound after ``step`` (as far as this pass follows; a step it does not
    know leaves nothing known)."""
    if isinstance(step, q.Match):
        return bound | _pattern_names(step)
    if isinstance(step, q.Unwind):
        return bound | {step.variable} | ({step.index} if step.index else set())
    if isinstance(step, q.Projection):
        names = {name for item in step.items if (name := column_name(item)) is not None}
        return (bound | names) if step.star else names
    if isinstance(step, (q.Filter, q.SetClause, q.Remove, q.Delete)):
        return bound
    return set()


def _present_after(step: q.Step, present: set[str]) -> set[str]:
    """The variables known bound to a value (never null) after ``step``: those a MATCH binds,
    kept through projections of the variable itself."""
    if isinstance(step, q.Match):
        return present if step.optional else present | _pattern_names(step)
    if isinstance(step, q.Projection):
        kept = {
            name
            for item in step.items
            if isinstance(item.expr, e.Variable)
            and item.expr.name in present
            and (name := column_name(item)) is not None
        }
        return (present | kept) if step.star else kept
    if isinstance(step, (q.Filter, q.SetClause, q.Remove, q.Delete, q.Unwind)):
        return present  # (an UNWIND's own variable may be null)
    return set()
