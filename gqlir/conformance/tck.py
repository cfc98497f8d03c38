"""A reader for the openCypher TCK (Gherkin ``.feature`` files) and the JSONL query corpora.

The TCK is the largest labelled Cypher corpus there is: every scenario says which graph to start
from, which setup queries to run, the query, and what must come out (rows, nothing, or an error
with its type, phase and detail). gqlir uses it three ways: as a positive corpus for the parser
(``valid_queries``), as a (small) negative corpus (``grammar_error_queries``), and, through the
evaluator, as a semantic check of results.

The Gherkin reader is written here rather than depending on ``gherkin-official``: the TCK uses a
small, regular subset (Feature, Background, Scenario, Scenario Outline + Examples, steps with
doc strings and data tables, comments and tags), and a reader that knows the TCK's step phrases
can reject any step it does not understand instead of silently dropping it. The tests cross-check
its output against the official parser when that is installed.

Every value read from a table stays the raw cell text: turning ``({name: 'b'})`` or ``[1, 2]``
into values is the job of the result-value parser, not of this reader.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "GRAMMAR_LEVEL_DETAILS",
    "SEMANTIC_DETAILS",
    "TckFormatError",
    "TckOutcome",
    "TckProcedure",
    "TckScenario",
    "default_corpora_dir",
    "default_tck_dir",
    "error_queries",
    "grammar_error_queries",
    "is_grammar_level",
    "load_jsonl_corpus",
    "parse_feature",
    "read_tck",
    "valid_queries",
]

OutcomeKind = Literal["rows", "empty", "error"]
ErrorPhase = Literal["compile time", "runtime", "any time"]
Table = tuple[tuple[str, ...], ...]

# --------------------------------------------------------------------------------------------
# Error classification
# --------------------------------------------------------------------------------------------

GRAMMAR_LEVEL_DETAILS: frozenset[str] = frozenset(
    {
        "UnexpectedSyntax",
        "InvalidNumberLiteral",
        "InvalidRelationshipPattern",
        "InvalidUnicodeLiteral",
        "InvalidUnicodeCharacter",
    }
)
"""Details of compile-time ``SyntaxError`` s that a grammar alone can detect.

A parser can only reject text that is not in its grammar. These details name inputs that no
derivation of the openCypher grammar produces: a token sequence the grammar does not allow
(``UnexpectedSyntax``), a malformed number or unicode escape (``InvalidNumberLiteral``,
``InvalidUnicodeLiteral``, ``InvalidUnicodeCharacter``), or a relationship pattern with a shape
the pattern grammar excludes (``InvalidRelationshipPattern``, e.g. a variable-length bound
written where none may be).

Every other compile-time SyntaxError detail (see ``SEMANTIC_DETAILS``) is about a grammatical
query that is still wrong: a variable used before it is bound, bound twice or with two types,
an aggregate in the wrong place, a literal out of range, a function given the wrong kind of
argument. Those need name resolution, scoping and type checks on the parsed query, so a parser
that rejects them is doing more than parsing, and a parser that accepts them is not wrong.
Some TCK versions name a detail that is absent from this copy; the set lists it anyway so that
the classification does not change with the TCK version.
"""

SEMANTIC_DETAILS: frozenset[str] = frozenset(
    {
        "AmbiguousAggregationExpression",
        "ColumnNameConflict",
        "CreatingVarLength",
        "DifferentColumnsInUnion",
        "IntegerOverflow",
        "FloatingPointOverflow",
        "InvalidAggregation",
        "InvalidArgumentType",
        "InvalidClauseComposition",
        "InvalidDelete",
        "InvalidParameterUse",
        "MixedColumnsInUnion",
        "NegativeIntegerArgument",
        "NestedAggregation",
        "NoExpressionAlias",
        "NoSingleRelationshipType",
        "NonConstantExpression",
        "NoVariablesInScope",
        "RelationshipUniquenessViolation",
        "RequiresDirectedRelationship",
        "UndefinedVariable",
        "UnknownFunction",
        "VariableAlreadyBound",
        "VariableTypeConflict",
    }
)
"""Compile-time SyntaxError details that need more than a grammar (scoping, types, values).

