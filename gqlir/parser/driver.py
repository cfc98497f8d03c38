"""The LALR driver: a state-aware lexer and a shift/reduce loop over :mod:`.tables`.

Why not Lark's own parser: its per-token overhead (lexer objects, tree nodes, then a
transformer pass) is several times the cost of everything else. Here a single compiled regex
finds tokens, each reduction calls the builder directly, and no parse tree is ever built.

The lexer consults the parser state in three places, which is what lets keywords double as
names: a word is a keyword only if the current state accepts that keyword (or accepts no plain
name); a compound operator such as ``-->`` that the state cannot accept is split into shorter
operators (``1--1`` is ``1 - -1``); and a token that starts with an operator character, such as
SQL/PGQ's ``:name`` parameter, is read as that operator where only the operator fits.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import ParseError
from .tables import KEEP, SPLICE, RuleSpec, Tables

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

# Bracket nesting deeper than this is refused: recursive consumers of the IR (equality,
# emitters) could not follow it. Three stack slots per parser state.
MAX_STACK = 3 * 600


class Parser:
    """Parses text with one grammar's tables, calling ``builder`` methods on reductions.

    At run time a parser state is the bound ``get`` of its action dict (calling a bound method
    is cheaper than indexing a table and looking ``get`` up, and it hashes by identity, so it
    keys the memo of unit reductions). An action is either such a state (shift or goto) or
    the reduction's plan, a tuple (see :func:`_plan`); the end state accepts ``$END`` with the
    plan ``_ACCEPT_PLAN``.
    """

    def __init__(self, tables: Tables, builder: object) -> None:
        self.tables = tables
        self.builder = builder
        self.states = tables.states
        # _accepts' memo: (lookahead, states...) -> answer; (lookahead, top state) -> depth.
        self._accepted: dict[tuple, bool] = {}
        self._accept_depths: dict[tuple[str, Any], int] = {}
        # Separators and the next token in one match: `(?:skip)*(?:token)?`.
        self.regex = re.compile(f"(?:{tables.skip_regex})*(?:{tables.token_regex})?")
        self.keywords = tables.keywords
        self.spelled: dict[str, tuple[str, ...]] = {}
        self._runners: dict[tuple, Callable[[list, int], None]] = {}
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
        # A spelling's terminal when it has only one (else None: the state picks).
        self.op_kind = {
            op: names[0] if len(names) == 1 else None for op, names in tables.operators.items()
        }
        self.group_kind = {
            g: names[0] if len(names) == 1 else None for g, names in tables.regex_terminals.items()
        }
        self.splits = {
            op: [(p, tables.operators[p]) for p in ops if len(p) < len(op) and op.startswith(p)]
            for op in ops
        }
        wants_end = getattr(builder, "WANTS_END", frozenset())
        # callback -> the token kinds it is called for; any other token's value is its text
        text_rules: dict[str, frozenset[str]] = getattr(builder, "text_rules", {})
        plans: list[tuple] = []
        for rule in tables.rules:
            fn = None
            if not rule.inline:
                fn = getattr(builder, rule.callback, None)
                if fn is None and not rule.expand1:
                    raise RuntimeError(f"builder has no method for grammar rule {rule.callback!r}")
            plan = _plan(rule, fn, rule.callback in wants_end)
            if plan[0] == _CALL1 and rule.callback in text_rules:
                plan = (_TEXT1, *plan[1:4], text_rules[rule.callback], *plan[5:])
            plans.append(_run_plan(plan, rule))
        self.reducers = plans
        # The symbol each state is entered on (a shifted token's kind is thereby known).
        entered: dict[int, str] = {}
        for table in tables.states:
            for symbol, act in table.items():
                if act >= 0:
                    entered[act] = symbol
        self.entered = entered
        # The run-time states: action dicts whose shifts and gotos name the next state's
        # bound ``get`` and whose reductions hold the plan. A one-symbol reduction gets a
        # chain plan of its own per state and lookahead (see :meth:`_chain`).
        actions: list[dict[str, Any]] = [{} for _ in tables.states]
        self.gets = [acts.get for acts in actions]
        self.index_of = {get: i for i, get in enumerate(self.gets)}
        for index, (acts, table) in enumerate(zip(actions, tables.states)):
            for symbol, act in table.items():
                if act >= 0:
                    acts[symbol] = self.gets[act]
                elif _one_symbol(plans[~act]):
                    acts[symbol] = (_CHAIN, {}.get, index, symbol, plans[~act])
                else:
                    acts[symbol] = plans[~act]
        actions[tables.end_state]["$END"] = _ACCEPT_PLAN
        self.start_get = self.gets[tables.start_state]

    def _spelling(self, word: str) -> tuple[str, ...]:
        """The keyword terminals a word spells (none: ``()``), remembered by spelling (the
        words of queries repeat: ``n``, ``MATCH``, ``match``)."""
        if len(self.spelled) > 100_000:  # a bound for endless streams of new names
            self.spelled.clear()
        kws = self.spelled[word] = self.keywords.get(word.upper(), ())
        return kws

    # -- errors ------------------------------------------------------------------------------

    def _describe(self, terminal: str) -> str:
        if terminal in self._kw_text:
            return self._kw_text[terminal]
        if terminal in self._op_text:
            return repr(self._op_text[terminal])
        group = self._regex_text.get(terminal, terminal)
        return _TERMINAL_NAMES.get(group, group)

    def _expected(self, state: int) -> tuple[str, ...]:
        names = {
            self._describe(t) for t in self.states[state] if _strip(t).isupper() or t == "$END"
        }
        return tuple(sorted(names))

    def _unexpected(self, text: str, token: Token, state: Any) -> ParseError:
        kind, value, offset = token
        if kind == "$END":
            what = "unexpected end of input"
        else:
            what = f"unexpected {value!r}"
        expected = self._expected(self.index_of[state])
        shown = ", ".join(expected[:12]) + (", ..." if len(expected) > 12 else "")
        return ParseError(
            f"{what}; expected {shown}" if expected else what,
            text=text,
            offset=offset,
            expected=expected,
            code="PARSE_UNEXPECTED",
        )

    def _accepts(self, stack: list, kind: str) -> bool:
        """Would the parser shift ``kind`` after the reductions it triggers? LALR tables list
        lookaheads merged from several contexts, so a reduce action alone does not say so.

        The answer depends only on the states the simulation reads, top down; it is memoised
        under the top ``depth`` states, ``depth`` being the most any simulation from the same
        top state and lookahead has read (a memo entry holds for every stack with those top
        states, as the simulation reads no deeper than its key)."""
        top_state = stack[-3]
        act = top_state(kind)
        if act is None:
            return False
        if type(act) is not tuple:
            return True
        depths = self._accept_depths
        depth = depths.get((kind, top_state), 1)
        memo = self._accepted
        found = memo.get((kind, *stack[-3 * depth :: 3]))
        if found is not None:
            return found
        result, read = self._simulate(stack, kind, act)
        if read > depth:
            depth = depths[(kind, top_state)] = read
        if len(memo) > 100_000:  # a bound, never reached by the grammars' own tables
            memo.clear()
        memo[(kind, *stack[-3 * depth :: 3])] = result
        return result

    def _simulate(self, stack: list, kind: str, act: tuple) -> tuple[bool, int]:
        """:meth:`_accepts` by running the reductions on a copy of the top of the stack; also
        how many of the stack's states it read."""
        top = len(stack) // 3  # states on the stack
        lowest = top
        extra: list[Any] = []
        while True:
            if act[0] == _ACCEPT:
                return True, len(stack) // 3 - lowest + 1
            if act[0] == _CHAIN:
                act = act[4]
            lhs, size = act[1], -act[2] // 3
            while size:
                if extra:
                    extra.pop()
                else:
                    top -= 1
                size -= 1
            if extra:
                prev = extra[-1]
            else:
                prev = stack[3 * top - 3]
                lowest = min(lowest, top)
            state = prev(lhs)
            extra.append(state)
            act = state(kind)
            if act is None:
                return False, len(stack) // 3 - lowest + 1
            if type(act) is not tuple:
                return True, len(stack) // 3 - lowest + 1

    def _chain(self, act: tuple, below: Any) -> tuple:
        """The outcome of a one-symbol reduction (``act`` a chain plan) over state ``below``
        and of every one-symbol reduction it leads to on the same lookahead: they all replace
        the top of the stack only, so their builder calls and the state they end in depend on
        ``below``, the state reduced from and the lookahead alone. Returns (end state, code,
        callable, the end state's action on the lookahead): code 0 nothing to call, else one
        of the ops below, or 3 with a function that runs them all (:meth:`_runner`).
        Memoised in the plan's own dict, keyed by ``below``.

        An op is (code, callable, kinds), run on the top value: 1 takes a token's text, 2
        calls ``fn([v], start)``, 4 takes the text and calls ``fn`` on it, 5 makes ``[v]``,
        6 runs the rule's generated ``reduce(stack, start)``, 7 its ``gather(stack)``, 8
        decides by the value's kind as ``_TEXT1`` does, 9 is ``_EXPAND1``'s gather-or-call, 10
        ``_CALL_END``'s call after noting where the last token ended."""
        _, memo_get, state, kind, plan = act
        states = self.tables.states
        below_index = self.index_of[below]
        first = self.entered.get(state)
        ops: list[tuple[int, Any, Any]] = []
        while True:
            mode, lhs, _n, fn, keep, _values, _first, gather = plan
            if mode == _CALL1:
                ops.append((2, fn, None))
            elif mode == _TEXT1:
                if not ops and first is not None and first in self.base_kind:
                    # the value is the token just shifted: its kind is the state's symbol
                    ops.append((2, fn, None) if self.base_kind[first] in keep else (1, None, None))
                else:
                    ops.append((8, fn, keep))
            elif mode == _LIST:
                ops.append((5, None, None))
            elif mode == _CALL_PICK:
                ops.append((6, gather, None))
            elif mode == _APPEND:
                ops.append((7, gather, None))
            elif mode == _EXPAND1:
                ops.append((9, gather, fn))
            elif mode == _CALL_END:
                ops.append((10, gather, fn))
            state = states[below_index][lhs]
            nxt = states[state].get(kind)
            if nxt is None or nxt >= 0 or not _one_symbol(self.reducers[~nxt]):
                break
            plan = self.reducers[~nxt]
        if len(ops) == 2 and ops[0][0] == 1 and ops[1][0] == 2:
            ops = [(4, ops[1][1], None)]  # a name's text, then a call on it
        end = self.gets[state]
        then = end(kind)  # the end state's action on the same lookahead: fixed as well
        if not ops:
            outcome: tuple = (end, 0, None, then)
        elif len(ops) == 1 and ops[0][0] in (1, 2, 4, 5, 6):
            outcome = (end, ops[0][0], ops[0][1], then)
        else:
            outcome = (end, 3, self._runner(tuple(ops)), then)
        memo_get.__self__[below] = outcome
        return outcome

    def _runner(self, ops: tuple) -> Callable[[list, int], None]:
        """A chain's ops (see :meth:`_chain`) as one generated function ``run(stack,
        last_end)`` that runs them in order on the top value of the stack (straight-line code,
        no dispatch per op); one per distinct sequence of ops."""
        run = self._runners.get(ops)
        if run is not None:
            return run
        env: dict[str, Any] = {"builder": self.builder}
        lines = ["def run(stack, last_end):", "    start = stack[-1]", "    v = stack[-2]"]
        for i, (code, fn, extra) in enumerate(ops):
            env[f"f{i}"], env[f"x{i}"] = fn, extra
            if code == 2:
                lines.append(f"    v = f{i}([v], start)")
            elif code == 1:
                lines.append("    v = v[1]")
            elif code == 4:
                lines.append(f"    v = f{i}([v[1]], start)")
            elif code == 5:
                lines.append("    v = [v]")
            elif code == 6:
                lines += ["    stack[-2] = v", f"    v = f{i}(stack, start)"]
            elif code == 7:
                lines += ["    stack[-2] = v", f"    v = f{i}(stack)"]
            elif code == 8:
                lines.append(f"    v = f{i}([v], start) if v[0] in x{i} else v[1]")
            elif code == 9:
                lines += ["    stack[-2] = v", f"    c = f{i}(stack)"]
                lines.append(f"    v = c[0] if len(c) == 1 else x{i}(c, start)")
            else:  # 10
                lines += ["    builder.last_end = last_end", "    stack[-2] = v"]
                lines.append(f"    v = x{i}(f{i}(stack), start)")
        lines.append("    stack[-2] = v")
        scope = dict(env)
        exec("\n".join(lines) + "\n", scope)  # built above from op codes only
        run = self._runners[ops] = scope["run"]
        return run

    def _split(
        self, stack: list, value: str, kind: str, tpos: int, pos: int, act: Any
    ) -> tuple[str, str, int]:
        """The token a compound operator is read as: itself, or the longest shorter operator
        the parser takes where it cannot take the whole (``1--1`` is ``1 - -1``)."""
        acts = stack[-3]
        shorter = [
            (short, k)
            for short, short_kinds in self.splits[value]
            for k in (_pick(short_kinds, acts),)
            if acts(k) is not None
        ]
        if shorter and (act is None or not self._accepts(stack, kind)):
            for short, short_kind in shorter:
                if self._accepts(stack, short_kind):
                    return short, short_kind, tpos + len(short)
        return value, kind, pos

    # -- the loop ----------------------------------------------------------------------------

    def parse(self, text: str) -> Any:
        last_end = 0
        match = self.regex.match
        spelled = self.spelled.get
        operators = self.operators
        regex_terminals = self.regex_terminals
        name_terminals = self.name_terminals
        op_kind = self.op_kind
        group_kind = self.group_kind
        name_kind = group_kind.get("NAME")
        base_kind = self.base_kind
        builder = self.builder
        # One stack of (state, value, start offset) triples, flattened.
        acts = self.start_get  # the top state
        stack: list[Any] = [acts, None, 0]
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
                act = acts(kind)
            else:
                tpos, pos = m.span(kind)
                value = text[tpos:pos]
                if kind == "OP":
                    kind = op_kind[value] or _pick(operators[value], acts)
                    act = acts(kind)
                    if len(value) > 1 and (act is None or type(act) is tuple):
                        # A compound operator the state may not take: read a shorter one if
                        # that is what the parser can take (only then is a simulation needed).
                        value, kind, pos = self._split(stack, value, kind, tpos, pos, act)
                        act = acts(kind)
                elif kind == "NAME":
                    kind = name_kind or _pick(name_terminals, acts)
                    kws = spelled(value)
                    if kws is None:
                        kws = self._spelling(value)
                    act = acts(kind)
                    if kws:
                        kw = kws[0] if len(kws) == 1 else _pick(kws, acts)
                        kw_act = acts(kw)
                        if act is None or (
                            kw_act is not None
                            and (type(kw_act) is not tuple or self._accepts(stack, kw))
                            and _next_allows(text, pos, value.upper())
                        ):
                            kind = kw
                            act = kw_act
                else:
                    kind = group_kind[kind] or _pick(regex_terminals[kind], acts)
                    if value[0] in operators and not self._accepts(stack, kind):
                        # A token that starts with an operator, where the state cannot take it
                        # but may take the operator: ``:Person`` is a label there, not a
                        # parameter (SQL/PGQ's ``:name``).
                        short = _pick(operators[value[0]], acts)
                        if self._accepts(stack, short):
                            value, kind, pos = value[0], short, tpos + 1
                    act = acts(kind)
            # ---- feed it (modes are the _UNIT.. constants, written as literals for speed);
            # ``act`` is the top state's action on it, fetched again after each reduction
            while True:
                if type(act) is not tuple:  # a shift (or an error)
                    if act is None:
                        raise self._unexpected(text, (kind, value, tpos), acts)
                    acts = act
                    stack += (act, (base_kind[kind], value, tpos), tpos)
                    last_end = pos
                    if len(stack) > MAX_STACK:
                        raise ParseError(
                            "query is nested too deeply",
                            text=text,
                            offset=tpos,
                            code="PARSE_TOO_DEEP",
                        )
                    break
                mode = act[0]
                if mode == 13:  # _CHAIN: one-symbol reductions, in place (see _chain)
                    below = stack[-6]
                    hit = act[1](below)
                    if hit is None:
                        hit = self._chain(act, below)
                    acts, code, fn, next_act = hit
                    if not code:
                        pass  # units only: the value passes through
                    elif code == 2:
                        stack[-2] = fn([stack[-2]], stack[-1])
                    elif code == 1:
                        stack[-2] = stack[-2][1]
                    elif code == 3:
                        fn(stack, last_end)
                    elif code == 4:
                        stack[-2] = fn([stack[-2][1]], stack[-1])
                    elif code == 5:
                        stack[-2] = [stack[-2]]
                    else:  # 6
                        stack[-2] = fn(stack, stack[-1])
                    stack[-3] = acts
                    act = next_act
                    continue
                if mode == 14:  # _FUSED: the whole reduction in one generated function
                    acts = act[7](stack)
                    act = acts(kind)
                    continue
                mode, lhs, n, fn, below, values, first, gather = act
                start = stack[first] if n else tpos
                if mode == 4:  # _CALL_PICK, _CALL_PICK1, _CALL_GENERIC: a call on gathered values
                    result = gather(stack, start)
                elif mode == 3:  # _APPEND, _SPLICED_LIST: the gathered list itself
                    result = gather(stack)
                elif mode == 2:  # _LIST
                    result = stack[values]
                elif mode == 1:  # _CALL
                    result = fn(stack[values], start)
                elif mode == 6:  # _EXPAND1
                    result = gather(stack)
                    if len(result) != 1:
                        result = fn(result, start)
                    else:
                        result = result[0]
                elif mode == 7:  # _CALL_END
                    builder.last_end = last_end
                    result = fn(gather(stack), start)
                else:  # _ACCEPT
                    return stack[-2]
                if n:  # the rule's triples make way for its own
                    acts = stack[below](lhs)
                    stack[n:] = (acts, result, start)
                else:
                    acts = stack[-3](lhs)
                    stack += (acts, result, start)
                act = acts(kind)


