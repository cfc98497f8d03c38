"""What is known of an expression's value at translation time: one analysis, one vocabulary.

The IR has Cypher's meanings (openCypher 9, chapter 2 "Values and types"; the Neo4j Cypher
manual's function pages give each function's result type), so ``+`` of two strings is a string,
``avg()`` a float, ``count()`` an integer, ``round()`` a float, ``size()`` an integer, a
comparison a boolean (or null). :class:`TypeAnalysis` answers with a :class:`VType`; the layers
that ask it differ only in where variables and properties come from, which they supply by
overriding :meth:`TypeAnalysis.variable` and :meth:`TypeAnalysis.property`:

* the GQL emitter: its scope of bindings and the schema's property types (:func:`property_kinds`);
* the SQL emitters and the SQL reader: their table bindings and the mapping's column types;
* the static checker (:mod:`gqlir.eval.check`): its scope of kinds.

Vocabularies of the consumers are derived, never inferred separately: :func:`value_kind_of` for
the SQL side's ``int``/``float``/``string``/``bool``/temporal/``list<…>`` names, and
:func:`from_value_kind` back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ir import expr as e
from ..ir import marks
from ..ir.analysis import BOOLEAN_VALUED

__all__ = [
    "ANY",
    "NUMERIC",
    "TEMPORAL",
    "TypeAnalysis",
    "VType",
    "from_value_kind",
    "is_const",
    "join",
    "literal_type",
    "property_kinds",
    "property_type",
    "runtime_kinds",
    "unconst",
    "value_kind_of",
]

NUMERIC = frozenset({"integer", "float", "number"})
TEMPORAL = frozenset({"date", "localtime", "time", "localdatetime", "datetime"})


@dataclass(frozen=True, slots=True)
class VType:
    """What is known about a value at translation time.

    ``kind`` is ``any`` (nothing known), ``null``, ``boolean``, ``integer``, ``float``,
    ``number`` (integer or float), ``string``, ``list``, ``map``, ``node``, ``edge``, ``path``,
    a temporal kind (``date``, ``localtime``, ``time``, ``localdatetime``, ``datetime``,
    ``duration``), ``point``, ``property`` (read from a node or edge: a stored value, so never a
    map, element or path), or ``mixed`` (values of types GQL cannot compare with each other,
    such as the elements of ``[1, 'a']``).
    ``element`` is a list's element type; ``const`` the value itself when it is a constant
    (literals only), so that lists bound once can be folded where they are used.
    """

    kind: str
    element: VType | None = None
    const: e.Expr | None = None
    #: For ``mixed``: the runtime kinds its values may have, when known (see runtime_kinds).
    kinds: frozenset[str] | None = None

    @property
    def known(self) -> bool:
        return self.kind not in ("any", "property", "null", "mixed")

    def with_const(self, const: e.Expr | None) -> VType:
        """The same type with ``const`` as its known value (dataclasses.replace is slow, and
        the emitters ask for types constantly)."""
        return VType(self.kind, self.element, const, self.kinds)


ANY = VType("any")


def unconst(t: VType) -> VType:
    return t if t.const is None else VType(t.kind, t.element, None, t.kinds)


_KIND_OF_TEMPORAL = {
    e.TemporalKind.DATE: "date",
    e.TemporalKind.LOCAL_TIME: "localtime",
    e.TemporalKind.TIME: "time",
    e.TemporalKind.LOCAL_DATETIME: "localdatetime",
    e.TemporalKind.DATETIME: "datetime",
    e.TemporalKind.DURATION: "duration",
}
#: canonical function -> kind of its result (functions not listed: unknown, or computed).
FUNCTION_KINDS: dict[str, str] = {}
for _kind, _names in {
    "integer": "count size length char_length tointeger tointegerornull id timestamp sign "
    "googlesql.div googlesql.strpos googlesql.extract googlesql.date_diff",
    "float": "tofloat tofloatornull sqrt exp log log10 sin cos tan cot asin acos atan atan2 "
    "degrees radians rand e pi haversin stdev stdevp avg percentilecont ceil floor round",
    "string": "upper lower trim ltrim rtrim btrim tostring tostringornull substring left right "
    "replace type elementid randomuuid normalize valuetype googlesql.substr",
    "boolean": "toboolean tobooleanornull isempty isnan googlesql.regexp_contains",
    "map": "properties",
    "node": "startnode endnode",
    "point": "point",
    # GoogleSQL's date and time functions the googlesql-temporal lowering writes
    "date": "googlesql.date_add googlesql.date_trunc googlesql.current_date",
    "datetime": "googlesql.timestamp_add googlesql.timestamp_sub googlesql.current_timestamp",
    "duration": "googlesql.interval",
}.items():
    for _name in _names.split():
        FUNCTION_KINDS[_name] = _kind
LIST_FUNCTIONS = {
    "keys": VType("list", VType("string")),
    "labels": VType("list", VType("string")),
    "nodes": VType("list", VType("node")),
    "relationships": VType("list", VType("edge")),
    "range": VType("list", VType("integer")),
    "split": VType("list", VType("string")),
    "tobooleanlist": VType("list", VType("boolean")),
    "tofloatlist": VType("list", VType("float")),
    "tointegerlist": VType("list", VType("integer")),
    "tostringlist": VType("list", VType("string")),
}
#: Temporal constructors (``date(…)``, ``datetime.truncate(…)``) -> their kind.
KIND_BY_NAME = {
    "date": "date",
    "datetime": "datetime",
    "localdatetime": "localdatetime",
    "time": "time",
    "localtime": "localtime",
    "duration": "duration",
}
CAST_KINDS = {
    "INTEGER": "integer",
    "FLOAT": "float",
    "STRING": "string",
    "BOOLEAN": "boolean",
    "DATE": "date",
    "DURATION": "duration",
}
#: Functions whose value has their first argument's type (``abs``, ``min``, ``max`` …).
_SAME_AS_ARGUMENT = frozenset(
    {"abs", "min", "max", "nullif", "percentiledisc", "ceil_typed", "floor_typed"}
    | {"falkordb.round"}
)

#: The runtime types a value of a partly known kind may have (null aside), in the classes
#: Cypher's ``+`` tells apart.
STORED_KINDS = frozenset({"integer", "float", "string", "boolean", "list", "temporal", "point"})
_RUNTIME_KINDS = {
    "number": frozenset({"integer", "float"}),
    "property": STORED_KINDS,
    "any": STORED_KINDS | {"map", "element"},
    "mixed": STORED_KINDS | {"map", "element"},
}


def runtime_kinds(t: VType) -> frozenset[str]:
    """The kinds a value of type ``t`` may have at run time (``string``, ``element``, …)."""
    if t.kinds is not None:
        return t.kinds
    if t.kind in _RUNTIME_KINDS:
        return _RUNTIME_KINDS[t.kind]
    if t.kind in TEMPORAL or t.kind == "duration":
        return frozenset({"temporal"})
    if t.kind in ("node", "edge", "path"):
        return frozenset({"element"})
    return frozenset({t.kind})


def join(a: VType, b: VType) -> VType:
    """The type of a value that is either ``a`` or ``b``."""
    if a.kind == "null":
        return unconst(b)
    if b.kind == "null":
        return unconst(a)
    if a.kind == b.kind:
        if a.kind == "list":
            elem = join(a.element or ANY, b.element or ANY)
            return VType("list", elem)
        return VType(a.kind)
    if a.kind in NUMERIC and b.kind in NUMERIC:
        return VType("number")
    if (a.known and b.known) or "mixed" in (a.kind, b.kind):
        return VType("mixed", kinds=runtime_kinds(a) | runtime_kinds(b))
    return ANY


def is_const(node: e.Expr) -> bool:
    """A literal, or a list or map of literals: its value is known at translation time."""
    cls = type(node)
    if cls in _SCALAR_LITERALS:
        return True
    if cls is e.ListLiteral or cls is e.MapLiteral:
        return constant_type(node) is not None
    return False


def literal_type(node: e.Expr) -> VType:
    """The type of a constant (see :func:`is_const`)."""
    if isinstance(node, e.Null):
        return VType("null")
    if isinstance(node, e.Boolean):
        return VType("boolean")
    if isinstance(node, e.Integer):
        return VType("integer")
    if isinstance(node, e.Float):
        return VType("float")
    if isinstance(node, e.String):
        return VType("string")
    if isinstance(node, e.TemporalLiteral):
        return VType(_KIND_OF_TEMPORAL[node.kind])
    if isinstance(node, e.MapLiteral):
        return VType("map")
    assert isinstance(node, e.ListLiteral)
    elem: VType | None = None
    for item in node.items:
        t = literal_type(item)
        elem = t if elem is None else join(elem, t)
    return VType("list", unconst(elem) if elem else VType("null"))


def constant_type(node: e.Expr) -> VType | None:
    """:func:`literal_type` of a list or map literal (only) that :func:`is_const`, else None;
    remembered while the node lives (every pass that types a constant list walks it, and the
    folding fallback makes long ones)."""
    found = _CONSTANT_TYPES.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    if type(node) is e.ListLiteral:
        const = all(is_const(item) for item in node.items)
    else:
        const = all(is_const(value) for _, value in node.entries)  # type: ignore[attr-defined]
    known = literal_type(node) if const else None
    if len(_CONSTANT_TYPES) > 4096:
        _CONSTANT_TYPES.clear()
    _CONSTANT_TYPES[id(node)] = (node, known)
    return known


#: id(literal) -> (the literal, held so that its id is not reused; its constant type or None)
_CONSTANT_TYPES: dict[int, tuple[e.Expr, VType | None]] = {}


def _holds_null(node: e.Expr) -> bool:
    return any(isinstance(x, e.Null) for x in node.walk())


_SCALAR_LITERALS = frozenset({e.Null, e.Boolean, e.Integer, e.Float, e.String, e.TemporalLiteral})
#: The kinds of the scalar literals whose type is their class alone (a temporal's is not).
_LITERAL_KINDS = {
    e.Null: "null",
    e.Boolean: "boolean",
    e.Integer: "integer",
    e.Float: "float",
    e.String: "string",
}
_BOOLEAN_CLASSES = frozenset(BOOLEAN_VALUED)
_BOOLEAN = VType("boolean")


class TypeAnalysis:
    """The type of an expression in a scope. Subclasses say what a variable is bound to
    (:meth:`variable`) and what a property holds (:meth:`property`); everything else is the
    IR's meaning and is the same for every layer. ``NULL_IS_ANY``: a written ``null`` is of
    any type, as Neo4j's planner types it (a CASE or ``coalesce`` with a written null among
    its values is then of any type; a CASE without ELSE is not, as there), rather than of the
    null type, which any other type absorbs in :func:`join`."""

    NULL_IS_ANY = False

    def variable(self, name: str) -> VType:
        """The type of the value bound to ``name`` (unknown by default)."""
        return ANY

    def property(self, node: e.Property, subject: VType) -> VType:
        """The type of ``node`` (a property of a value of type ``subject``): a stored value of a
        node or edge unless a schema says more; of anything else, unknown."""
        return VType("property") if subject.kind in ("node", "edge") else ANY

    def of(self, node: e.Expr) -> VType:
        """What is known of ``node``'s value (see :class:`VType`)."""
        cls = type(node)  # the commonest kinds first, by exact class (asked constantly)
        if cls is e.Variable:
            return self.variable(node.name)  # type: ignore[attr-defined]
        if cls is e.Property:
            return self.property(node, self.of(node.subject))  # type: ignore[arg-type, attr-defined]
        if cls is e.Null and self.NULL_IS_ANY:
            return ANY
        kind = _LITERAL_KINDS.get(cls)
        if kind is not None:  # (one VType made, not two: literals are asked constantly)
            return VType(kind, None, node)
        if cls in _SCALAR_LITERALS:
            return literal_type(node).with_const(node)
        if cls in _BOOLEAN_CLASSES:
            return _BOOLEAN
        if cls is e.ListLiteral or cls is e.MapLiteral:
            known = constant_type(node)
            if known is not None and not (self.NULL_IS_ANY and _holds_null(node)):
                return known.with_const(node)
        if isinstance(node, e.Variable):
            return self.variable(node.name)
        if isinstance(node, e.Parameter):
            return ANY
        if isinstance(node, e.Property):
            return self.property(node, self.of(node.subject))
        if isinstance(node, e.ListLiteral):
            elem: VType | None = None
            for item in node.items:
                t = self.of(item)
                elem = t if elem is None else join(elem, t)
            return VType("list", unconst(elem) if elem else VType("null"))
        if isinstance(node, (e.MapLiteral, e.MapProjection)):
            return VType("map")
        if isinstance(node, e.Arithmetic):
            return self._arithmetic(node)
        if isinstance(node, (e.Negate, e.UnaryPlus)):
            t = self.of(node.operand)
            # Cypher's unary minus takes numbers and durations only (else an error).
            return unconst(t) if t.kind in NUMERIC | {"duration", "property", "any"} else ANY
        if isinstance(node, e.Concat):
            # || joins strings or lists: the result has the kind of whichever side is known.
            left, right = self.of(node.left), self.of(node.right)
            if left.kind in ("string", "list"):
                return unconst(left)
            return VType(right.kind) if right.kind in ("string", "list") else unconst(left)
        if isinstance(node, BOOLEAN_VALUED):
            return VType("boolean")
        if isinstance(node, (e.CountStar, e.CountSubquery)):
            return VType("integer")
        if isinstance(node, (e.FunctionCall, e.Aggregate)):
            return self._call(node)
        if isinstance(node, e.Case):
            out: VType | None = None
            values = [w.result for w in node.whens]
            if node.default is not None:  # a missing ELSE's null is absorbed by join()
                values.append(node.default)
            for value in values:
                t = self.of(value)
                out = t if out is None else join(out, t)
            return unconst(out or ANY)
        if isinstance(node, (e.Cast, e.SafeCast)):
            return VType(CAST_KINDS.get(node.type.name, "any"))
        if isinstance(node, (e.CollectSubquery, e.PatternComprehension)):
            return VType("list")
        if isinstance(node, e.ListComprehension):
            source = self.of(node.source)
            if node.projection is None:
                return unconst(source) if source.kind == "list" else VType("list")
            return VType("list")
        if isinstance(node, e.Index):
            subject = self.of(node.subject)
            if subject.kind == "list" and subject.element is not None:
                return subject.element
            return ANY
        if isinstance(node, e.Slice):
            subject = self.of(node.subject)
            return unconst(subject) if subject.kind == "list" else ANY
        if isinstance(node, e.Untranslatable):
            return self.of(node.expr)  # (what the refused expression would have been)
        return ANY

    def _arithmetic(self, node: e.Arithmetic) -> VType:
        lt, rt = self.of(node.left), self.of(node.right)
        kinds = {lt.kind, rt.kind}
        if node.op is e.ArithOp.POW and kinds <= NUMERIC | {"null"}:
            return VType("float")
        if node.op is e.ArithOp.DIV_FLOAT:
            return VType("float")  # GoogleSQL's / (a float quotient, or an error)
        if kinds <= NUMERIC:
            if kinds == {"integer"}:
                return VType("integer")
            return VType("float" if "float" in kinds else "number")
        if node.op in (e.ArithOp.MOD, e.ArithOp.ADD_NUMBERS):
            # Cypher's % and GQL's + take numbers only: whatever else reaches them is an error.
            return VType("number")
        if node.op is e.ArithOp.ADD:
            if "string" in kinds and kinds <= NUMERIC | {"string"}:
                return VType("string")  # Cypher's + of a string and a number concatenates
            if "list" in kinds:
                return VType("list")
            if lt.kind in TEMPORAL and rt.kind == "duration":
                return VType(lt.kind)
            if lt.kind == "duration" and rt.kind in TEMPORAL:
                return VType(rt.kind)
        if node.op is e.ArithOp.SUB and lt.kind in TEMPORAL and rt.kind == "duration":
            return VType(lt.kind)
        if kinds == {"duration"}:
            return VType("duration")
        return ANY

    def _call(self, node: e.FunctionCall | e.Aggregate) -> VType:
        name = node.name
        args = node.args
        if name[:1] == "%" or name in marks.STRING_FUNCTION_NAMES:
            return self._marked(name, args)
        if name in LIST_FUNCTIONS:
            return LIST_FUNCTIONS[name]
        kind = FUNCTION_KINDS.get(name)
        if kind is not None:
            return VType(kind)
        if name in KIND_BY_NAME:
            return VType(KIND_BY_NAME[name])
        if "." in name and name.split(".")[0] in KIND_BY_NAME:
            if name.startswith("duration."):
                return VType("duration")
            return VType(KIND_BY_NAME[name.split(".")[0]])
        if name == "collect" and args:
            return VType("list", unconst(self.of(args[0])))
        if name in _SAME_AS_ARGUMENT and args:
            return unconst(self.of(args[0]))
        if name == "sum" and args:
            t = self.of(args[0])
            return VType(t.kind) if t.kind in NUMERIC | {"duration"} else ANY
        if name == "coalesce" and args:
            out = self.of(args[0])
            for arg in args[1:]:
                out = join(out, self.of(arg))
            return unconst(out)
        if name in ("head", "last") and args:
            t = self.of(args[0])
            return t.element if t.kind == "list" and t.element else ANY
        if name in ("tail", "reverse") and args:
            t = self.of(args[0])
            return unconst(t) if t.kind in ("list", "string") else ANY
        return ANY

    def _marked(self, name: str, args: tuple[e.Expr, ...]) -> VType:
        """A lowered form (:mod:`gqlir.ir.marks`): the type of the form it stands for."""
        if name in (marks.COLLECT, marks.COLLECT_ALL):
            name = "collect"
        elif name == marks.SUM:
            name = "sum"
        elif name.startswith(marks.STDEV) or name == marks.POWER:
            return VType("float")
        elif name in (marks.EQ, *marks.STRING_FUNCTION_NAMES):
            return VType("boolean")
        elif name == marks.CURRENT_DATE:
            return VType("date")
        elif name == marks.CURRENT_TIMESTAMP:
            return VType("datetime")
        elif name in (marks.MOD, marks.ADD) and len(args) == 2:
            op = e.ArithOp.MOD if name == marks.MOD else e.ArithOp.ADD_NUMBERS
            return self._arithmetic(e.Arithmetic(op, args[0], args[1]))
        else:
            return ANY
        return self._call(e.Aggregate(name, args))