``IntegerOverflow`` and ``FloatingPointOverflow`` belong here: ``9223372036854775808`` is a
well-formed integer literal; only converting it to a 64-bit value shows it out of range.
"""


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


class TckFormatError(ValueError):
    """A feature file uses Gherkin or a step phrase this reader does not know.

    Raised rather than skipped, so that a TCK update with a new step kind is noticed.
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line


@dataclass(frozen=True, slots=True)
class TckOutcome:
    """What a query must produce.

    ``kind`` is ``rows`` (``header`` and raw-string ``rows``; ``ordered`` for "in order";
    ``ignore_list_order`` for "(ignoring element order for lists)"), ``empty`` ("the result
    should be empty"), or ``error`` (``error_type`` such as ``SyntaxError``, ``error_phase``
    and ``error_detail``). ``side_effects`` is None when the scenario says nothing, ``{}``
    for "no side effects", else the stated counters (``+nodes`` → 1, ...).
    """

    kind: OutcomeKind
    ordered: bool = False
    ignore_list_order: bool = False
    header: tuple[str, ...] = ()
    rows: Table = ()
    error_type: str | None = None
    error_phase: ErrorPhase | None = None
    error_detail: str | None = None
    side_effects: dict[str, int] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class TckProcedure:
    """A procedure a scenario declares ("there exists a procedure sig:") with its output table."""

    signature: str
    header: tuple[str, ...]
    rows: Table


@dataclass(frozen=True, slots=True)
class TckScenario:
    """One executable scenario instance (a Scenario, or one Examples row of an Outline).

    ``path`` is relative to the features directory (POSIX separators); ``area`` is its directory
    (``clauses/match``). ``graph`` is ``empty``, ``any``, or the name of a TCK graph. Queries,
    tables and parameters have outline placeholders already substituted. ``control_query`` is
    the follow-up "When executing control query:" some storage scenarios use to read back what
    the main query wrote, with its own ``control_expected``.
    """

    path: str
    area: str
    feature: str
    name: str
    line: int
    example_index: int | None
    graph: str
    setup_queries: tuple[str, ...]
    query: str
    expected: TckOutcome
    parameters: dict[str, str] = field(default_factory=dict, hash=False)
    procedures: tuple[TckProcedure, ...] = ()
    control_query: str | None = None
    control_expected: TckOutcome | None = None
    tags: tuple[str, ...] = ()
    example: dict[str, str] = field(default_factory=dict, hash=False)
    problem: str | None = None  # why the steps could not be read (an unknown step …): fails it

    @property
    def id(self) -> str:
        """A stable, readable identifier: ``path:line`` plus ``#row`` for outline instances."""
        suffix = f"#{self.example_index}" if self.example_index is not None else ""
        return f"{self.path}:{self.line}{suffix}"

    @property
    def side_effects(self) -> dict[str, int] | None:
        """The main query's expected side effects (None when the scenario states none)."""
        return self.expected.side_effects

    @property
    def is_compile_time_syntax_error(self) -> bool:
        """True when the query must be rejected before it runs with a SyntaxError."""
        e = self.expected
        return (
            e.kind == "error" and e.error_type == "SyntaxError" and e.error_phase == "compile time"
        )


def is_grammar_level(scenario: TckScenario) -> bool:
    """True when the scenario expects a compile-time SyntaxError that a grammar can detect.

    See ``GRAMMAR_LEVEL_DETAILS`` for why the rest (``SEMANTIC_DETAILS``) is not counted.
    """
    return (
        scenario.is_compile_time_syntax_error
        and scenario.expected.error_detail in GRAMMAR_LEVEL_DETAILS
    )


# --------------------------------------------------------------------------------------------
# Gherkin structure
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Step:
    keyword: str
    text: str
    line: int
    docstring: str | None = None
    table: list[list[str]] | None = None


@dataclass(slots=True)
class _Examples:
    line: int
    tags: list[str]
    table: list[list[str]] = field(default_factory=list)


@dataclass(slots=True)
class _Block:
    """A Background, Scenario or Scenario Outline as written, before expansion."""

    kind: Literal["background", "scenario", "outline"]
    name: str
    line: int
    tags: list[str]
    steps: list[_Step] = field(default_factory=list)
    examples: list[_Examples] = field(default_factory=list)


