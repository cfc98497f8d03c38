"""The LALR driver: a state-aware lexer and a shift/reduce loop over :mod:`.tables`.

Why not Lark's own parser: its per-token overhead (lexer objects, tree nodes, then a
transformer pass) is several times the cost of everything else. Here a single compiled regex
finds tokens, each reduction calls the builder directly, and no parse tree is ever built.

The lexer consults the parser state in two places, which is what lets keywords double as names:
a word is a keyword only if the current state accepts that keyword (or accepts no plain name),
and a compound operator such as ``-->`` that the state cannot accept is split into shorter
operators (``1--1`` is ``1 - -1``).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..errors import ParseError
from .tables import KEEP, SPLICE, Tables

Token = tuple[str, str, int]  # (terminal, text, offset)

# Friendly names for the regex terminals in "expected ..." messages.
_TERMINAL_NAMES = {
    "NAME": "identifier",
    "ESCAPED_NAME": "identifier",
    "PARAM": "parameter",
    "INTEGER": "integer",
    "FLOAT": "float",
    "STRING": "string",
    "$END": "end of input",
}

MAX_STACK = 3000


class Parser:
    """Parses text with one grammar's tables, calling ``builder`` methods on reductions."""

    def __init__(self, tables: Tables, builder: object) -> None:
        self.tables = tables
        self.builder = builder
        self.states = tables.states
        # Separators and the next token in one match: `(?:skip)*(?:token)?`.
        self.regex = re.compile(f"(?:{tables.skip_regex})*(?:{tables.token_regex})?")
        self.keywords = tables.keywords
        self.operators = tables.operators
        self.regex_terminals = tables.regex_terminals
        self.name_terminals = tables.regex_terminals.get("NAME", ("NAME",))
        self._op_text = {n: text for text, names in tables.operators.items() for n in names}
        self._kw_text = {n: word for word, names in tables.keywords.items() for n in names}
        self._regex_text = {n: g for g, names in tables.regex_terminals.items() for n in names}
        # For each compound operator: the shorter operators it may split into, longest first.
        ops = sorted(tables.operators, key=len, reverse=True)
        # Token kinds as the builder sees them: without a variant grammar's namespace.
        all_terminals = {n for names in tables.keywords.values() for n in names}
        all_terminals |= {n for names in tables.operators.values() for n in names}
        all_terminals |= {n for names in tables.regex_terminals.values() for n in names}
        self.base_kind = {n: _strip(n) for n in all_terminals}
        self.base_kind["$END"] = "$END"
        self.splits = {
            op: [(p, tables.operators[p]) for p in ops if len(p) < len(op) and op.startswith(p)]
            for op in ops
        }
        self.reducers: list[tuple[str, int, tuple[int, ...], Callable | None, bool, bool]] = []
        for rule in tables.rules:
            fn = None
            if not rule.inline:
                fn = getattr(builder, rule.callback, None)
                if fn is None and not rule.expand1:
                    raise RuntimeError(f"builder has no method for grammar rule {rule.callback!r}")
            self.reducers.append((rule.lhs, rule.size, rule.keep, fn, rule.inline, rule.expand1))
        self._simple = [all(k == KEEP for k in r.keep) for r in tables.rules]
        # Rules whose callback reads `builder.last_end` (the end of the rule's last token).
        wants_end = getattr(builder, "WANTS_END", frozenset())
        self._wants_end = [r.callback in wants_end for r in tables.rules]
        # Pass-through rules (`?rule` with one kept symbol): only the state changes.
        self._unit = [r.expand1 and r.keep == (KEEP,) for r in tables.rules]

    # -- errors ------------------------------------------------------------------------------

    def _describe(self, terminal: str) -> str:
        if terminal in self._kw_text:
            return self._kw_text[terminal]
        if terminal in self._op_text:
            return repr(self._op_text[terminal])
        group = self._regex_text.get(terminal, terminal)
        return _TERMINAL_NAMES.get(group, group)

    def _expected(self, state: int) -> tuple[str, ...]:
        names = {self._describe(t) for t in self.states[state] if t.isupper() or t == "$END"}
        return tuple(sorted(names))

    def _unexpected(self, text: str, token: Token, state: int) -> ParseError:
        kind, value, offset = token
        if kind == "$END":
            what = "unexpected end of input"
        else:
            what = f"unexpected {value!r}"
        expected = self._expected(state)
        shown = ", ".join(expected[:12]) + (", ..." if len(expected) > 12 else "")
        return ParseError(
            f"{what}; expected {shown}" if expected else what,
            text=text,
            offset=offset,
            expected=expected,
            code="PARSE_UNEXPECTED",
        )

    def _accepts(self, sstack: list[int], kind: str) -> bool:
        """Would the parser shift ``kind`` after the reductions it triggers? LALR tables list
        lookaheads merged from several contexts, so a reduce action alone does not say so."""
        states = self.states
        act = states[sstack[-1]].get(kind)
        if act is None:
            return False
        if act >= 0:
            return True
        reducers = self.reducers
        top = len(sstack)
        extra: list[int] = []
        while True:
            lhs, size = reducers[~act][0], reducers[~act][1]
            while size:
                if extra:
                    extra.pop()
                else:
                    top -= 1
                size -= 1
            prev = extra[-1] if extra else sstack[top - 1]
            state = states[prev][lhs]
            extra.append(state)
            act = states[state].get(kind)
            if act is None:
                return False
            if act >= 0:
                return True

    # -- the loop ----------------------------------------------------------------------------

    def parse(self, text: str) -> Any:
        states = self.states
        reducers = self.reducers
        simple = self._simple
        unit = self._unit
        wants_end = self._wants_end
        last_end = 0
        match = self.regex.match
        keywords = self.keywords
        operators = self.operators
        regex_terminals = self.regex_terminals
        name_terminals = self.name_terminals
        splits = self.splits
        base_kind = self.base_kind
        end_state = self.tables.end_state
        builder = self.builder
        sstack = [self.tables.start_state]
        vstack: list[Any] = []
        pstack: list[int] = []
        pos = 0
        length = len(text)
        while True:
            # ---- next token
            m = match(text, pos)
            kind = m.lastgroup
            if kind is None:
                tpos = m.end()
                if tpos < length:
                    raise ParseError(
                        f"unexpected character {text[tpos]!r}",
                        text=text,
                        offset=tpos,
                        code="PARSE_CHARACTER",
                    )
                kind, value, pos = "$END", "", length
            else:
                value = m.group(kind)
                tpos = m.start(kind)
                pos = m.end()
                acts = states[sstack[-1]]
                if kind == "OP":
                    kind = _pick(operators[value], acts)
                    if len(value) > 1 and not self._accepts(sstack, kind):
                        for short, short_kinds in splits[value]:
                            short_kind = _pick(short_kinds, acts)
                            if self._accepts(sstack, short_kind):
                                value, kind = short, short_kind
                                pos = tpos + len(short)
                                break
                else:
                    names = regex_terminals[kind]
                    kind = names[0] if len(names) == 1 else _pick(names, acts)
                    if names is name_terminals:
                        kws = keywords.get(value.upper())
                        if kws is not None:
                            kw = _pick(kws, acts)
                            if kind not in acts or (kw in acts and self._accepts(sstack, kw)):
                                kind = kw
            # ---- feed it
            while True:
                act = states[sstack[-1]].get(kind)
                if act is None:
                    raise self._unexpected(text, (kind, value, tpos), sstack[-1])
                if act >= 0:
                    sstack.append(act)
                    vstack.append((base_kind[kind], value, tpos))
                    pstack.append(tpos)
                    last_end = pos
                    if len(sstack) > MAX_STACK:
                        raise ParseError(
                            "query is nested too deeply",
                            text=text,
                            offset=tpos,
                            code="PARSE_TOO_DEEP",
                        )
                    break
                rule_id = ~act
                if unit[rule_id]:
                    goto = states[sstack[-2]][reducers[rule_id][0]]
                    sstack[-1] = goto
                    if kind == "$END" and goto == end_state:
                        return vstack[-1]
                    continue
                lhs, size, keep, fn, inline, expand1 = reducers[rule_id]
                if size:
                    args = vstack[-size:]
                    del vstack[-size:]
                    del sstack[-size:]
                    start = pstack[-size]
                    del pstack[-size:]
                else:
                    args = []
                    start = tpos
                if simple[rule_id]:
                    children = args
                else:
                    children = []
                    for flag, arg in zip(keep, args):
                        if flag == KEEP:
                            children.append(arg)
                        elif flag == SPLICE:
                            children.extend(arg)
                if inline:
                    result = children
                elif expand1 and len(children) == 1:
                    result = children[0]
                else:
                    if wants_end[rule_id]:
                        builder.last_end = last_end
                    result = fn(children, start)
                goto = states[sstack[-1]][lhs]
                sstack.append(goto)
                vstack.append(result)
                pstack.append(start)
                if kind == "$END" and goto == end_state:
                    return result


def _pick(names: tuple[str, ...], acts: dict[str, int]) -> str:
    """The first of a spelling's terminal names that the parser state accepts."""
    for name in names:
        if name in acts:
            return name
    return names[0]


def _strip(terminal: str) -> str:
    return terminal.rpartition("__")[2] if "__" in terminal.strip("_") else terminal
