"""Cypher's ``nodes(p)`` and ``relationships(p)`` in GQL, which has neither, for paths whose
elements the MATCH names.

A path matched by a chain of node and relationship patterns holds exactly those elements in
that order, so while the chain's variables are in scope (up to the next projection),
``nodes(p)`` is the list of its node variables and ``relationships(p)`` the list of its
relationship variables: ``MATCH p = (a)-->(b) RETURN nodes(p)`` becomes
``MATCH p = (a)->(_n1:…)`` … ``RETURN [a, b]``. A variable-length relationship contributes its
group variable, the list of its edges in path order, so ``relationships(p)`` of
``(a)-[*1..3]->(b)`` is that list (concatenated with ``||`` to the others). ``nodes(p)`` of a
variable-length path is left alone: the nodes inside it have no variable. Elements without a
variable get a fresh one, unless the next projection is ``*`` (it would return them). After an
OPTIONAL MATCH the path may be null, and so is the list: ``CASE WHEN p IS NULL THEN NULL ELSE
[…] END``.

Runs for a target that lists ``nodes`` or ``relationships`` in ``unsupported_functions`` (ISO GQL
has neither function: GQL.g4 has no such built-in; Spanner has ``NODES``/``EDGES`` and keeps
its own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .fresh import FreshNames

__all__ = ["applies", "lower_path_lists", "spell_path_lists"]

_LISTS = ("nodes", "relationships")
_LISTS_SET = frozenset(_LISTS)


def applies(target: Dialect) -> bool:
    """Whether the target lacks ``nodes()`` or ``relationships()``."""
    return not _LISTS_SET.isdisjoint(target.capabilities.unsupported_functions)


def lower_path_lists(root: Node, target: Dialect) -> Node:
    """``root`` with ``nodes(p)`` / ``relationships(p)`` of named chains written as lists in
    every linear query, for a target without those functions."""
    if not applies(target) or not any(
        isinstance(n, e.FunctionCall) and n.name in _LISTS for n in root.walk()
    ):
        return root
    fresh = FreshNames(root)

    def visit(node: Node) -> Node:
        if not isinstance(node, q.LinearQuery):
            return node
        steps = spell_path_lists(node.steps, fresh)
        if all(a is b for a, b in zip(steps, node.steps)):
            return node
        return replace(node, steps=steps)

    return root.transform(visit)


def spell_path_lists(steps: tuple[q.Step, ...], fresh: Callable[[], str]) -> tuple[q.Step, ...]:
    """``steps`` with ``nodes(p)`` / ``relationships(p)`` of named chains written as lists."""
    out = list(steps)
    for i, step in enumerate(steps):
        if not isinstance(step, q.Match):
            continue
        end = next(
            (j for j in range(i + 1, len(steps)) if isinstance(steps[j], q.Projection)), None
        )
        last = len(steps) - 1 if end is None else end
        # a ``*`` projection would return the variables given to unnamed elements
        star = end is not None and steps[end].star  # type: ignore[attr-defined]
        patterns = list(step.patterns)
        for k, pattern in enumerate(patterns):
            name = pattern.variable
            if name is None or not isinstance(pattern.path, p.PathChain):
                continue
            readers: list[Node] = [*out[i + 1 : last + 1]]
            if step.where is not None:
                readers.append(step.where)
            read = {
                call.name
                for s in readers
                for call in s.find_all(e.FunctionCall)
                if call.name in _LISTS and call.args == (e.Variable(name),)
            }
            if not read:
                continue
            chain = _named(pattern.path, fresh, read)
            if chain is None or (star and chain != pattern.path):
                continue
            patterns[k] = replace(pattern, path=chain)
            lists = {kind: _list(chain, kind, name, step.optional) for kind in read}
            for j in range(i + 1, last + 1):
                out[j] = cast(q.Step, out[j].transform(_replacer(name, lists)))
            if step.where is not None:
                where = cast(e.Expr, step.where.transform(_replacer(name, lists)))
                step = replace(step, where=where)
        out[i] = replace(step, patterns=tuple(patterns))
    return tuple(out)


def _named(chain: p.PathChain, fresh: Callable[[], str], read: set[str]) -> p.PathChain | None:
    """The chain with a variable on every element a list reads; None when one cannot be read
    (a node inside a variable-length relationship, or an element of another shape)."""
    elements = []
    for element in chain.elements:
        if isinstance(element, p.RelPattern):
            if element.quantifier is not None and "nodes" in read:
                return None
            wanted = "relationships" in read
        elif isinstance(element, p.NodePattern):
            wanted = "nodes" in read
        else:
            return None
        if wanted and element.variable is None:
            element = replace(element, variable=fresh())
        elements.append(element)
    return replace(chain, elements=tuple(elements))


def _list(chain: p.PathChain, kind: str, path: str, optional: bool) -> e.Expr:
    shape = p.NodePattern if kind == "nodes" else p.RelPattern
    parts: list[e.Expr] = []
    singles: list[e.Expr] = []
    for element in chain.elements:
        if not isinstance(element, shape):
            continue
        var = e.Variable(element.variable)  # type: ignore[arg-type]
        if isinstance(element, p.RelPattern) and element.quantifier is not None:
            if singles:
                parts.append(e.ListLiteral(tuple(singles)))
                singles = []
            parts.append(var)  # the group variable: its edges, in path order
        else:
            singles.append(var)
    if singles or not parts:
        parts.append(e.ListLiteral(tuple(singles)))
    value = parts[0]
    for part in parts[1:]:
        value = e.Concat(value, part)
    if not optional:
        return value
    return e.Case(None, (e.CaseWhen(e.IsNull(e.Variable(path)), e.Null()),), value)


def _replacer(path: str, lists: dict[str, e.Expr]) -> Callable[[Node], Node]:
    def replace_call(node: Node) -> Node:
        if (
            isinstance(node, e.FunctionCall)
            and node.name in lists
            and node.args == (e.Variable(path),)
        ):
            return lists[node.name]
        return node

    return replace_call