@dataclass(slots=True)
class _Feature:
    name: str = ""
    tags: list[str] = field(default_factory=list)
    background: _Block | None = None
    blocks: list[_Block] = field(default_factory=list)


_STEP_KEYWORDS = ("Given ", "When ", "Then ", "And ", "But ", "* ")
_HEADERS: tuple[tuple[str, str], ...] = (
    ("Feature:", "feature"),
    ("Background:", "background"),
    ("Scenario Outline:", "outline"),
    ("Scenario Template:", "outline"),
    ("Scenario:", "scenario"),
    ("Example:", "scenario"),
    ("Examples:", "examples"),
    ("Scenarios:", "examples"),
    ("Rule:", "rule"),
)


# Cell padding is any whitespace but a newline (which only an escape can put in a cell).
_CELL_PADDING = re.compile(r"\A[^\S\n]+|[^\S\n]+\Z")


def _split_cells(line: str) -> list[str]:
    """Cells of a ``| a | b |`` row, trimmed, with Gherkin's escapes (``\\|``, ``\\\\``,
    ``\\n``)."""
    body = line.strip()
    cells: list[str] = []
    cell: list[str] = []
    i, n = 1, len(body)  # body[0] == "|"
    while i < n:
        ch = body[i]
        if ch == "|":
            cells.append(_CELL_PADDING.sub("", "".join(cell)))
            cell = []
        elif ch == "\\" and i + 1 < n:
            nxt = body[i + 1]
            i += 1
            if nxt == "n":
                cell.append("\n")
            elif nxt in "|\\":
                cell.append(nxt)
            else:
                cell.append("\\" + nxt)
        else:
            cell.append(ch)
        i += 1
    return cells  # text after the last "|" is not a cell


def _parse_tags(text: str) -> list[str]:
    uncommented = re.split(r"\s#", text, maxsplit=1)[0]
    return [t for t in uncommented.split() if t.startswith("@")]


def _read_structure(text: str, path: str) -> _Feature:
    """Turn feature text into Feature/Background/Scenario/Examples blocks with their steps."""
    lines = [ln.removesuffix("\r") for ln in text.split("\n")]
    feature = _Feature()
    seen_feature = False
    pending_tags: list[str] = []
    block: _Block | None = None
    examples: _Examples | None = None
    step: _Step | None = None
    # what a table row or description line attaches to: "feature", "block", "step", "examples"
    context = "none"
    i = 0
    while i < len(lines):
        raw = lines[i]
        lineno = i + 1
        stripped = raw.strip()
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith(('"""', "```")):
            if context != "step" or step is None or step.docstring is not None or step.table:
                raise TckFormatError(path, lineno, "doc string not directly after a step")
            sep = stripped[:3]
            indent = len(raw) - len(raw.lstrip())
            body: list[str] = []
            while True:
                if i >= len(lines):
                    raise TckFormatError(path, lineno, "unterminated doc string")
                content = lines[i]
                i += 1
                if content.strip().startswith(sep):
                    break
                lead = len(content) - len(content.lstrip())
                body.append(content[indent:] if lead >= indent else content.lstrip())
            escaped = "\\`\\`\\`" if sep == "```" else '\\"\\"\\"'
            step.docstring = "\n".join(body).replace(escaped, sep)
            continue
        if stripped.startswith("|"):
            row = _split_cells(stripped)
            if context == "step" and step is not None and step.docstring is None:
                if step.table is None:
                    step.table = []
                step.table.append(row)
            elif context == "examples" and examples is not None:
                examples.table.append(row)
            else:
                raise TckFormatError(path, lineno, "table row not after a step or Examples:")
            continue
        if stripped.startswith("@"):
            pending_tags.extend(_parse_tags(stripped))
            continue
        header = next(((kw, kind) for kw, kind in _HEADERS if stripped.startswith(kw)), None)
        if header is not None:
            keyword, kind = header
            title = stripped[len(keyword) :].strip()
            tags, pending_tags = pending_tags, []
            if kind == "feature":
                if seen_feature:
                    raise TckFormatError(path, lineno, "second Feature:")
                seen_feature = True
                feature.name, feature.tags = title, tags
                context = "feature"
            elif kind == "rule":
                raise TckFormatError(path, lineno, "Rule: is not used by the TCK and not supported")
            elif kind == "examples":
                if block is None or block.kind != "outline":
                    raise TckFormatError(path, lineno, "Examples: outside a Scenario Outline")
                examples = _Examples(lineno, tags)
                block.examples.append(examples)
                context = "examples"
            else:
                if not seen_feature:
                    raise TckFormatError(path, lineno, f"{keyword} before Feature:")
                block = _Block(kind, title, lineno, tags)  # type: ignore[arg-type]
                if kind == "background":
                    if feature.background is not None or feature.blocks:
                        raise TckFormatError(path, lineno, "misplaced Background:")
                    feature.background = block
                else:
                    feature.blocks.append(block)
                examples = None
                context = "block"
            step = None
            continue
        step_kw = next((kw for kw in _STEP_KEYWORDS if stripped.startswith(kw)), None)
        if step_kw is not None:
            if block is None or examples is not None:
                raise TckFormatError(path, lineno, "step outside a scenario")
            step = _Step(step_kw.strip(), stripped[len(step_kw) :].strip(), lineno)
            block.steps.append(step)
            context = "step"
            continue
        # Free text: a description, allowed only right under a header.
        if context in ("feature", "block") or (
            context == "examples" and examples is not None and not examples.table
        ):
            continue
        raise TckFormatError(path, lineno, f"unexpected line: {stripped[:60]!r}")
    if not seen_feature:
        raise TckFormatError(path, 1, "no Feature:")
    return feature


