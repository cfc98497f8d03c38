"""Refusals as data: a stable id for each refused construct, and every refusal of a query.

An :class:`~gqlir.errors.UnsupportedError` names its construct in words for people
("function datetime.truncate()", "graph element in result"). Reports and tools need a name that
does not change with the target or the wording: :func:`refusal_id` is that name, the same for
one construct whichever emitter or pass refuses it (``regex match`` and ``regular expression
match`` are both ``regular-expression-match``; ``function datetime()`` is
``function:datetime``). docs/refusals.md lists the ids with what each means.

A translation stops at its first refusal. :func:`all_refusals` looks for the others: it takes
the refused IR node out of the query (an expression becomes a null, a step is dropped), writes
the rest again, and repeats, so a user learns every construct to change at once. What the probe
finds after a replacement that itself causes a refusal is not reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from .errors import SYNONYMS, UnsupportedError, refusal_id
from .ir import expr as x
from .ir import query as q
from .ir.node import Node

__all__ = ["SYNONYMS", "all_refusals", "refusal_id"]

#: How many refusals a query is probed for.
PROBES = 8


def all_refusals(
    query: Node, first: UnsupportedError, write: Callable[[Node], str]
) -> list[UnsupportedError]:
    """``first`` and the refusals the rest of ``query`` still meets when ``write`` writes it
    with each refused node taken out (in the order they are met, one per construct id)."""
    found = [first]
    current, refused = query, first
    for _ in range(PROBES):
        node = getattr(refused, "node", None)
        if node is None:
            break
        reduced = _without(current, node)
        if reduced is None or reduced == current:
            break
        try:
            write(reduced)
        except UnsupportedError as exc:
            if getattr(exc, "node", None) is _STAND_IN:
                break  # the stand-in itself was refused: nothing more to learn
            if all(refusal_id(exc.construct) != refusal_id(f.construct) for f in found):
                found.append(exc)
            current, refused = reduced, exc
            continue
        except Exception:
            break
        break
    return found


def _without(query: Node, target: Node) -> Node | None:
    """``query`` with ``target`` taken out, None when it cannot be: an optional part (a
    quantifier, a WHERE) removed, an item of a list of several dropped, a filter or a write
    step dropped, another expression replaced by a null. ``target`` is the node of ``query``
    itself or, when a lowering rebuilt it (a part inside it refused in place), the node of its
    class at its position."""
    reduced = _swap(query, target, lambda v: v is target)
    pos = getattr(target, "pos", None)
    if reduced is None and pos is not None:
        kind = type(target)
        reduced = _swap(query, target, lambda v: type(v) is kind and v.pos == pos)
    return reduced


def _swap(query: Node, target: Node, same: Callable[[Any], bool]) -> Node | None:
    found = False

    def swap(node: Node) -> Node:
        nonlocal found
        changes: dict[str, Any] = {}
        for name, value in node.field_values():
            if same(value) and _optional(node, name):
                changes[name] = None
            elif isinstance(value, tuple) and any(same(v) for v in value):
                kept = tuple(v for v in value if not same(v))
                droppable = not isinstance(target, q.Step) or isinstance(target, _DROPPABLE)
                if kept and droppable:
                    changes[name] = kept
        if changes:
            found = True
            return replace(node, **changes)
        if same(node) and isinstance(target, x.Expr):
            found = True
            return _STAND_IN
        return node

    reduced = query.transform(swap)
    return reduced if found else None


def _optional(node: Node, name: str) -> bool:
    field = next((f for f in fields(node) if f.name == name), None)
    return field is not None and field.default is None


#: Steps that bind nothing later steps read: taking one out leaves the rest a query.
_DROPPABLE = (q.Filter, q.SetClause, q.Remove, q.Delete, q.Foreach)
_STAND_IN = x.Null()
