"""Undirected relationships on a target that matches a self-loop once per direction.

Kuzu matches an undirected pattern ``(a)-[r]-(b)``, also a recursive one ``-[e*1..1]-``, once
per direction, so a self-loop gives two rows where Cypher gives one (dialects/kuzu.toml,
``undirected_self_loop_once``: observed with 0.11.3; Kuzu's match.md, "Match undirected
relationships", says only "in both directions"). An undirected relationship keeps Cypher's
meaning there only between nodes of two different single labels: a schema-first engine's
relationship between two node tables cannot be a loop. Any other is refused: the MATCH is left
as a :class:`~gqlir.ir.RefusedStep`, raised where the printer writes it (before anything of the
MATCH is written, as the refusal names the MATCH's first such relationship).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import SUBQUERIES
from ..ir.node import Node
from .outermost import refuse_outermost

__all__ = ["applies", "lower_self_loops"]

_REWRITE = (
    "give the two end nodes different labels, or match each direction in its own query and "
    "UNION ALL them, excluding loops from one"
)


def applies(target: Dialect) -> bool:
    return not target.capabilities.undirected_self_loop_once


def lower_self_loops(root: Node, target: Dialect) -> Node:
    """Every MATCH of ``root`` with an undirected relationship that may be a loop, refused."""
    message = f"{target.name} matches a self-loop once in each direction"

    kinds = _summary_kinds(root)
    # Without subqueries in expressions, every MATCH is a step of a query (no expression and
    # no pattern needs a look), and without pattern comprehensions too, every chain of a MATCH
    # is in its paths' structure.
    subqueries = not kinds.isdisjoint(SUBQUERIES)
    chains = _all_chains if subqueries or e.PatternComprehension in kinds else _path_chains

    def refuse(step: q.Match) -> q.Step:
        rel = _loop(step, chains)
        if rel is None:
            return step
        return q.RefusedStep(step, rel, "undirected relationship", message, _REWRITE, pos=rel.pos)

    skip = () if subqueries else (e.Expr, p.PathPattern)
    return refuse_outermost(root, q.Match, refuse, skip)


def _summary_kinds(root: Node) -> frozenset[type]:
    """The node kinds ``root`` holds, by the pipeline's summary of it (which the pipeline has
    just gathered to choose this pass)."""
    from .pipeline import summary_of

    return summary_of(root).kinds


def _all_chains(pattern: p.PathPattern) -> Iterator[p.PathChain]:
    """Every path chain inside ``pattern``, those of the subqueries and pattern comprehensions
    of its expressions too, in writing order."""
    for node in pattern.walk():
        if isinstance(node, p.PathChain):
            yield node


def _path_chains(pattern: p.PathPattern) -> Iterator[p.PathChain]:
    """The path chains of ``pattern``'s path, in writing order (as :func:`_all_chains` for a
    pattern whose expressions hold no pattern)."""
    stack: list[p.PathExpr] = [pattern.path]
    while stack:
        path = stack.pop()
        if isinstance(path, p.PathUnion):
            stack.extend(reversed(path.alternatives))
            continue
        yield path
        inner = [x.path for x in path.elements if isinstance(x, p.ParenPath)]
        stack.extend(reversed(inner))


def _loop(
    step: q.Match, chains: Callable[[p.PathPattern], Iterator[p.PathChain]]
) -> p.RelPattern | None:
    """The first undirected relationship of ``step`` that may match a self-loop."""
    for pattern in step.patterns:
        for chain in chains(pattern):
            elements = chain.elements
            last = len(elements) - 1
            for i, rel in enumerate(elements):
                if not isinstance(rel, p.RelPattern) or rel.direction is not p.Direction.EITHER:
                    continue
                ends = (elements[i - 1], elements[i + 1]) if 0 < i < last else ()
                labels = [getattr(x, "labels", None) for x in ends]
                distinct = (
                    rel.quantifier is None
                    and len(labels) == 2
                    and all(isinstance(x, p.Label) for x in labels)
                    and labels[0] != labels[1]
                )
                if not distinct:
                    return rel
    return None


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: the refused MATCH is kept inside
    the RefusedStep."""
    return replace(summary, kinds=summary.kinds | {q.RefusedStep})
