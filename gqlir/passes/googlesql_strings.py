"""Cypher's ``CONTAINS`` and ``=~`` written with GoogleSQL string functions.

GoogleSQL has neither operator (dialects/spanner.toml: ``string_predicates``, ``regex_match``);
a target that spells ``STRPOS`` and ``REGEXP_CONTAINS`` (its [functions] table) gets:

* ``s CONTAINS t`` as ``STRPOS(s, t) > 0``. ``STRPOS`` "returns the 1-based position of the
  first occurrence of subvalue inside value. Returns 0 if subvalue is not found", null for a
  null operand
  (https://cloud.google.com/spanner/docs/reference/standard-sql/string_functions#strpos), and
  an empty ``t`` is found at position 1, as every string contains ''. An operand that is a
  literal of another type is left to the printer (Cypher answers null where ``STRPOS`` fails).
* ``s =~ 'p'`` with a literal pattern as ``REGEXP_CONTAINS(s, '^(?:q)$')``: Cypher matches the
  whole string with a Java regular expression, ``REGEXP_CONTAINS`` finds an RE2 match anywhere
  (https://cloud.google.com/spanner/docs/reference/standard-sql/string_functions#regexp_contains;
  RE2 syntax https://github.com/google/re2/wiki/Syntax), so the pattern is anchored and
  rewritten where the two read the same text differently: Java's ``.`` excludes every line
  terminator (``\\n \\r \\u0085 \\u2028 \\u2029``) where RE2's excludes ``\\n`` only, and Java's
  ``\\s`` includes the vertical tab, which RE2's lacks; both are written as explicit classes.
  A pattern using what only one of them has, or reads differently (back-references,
  look-around, possessive quantifiers, flags such as ``(?i)`` whose case folding differs,
  ``\\b``, ``\\p{…}``, nested or intersected classes, ``$`` before the end), or a pattern that
  is not a literal, is left as it is, for the printer to refuse (in text order with the
  query's other refusals, :mod:`gqlir.refusals`).
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node

_NOT_STRINGS = (e.Integer, e.Float, e.Boolean, e.ListLiteral, e.MapLiteral, e.Null)


def lower_string_predicates(root: Node, target: Dialect) -> Node:
    """``root`` with ``CONTAINS`` and ``=~`` in GoogleSQL functions where ``target`` lacks the
    operators and spells the functions."""
    caps = target.capabilities
    strpos = not caps.string_predicates and "googlesql.strpos" in target.functions
    regexp = not caps.regex_match and "googlesql.regexp_contains" in target.functions
    if not (strpos or regexp):
        return root

    def rewrite(node: Node) -> Node:
        if strpos and isinstance(node, e.StringMatch) and node.op is e.StringOp.CONTAINS:
            if isinstance(node.left, _NOT_STRINGS) or isinstance(node.right, _NOT_STRINGS):
                return node
            if node.right == e.String(""):
                return node  # every string contains '': the printer writes a prefix test
            position = e.FunctionCall("googlesql.strpos", (node.left, node.right), pos=node.pos)
            return e.Comparison(e.CompOp.GT, position, e.Integer(0), pos=node.pos)
        if regexp and isinstance(node, e.RegexMatch):
            if isinstance(node.left, _NOT_STRINGS) or isinstance(node.right, e.Null):
                return node
            if not isinstance(node.right, e.String):
                return node  # not checkable: the printer refuses it
            try:
                pattern = "^(?:" + java_to_re2(node.right.value) + ")$"
            except ValueError:
                return node  # read otherwise by RE2: the printer refuses it
            return e.FunctionCall(
                "googlesql.regexp_contains", (node.left, e.String(pattern)), pos=node.pos
            )
        return node

    return root.transform(rewrite)


#: Java's line terminators, which its ``.`` does not match (java.util.regex.Pattern, "Line
#: terminators"); RE2's ``.`` excludes only ``\n``.
_DOT = "[^\\n\\r\u0085\u2028\u2029]"
#: Java's ``\s``: ``[ \t\n\x0B\f\r]`` (java.util.regex.Pattern, "Predefined character
#: classes"); RE2's ``\s`` is ``[\t\n\f\r ]``.
_SPACE = "\\t\\n\\x0B\\f\\r "
_KEPT_ESCAPES = frozenset("tnrfdDwW")
_MAX_REPEAT = 1000  # RE2's limit on a counted repetition


def java_to_re2(pattern: str) -> str:
    """The RE2 text that matches what the Java ``pattern`` matches; ValueError names the
    construct where no such text is written here."""
    out: list[str] = []
    i, n = 0, len(pattern)
    quantifiable = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            text, i = _escape(pattern, i, in_class=False)
            out.append(text)
            quantifiable = True
            continue
        if c == "[":
            text, i = _char_class(pattern, i)
            out.append(text)
            quantifiable = True
            continue
        if c == ".":
            out.append(_DOT)
        elif c == "(":
            if pattern.startswith("(?:", i):
                out.append("(?:")
                i += 3
                quantifiable = False
                continue
            if pattern.startswith("(?", i):
                raise ValueError(f"the group {pattern[i : i + 3]!r}")
            out.append("(")
            i += 1
            quantifiable = False
            continue
        elif c in ")":
            out.append(c)
        elif c == "|" or c == "^":
            out.append(c)
            i += 1
            quantifiable = False
            continue
        elif c == "$":
            if i != n - 1:
                raise ValueError("'$' before the end of the pattern")
            out.append("$")
        elif c in "*+?{":
            if not quantifiable:
                raise ValueError(f"a quantifier {c!r} with nothing to repeat")
            text, i = _quantifier(pattern, i)
            out.append(text)
            quantifiable = False
            continue
        elif c == "]" or c == "}":
            raise ValueError(f"an unopened {c!r}")
        else:
            out.append(c)
        i += 1
        quantifiable = c != "$"
    return "".join(out)


def _escape(pattern: str, i: int, *, in_class: bool) -> tuple[str, int]:
    if i + 1 >= len(pattern):
        raise ValueError("a trailing backslash")
    c = pattern[i + 1]
    if c in _KEPT_ESCAPES:
        return "\\" + c, i + 2
    if c == "s":
        return (_SPACE if in_class else "[" + _SPACE + "]"), i + 2
    if c == "S" and not in_class:
        return "[^" + _SPACE + "]", i + 2
    if not c.isalnum() and c.isascii():
        return "\\" + c, i + 2  # an escaped punctuation character is itself in both
    raise ValueError(f"the escape '\\{c}'")


def _char_class(pattern: str, i: int) -> tuple[str, int]:
    out = ["["]
    i += 1
    if pattern.startswith("^", i):
        out.append("^")
        i += 1
    if pattern.startswith("]", i):
        raise ValueError("']' at the start of a class")
    while i < len(pattern):
        c = pattern[i]
        if c == "]":
            out.append("]")
            return "".join(out), i + 1
        if c == "[":
            raise ValueError("a class inside a class")
        if pattern.startswith("&&", i):
            raise ValueError("a class intersection '&&'")
        if c == "\\":
            text, i = _escape(pattern, i, in_class=True)
            out.append(text)
            continue
        out.append(c)
        i += 1
    raise ValueError("an unclosed class")


def _quantifier(pattern: str, i: int) -> tuple[str, int]:
    c = pattern[i]
    if c == "{":
        end = pattern.find("}", i)
        body = pattern[i + 1 : end] if end > 0 else ""
        parts = body.split(",")
        if end < 0 or len(parts) > 2 or not parts[0].isdigit():
            raise ValueError("a '{' that is not a counted repetition")
        if len(parts) == 2 and parts[1] and not parts[1].isdigit():
            raise ValueError("a '{' that is not a counted repetition")
        if any(p and int(p) > _MAX_REPEAT for p in parts):
            raise ValueError(f"a repetition count above {_MAX_REPEAT}")
        text, i = pattern[i : end + 1], end + 1
    else:
        text, i = c, i + 1
    if pattern.startswith("+", i):
        raise ValueError("a possessive quantifier")
    if pattern.startswith("?", i):
        text, i = text + "?", i + 1
    return text, i