# --------------------------------------------------------------------------------------------
# Step interpretation
# --------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"<([^<>\n]+)>")
_RESULT_STEP = re.compile(
    r"the result should be(?P<order>, in order|, in any order)?"
    r"(?P<lists> \(ignoring element order for lists\))?:"
)
_ERROR_STEP = re.compile(
    r"an? (?P<type>\w+) should be raised at (?P<phase>compile time|runtime|any time):"
    r"\s*(?P<detail>\w+)"
)
_PROCEDURE_STEP = re.compile(r"there exists a procedure (?P<sig>.+?)\s*:")
_GRAPH_STEP = re.compile(r"the (?P<name>\S+) graph")


def _substitute(text: str, values: Mapping[str, str]) -> str:
    """Replace ``<name>`` by the Examples value in one pass (values are not re-scanned)."""
    if not values or "<" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


@dataclass(slots=True)
class _OutcomeDraft:
    kind: OutcomeKind
    ordered: bool = False
    ignore_list_order: bool = False
    header: tuple[str, ...] = ()
    rows: Table = ()
    error_type: str | None = None
    error_phase: ErrorPhase | None = None
    error_detail: str | None = None
    side_effects: dict[str, int] | None = None

    def freeze(self) -> TckOutcome:
        return TckOutcome(
            self.kind,
            self.ordered,
            self.ignore_list_order,
            self.header,
            self.rows,
            self.error_type,
            self.error_phase,
            self.error_detail,
            self.side_effects,
        )


def _as_table(rows: list[list[str]] | None) -> Table:
    return tuple(tuple(r) for r in rows or ())