# -- the schema's property types -------------------------------------------------------------


def property_type(kind: Any) -> VType:
    """The type of a stored property of schema type ``kind`` (a :class:`TypeKind`). DECIMAL is
    exact, so a number rather than a float (GQL's MOD takes it); a type with no kind of its own
    here (BYTES, JSON, a point …) is a stored value of unknown kind (``property``)."""
    from ..schema.types import TypeKind, value_kind

    special = {TypeKind.DECIMAL: "number", TypeKind.DURATION: "duration", TypeKind.LIST: "list"}
    if kind in special:
        return VType(special[kind])
    name = value_kind(kind)
    return VType("property") if name == "other" else from_value_kind(name)


def property_kinds(schema: Any) -> dict[tuple[str, str], str]:
    """What a property holds, by element kind and name, where the schema says it: a property
    every node type (or edge type) that has it declares with one value kind. ``schema`` is a
    SchemaGraph."""
    found: dict[tuple[str, str], set[str]] = {}
    for element, types in (("node", schema.node_types), ("edge", schema.edge_types)):
        for t in types:
            for prop in t.properties:
                found.setdefault((element, prop.name), set()).add(
                    property_type(prop.type.kind).kind
                )
    return {
        key: next(iter(kinds))
        for key, kinds in found.items()
        if len(kinds) == 1 and "property" not in kinds
    }


