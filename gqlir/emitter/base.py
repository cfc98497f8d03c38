"""What every text emitter shares: dispatch by IR node type, and structural quoting.

Dispatch follows sqlglot's generator: a method per IR class, found through a dict built once
per generator class. A node whose class has no method raises :class:`UnsupportedError` naming
the class, so an IR construct an emitter does not know is reported, never dropped.

Quoting is structural: every identifier, string literal and parameter that reaches the output
goes through :func:`quote_identifier`, :func:`quote_string` or :meth:`Generator.parameter`, so
that no value (quotes, backticks, backslashes, newlines, control characters, unicode, the empty
string) can change the structure of the query. Emitters assemble text only from keywords,
operators and the output of these helpers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, ClassVar, TypeVar

from ..dialect import Capabilities, Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node

F = TypeVar("F", bound=Callable[..., str])

#: A name that may be written without quotes: a letter or underscore, then word characters
#: (unicode letters and digits included, as in openCypher's identifier rules). Names must also
#: be valid Python identifiers, which rules out the combining marks ``\w`` does not cover.
_PLAIN = re.compile(r"[^\W\d]\w*")
_DIGITS = re.compile(r"[0-9]+")
_SURROGATE = re.compile("[\ud800-\udfff]")

_SIMPLE_ESCAPES = {
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
}

# Characters that are escaped as \uXXXX: C0 and C1 controls, DEL, the unicode line and paragraph
# separators (line breaks to many tools), spaces other than U+0020 and invisible format
# characters (a reader would take them for a plain space or for nothing), and lone surrogates in
# names (not encodable as UTF-8; string values holding one are refused).
_UNICODE_ESCAPE = (
    "\x00-\x1f\x7f-\xa0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff\ud800-\udfff"
)


@lru_cache(maxsize=4096)
def is_plain_name(name: str) -> bool:
    """Whether ``name`` can be written bare as far as its characters go (remembered: a query
    names the same variables over and over, and every name printed is asked)."""
    return _PLAIN.fullmatch(name) is not None and name.isidentifier()


def quote_identifier(name: str, quote: str) -> str:
    """``name`` between ``quote`` characters, a quote inside doubled (```a``b```)."""
    return quote + name.replace(quote, quote + quote) + quote


@cache
def _string_special(quote: str) -> re.Pattern[str]:
    return re.compile("[" + re.escape(quote) + "\\\\" + _UNICODE_ESCAPE + "]")


def quote_string(value: str, quote: str) -> str:
    """A string literal that reads back as exactly ``value``.

    Backslash escapes (``\\\\ \\' \\n \\t \\r \\b \\f \\uXXXX``) are common to Cypher and GQL.
    Control and separator characters are escaped even where a raw one would be legal, so that
    the output stays on one line and survives any transport.
    """

    def escape(match: re.Match[str]) -> str:
        ch = match.group()
        simple = _SIMPLE_ESCAPES.get(ch)
        if simple is not None:
            return simple
        if ch == quote:
            return "\\" + quote
        return f"\\u{ord(ch):04X}"

    return quote + _string_special(quote).sub(escape, value) + quote


def emits(*kinds: type[Node]) -> Callable[[F], F]:
    """Mark a generator method as the one that renders IR nodes of ``kinds``."""

    def mark(method: F) -> F:
        method._emits = kinds  # type: ignore[attr-defined]
        return method

    return mark


def construct_name(node: object) -> str:
    """How refusal reports name an IR node no emitter method renders: a catalog or session
    statement by its GQL keywords (``CreateGraphType`` is ``CREATE GRAPH TYPE``), any other
    by its words (``RegexMatch`` is ``regex match``)."""
    cls = type(node)
    words = " ".join(re.findall(r"[A-Z][a-z]*", cls.__name__))
    if cls.__module__ == "gqlir.ir.catalog":
        return words.upper()
    if cls.__module__.startswith("gqlir.ir."):
        return words.lower()  # RegexMatch: "regex match"
    return f"IR node {cls.__name__}"


#: (printer class, dialect) -> the words its names must avoid.
_RESERVED: dict[tuple[type, Any], frozenset[str]] = {}


class Generator:
    """Base of the text emitters: dispatch, capability checks and quoting for one dialect.

    A generator object is made per call of :func:`gqlir.emitter.emit`; it is cheap and holds the
    state of one rendering (indentation for ``pretty`` output).
    """

    #: IR class -> name of the method rendering it; built by ``__init_subclass__``.
    _handlers: ClassVar[dict[type, str]] = {}
    #: IR class -> the function rendering it (the method of ``_handlers``, looked up once).
    _renderers: ClassVar[dict[type, Callable[..., str]]] = {}
    #: Words a family's grammar never accepts as a bare variable name, whatever the dialect
    #: file lists; upper-case.
    FAMILY_RESERVED: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        handlers: dict[type, str] = {}
        for klass in reversed(cls.__mro__):
            for attr, value in vars(klass).items():
                for kind in getattr(value, "_emits", ()):
                    handlers[kind] = attr
        cls._handlers = handlers
        cls._renderers = {kind: getattr(cls, attr) for kind, attr in handlers.items()}

    def __init__(self, dialect: Dialect, *, pretty: bool = False) -> None:
        self.dialect = dialect
        self.caps: Capabilities = dialect.capabilities
        self.pretty = pretty
        key = (type(self), dialect)
        reserved = _RESERVED.get(key)
        if reserved is None:  # (a union of some hundred words: once per printer and dialect)
            if len(_RESERVED) > 64:  # dialects built by hand, not loaded once
                _RESERVED.clear()
            reserved = _RESERVED[key] = self.FAMILY_RESERVED | dialect.reserved_words
        self.reserved = reserved
        self.depth = 0

    # -- dispatch ----------------------------------------------------------------------------
    def generate(self, node: Node) -> str:
        """The text of a whole node given to :func:`gqlir.emitter.emit`; families refine it."""
        return self.gen(node)

    def gen(self, node: Node) -> str:
        """Render one IR node with the method registered for its class."""
        render = self._renderers.get(type(node))
        if render is None:
            render = self._resolve(node)
        return render(self, node)  # type: ignore[no-any-return]

    def _resolve(self, node: object) -> Callable[..., str]:
        """Find a handler through the node's base classes (and cache it), or fail loudly."""
        for klass in type(node).__mro__[1:]:
            name = self._handlers.get(klass)
            if name is not None:
                type(self)._handlers[type(node)] = name
                render = type(self)._renderers[type(node)] = getattr(type(self), name)
                return render  # type: ignore[no-any-return]
        raise UnsupportedError(
            construct_name(node),
            self.dialect.name,
            f"the {self.dialect.family} emitter has no rendering for "
            f"{type(node).__name__} (target {self.dialect.name})",
            offset=getattr(node, "pos", None),
        )

    # -- refusals a lowering pass left in the IR --------------------------------------------
    @emits(q.RefusedStep)
    def refused_step(self, step: q.RefusedStep) -> str:
        """A lowering pass's refusal of a step, raised where the query writes it (every
        printer: SQL's too)."""
        raise self._pass_refusal(step.construct, step.message, step.rewrite, step.pos, step.node)

    @emits(e.Untranslatable)
    def untranslatable(self, node: e.Untranslatable) -> str:
        """A lowering pass's refusal of an expression, raised where the query writes it."""
        raise self._pass_refusal(node.construct, node.message, node.rewrite, node.pos, node.expr)

    def _pass_refusal(
        self, construct: str, message: str, rewrite: str, pos: int | None, at: object
    ) -> UnsupportedError:
        return UnsupportedError(
            construct,
            self.dialect.name,
            message or None,
            rewrite=rewrite or None,
            offset=pos,
            node=at,
        )

    # -- errors and capabilities -------------------------------------------------------------
    def unsupported(
        self,
        construct: str,
        node: Node | None,
        *,
        rewrite: str | None = None,
        message: str | None = None,
    ) -> UnsupportedError:
        """The error for ``construct`` at ``node``'s position (the caller attaches the text)."""
        return UnsupportedError(
            construct,
            self.dialect.name,
            message,
            rewrite=rewrite,
            offset=node.pos if node is not None else None,
            node=node,
        )

    def require(
        self, allowed: bool, construct: str, node: Node | None, *, rewrite: str | None = None
    ) -> None:
        """Raise :class:`UnsupportedError` for ``construct`` unless the capability allows it."""
        if not allowed:
            raise self.unsupported(construct, node, rewrite=rewrite)

    # -- quoting -----------------------------------------------------------------------------
    def identifier(self, name: str) -> str:
        """A variable or alias: bare only if plain and not a reserved word, quoted otherwise."""
        if is_plain_name(name) and name.upper() not in self.reserved:
            return name
        return quote_identifier(name, self.caps.identifier_quote)

    def schema_name(self, name: str) -> str:
        """A label, relationship type, property key or map key: bare if plain. Reserved words
        need no quotes here (openCypher's SchemaName admits them, and so do Neo4j and GQL),
        but the dialect's keywords that are no name at all do."""
        if is_plain_name(name) and name.upper() not in self.dialect.keyword_only:
            return name
        return quote_identifier(name, self.caps.identifier_quote)

    def qualified_name(self, name: str) -> str:
        """A dotted name (``db.labels``, a composite graph): each part quoted as needed.

        Dots always separate parts: the IR has no way to spell a single part with a dot in it.
        """
        return ".".join(self.schema_name(part) for part in name.split("."))

    def string(self, value: str, node: Node | None = None) -> str:
        self.refuse_surrogates(value, node)
        return quote_string(value, self.caps.string_quote)

    def refuse_surrogates(self, value: str, node: Node | None) -> None:
        """A string holding a lone surrogate is refused, as the readers refuse one: it is no
        character, and no target stores it (a UTF-8 engine cannot; Bolt sends UTF-8)."""
        found = _SURROGATE.search(value)
        if found is not None:
            raise self.unsupported(
                "lone surrogate in a string",
                node,
                message=f"the string holds U+{ord(found.group()):04X}, a lone surrogate, "
                "which is not a character",
            )

    def parameter(self, name: str) -> str:
        """The dialect's sigil and the parameter's name (a plain name or a decimal position)."""
        if is_plain_name(name) or _DIGITS.fullmatch(name):
            return self.caps.param_sigil + name
        return self.caps.param_sigil + quote_identifier(name, self.caps.identifier_quote)

    # -- layout ------------------------------------------------------------------------------
    def clause_separator(self) -> str:
        """Between clauses: a space, or with ``pretty`` a new line at the current depth."""
        if self.pretty:
            return "\n" + "  " * self.depth
        return " "

    def join_clauses(self, clauses: list[str]) -> str:
        return self.clause_separator().join(clauses)