class _Interpreter:
    """Reads the TCK step phrases of one scenario instance into the fields of a ``TckScenario``.

    A step that carries a doc string or table it does not use is an error, like an unknown
    phrase: both mean the TCK says something this reader would otherwise drop.
    """

    def __init__(self, path: str, block_line: int) -> None:
        self.path = path
        self.block_line = block_line
        self.graph: str | None = None
        self.setup: list[str] = []
        self.params: dict[str, str] = {}
        self.procedures: list[TckProcedure] = []
        self.query: str | None = None
        self.control: str | None = None
        self.outcome: _OutcomeDraft | None = None
        self.control_outcome: _OutcomeDraft | None = None
        self.last: _OutcomeDraft | None = None

    def fail(self, line: int, message: str) -> TckFormatError:
        return TckFormatError(self.path, line, message)

    def set_outcome(self, draft: _OutcomeDraft, line: int) -> None:
        if self.control is not None:
            if self.control_outcome is not None:
                raise self.fail(line, "second outcome for the control query")
            self.control_outcome = draft
        else:
            if self.query is None or self.outcome is not None:
                raise self.fail(line, "outcome without a query, or twice")
            self.outcome = draft
        self.last = draft

    def side_effects(self, effects: dict[str, int], line: int) -> None:
        if self.last is None:
            raise self.fail(line, "side effects before an outcome")
        self.last.side_effects = effects

    def step(self, st: _Step, values: Mapping[str, str]) -> None:
        text = _substitute(st.text, values)
        doc = _substitute(st.docstring, values) if st.docstring is not None else None
        table = [[_substitute(c, values) for c in row] for row in st.table or ()]
        wants_doc, wants_table = self._apply(text, doc, table, st.line)
        if doc is not None and not wants_doc:
            raise self.fail(st.line, f"step {text!r} takes no doc string")
        if table and not wants_table:
            raise self.fail(st.line, f"step {text!r} takes no table")

    def _apply(
        self, text: str, doc: str | None, table: list[list[str]], line: int
    ) -> tuple[bool, bool]:
        """Apply one step; returns whether it used (doc string, table)."""

        def need_doc() -> str:
            if doc is None:
                raise self.fail(line, f"step {text!r} needs a doc string")
            return doc

        def need_table() -> list[list[str]]:
            if not table:
                raise self.fail(line, f"step {text!r} needs a table")
            return table

        if text == "an empty graph":
            self.graph = "empty"
        elif text == "any graph":
            self.graph = "any"
        elif m := _GRAPH_STEP.fullmatch(text):
            self.graph = m.group("name")
        elif text == "having executed:":
            self.setup.append(need_doc())
            return True, False
        elif text in ("parameters are:", "parameter values are:"):
            for row in need_table():
                if len(row) != 2:
                    raise self.fail(line, "a parameter row needs name and value")
                self.params[row[0]] = row[1]
            return False, True
        elif m := _PROCEDURE_STEP.fullmatch(text):
            rows = need_table()
            self.procedures.append(
                TckProcedure(m.group("sig"), tuple(rows[0]), _as_table(rows[1:]))
            )
            return False, True
        elif text == "executing query:":
            if self.query is not None:
                raise self.fail(line, "second 'executing query' in one scenario")
            self.query = need_doc()
            return True, False
        elif text == "executing control query:":
            if self.outcome is None or self.control is not None:
                raise self.fail(line, "control query not after an outcome")
            self.control = need_doc()
            return True, False
        elif text == "the result should be empty":
            self.set_outcome(_OutcomeDraft("empty"), line)
        elif m := _RESULT_STEP.fullmatch(text):
            rows = need_table()
            draft = _OutcomeDraft(
                "rows",
                ordered=m.group("order") == ", in order",
                ignore_list_order=m.group("lists") is not None,
                header=tuple(rows[0]),
                rows=_as_table(rows[1:]),
            )
            self.set_outcome(draft, line)
            return False, True
        elif m := _ERROR_STEP.fullmatch(text):
            draft = _OutcomeDraft(
                "error",
                error_type=m.group("type"),
                error_phase=m.group("phase"),  # type: ignore[arg-type]
                error_detail=m.group("detail"),
            )
            self.set_outcome(draft, line)
        elif text == "no side effects":
            self.side_effects({}, line)
        elif text == "the side effects should be:":
            effects: dict[str, int] = {}
            for row in need_table():
                if len(row) != 2 or not re.fullmatch(r"-?\d+", row[1]):
                    raise self.fail(line, f"bad side-effect row {row!r}")
                effects[row[0]] = int(row[1])
            self.side_effects(effects, line)
            return False, True
        else:
            raise self.fail(line, f"unknown step: {text}")
        return False, False

    def fields(self) -> dict[str, Any]:
        if self.query is None or self.outcome is None:
            raise self.fail(self.block_line, "scenario without a query and an outcome")
        if self.control is not None and self.control_outcome is None:
            raise self.fail(self.block_line, "control query without an outcome")
        return {
            "graph": self.graph or "any",
            "setup_queries": tuple(self.setup),
            "parameters": self.params,
            "procedures": tuple(self.procedures),
            "query": self.query,
            "expected": self.outcome.freeze(),
            "control_query": self.control,
            "control_expected": self.control_outcome.freeze() if self.control_outcome else None,
        }


def _unreadable(problem: str) -> dict[str, Any]:
    """The fields of a scenario whose steps could not be read: nothing to run."""
    return {
        "graph": "any",
        "setup_queries": (),
        "query": "",
        "expected": TckOutcome("empty"),
        "problem": problem,
    }