def _pick(names: tuple[str, ...], acts: Callable[[str], Any]) -> str:
    """The first of a spelling's terminal names that the parser state (its ``get``) accepts."""
    for name in names:
        if acts(name) is not None:
            return name
    return names[0]


def _strip(terminal: str) -> str:
    return terminal.rpartition("__")[2] if "__" in terminal.strip("_") else terminal


# How the driver reduces a rule (see _plan).
(
    _UNIT,
    _CALL,
    _LIST,
    _APPEND,
    _CALL_PICK,
    _SPLICED_LIST,
    _EXPAND1,
    _CALL_END,
    _CALL_GENERIC,
    _ACCEPT,
    _CALL1,
    _TEXT1,
    _CALL_PICK1,
    _CHAIN,
    _FUSED,
) = range(15)

#: Modes the loop runs alike: a call on the gathered values, or the gathered list itself.
_RUN_MODE = {_CALL_PICK1: _CALL_PICK, _CALL_GENERIC: _CALL_PICK, _SPLICED_LIST: _APPEND}

#: Modes of one-symbol reductions that replace the top of the stack in place.
_ONE_SYMBOL = frozenset({_UNIT, _CALL1, _TEXT1})
#: Modes that do so when their rule has one symbol.
_OF_ONE_SYMBOL = frozenset({_LIST, _CALL_PICK, _APPEND, _EXPAND1, _CALL_END})


