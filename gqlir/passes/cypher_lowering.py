"""Lowering for a Cypher-family target whose expressions do not mean what Cypher's do.

Each rule reads one capability of the target (its cited fact is in the dialect file) and
rewrites the IR to a form that has Cypher's meaning on that target, or refuses the construct.
Every rule is a no-op under Cypher's own capabilities, so the pass changes nothing for Neo4j or
openCypher 9.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import aggregates, column_name, free_variables, names_in
from ..ir.node import Node
from .composites import Composites, Grade

_SCALAR_LITERALS = (e.Boolean, e.Integer, e.Float, e.String, e.TemporalLiteral)


def needs_lowering(dialect: Dialect) -> bool:
    """Whether any rule of this pass applies to ``dialect`` (so Cypher itself skips the walk)."""
    c = dialect.capabilities
    return not (
        c.membership_null_unknown
        and c.list_equality_null_unknown
        and not c.simple_case_null_matches
        and not c.string_plus_null_empty
        and c.contains_empty_true
        and c.index_out_of_range_null
        and not c.order_by_reads_shadowed
        and not c.with_distinct_constants_kept
    )


def lower(root: Node, dialect: Dialect, scalar_properties: frozenset[str] = frozenset()) -> Node:
    """``root`` with every construct whose meaning differs on ``dialect`` rewritten.
    ``scalar_properties``: the properties a schema gives a scalar type (see
    :class:`~gqlir.passes.composites.Composites`)."""
    if not needs_lowering(dialect):
        return root
    return _Lowering(root, dialect, scalar_properties).run()


class _Lowering:
    def __init__(self, root: Node, dialect: Dialect, scalar_properties: frozenset[str]) -> None:
        self.root = root
        self.dialect = dialect
        self.caps = dialect.capabilities
        self.taken = names_in(root)
        self._composites: Composites | None = None
        self._sites: Counter[str] | None = None
        self._scalar_properties = scalar_properties

    @property
    def binding_sites(self) -> Counter[str]:
        """How many places of the query bind each name (a projection's alias is one)."""
        if self._sites is None:
            self._sites = Counter()
            for node in self.root.walk():
                if isinstance(node, q.Projection):
                    self._sites.update(a for a in map(column_name, node.items) if a)
                    continue
                if isinstance(node, q.ReturnItem):
                    continue  # counted with its projection
                for attribute in ("variable", "accumulator", "alias"):
                    name = getattr(node, attribute, None)
                    if isinstance(name, str):
                        self._sites[name] += 1
        return self._sites

    @property
    def composites(self) -> Composites:
        if self._composites is None:  # only a comparison or IN needs the grades
            self._composites = Composites(self.root, self._scalar_properties)
        return self._composites

    def run(self) -> Node:
        return self.root.transform(self.rewrite)

    def refuse(self, construct: str, node: Node, message: str) -> UnsupportedError:
        return UnsupportedError(construct, self.dialect.name, message, offset=node.pos)

    def fresh(self, stem: str) -> str:
        name = next(f"{stem}{i}" for i in range(1, 1_000_000) if f"{stem}{i}" not in self.taken)
        self.taken.add(name)
        return name

    def rewrite(self, node: Node) -> Node:
        caps = self.caps
        if isinstance(node, e.In) and not caps.membership_null_unknown:
            return self.membership(node)
        if isinstance(node, e.Comparison) and not caps.list_equality_null_unknown:
            return self.list_equality(node)
        if isinstance(node, e.Case) and node.subject is not None and caps.simple_case_null_matches:
            return self.searched_case(node)
        if isinstance(node, e.Arithmetic) and caps.string_plus_null_empty:
            return _null_propagating_plus(node)
        if isinstance(node, e.StringMatch) and not caps.contains_empty_true:
            return _contains_empty(node)
        if isinstance(node, e.Index) and not caps.index_out_of_range_null:
            return self.subscript(node)
        if isinstance(node, q.LinearQuery) and caps.order_by_reads_shadowed:
            node = self.unshadow_order_by(node)
        if isinstance(node, q.LinearQuery) and caps.with_distinct_constants_kept:
            self.distinct_of_constants(node)
        return node

    # -- WITH DISTINCT of constants --------------------------------------------------------
    def distinct_of_constants(self, query: q.LinearQuery) -> None:
        """The target keeps every row of a WITH DISTINCT whose columns are all constants (a
        final RETURN DISTINCT is right): refused. A column is constant when it reads no
        variable, or only variables bound to constants."""
        constant: set[str] = set()
        for i, step in enumerate(query.steps):
            if not isinstance(step, q.Projection) or step.star:
                continue
            columns = {column_name(item): item.expr for item in step.items}
            fixed = {
                name
                for name, expr in columns.items()
                if name is not None and free_variables(expr) <= constant
            }
            final = i == len(query.steps) - 1
            if step.distinct and not final and columns and len(fixed) == len(columns):
                raise self.refuse(
                    "WITH DISTINCT of constants",
                    step,
                    f"{self.dialect.name} keeps every row of a WITH DISTINCT whose columns are "
                    "all constants (RETURN DISTINCT is right)",
                )
            constant = fixed

    # -- x IN list --------------------------------------------------------------------------
    def membership(self, node: e.In) -> e.Expr:
        """Cypher's IN: true on a match; else null where the item or an element is null; false
        on an empty list. A list of non-null scalar literals needs no rewrite; any other list
        literal is a disjunction of equalities."""
        item, container = node.item, node.container
        if isinstance(container, e.Null):
            return e.Null()
        if isinstance(container, e.ListLiteral) and container.items:
            if all(isinstance(x, _SCALAR_LITERALS) for x in container.items):
                return node
            return self.any_equal(item, container.items)
        if self.nulls_compared(item, container):
            grades = self.composites.grade(item), self.composites.grade(container)
            raise self.refuse("IN with a list value", node, self.why_refused(grades))
        y = self.fresh("_v")
        holds_null = e.ListPredicate(e.ListQuantifier.ANY, y, container, e.IsNull(e.Variable(y)))
        unknown = e.Or(e.IsNull(item), holds_null)
        size = e.FunctionCall("size", (container,))
        return e.Case(
            None,
            (
                e.CaseWhen(node, e.Boolean(True)),
                e.CaseWhen(e.IsNull(container), e.Null()),
                e.CaseWhen(e.Comparison(e.CompOp.EQ, size, e.Integer(0)), e.Boolean(False)),
                e.CaseWhen(unknown, e.Null()),
            ),
            e.Boolean(False),
        )

    def any_equal(self, item: e.Expr, elements: tuple[e.Expr, ...]) -> e.Expr:
        """``x IN [a, b]`` is Cypher's three-valued ``x = a OR x = b``; each ``=`` is lowered
        like any other (a list element compared element by element)."""
        test: e.Expr | None = None
        for element in elements:
            equal = self.list_equality(e.Comparison(e.CompOp.EQ, item, element))
            test = equal if test is None else e.Or(test, equal)
        assert test is not None
        return test

    # -- list = list ------------------------------------------------------------------------
    def list_equality(self, node: e.Comparison) -> e.Expr:
        """A comparison of two lists or maps, where a null inside makes Cypher's answer null:
        element by element (Cypher's three-valued AND) when both sides are list literals of
        one length; refused when both sides may be lists or maps and one may hold a null (or
        is a value whose type is not known here)."""
        left, right = node.left, node.right
        lists = isinstance(left, e.ListLiteral), isinstance(right, e.ListLiteral)
        if all(lists) and node.op in (e.CompOp.EQ, e.CompOp.NE):
            equal = _elementwise_equal(left, right)  # type: ignore[arg-type]
            return equal if node.op is e.CompOp.EQ else e.Not(equal)
        grades = self.composites.grade(left), self.composites.grade(right)
        construct = "list equality" if node.op in (e.CompOp.EQ, e.CompOp.NE) else "list order"
        if any(lists) and min(grades) == Grade.SCALAR:
            raise self.refuse(
                construct,
                node,
                f"{self.dialect.name} types a comparison of a list with a value that may not "
                "be one as an error (Cypher: false or null)",
            )
        if self.nulls_compared(left, right):
            raise self.refuse(construct, node, self.why_refused(grades))
        return node

    def why_refused(self, grades: tuple[Grade, Grade]) -> str:
        why = (
            f"{self.dialect.name} compares the nulls inside two lists or maps as equal "
            "(Cypher: null), and "
        )
        if max(grades) == Grade.STORED:
            return why + (
                "a property or parameter compared here may be a list holding a null: give the "
                "graph's schema (--schema) so that the property types are known"
            )
        return why + "both sides may be lists or maps, one holding a null"

    def nulls_compared(self, left: e.Expr, right: e.Expr) -> bool:
        """Whether the target may compare two lists or maps one of which holds a null."""
        grades = self.composites.grade(left), self.composites.grade(right)
        return min(grades) >= Grade.CLEAN and max(grades) >= Grade.STORED

    def searched_case(self, node: e.Case) -> e.Case:
        """``CASE x WHEN v …`` as ``CASE WHEN x = v …``: the target's simple CASE takes a null
        ``v`` as a match, its ``=`` does not (and that ``=`` is lowered like any other)."""
        subject = node.subject
        assert subject is not None
        whens = tuple(
            e.CaseWhen(
                self.list_equality(e.Comparison(e.CompOp.EQ, subject, w.condition)), w.result
            )
            for w in node.whens
        )
        return e.Case(None, whens, node.default)

    # -- list[i] ----------------------------------------------------------------------------
    def subscript(self, node: e.Index) -> e.Expr:
        """A position out of range is null in Cypher and an error on the target, which also
        evaluates every branch of a CASE (so no guard helps): a literal position in a list
        literal is known to be in range or not; a position in any other list is refused."""
        subject, index = node.subject, node.index
        if isinstance(index, e.String) or self.composites.grade(subject) == Grade.SCALAR:
            return node  # a map key (a missing one is null there too), or not a list at all
        if type(getattr(index, "value", None)) is int:
            position = index.value  # type: ignore[attr-defined]
            if isinstance(subject, e.ListLiteral):
                size = len(subject.items)
                return node if -size <= position < size else e.Null()
            if isinstance(subject, e.Variable):  # bound to list literals only
                sizes = self.composites.literal_lengths(subject.name) or {0}
                if all(-size <= position < size for size in sizes):
                    return node
        raise self.refuse(
            "list subscript",
            node,
            f"{self.dialect.name} raises an error for a list position out of range (Cypher: "
            "null), in every branch of a CASE too; only a literal position in a list literal "
            "(or a variable bound to list literals) is known to be in range",
        )

    # -- ORDER BY after an alias that shadows a variable -----------------------------------
    def unshadow_order_by(self, query: q.LinearQuery) -> q.LinearQuery:
        steps: list[q.Step] = []
        for step in query.steps:
            if isinstance(step, q.Projection) and _shadows_in_order(step, self.binding_sites):
                steps.extend(self.project_then_order(step))
            else:
                steps.append(step)
        return query if len(steps) == len(query.steps) else replace(query, steps=tuple(steps))

    def project_then_order(self, step: q.Projection) -> tuple[q.Projection, q.Projection]:
        """``RETURN -x AS x ORDER BY x`` as ``WITH -x AS x RETURN x ORDER BY x``: the sort then
        sees only the projected columns (and the variables it reads, carried along)."""
        columns = [column_name(item) for item in step.items]
        reads = set().union(*(free_variables(s.expr) for s in step.order_by))
        if step.where is not None:
            reads |= free_variables(step.where)
        carried = sorted(reads - set(columns))
        keys_aggregate = any(aggregates(s.expr) for s in step.order_by)
        if step.star or None in columns or keys_aggregate or (carried and step.distinct):
            raise self.refuse(
                "ORDER BY after an alias that shadows a variable",
                step,
                f"{self.dialect.name}'s ORDER BY reads the variable, not the column of that "
                "name; project the columns in a WITH first",
            )
        if carried and any(aggregates(item.expr) for item in step.items):
            raise self.refuse(
                "ORDER BY after an alias that shadows a variable",
                step,
                "the sort reads variables that an aggregating projection drops",
            )
        first = q.Projection(
            items=step.items + tuple(q.ReturnItem(e.Variable(v), v) for v in carried),
            distinct=step.distinct,
            group_by=step.group_by,
        )
        second = replace(
            step,
            items=tuple(q.ReturnItem(e.Variable(c), c) for c in columns),  # type: ignore[arg-type]
            distinct=False,
            group_by=None,
        )
        return first, second


def _shadows_in_order(step: q.Projection, sites: Counter[str]) -> bool:
    """Whether an ORDER BY key reads a column whose alias names another value than the
    variable of that name (which the target's ORDER BY would read instead): an alias that
    nothing else in the query binds shadows nothing."""
    if not step.order_by:
        return False
    reads = set().union(*(free_variables(s.expr) for s in step.order_by))
    for item in step.items:
        name = item.alias
        shadowing = name is not None and sites[name] > 1
        if shadowing and name in reads and item.expr != e.Variable(name):
            return True
    return False


def _elementwise_equal(left: e.ListLiteral, right: e.ListLiteral) -> e.Expr:
    if len(left.items) != len(right.items):
        return e.Boolean(False)
    test: e.Expr = e.Boolean(True)
    for a, b in zip(left.items, right.items, strict=True):
        if isinstance(a, e.ListLiteral) and isinstance(b, e.ListLiteral):
            pair = _elementwise_equal(a, b)
        else:
            pair = e.Comparison(e.CompOp.EQ, a, b)
        test = pair if test == e.Boolean(True) else e.And(test, pair)
    return test


def _null_propagating_plus(node: e.Arithmetic) -> e.Expr:
    """``a + b`` is null where either side is null; the target reads a null string as ''.
    A numeric literal operand makes it numeric addition, which propagates nulls there too."""
    if node.op is not e.ArithOp.ADD:
        return node
    left, right = node.left, node.right
    if isinstance(left, (e.Integer, e.Float)) or isinstance(right, (e.Integer, e.Float)):
        return node
    if isinstance(left, _SCALAR_LITERALS) and isinstance(right, _SCALAR_LITERALS):
        return node
    tests = [e.IsNull(x) for x in (left, right) if not isinstance(x, _SCALAR_LITERALS)]
    either_null = tests[0] if len(tests) == 1 else e.Or(*tests)
    return e.Case(None, (e.CaseWhen(either_null, e.Null()),), node)


def _contains_empty(node: e.StringMatch) -> e.Expr:
    """``s CONTAINS ''`` is true for every string: the target says false, but its
    ``STARTS WITH ''`` is true, so an empty needle is tested with that."""
    if node.op is not e.StringOp.CONTAINS:
        return node
    right = node.right
    starts = e.StringMatch(e.StringOp.STARTS_WITH, node.left, right)
    if isinstance(right, e.String):
        return starts if right.value == "" else node
    empty = e.Comparison(e.CompOp.EQ, right, e.String(""))
    return e.Or(node, e.And(empty, starts))