def _interpret(
    steps: Iterable[_Step], values: Mapping[str, str], path: str, block_line: int
) -> dict[str, Any]:
    """The ``TckScenario`` fields that the steps of one scenario instance describe."""
    interpreter = _Interpreter(path, block_line)
    for st in steps:
        interpreter.step(st, values)
    return interpreter.fields()


def parse_feature(text: str, path: str = "<string>", strict: bool = True) -> list[TckScenario]:
    """Every executable scenario instance of one feature file, in file order.

    ``path`` is the file's path relative to the features directory; its directory becomes the
    scenario's ``area``. Not ``strict``, a scenario whose steps cannot be read (an unknown
    step) is kept with its ``problem`` instead of failing the whole file: runs fail it alone.
    """

    def interpret(steps: list[_Step], values: Mapping[str, str], line: int) -> dict[str, Any]:
        try:
            return _interpret(steps, values, path, line)
        except TckFormatError as exc:
            if strict:
                raise
            return _unreadable(str(exc))

    feature = _read_structure(text, path)
    area = path.rsplit("/", 1)[0] if "/" in path else ""
    background = feature.background.steps if feature.background else []
    out: list[TckScenario] = []
    for block in feature.blocks:
        base_tags = tuple(feature.tags + block.tags)
        if block.kind == "scenario":
            fields = interpret([*background, *block.steps], {}, block.line)
            out.append(
                TckScenario(
                    path=path,
                    area=area,
                    feature=feature.name,
                    name=block.name,
                    line=block.line,
                    example_index=None,
                    tags=base_tags,
                    **fields,
                )
            )
            continue
        index = 0
        for ex in block.examples:
            if not ex.table:
                continue
            header, *rows = ex.table
            for row in rows:
                index += 1
                if len(row) != len(header):
                    raise TckFormatError(path, ex.line, "Examples row width differs from header")
                values = dict(zip(header, row, strict=True))
                fields = interpret([*background, *block.steps], values, block.line)
                out.append(
                    TckScenario(
                        path=path,
                        area=area,
                        feature=feature.name,
                        name=f"{_substitute(block.name, values)} (example {index})",
                        line=block.line,
                        example_index=index,
                        tags=base_tags + tuple(ex.tags),
                        example=values,
                        **fields,
                    )
                )
    return out


# --------------------------------------------------------------------------------------------
# Directories and whole-TCK helpers
# --------------------------------------------------------------------------------------------


def _find_shared(env_var: str, *parts: str) -> Path | None:
    """``$env_var`` if set, else ``shared/<parts>`` beside the checkout or the working directory.

    The project keeps its data in ``../shared`` next to the repository, so the search walks up
    from this file's checkout and from the current directory.
    """
    explicit = os.environ.get(env_var)
    if explicit:
        p = Path(explicit).expanduser()
        return p if p.is_dir() else None
    starts = [Path(__file__).resolve().parents[2], Path.cwd().resolve()]
    for start in starts:
        for base in (start, *start.parents):
            candidate = base.joinpath("shared", *parts)
            if candidate.is_dir():
                return candidate
    return None


def default_tck_dir() -> Path | None:
    """The TCK ``features`` directory: ``$GQLIR_TCK_DIR``, else ``../shared/tck/features``, else
    the copy bundled in a checkout (``corpus/opencypher-tck``, Apache-2.0 with its NOTICE).

    ``$GQLIR_TCK_DIR`` may name either the ``features`` directory or the TCK root holding it.
    Returns None when no TCK is found (an installed wheel carries none), so callers can say so.
    """
    found = _find_shared("GQLIR_TCK_DIR", "tck")
    if found is None and not os.environ.get("GQLIR_TCK_DIR"):
        found = _bundled_tck()
    if found is None:
        return None
    if (found / "features").is_dir():
        return found / "features"
    return found


def _bundled_tck() -> Path | None:
    """The openCypher TCK copy that a checkout carries, so a fresh clone's tests have it."""
    bundled = Path(__file__).resolve().parents[2] / "corpus" / "opencypher-tck"
    return bundled if (bundled / "features").is_dir() else None