def _one_symbol(plan: tuple) -> bool:
    """Does the reduction replace only the top triple of the stack (a rule of one symbol)?"""
    return plan[0] in _ONE_SYMBOL or (plan[0] in _OF_ONE_SYMBOL and plan[2] == -3)


#: The end state's action on ``$END``: the value below it is the parse.
_ACCEPT_PLAN = (_ACCEPT, None, 0, None, (), None, None, None)


def _plan(rule: RuleSpec, fn: Callable | None, wants_end: bool) -> tuple:
    """The cheapest way to reduce ``rule``: (mode, lhs, -3 * size, callback, keep or picks,
    the slice of the rule's values, the index of its start offset); -3 * size is where the
    rule's (state, value, offset) triples start on the driver's stack."""
    plan = _mode(rule, fn, wants_end)
    size = plan[2]
    values = slice(size + 1, None, 3) if size else slice(0, 0)  # an empty rule has none
    return (*plan, values, size + 2, _gather(plan[0], rule, fn))


def _run_plan(plan: tuple, rule: RuleSpec) -> tuple:
    """The plan as the loop reads it: modes that run alike merged (``_RUN_MODE``) and, for a
    rule of several symbols, ``keep`` (which its gathering function has built in) replaced by
    where the state below the rule's triples sits on the stack; a rule of two symbols or more
    whose reduction needs nothing but the stack is ``_FUSED`` (see :func:`_fused`)."""
    mode = _RUN_MODE.get(plan[0], plan[0])
    if mode in _ONE_SYMBOL or mode == _ACCEPT:
        return (mode, *plan[1:])
    if rule.size >= 2 and mode in (_CALL_PICK, _APPEND, _LIST, _CALL, _EXPAND1):
        return (_FUSED, *plan[1:4], plan[2] - 3, *plan[5:7], _fused(plan[0], rule, plan[3]))
    return (mode, *plan[1:4], plan[2] - 3, *plan[5:])


