"""Checks a question against its query: it shows no variable, relationship-type spelling or
snake_case/camelCase identifier, and it names every literal value, node label and relationship
type of the query. Used by the tests and by ``benchmarks/questions.py``."""

from __future__ import annotations

import re

from .. import ir
from ..schema.model import SchemaGraph
from .phrases import Lexicon
from .rewriters import literals

_IDENTIFIER = re.compile(r"\b(?:[a-z][a-z0-9]*_[a-z0-9_]+|[a-z]+[A-Z]\w*|[A-Z]+_[A-Z_]+)\b")


def _unquoted(text: str) -> str:
    """The question without its quoted values (a value may look like anything)."""
    return re.sub(r"(?<!\w)'.*?'(?!\w)", "''", text)


def variables(query: ir.Query) -> set[str]:
    out: set[str] = set()
    for n in query.walk():
        if isinstance(n, (ir.NodePattern, ir.RelPattern, ir.PathPattern)) and n.variable:
            out.add(n.variable)
        elif isinstance(n, ir.ReturnItem) and n.alias and len(n.alias) <= 2:
            out.add(n.alias)
    return out - {"a"}  # the article


def bad_tokens(text: str, query: ir.Query, schema: SchemaGraph | None) -> list[str]:
    """Variables, relationship-type spellings and identifiers the question shows."""
    plain = _unquoted(text)
    found = [m.group(0) for m in _IDENTIFIER.finditer(plain)]
    for v in sorted(variables(query)):
        if re.search(rf"(?<![\w']){re.escape(v)}(?![\w'])", plain):
            found.append(v)
    types = {
        n.name
        for r in query.walk()
        if isinstance(r, ir.RelPattern)
        for n in r.walk()
        if isinstance(n, ir.Label)
    }
    if schema is not None:
        types |= set(schema.edge_labels)
    for t in sorted(types):
        if not t.islower() and re.search(rf"\b{re.escape(t)}\b", plain):
            found.append(t)
    return found


def missing(text: str, query: ir.Query, schema: SchemaGraph | None) -> list[str]:
    """The literals, labels and relationship types of the query the question does not name."""
    lex = Lexicon(schema)
    low = text.lower()
    out = [v for v in literals(query) if v.lower() not in low]
    for n in query.walk():
        if isinstance(n, ir.NodePattern) and isinstance(n.labels, ir.Label):
            nouns = (lex.noun(n.labels.name), lex.noun(n.labels.name, True))
            if not any(x.lower() in low for x in nouns):
                out.append(n.labels.name)
        elif isinstance(n, ir.RelPattern) and isinstance(n.types, ir.Label):
            verb = lex.verb(n.types.name)
            if not any(_stem(p) in low for p in (verb.active, verb.passive) if p):
                out.append(n.types.name)
    return out


def _stem(phrase: str) -> str:
    """The part of a verb phrase every agreement and negation keeps ("palliat", "associated
    with"; "in" of "is in the genre", whose object noun may stand for the genre)."""
    first, _, rest = phrase.lower().partition(" ")
    if rest and first in ("is", "has", "was", "are"):
        return re.sub(r"(^| )the \w+$", "", rest) or first.removesuffix("s")
    return re.sub(r"(es|s)$", "", first)