def default_corpora_dir() -> Path | None:
    """The JSONL corpora directory: ``$GQLIR_CORPORA_DIR``, else ``../shared/corpora``."""
    return _find_shared("GQLIR_CORPORA_DIR", "corpora")


def _resolve(tck_dir: str | os.PathLike[str] | None) -> Path:
    if tck_dir is None:
        found = default_tck_dir()
        if found is None:
            raise FileNotFoundError("openCypher TCK not found: set GQLIR_TCK_DIR")
        return found
    p = Path(tck_dir)
    return p / "features" if (p / "features").is_dir() else p


@lru_cache(maxsize=4)
def _read_tck_cached(root: str) -> tuple[TckScenario, ...]:
    base = Path(root)
    if base.is_file():
        return tuple(parse_feature(base.read_text(encoding="utf-8"), _file_path(base), False))
    files = sorted(base.rglob("*.feature"), key=lambda f: f.relative_to(base).as_posix())
    out: list[TckScenario] = []
    for f in files:
        rel = f.relative_to(base).as_posix()
        out.extend(parse_feature(f.read_text(encoding="utf-8"), rel, False))
    return tuple(out)


def _file_path(file: Path) -> str:
    """A lone feature file's path as in its TCK (below ``features``, so its area is the same as
    in a whole run), else its folder's name and its own."""
    parts = file.parts
    if "features" in parts[:-1]:
        at = len(parts) - 1 - parts[::-1].index("features")
        return "/".join(parts[at + 1 :])
    return f"{file.parent.name}/{file.name}"


def read_tck(tck_dir: str | os.PathLike[str] | None = None) -> tuple[TckScenario, ...]:
    """All scenario instances of a TCK, files in path order, scenarios in file order.

    ``tck_dir`` may be the ``features`` directory, the TCK root or one ``.feature`` file; None
    uses ``default_tck_dir()``. A scenario with an unknown step is kept with its ``problem``.
    Results are cached per path (the TCK does not change in a run).
    """
    root = _resolve(tck_dir)
    if not root.exists():
        raise FileNotFoundError(f"openCypher TCK not found at {root}")
    return _read_tck_cached(str(root.resolve()))


def _unique(queries: Iterator[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for q in queries:
        if q not in seen:
            seen.add(q)
            out.append(q)
    return out


def valid_queries(tck_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Unique syntactically valid TCK queries, in file order.

    A query counts as valid unless its scenario expects a compile-time SyntaxError; queries that
    fail at runtime, or with a compile-time TypeError, are grammatical. Only the main query of a
    scenario is used (setup and control queries are not what the scenario tests).
    """
    return _unique(s.query for s in read_tck(tck_dir) if not s.is_compile_time_syntax_error)


def error_queries(
    tck_dir: str | os.PathLike[str] | None = None, *, compile_time: bool = False
) -> set[str]:
    """The valid queries whose every scenario expects an error (at run time, or a compile-time
    error other than a SyntaxError): a translation can only be right by failing too. With
    ``compile_time``, only those rejected before they run (Neo4j's compile-time TypeErrors,
    such as a property of an integer)."""
    outcomes: dict[str, set[bool]] = {}
    for s in read_tck(tck_dir):
        if not s.is_compile_time_syntax_error:
            e = s.expected
            failing = e.kind == "error" and (not compile_time or e.error_phase == "compile time")
            outcomes.setdefault(s.query, set()).add(failing)
    return {query for query, errors in outcomes.items() if errors == {True}}


def grammar_error_queries(tck_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Unique TCK queries that must fail to parse (see ``is_grammar_level``), in file order."""
    return _unique(s.query for s in read_tck(tck_dir) if is_grammar_level(s))


# --------------------------------------------------------------------------------------------
# JSONL corpora
# --------------------------------------------------------------------------------------------


def load_jsonl_corpus(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a JSONL corpus (one JSON object per line; blank lines ignored).

    Each record has at least ``query``; a bad line raises ValueError naming file and line,
    because a silently shortened corpus would skew every figure computed from it.
    """
    p = Path(path)
    records: list[dict[str, Any]] = []
    with p.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{p}:{lineno}: invalid JSON: {e.msg}") from None
            if isinstance(rec, dict) and isinstance(rec.get("query"), str):
                records.append(rec)
                continue
            raise ValueError(f"{p}:{lineno}: expected an object with a string 'query'")
    return records