def _fused(mode: int, rule: RuleSpec, fn: Callable | None) -> Callable[[list], Any]:
    """The whole reduction of a rule of ``size`` >= 2 symbols as one generated function of the
    stack: its value (as :func:`_gather` and the loop would make it), the goto from the state
    below, the rule's triples replaced by its own; returns the new top state."""
    size = rule.size
    at = _value_offsets(rule)
    items = _kept_values(rule)
    body = [f"    start = s[{-3 * size + 2}]"]
    if mode in (_CALL_PICK, _CALL_PICK1, _CALL_GENERIC):
        body.append(f"    result = fn([{', '.join(items)}], start)")
    elif mode == _SPLICED_LIST:
        body.append(f"    result = [{', '.join(items)}]")
    elif mode == _APPEND:
        body.append(f"    result = s[{at[0]}]")
        body += [f"    result.append({v})" for v in _kept_appends(rule)]
    elif mode == _LIST:
        body.append(f"    result = s[{-3 * size + 1}::3]")
    elif mode == _CALL:
        body.append(f"    result = fn(s[{-3 * size + 1}::3], start)")
    else:  # _EXPAND1
        body.append(f"    result = [{', '.join(items)}]")
        body.append("    result = result[0] if len(result) == 1 else fn(result, start)")
    body += [
        f"    acts = s[{-3 * size - 3}](lhs)",
        f"    s[{-3 * size}:] = (acts, result, start)",
        "    return acts",
    ]
    scope: dict[str, Any] = {"fn": fn, "lhs": rule.lhs}
    exec("def reduce(s):\n" + "\n".join(body) + "\n", scope)  # from the rule's offsets only
    return scope["reduce"]


