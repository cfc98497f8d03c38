"""Compile a Lark grammar file into plain LALR tables, and cache them on disk.

Lark does the grammar analysis (it is good at it); gqlir keeps only what its own driver needs:
per-state action dicts, per-rule reduction specs, and the token definitions from which the
lexer is built. The result is plain Python data, pickled under a key made of the grammar
texts and the Lark version, so a warm process never imports Lark at all.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from dataclasses import dataclass
from pathlib import Path

from ..resources import cache_dir, data_dir

FORMAT_VERSION = 6

# How a reduction treats one symbol of its right-hand side.
DROP, KEEP, SPLICE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """What the driver does on reducing one grammar rule."""

    lhs: str  # non-terminal pushed after the reduction
    size: int  # symbols popped
    callback: str  # builder method name (alias or rule name, namespace stripped)
    keep: tuple[int, ...]  # per symbol: DROP, KEEP or SPLICE
    inline: bool  # rule whose name starts with "_": its value is a list spliced into the parent
    expand1: bool  # "?rule": a single kept child passes through unchanged


@dataclass(frozen=True, slots=True)
class Tables:
    grammar: str
    states: tuple[dict[str, int], ...]  # action >= 0: shift/goto state; < 0: reduce rule ~action
    rules: tuple[RuleSpec, ...]
    start_state: int
    end_state: int
    # Terminal names by spelling. A spelling can have several names when a variant grammar
    # imports its base (``MATCH`` and ``cypher__MATCH``); the lexer picks the one the parser
    # state accepts.
    keywords: dict[str, tuple[str, ...]]  # upper-case word -> terminal names
    operators: dict[str, tuple[str, ...]]  # operator text -> terminal names
    regex_terminals: dict[str, tuple[str, ...]]  # regex group -> terminal names
    token_regex: str  # OP for the operators, then one named group per regex terminal
    skip_regex: str  # what separates tokens (whitespace, comments), matched before each token


def grammar_path(name: str) -> Path:
    path = data_dir() / "grammars" / f"{name}.lark"
    if not path.is_file():
        from ..errors import DialectError

        raise DialectError(f"grammar file {path.name} is missing from the installation")
    return path


def _grammar_sources(name: str) -> list[Path]:
    """The grammar file and every local grammar it imports (for the cache key)."""
    seen: list[Path] = []
    todo = [grammar_path(name)]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        for match in re.finditer(r"^%import\s+\.(\S+)", path.read_text(), re.M):
            stem = match.group(1).split(".")[0]
            todo.append(path.parent / f"{stem}.lark")
    return seen


def _cache_key(name: str) -> str:
    digest = hashlib.sha256(f"{FORMAT_VERSION}".encode())
    # This module's own text too: a change to how tables are compiled is a new format even
    # where nobody bumped FORMAT_VERSION (and branches that bump it alike do not collide).
    digest.update(Path(__file__).read_bytes())
    try:
        from importlib.metadata import version

        digest.update(version("lark").encode())
    except Exception:  # lark metadata unavailable: the grammar text still keys the cache
        pass
    for path in _grammar_sources(name):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def load_tables(name: str) -> Tables:
    """Tables for grammar ``name``, from the cache or freshly compiled (and then cached)."""
    key = _cache_key(name)
    cache_file = cache_dir() / f"{name}-{key}.pickle"
    try:
        with cache_file.open("rb") as fh:
            tables = pickle.load(fh)
        if isinstance(tables, Tables):
            return tables
    except Exception:  # missing, stale or unreadable cache: rebuild it
        pass
    tables = compile_tables(name)
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            pickle.dump(tables, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache_file)
    except OSError:
        pass  # a read-only home: compile again next time
    return tables


def _strip_namespace(name: str) -> str:
    """``cypher__match_clause`` -> ``match_clause`` (names imported from a base grammar)."""
    if name.startswith("__"):
        return name
    head, sep, tail = name.rpartition("__")
    return tail if sep and head and not head.startswith("_") else name


def compile_tables(name: str) -> Tables:
    """Run Lark's LALR analysis on ``grammars/<name>.lark`` and extract plain tables."""
    from lark import Lark
    from lark.grammar import NonTerminal, Terminal
    from lark.parsers.lalr_analysis import Shift

    path = grammar_path(name)
    lark = Lark(
        path.read_text(),
        parser="lalr",
        lexer="basic",
        import_paths=[path.parent],
        source_path=str(path),
        maybe_placeholders=False,
    )
    table = lark.parser.parser.parser.parse_table
    rule_index: dict[object, int] = {}
    rules: list[RuleSpec] = []
    for rule in lark.rules:
        keep = []
        for sym in rule.expansion:
            if isinstance(sym, NonTerminal):
                keep.append(SPLICE if sym.name.startswith("_") else KEEP)
            elif isinstance(sym, Terminal):
                dropped = sym.filter_out and not rule.options.keep_all_tokens
                keep.append(DROP if dropped else KEEP)
        origin = str(rule.origin.name)
        alias = str(rule.alias) if rule.alias else None
        rule_index[rule] = len(rules)
        rules.append(
            RuleSpec(
                lhs=origin,
                size=len(rule.expansion),
                callback=_strip_namespace(alias or origin),
                keep=tuple(keep),
                inline=origin.startswith("_") and not alias,
                expand1=bool(rule.options.expand1) and not alias,
            )
        )
    states: list[dict[str, int]] = []
    for state_id in range(len(table.states)):
        actions = {}
        for sym, (action, arg) in table.states[state_id].items():
            actions[str(sym)] = arg if action is Shift else ~rule_index[arg]
        states.append(actions)
    (start_state,) = table.start_states.values()
    (end_state,) = table.end_states.values()

    keywords: dict[str, tuple[str, ...]] = {}
    operators: dict[str, tuple[str, ...]] = {}
    by_regex: dict[str, list[str]] = {}
    ignore = {str(t) for t in lark.ignore_tokens}
    skip_parts: list[str] = []
    for term in lark.terminals:
        pattern = term.pattern
        terminal = str(term.name)
        if pattern.type == "str":
            table = (
                keywords if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", pattern.value) else operators
            )
            key = pattern.value.upper() if table is keywords else pattern.value
            table[key] = table.get(key, ()) + (terminal,)
        elif terminal in ignore:
            skip_parts.append(pattern.to_regexp())
        else:
            by_regex.setdefault(pattern.to_regexp(), []).append(terminal)
    # The first name of each regex (in grammar order) names its group: NAME, not cypher__NAME.
    regex_terminals = {}
    parts = []
    for rx, names in by_regex.items():
        group = _strip_namespace(names[0])
        regex_terminals[group] = tuple(names)
        parts.append(f"(?P<{group}>{rx})")
    skip = "|".join(dict.fromkeys(skip_parts))
    return Tables(
        grammar=name,
        states=tuple(states),
        rules=tuple(rules),
        start_state=start_state,
        end_state=end_state,
        keywords=keywords,
        operators=operators,
        regex_terminals=regex_terminals,
        token_regex=_token_regex(parts, list(by_regex), operators),
        skip_regex=skip,
    )