# -- the SQL side's names for the same kinds --------------------------------------------------

_TO_VALUE_KIND = {"integer": "int", "boolean": "bool", "float": "float", "string": "string"}
_TO_VALUE_KIND["property"] = "other"  # a stored value of a type with no kind here
_TO_VALUE_KIND.update({k: k for k in TEMPORAL | {"duration"}})
_FROM_VALUE_KIND = {v: k for k, v in _TO_VALUE_KIND.items()}


def value_kind_of(t: VType) -> str | None:
    """``t`` in the SQL translators' names: ``int``, ``float``, ``string``, ``bool``, a temporal
    kind, ``list<…>`` (``list<?>`` for unknown elements), ``other`` (a stored value of a type
    with no name here), or None (unknown, or one of several: ``number`` is int or float)."""
    if t.kind == "list":
        element = value_kind_of(t.element) if t.element is not None else None
        return f"list<{element or '?'}>"
    return _TO_VALUE_KIND.get(t.kind)


def from_value_kind(kind: str | None) -> VType:
    """The inverse of :func:`value_kind_of` (None is unknown)."""
    if kind is None:
        return ANY
    if kind.startswith("list<"):
        return VType("list", from_value_kind(None if kind == "list<?>" else kind[5:-1]))
    found = _FROM_VALUE_KIND.get(kind)
    return VType(found) if found is not None else ANY