def _value_offsets(rule: RuleSpec) -> list[int]:
    """Where each of the rule's symbols has its value on the stack (every third item)."""
    return [-3 * rule.size + 1 + 3 * i for i in range(rule.size)]


def _kept_appends(rule: RuleSpec) -> list[str]:
    """The stack reads of the values an ``_APPEND`` rule appends to its first symbol's list."""
    at = _value_offsets(rule)
    return [f"s[{at[i]}]" for i, k in enumerate(rule.keep) if i and k == KEEP]


def _kept_values(rule: RuleSpec) -> list[str]:
    """The stack reads of the values the rule keeps, an inline rule's list spliced in (the
    source text of a generated reduction: integer offsets only)."""
    at = _value_offsets(rule)
    items = []
    for i, k in enumerate(rule.keep):
        if k == KEEP:
            items.append(f"s[{at[i]}]")
        elif k == SPLICE:
            items.append(f"*s[{at[i]}]")
    return items


def _gather(mode: int, rule: RuleSpec, fn: Callable | None) -> Callable | None:
    """What a reduction hands on, read straight off the driver's stack (the rule's values
    are every third item from ``-3 * size + 1``): the kept values as a list, inline rules'
    lists spliced in; for ``_APPEND``, the first symbol's list with the kept values appended;
    for a call on picked values (``_CALL_PICK``…), the call itself, ``reduce(stack, start)``.
    Generated once per rule from its keep flags (a list display beats a loop over flags)."""
    if mode in (_UNIT, _CALL1, _TEXT1, _CALL, _LIST, _ACCEPT):
        return None
    at = _value_offsets(rule)
    if mode == _APPEND:
        body = f"    r = s[{at[0]}]\n" + "".join(
            f"    r.append({v})\n" for v in _kept_appends(rule)
        )
        source = f"def gather(s):\n{body}    return r\n"
    else:
        items = _kept_values(rule)
        source = f"def gather(s):\n    return [{', '.join(items)}]\n"
        if mode in (_CALL_PICK, _CALL_PICK1, _CALL_GENERIC):
            source = f"def gather(s, start):\n    return fn([{', '.join(items)}], start)\n"
    scope: dict[str, Any] = {"fn": fn}
    exec(source, scope)  # built above from the rule's integer offsets only
    return scope["gather"]