def _token_regex(parts: list[str], regexes: list[str], operators: dict) -> str:
    """Regex terminals in grammar order, then operators, longest first (``-->`` wins over
    ``--`` and ``-``), as one alternation whose first match is the token.

    Operators are the most frequent tokens, so they are tried first where that cannot change
    which alternative matches: an operator no regex terminal can start with (``(``, ``,``)
    first as it is; any other (``.`` may start a FLOAT) first only where no regex terminal
    matches, which is when the original order would have reached it too."""
    ops = sorted(operators, key=len, reverse=True)
    starts = {op[0] for op in ops}
    clash = {c for c in starts if any(_may_start(rx, c) for rx in regexes)}
    free = [op for op in ops if op[0] not in clash]
    held = [op for op in ops if op[0] in clash]
    if not free:
        return "|".join([*parts, "(?P<OP>" + "|".join(re.escape(op) for op in ops) + ")"])
    ops_part = _trie(free)
    if held:
        guard = "|".join(f"(?:{rx})" for rx in regexes)
        first = "".join(sorted({re.escape(op[0]) for op in held}))
        ops_part += f"|(?=[{first}])(?!{guard})(?:{_trie(held)})"  # the cheap test first
    return "|".join([f"(?P<OP>{ops_part})", *parts])


def _trie(ops: list[str]) -> str:
    """An alternation of literal operators that matches the longest one there is, as a
    longest-first list would, with one branch per first character (``<(?:-(?:-|\\[)?)?``):
    each position tries a few characters instead of every operator."""
    by_first: dict[str, list[str]] = {}
    for op in ops:
        by_first.setdefault(op[0], []).append(op[1:])
    branches = []
    singles = []
    for char, rests in by_first.items():
        longer = [rest for rest in rests if rest]
        if not longer:
            singles.append(re.escape(char))
        elif len(longer) == len(rests):
            branches.append(f"{re.escape(char)}(?:{_trie(longer)})")
        else:
            branches.append(f"{re.escape(char)}(?:{_trie(longer)})?")
    if singles:
        branches.append(f"[{''.join(singles)}]")
    return "|".join(branches)


def _may_start(regex: str, char: str) -> bool:
    """May a match of ``regex`` start with ``char``? True unless its parse shows it cannot
    (anything not understood, such as a case-insensitive part, counts as may)."""
    try:
        from re import _parser

        parsed = _parser.parse(regex)
    except Exception:  # the parser's private module changed: assume the worst
        return True
    if parsed.state.flags & re.IGNORECASE:
        return True
    may, empty = _may_start_items(list(parsed), char)
    return may or empty


def _may_start_items(items: list, char: str) -> tuple[bool, bool]:
    """(a match of the sequence may start with ``char``, the sequence may match nothing)."""
    from re import _constants as c

    code = ord(char)
    for op, av in items:
        if op is c.LITERAL:
            return av == code, False
        if op is c.NOT_LITERAL:
            return av != code, False
        if op is c.IN:
            return _in_set(av, char), False
        if op is c.AT:
            continue  # an anchor matches nothing
        if op is c.BRANCH:
            alternatives = av[1]
        elif op is c.SUBPATTERN and not av[1] & re.IGNORECASE:
            alternatives = [av[3]]
        elif op is c.ATOMIC_GROUP:
            alternatives = [av]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            may, empty = _may_start_items(list(av[2]), char)
            if may:
                return True, False
            if av[0] > 0 and not empty:
                return False, False
            continue
        else:
            return True, False  # ANY, lookarounds, references, flags: assume it may
        outcomes = [_may_start_items(list(alt), char) for alt in alternatives]
        if any(may for may, _ in outcomes):
            return True, False
        if not any(empty for _, empty in outcomes):
            return False, False
    return False, True


_CATEGORY_TESTS = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _in_set(items: list, char: str) -> bool:
    """Is ``char`` in the character set ``[...]`` (parsed)? True where unsure."""
    from re import _constants as c

    negated = hit = False
    code = ord(char)
    for op, av in items:
        if op is c.NEGATE:
            negated = True
        elif op is c.LITERAL:
            hit = hit or av == code
        elif op is c.RANGE:
            hit = hit or av[0] <= code <= av[1]
        elif op is c.CATEGORY and str(av) in _CATEGORY_TESTS:
            hit = hit or re.match(_CATEGORY_TESTS[str(av)], char) is not None
        else:
            return True
    return hit != negated
