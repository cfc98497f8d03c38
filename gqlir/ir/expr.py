"""Graph-IR expressions: one node type per meaning, independent of any dialect's spelling.

Surface differences are resolved by the builders: Cypher ``STARTS WITH`` and Spanner's
``STARTS_WITH()`` are both :class:`StringMatch`; ``date('2020-01-01')`` and ``DATE '2020-01-01'``
are both :class:`TemporalLiteral`; ``n:A:B`` and ``n:A&B`` are the same :class:`HasLabels`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .node import Node

if TYPE_CHECKING:
    from .pattern import LabelExpr, PathPattern
    from .query import Query


class Expr(Node):
    """Marker base of all expressions."""

    __slots__ = ()


# -- literals ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Null(Expr):
    pass


@dataclass(frozen=True, slots=True)
class Boolean(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class Integer(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class Float(Expr):
    value: float


@dataclass(frozen=True, slots=True)
class String(Expr):
    value: str


class TemporalKind(enum.Enum):
    DATE = "date"
    LOCAL_TIME = "localtime"
    TIME = "time"
    LOCAL_DATETIME = "localdatetime"
    DATETIME = "datetime"
    DURATION = "duration"


@dataclass(frozen=True, slots=True)
class TemporalLiteral(Expr):
    """A temporal value given by its ISO 8601 text.

    ``date('2020-01-01')`` in Cypher and ``DATE '2020-01-01'`` in GQL. ``timestamp``: read
    from a GoogleSQL ``TIMESTAMP '…'`` literal (a ``DATETIME``), whose text is in GoogleSQL's
    format, so that it is written back as one: a spelling, not a meaning, so it takes no part in
    equality."""

    kind: TemporalKind
    text: str
    timestamp: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class ListLiteral(Expr):
    """``[a, b]``. ``one_type`` records that the list was read from a dialect whose arrays have
    one element type (GoogleSQL), whose analyser checked its elements: a rule of validity, not
    of meaning, so it takes no part in equality."""

    items: tuple[Expr, ...]
    one_type: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class MapLiteral(Expr):
    entries: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class Parameter(Expr):
    """A query parameter; ``name`` is the name or the decimal position (``$0``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Variable(Expr):
    name: str


# -- access --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Property(Expr):
    subject: Expr
    key: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """``subject[index]``: list element (0-based in the IR) or dynamic map/property key."""

    subject: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Slice(Expr):
    """``subject[start..end]``: 0-based, end exclusive, negatives count from the end."""

    subject: Expr
    start: Expr | None
    end: Expr | None


@dataclass(frozen=True, slots=True)
class ArrayElement(Expr):
    """GoogleSQL's ``a[OFFSET(i)]`` (``a[i]``), ``a[ORDINAL(i)]`` and their ``SAFE_`` forms:
    the element at ``index`` counted from 0 (from 1 when ``ordinal``). An index out of range
    (a negative one included) is an error, or null when ``safe``; a null array or index gives
    null (https://cloud.google.com/spanner/docs/reference/standard-sql/operators, array
    subscript operator). Cypher's ``l[i]`` (:class:`Index`) counts a negative index from the
    end and gives null out of range."""

    subject: Expr
    index: Expr
    ordinal: bool = False
    safe: bool = False


# -- operators -----------------------------------------------------------------------------------


class ArithOp(enum.Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    MOD = "%"
    POW = "^"
    #: GQL's and GoogleSQL's ``+``: arithmetic only. Numbers add, a duration adds to an instant
    #: or a duration (ISO GQL's datetime and duration value expressions; GoogleSQL's
    #: TIMESTAMP + INTERVAL); any other operand is a type error, null propagates (strings and
    #: lists concatenate with ``||``)
    ADD_NUMBERS = "numeric +"
    #: GoogleSQL's ``/``: a FLOAT64 quotient even of two integers, an error for a zero divisor
    #: (https://cloud.google.com/spanner/docs/reference/standard-sql/operators, arithmetic
    #: operators: "Divide ... INT64 / INT64 returns FLOAT64"; integer division is ``DIV``)
    DIV_FLOAT = "float /"


@dataclass(frozen=True, slots=True)
class Arithmetic(Expr):
    """Binary arithmetic. ``ADD`` has Cypher's meaning: numbers add, strings and lists
    concatenate; ``ADD_NUMBERS`` is the GQL-family ``+``, which never concatenates."""

    op: ArithOp
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Negate(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class UnaryPlus(Expr):
    """``+x``: the number itself; an error for non-numbers (so it is not dropped)."""

    operand: Expr


@dataclass(frozen=True, slots=True)
class Concat(Expr):
    """``||``: string or list concatenation only (never numeric addition)."""

    left: Expr
    right: Expr


class CompOp(enum.Enum):
    EQ = "="
    NE = "<>"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="


@dataclass(frozen=True, slots=True)
class Comparison(Expr):
    op: CompOp
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Or(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Xor(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    operand: Expr


class TruthValue(enum.Enum):
    TRUE = "TRUE"
    FALSE = "FALSE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True, slots=True)
class IsTruth(Expr):
    """``x IS [NOT] TRUE|FALSE|UNKNOWN`` (GQL boolean tests)."""

    operand: Expr
    value: TruthValue
    negated: bool = False


@dataclass(frozen=True, slots=True)
class IsNull(Expr):
    operand: Expr
    negated: bool = False


class StringOp(enum.Enum):
    STARTS_WITH = "STARTS WITH"
    ENDS_WITH = "ENDS WITH"
    CONTAINS = "CONTAINS"


@dataclass(frozen=True, slots=True)
class StringMatch(Expr):
    op: StringOp
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class RegexMatch(Expr):
    """``left =~ right``: the whole string matches the (Java-flavoured) regular expression."""

    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Like(Expr):
    """SQL ``LIKE`` with ``%`` / ``_`` wildcards. ``escape``: the character that makes the next
    one literal (a backslash in GoogleSQL, which has no ESCAPE clause), or None (no escape)."""

    left: Expr
    pattern: Expr
    negated: bool = False
    escape: str | None = None


@dataclass(frozen=True, slots=True)
class In(Expr):
    """List membership with three-valued logic."""

    item: Expr
    container: Expr


@dataclass(frozen=True, slots=True)
class HasLabels(Expr):
    """``n:A&B`` / ``n IS LABELED A&B``: a label-expression test on a node or relationship."""

    subject: Expr
    labels: LabelExpr


@dataclass(frozen=True, slots=True)
class TypeRef(Node):
    """A value type: canonical upper-case name (``INTEGER``, ``LIST``, ``ANY`` ...).

    ``element`` is the element type of ``LIST<...>``; ``alternatives`` holds the members of a
    closed dynamic union (``INTEGER | STRING``); ``not_null`` excludes null.
    """

    name: str
    not_null: bool = False
    element: TypeRef | None = None
    alternatives: tuple[TypeRef, ...] = ()


@dataclass(frozen=True, slots=True)
class TypeTest(Expr):
    """``x IS [NOT] :: T`` / ``x IS [NOT] TYPED T``."""

    operand: Expr
    type: TypeRef
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Cast(Expr):
    """``CAST(x AS T)``: an error on failure (Cypher's ``toInteger`` family gives null)."""

    operand: Expr
    type: TypeRef


@dataclass(frozen=True, slots=True)
class SafeCast(Expr):
    """GoogleSQL's ``SAFE_CAST(x AS T)``: the conversion of :class:`Cast`, or null where it
    fails (https://cloud.google.com/spanner/docs/reference/standard-sql/conversion_functions,
    SAFE_CAST)."""

    operand: Expr
    type: TypeRef


@dataclass(frozen=True, slots=True)
class StructField(Node):
    """One field of a :class:`Struct`: its value and its name (None: an anonymous field)."""

    value: Expr
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Struct(Expr):
    """GoogleSQL's ``STRUCT(a AS x, b)``: an ordered record whose fields are read by name
    (``s.x``); no other dialect has it (Cypher's map has no field order and no anonymous field;
    https://cloud.google.com/spanner/docs/reference/standard-sql/data-types, struct type)."""

    fields: tuple[StructField, ...]


@dataclass(frozen=True, slots=True)
class CaseWhen(Node):
    condition: Expr
    result: Expr


@dataclass(frozen=True, slots=True)
class Case(Expr):
    """Searched CASE when ``subject`` is None; simple CASE (``subject = condition``) otherwise."""

    subject: Expr | None
    whens: tuple[CaseWhen, ...]
    default: Expr | None = None


# -- calls ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FunctionCall(Expr):
    """A scalar function. ``name`` is canonical (see :mod:`gqlir.ir.functions`) when the function
    is known, otherwise the name as written, with its namespace (``apoc.text.join``)."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Aggregate(Expr):
    """An aggregate function (``count``, ``sum``, ``collect`` ...) with optional DISTINCT."""

    name: str
    args: tuple[Expr, ...]
    distinct: bool = False


@dataclass(frozen=True, slots=True)
class CountStar(Expr):
    pass


# -- list and map constructions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListComprehension(Expr):
    """``[v IN source WHERE where | projection]``."""

    variable: str
    source: Expr
    where: Expr | None = None
    projection: Expr | None = None


class ListQuantifier(enum.Enum):
    ALL = "all"
    ANY = "any"
    NONE = "none"
    SINGLE = "single"


@dataclass(frozen=True, slots=True)
class ListPredicate(Expr):
    """``all|any|none|single(v IN source WHERE predicate)``."""

    quantifier: ListQuantifier
    variable: str
    source: Expr
    predicate: Expr | None


@dataclass(frozen=True, slots=True)
class Reduce(Expr):
    """``reduce(acc = init, v IN source | expression)``."""

    accumulator: str
    init: Expr
    variable: str
    source: Expr
    expression: Expr


@dataclass(frozen=True, slots=True)
class PatternComprehension(Expr):
    """``[p = (a)-->(b) WHERE where | projection]``."""

    pattern: PathPattern
    where: Expr | None
    projection: Expr


class MapItemKind(enum.Enum):
    PROPERTY = "property"  # .key
    LITERAL = "literal"  # key: expr
    VARIABLE = "variable"  # var
    ALL = "all"  # .*


@dataclass(frozen=True, slots=True)
class MapProjectionItem(Node):
    kind: MapItemKind
    key: str = ""
    value: Expr | None = None


@dataclass(frozen=True, slots=True)
class MapProjection(Expr):
    """``v {.a, b: expr, c, .*}``."""

    subject: str
    items: tuple[MapProjectionItem, ...]


# -- subqueries ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exists(Expr):
    """``EXISTS { ... }``, and bare pattern predicates, which mean the same.

    ``pattern_predicate`` records the bare form (``WHERE (a)-->(b)``), which may not introduce
    variables: a rule of validity, not of meaning, so it takes no part in equality.
    """

    query: Query
    pattern_predicate: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class CountSubquery(Expr):
    query: Query


@dataclass(frozen=True, slots=True)
class CollectSubquery(Expr):
    query: Query


@dataclass(frozen=True, slots=True)
class ValueSubquery(Expr):
    """GQL ``VALUE { ... }``: the single value the subquery returns."""

    query: Query


# -- lowered forms -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Untranslatable(Expr):
    """``expr``, which a lowering pass found the target cannot say with its meaning: the
    printer refuses it (``construct``, ``message``, ``rewrite``) where it reaches it, so that a
    query's first refusal is the first refused construct in the order the query is written,
    whether a pass or the printer refuses it. Only lowered IR holds one; no reader builds it."""

    expr: Expr
    construct: str
    message: str = ""
    rewrite: str = ""