def _mode(rule: RuleSpec, fn: Callable | None, wants_end: bool) -> tuple:
    keep = rule.keep
    size = -3 * rule.size
    only_kept = all(k == KEEP for k in keep)
    if rule.expand1 and keep == (KEEP,):
        return (_UNIT, rule.lhs, size, None, keep)
    if rule.inline:
        if only_kept:
            return (_LIST, rule.lhs, size, None, keep)
        if keep[0] == SPLICE and SPLICE not in keep[1:]:
            # Left-recursive repetition (`items: items "," item`): extend the list in place.
            picks = tuple(i for i, k in enumerate(keep) if k == KEEP)
            return (_APPEND, rule.lhs, size, None, picks)
        return (_SPLICED_LIST, rule.lhs, size, None, keep)
    if rule.expand1:
        return (_EXPAND1, rule.lhs, size, fn, keep)
    if wants_end:
        return (_CALL_END, rule.lhs, size, fn, keep)
    if only_kept:
        return (_CALL1 if rule.size == 1 else _CALL, rule.lhs, size, fn, keep)
    if SPLICE not in keep:
        picks = tuple(i for i, k in enumerate(keep) if k == KEEP)
        if len(picks) == 1:
            return (_CALL_PICK1, rule.lhs, size, fn, picks[0])
        return (_CALL_PICK, rule.lhs, size, fn, picks)
    return (_CALL_GENERIC, rule.lhs, size, fn, keep)


#: Keywords that are keywords only before what a pattern matches; elsewhere, where a name may
#: stand too, they are names (``ORDER BY value`` is the column value, ``VALUE {…}`` a
#: subquery, ``LET VALUE x = 1`` a value variable: GQL.g4 valueVariableDefinition). Only
#: consulted when both readings are possible.
_KEYWORD_BEFORE = {"VALUE": re.compile(r"\s*(?:\{|[^\W\d]\w*\s*(?:=|::|TYPED\b))", re.I)}


def _next_allows(text: str, end: int, word: str) -> bool:
    before = _KEYWORD_BEFORE.get(word)
    return before is None or before.match(text, end) is not None
