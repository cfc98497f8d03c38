"""Comparisons and subscripts of values that may be lists or maps holding a null, refused
where the target gives them another meaning than Cypher.

Cypher compares two lists (or maps) element by element with its three-valued ``=``, so a null
inside makes the answer null; Kuzu compares the nulls inside as equal and answers true or false
(``[1, null] = [1, null]`` is true, ``25 IN [30, null]`` false: dialects/kuzu.toml,
``list_equality_null_unknown`` and ``membership_null_unknown``, observed with 0.11.3). Kuzu also
raises an error for a list position out of range, where Cypher's value is null, and evaluates
every branch of a CASE (``index_out_of_range_null``). A comparison is safe there when one side
is never a list or map, or when neither can hold a null; a subscript when its position is known
to be in range.

:class:`Composites` grades an expression (in the scope of one query, by name: a variable bound
anywhere in the query by an expression takes the worst grade of its bindings; one bound only by
a pattern is a node, relationship or path). :func:`check_composites` is the lowering (see
:mod:`gqlir.passes.pipeline`): it changes nothing and refuses what may differ; the rewrites that
keep Cypher's meaning (two list literals compared element by element, a literal position out of
range as null, IN as a disjunction) are :mod:`gqlir.passes.cypher_lowering`'s, which runs after.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cached_property
from typing import Any

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node


class Grade(IntEnum):
    """Ordered from safe to unsafe."""

    SCALAR = 0  # never a list or map (null included)
    CLEAN = 1  # may be a list or map, but holds no null at any depth
    STORED = 2  # a stored property or a parameter whose type is not known here
    NULLS = 3  # may be a list or map holding a null


# Functions whose value is never a list or map.
_SCALAR_FUNCTIONS = frozenset(
    """abs acos asin atan atan2 btrim byte_length ceil char_length cos cosh cot degrees e
    elementid endnode exp floor haversin id isempty isnan left length log log10 lower ltrim
    normalize pi radians rand randomuuid replace right round rtrim sign sin sinh size sqrt
    startnode substring tan tanh timestamp toboolean tobooleanornull tofloat tofloatornull
    tointeger tointegerornull tostring tostringornull trim type upper valuetype date datetime
    localdatetime localtime time duration point point.distance""".split()
)
# Functions whose value is a list without nulls (of scalars, nodes or relationships).
_CLEAN_LIST_FUNCTIONS = frozenset("range split keys labels nodes relationships".split())
# Functions whose value is one of their arguments, or a part of one.
_PASSING_FUNCTIONS = frozenset("coalesce head last tail reverse nullif".split())
_NEVER_COMPOSITE = (
    e.Null,
    e.Boolean,
    e.Integer,
    e.Float,
    e.String,
    e.TemporalLiteral,
    e.Negate,
    e.UnaryPlus,
    e.Comparison,
    e.And,
    e.Or,
    e.Xor,
    e.Not,
    e.IsTruth,
    e.IsNull,
    e.StringMatch,
    e.RegexMatch,
    e.Like,
    e.In,
    e.HasLabels,
    e.TypeTest,
    e.CountStar,
    e.Exists,
    e.CountSubquery,
    e.ListPredicate,
)
_LITERALS = (e.Boolean, e.Integer, e.Float, e.String, e.TemporalLiteral)


class Composites:
    """Grades the expressions of one query (``root``). ``scalar_properties`` names the
    properties a schema declares with a scalar type everywhere; any other property is
    ``STORED`` (its type is the database's, not known here)."""

    def __init__(self, root: Node, scalar_properties: frozenset[str] = frozenset()) -> None:
        self.root = root
        self.scalar_properties = scalar_properties

    def know(self, bindings: list[tuple[str, e.Expr | None]], yield_star: bool) -> None:
        """The query's bindings and YIELD * (:func:`_bindings`), found by the caller's own walk
        (else found when a variable is first graded: most comparisons read none)."""
        sources: dict[str, list[e.Expr | None]] = {}
        for name, source in bindings:
            sources.setdefault(name, []).append(source)
        self.__dict__["sources"] = sources
        self.__dict__["unknown"] = Grade.NULLS if yield_star else Grade.SCALAR

    @cached_property
    def unknown(self) -> Grade:
        """YIELD * binds names not known here: then an unknown name may be anything."""
        self.know(*_bindings(self.root))
        return self.__dict__["unknown"]

    @cached_property
    def sources(self) -> dict[str, list[e.Expr | None]]:
        """Each name an expression binds -> those expressions (None: unknown)."""
        self.know(*_bindings(self.root))
        return self.__dict__["sources"]

    @cached_property
    def bound(self) -> dict[str, Grade]:
        """Each name an expression binds -> the worst grade of its bindings."""
        bound = self.__dict__["bound"] = dict.fromkeys(self.sources, Grade.SCALAR)
        bindings = [(n, x) for n, xs in self.sources.items() for x in xs]
        changed = True
        while changed:  # grades only rise, so this ends (grade() reads the grades so far)
            changed = False
            for name, source in bindings:
                grade = Grade.NULLS if source is None else self.grade(source)
                if grade > bound[name]:
                    bound[name] = grade
                    changed = True
        return bound

    def literal_lengths(self, name: str) -> set[int] | None:
        """The lengths of the list literals that are all the bindings of ``name`` (None: some
        binding is something else, or an UNWIND or comprehension binds its elements)."""
        if name not in self.sources or self.unknown == Grade.NULLS:
            return None
        lengths = set()
        for source in self.sources[name]:
            if not isinstance(source, e.ListLiteral):
                return None
            lengths.add(len(source.items))
        return lengths

    def grade(self, node: e.Expr) -> Grade:
        if isinstance(node, _NEVER_COMPOSITE):
            return Grade.SCALAR
        if isinstance(node, e.Variable):
            # a name no expression binds is a pattern's node, relationship or path
            return self.bound.get(node.name, self.unknown)
        if isinstance(node, e.Parameter):
            return Grade.STORED
        if isinstance(node, e.Property):
            own = Grade.SCALAR if node.key in self.scalar_properties else Grade.STORED
            return max(own, self.grade(node.subject))
        if isinstance(node, (e.ListLiteral, e.MapLiteral)):
            items = node.items if isinstance(node, e.ListLiteral) else [v for _, v in node.entries]
            return max((self._inside(x) for x in items), default=Grade.CLEAN)
        if isinstance(node, (e.Index, e.Slice)):
            return self.grade(node.subject)
        if isinstance(node, e.Arithmetic):
            return self._arithmetic(node)
        if isinstance(node, e.Concat):
            return max(self.grade(node.left), self.grade(node.right))
        if isinstance(node, e.Case):
            results = [w.result for w in node.whens] + [node.default or e.Null()]
            return max(self.grade(x) for x in results)
        if isinstance(node, e.Cast):
            scalar = node.type.name not in ("LIST", "MAP", "ANY") and not node.type.alternatives
            return Grade.SCALAR if scalar else Grade.NULLS
        if isinstance(node, (e.FunctionCall, e.Aggregate)):
            return self._call(node)
        if isinstance(node, e.ListComprehension) and node.projection is None:
            return self.grade(node.source)
        return Grade.NULLS  # comprehensions, reduce, subqueries, map projections: unknown

    def _inside(self, item: e.Expr) -> Grade:
        """The grade of a list or map holding ``item``: anything but a non-null literal (or a
        clean literal list) may be null there."""
        if isinstance(item, _LITERALS):
            return Grade.CLEAN
        grade = self.grade(item)
        if isinstance(item, (e.ListLiteral, e.MapLiteral)) and grade <= Grade.CLEAN:
            return Grade.CLEAN
        return Grade.NULLS

    def _arithmetic(self, node: e.Arithmetic) -> Grade:
        """Only ``+`` makes a list (concatenation, or a list and one value, which may be a
        null); with a number literal it is addition."""
        numeric = (e.Integer, e.Float)
        if node.op is not e.ArithOp.ADD or isinstance(node.left, numeric):
            return Grade.SCALAR
        if isinstance(node.right, numeric):
            return Grade.SCALAR
        grade = max(self.grade(node.left), self.grade(node.right))
        if grade == Grade.SCALAR:
            return grade
        literal = (*_LITERALS, e.ListLiteral, e.MapLiteral)
        if isinstance(node.left, literal) and isinstance(node.right, literal):
            return grade
        return Grade.NULLS

    def _call(self, node: e.FunctionCall | e.Aggregate) -> Grade:
        name = node.name.lower()
        if isinstance(node, e.Aggregate):
            if name == "collect":  # drops nulls; its elements are the argument's values
                return max(Grade.CLEAN, *(self.grade(a) for a in node.args))
            if name in ("min", "max"):
                return max((self.grade(a) for a in node.args), default=Grade.SCALAR)
            return Grade.SCALAR
        if name in _SCALAR_FUNCTIONS:
            return Grade.SCALAR
        if name in _CLEAN_LIST_FUNCTIONS:
            return Grade.CLEAN
        if name in _PASSING_FUNCTIONS:
            return max((self.grade(a) for a in node.args), default=Grade.SCALAR)
        return Grade.NULLS


def _bindings(root: Node) -> tuple[list[tuple[str, e.Expr | None]], bool]:
    """Every variable an expression binds in ``root``, with that expression (None: unknown,
    such as a procedure's output or a CSV row), and whether a ``YIELD *`` binds names not known
    here. An UNWIND or a comprehension binds each element of its list: graded as the list (an
    element of a clean list is clean)."""
    out: list[tuple[str, e.Expr | None]] = []
    yield_star = False
    for node in root.walk():
        yield_star = _bind(node, out) or yield_star
    return out, yield_star


def _bind(node: Node, out: list[tuple[str, e.Expr | None]]) -> bool:
    """What ``node`` binds, added to ``out`` (see :func:`_bindings`); whether it is a
    ``YIELD *``."""
    if isinstance(node, q.Projection):
        for item in node.items:
            if item.alias is not None and item.expr != e.Variable(item.alias):
                out.append((item.alias, item.expr))
    elif isinstance(node, q.Let):
        out.extend((b.variable, b.value) for b in node.bindings)
    elif isinstance(node, (q.Unwind, q.Foreach, e.ListComprehension, e.ListPredicate)):
        out.append((node.variable, _element_of(node.source)))
    elif isinstance(node, e.Reduce):
        out.extend([(node.accumulator, None), (node.variable, _element_of(node.source))])
    elif isinstance(node, q.LoadCsv):
        out.append((node.variable, None))
    elif isinstance(node, q.ProcedureCall):
        for y in node.yields or ():
            out.append((y.alias or y.field, None))
        return node.yield_star
    return False


def _element_of(source: e.Expr) -> e.Expr:
    """An element of the list ``source`` (graded as the list: an element of a clean list is
    clean; written as a subscript so that no binding looks like a list literal)."""
    return e.Index(source, e.Integer(0))


def scalar_properties(schema: Any) -> frozenset[str]:
    """The properties ``schema`` declares with a scalar type wherever it declares them (a
    SchemaGraph, or anything :func:`gqlir.sqlmapping.mapping_for` reads; None: none)."""
    if schema is None:
        return frozenset()
    from ..schema.model import SchemaGraph
    from ..schema.types import TypeKind

    if not isinstance(schema, SchemaGraph):
        from ..sqlmapping import mapping_for

        schema = mapping_for(schema).schema
    composite = {TypeKind.LIST, TypeKind.MAP, TypeKind.JSON, TypeKind.ANY}
    kinds: dict[str, set[bool]] = {}
    for t in (*schema.node_types, *schema.edge_types):
        for prop in t.properties:
            kinds.setdefault(prop.name, set()).add(prop.type.kind not in composite)
    return frozenset(name for name, scalar in kinds.items() if scalar == {True})


def applies(target: Dialect) -> bool:
    """Whether ``target`` gives a list comparison, IN or subscript another meaning."""
    c = target.capabilities
    return not (
        c.membership_null_unknown and c.list_equality_null_unknown and c.index_out_of_range_null
    )


#: The nodes :func:`_bind` reads (exact classes: the IR's have no subclasses).
_BINDERS = frozenset(
    {q.Projection, q.Let, q.Unwind, q.Foreach, e.ListComprehension, e.ListPredicate, e.Reduce}
    | {q.LoadCsv, q.ProcedureCall}
)
#: The nodes :class:`_Check` may judge.
_JUDGED = frozenset({e.In, e.Comparison, e.Case, e.Index})


def check_composites(root: Node, target: Dialect, schema: Any = None) -> Node:
    """``root`` unchanged, or an :class:`UnsupportedError` for the first comparison, IN or
    subscript whose meaning on ``target`` may differ from Cypher's. ``schema`` (a SchemaGraph
    or a mapping) tells which properties are never lists or maps."""
    _Check(root, target, scalar_properties(schema)).run()
    return root


class _Check:
    def __init__(self, root: Node, target: Dialect, scalars: frozenset[str]) -> None:
        self.root = root
        self.target = target
        self.caps = target.capabilities
        self.grades = Composites(root, scalars)

    def run(self) -> None:
        caps = self.caps
        found: list[Node] = []  # (the nodes to judge, and the bindings, in one walk)
        bindings: list[tuple[str, e.Expr | None]] = []
        yield_star = False
        kinds = _JUDGED
        binders = _BINDERS
        for node in self.root.walk():
            cls = type(node)
            if cls in binders:
                yield_star = _bind(node, bindings) or yield_star
            elif cls in kinds:
                found.append(node)
        self.grades.know(bindings, yield_star)
        for node in found:
            if isinstance(node, e.In) and not caps.membership_null_unknown:
                self.membership(node)
            elif isinstance(node, e.Comparison) and not caps.list_equality_null_unknown:
                self.comparison(node, node.op, node.left, node.right)
            elif (
                isinstance(node, e.Case)
                and node.subject is not None
                and caps.simple_case_null_matches
                and not caps.list_equality_null_unknown
            ):  # written as CASE WHEN subject = v, an equality like any other
                for when in node.whens:
                    self.comparison(when, e.CompOp.EQ, node.subject, when.condition)
            elif isinstance(node, e.Index) and not caps.index_out_of_range_null:
                self.subscript(node)

    def refuse(self, construct: str, node: Node, message: str) -> UnsupportedError:
        return UnsupportedError(construct, self.target.name, message, offset=node.pos)

    def membership(self, node: e.In) -> None:
        """A list literal of non-null scalar literals is the target's own IN; any other list
        literal's IN is written as equalities, one per element, each judged as one; any other
        list is refused when it may hold a list or map and so may the item."""
        item, container = node.item, node.container
        if isinstance(container, e.ListLiteral):
            if all(isinstance(x, _LITERALS) for x in container.items):
                return
            if not self.caps.list_equality_null_unknown:
                for element in container.items:
                    self.comparison(node, e.CompOp.EQ, item, element)
            return
        if self.nulls_compared(item, container):
            raise self.refuse("IN with a list value", node, self.why(item, container))

    def comparison(self, at: Node, op: e.CompOp, left: e.Expr, right: e.Expr) -> None:
        lists = isinstance(left, e.ListLiteral), isinstance(right, e.ListLiteral)
        if all(lists) and op in (e.CompOp.EQ, e.CompOp.NE):  # compared element by element
            assert isinstance(left, e.ListLiteral) and isinstance(right, e.ListLiteral)
            if len(left.items) == len(right.items):
                for a, b in zip(left.items, right.items, strict=True):
                    self.comparison(at, e.CompOp.EQ, a, b)
            return
        grades = self.grades.grade(left), self.grades.grade(right)
        construct = "list equality" if op in (e.CompOp.EQ, e.CompOp.NE) else "list order"
        if any(lists) and min(grades) == Grade.SCALAR:
            raise self.refuse(
                construct,
                at,
                f"{self.target.name} types a comparison of a list with a value that may not "
                "be one as an error (Cypher: false or null)",
            )
        if self.nulls_compared(left, right):
            raise self.refuse(construct, at, self.why(left, right))

    def why(self, left: e.Expr, right: e.Expr) -> str:
        grades = self.grades.grade(left), self.grades.grade(right)
        why = (
            f"{self.target.name} compares the nulls inside two lists or maps as equal "
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
        grades = self.grades.grade(left), self.grades.grade(right)
        return min(grades) >= Grade.CLEAN and max(grades) >= Grade.STORED

    def subscript(self, node: e.Index) -> None:
        """A position out of range is null in Cypher and an error on the target, which also
        evaluates every branch of a CASE (so no guard helps): a literal position in a list
        literal is known to be in range or not (out of range it is written as null); a
        position in any other list is refused."""
        subject, index = node.subject, node.index
        if isinstance(index, e.String) or self.grades.grade(subject) == Grade.SCALAR:
            return  # a map key (a missing one is null there too), or not a list at all
        if type(getattr(index, "value", None)) is int:
            position = index.value  # type: ignore[attr-defined]
            if isinstance(subject, e.ListLiteral):
                return
            if isinstance(subject, e.Variable):  # bound to list literals only
                sizes = self.grades.literal_lengths(subject.name) or {0}
                if all(-size <= position < size for size in sizes):
                    return
        raise self.refuse(
            "list subscript",
            node,
            f"{self.target.name} raises an error for a list position out of range (Cypher: "
            "null), in every branch of a CASE too; only a literal position in a list literal "
            "(or a variable bound to list literals) is known to be in range",
        )
