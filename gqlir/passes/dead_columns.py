"""Dead constant columns: a column that an intermediate projection binds to a constant and that
nothing after it reads is dropped.

After constant propagation (:mod:`.propagate`) ``WITH {name: 'Mats'} AS map RETURN map.name AS
result`` reads ``'Mats'`` where it read ``map.name``, and ``map`` is read no more; but the WITH
still makes the map, which a target without maps (Spanner: "GoogleSQL has no map type", see
``map_literals`` in dialects/spanner.toml) cannot write. Dropping the column changes no row:

* a constant column neither splits nor merges rows under ``DISTINCT``, so it goes when another
  column stays;
* a projection left without columns is dropped whole only when it maps each row to one row (no
  ``DISTINCT``, no aggregate, no ``WHERE``, ordering or paging) and the names it hid from the
  steps after it are not used there (they would see them again).

Not dropped: the last projection's columns (the result), a column a later ``*`` projection
would return, and any column of a projection that aggregates (grouping by a constant key gives
no row for no input, where grouping by nothing gives one). This is part of the folding fallback
of translation: it runs only where the target refused the query as written.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import ir
from ..analysis.aggregates import aggregates
from ..ir.analysis import column_name, names_in
from ..ir.node import rebuilt
from .fold import is_constant_value


def drop_dead_constants(query: ir.Statement) -> ir.Statement:
    if isinstance(query, ir.LinearQuery):
        return _pipeline(query)
    if isinstance(query, ir.SetOperation):
        left, right = drop_dead_constants(query.left), drop_dead_constants(query.right)
        if left is query.left and right is query.right:
            return query
        return rebuilt(query, left=left, right=right)
    return query


def _pipeline(query: ir.LinearQuery) -> ir.LinearQuery:
    """One pass from the last step back, with the names the later (already final) steps read
    kept as a running set: each step's names are gathered once."""
    steps = list(query.steps)
    changed = False
    read: set[str] = set()  # names the steps after ``i`` read
    star_later = False  # a step after ``i`` is a ``*`` projection
    earlier: list[set[str]] | None = None  # names in steps[:i], gathered on first need
    named: dict[int, set[str]] = {}  # id(step) -> names_in(step), for the steps as read

    def names(step: ir.Step) -> set[str]:
        found = named.get(id(step))
        if found is None:
            found = named[id(step)] = names_in(step)
        return found

    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if i == len(steps) - 1 or not isinstance(step, ir.Projection) or step.star or star_later:
            read |= names(step)
            star_later = star_later or (isinstance(step, ir.Projection) and step.star)
            continue
        if not any(
            is_constant_value(item.expr) and column_name(item) not in read for item in step.items
        ) or any(aggregates(item.expr) for item in step.items):
            read |= names(step)  # (no column to drop, or one of an aggregating projection)
            continue
        own = set()
        for part in (step.where, *step.order_by):
            if part is not None:
                own |= names_in(part)
        kept = tuple(
            item
            for item in step.items
            if not (
                is_constant_value(item.expr)
                and column_name(item) not in read
                and column_name(item) not in own
            )
        )
        if len(kept) < len(step.items):
            if kept:
                step = steps[i] = rebuilt(step, items=kept)
                changed = True
            elif _one_to_one(step):
                if earlier is None:
                    earlier = _prefix_names(steps, names)
                if not (read & earlier[i]):
                    del steps[i]
                    changed = True
                    continue
        read |= names(step)
    if not changed:
        return query
    return rebuilt(query, steps=tuple(steps))


def _prefix_names(steps: list[ir.Step], names: Callable[[ir.Step], set[str]]) -> list[set[str]]:
    """``[names in steps[:i] for each i]``, built in one pass."""
    prefixes: list[set[str]] = [set()]
    for step in steps:
        prefixes.append(prefixes[-1] | names(step))
    return prefixes


def _one_to_one(step: ir.Projection) -> bool:
    return not (
        step.distinct
        or step.where is not None
        or step.order_by
        or step.skip is not None
        or step.limit is not None
        or step.group_by
    )
