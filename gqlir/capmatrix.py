"""The capability matrix: every dialect against every capability, as Markdown.

The README's matrix is generated from ``dialects/*.toml`` so that it cannot drift from what the
emitters and passes actually read. ``python -m gqlir.capmatrix`` prints it; ``--check FILE``
fails when the section between the markers in FILE is stale (for CI); ``--write FILE`` replaces
that section. The markers are never invented: a file without them is reported, not edited.

Exit codes: 0 up to date / written, 1 stale (``--check``), 2 file or markers missing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from .dialect import Capabilities, Dialect, all_dialects

START_MARKER = "<!-- capmatrix:start -->"
END_MARKER = "<!-- capmatrix:end -->"

EXIT_OK = 0
EXIT_STALE = 1
EXIT_MISSING = 2

# Column groups, so that no single table is too wide to read. A capability missing here still
# appears (in "Other"), and a test keeps this list complete.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (title, tuple(names.split()))
    for title, names in (
        (
            "Query composition",
            """call_subquery call_scope call_whole_scope optional_call call_in_transactions exists_subquery
            exists_pattern_form pattern_predicate pattern_predicate_anywhere
            count_subquery collect_subquery value_subquery array_subquery subquery_rebinds_elements
            literal_null_operands element_filters_read_others filter_step let_step
            conditional_queries group_by_ordinals
            finish use_graph graph_prefix_required union_distinct union_all except_intersect
            otherwise standalone_order_by procedure_calls implicit_grouping group_by
            braced_query_branches set_op_distinct_keyword for_index catalog_statements""",
        ),
        ("Schema commands", "schema_commands index_types constraint_kinds legacy_schema_syntax"),
        (
            "Writes",
            """graph_writes create_keyword merge foreach load_csv remove_clause set_map
            set_merge_map set_labels""",
        ),
        (
            "Patterns",
            """quantified_paths quantified_edge_syntax unbounded_quantifiers max_quantifier_upper shortest_prefix
            shortest_function shortest_in_quantifier label_expressions colon_labels
            max_node_labels max_property_map_keys inline_where match_modes default_match_mode
            match_mode_implicit path_modes
            quantifier_path_modes undirected_edges path_union anonymous_edge_shorthand
            search_prefixes search_with_mode edge_cost undirected_self_loop_once
            shortest_same_endpoints trail_function unreferenced_edges_counted
            quantified_edge_trail undirected_quantified quantified_edge_list
            match_rebinds_edges pattern_reads_comprehension filter_after_optional
            limit_zero_writes read_after_write search_count_parameter quantifier_rows
            path_pattern_lists graph_pattern_first path_variables""",
        ),
        (
            "Expressions",
            """type_predicates is_labeled label_predicate string_predicates
            string_predicate_functions regex_match list_membership membership_unnest
            list_comprehension pattern_comprehension map_projection reduce list_predicates
            subscript slicing slice_syntax dynamic_property concat_operator like_operator plus_concatenates
            integer_division cast temporal_literals return_graph_elements xor_operator unknown_test
            map_literals typed_lists collect_keeps_nulls collect_empty_null sum_empty_null null_length_is_null element_json_function
            type_names element_predicates membership_null_unknown list_equality_null_unknown
            simple_case_null_matches string_plus_null_empty contains_empty_true
            index_out_of_range_null case_unifies_result_types order_by_reads_shadowed
            with_distinct_constants_kept
            exists_property_function pattern_count_size pattern_comprehension_keeps_nulls
            integer_rounding_float round_half_up to_integer_truncates operator_parentheses
            sum_keeps_integers decimal_aggregates sub_second_temporals googlesql_expressions
            power_of_integers_is_float power_is_float""",
        ),
        (
            "Ordering and lexical",
            """null_ordering_syntax nulls_sort_high null_order_fixed param_sigil list_index_base
            string_quote identifier_quote identifier_escape quoted_variables leading_zero_octal
            float_literal_exponent""",
        ),
    )
)

# Rendered as a list under the tables: too long for a cell.
LISTED_SEPARATELY = frozenset({"unsupported_functions"})


@dataclass(frozen=True, slots=True)
class CheckResult:
    code: int
    message: str


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "✓" if value else "–"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) if value else "–"
    if value == "":
        return "–"
    text = str(value).replace("|", "\\|")
    if "`" in text:
        # a code span holding a backtick needs a longer fence and padding
        return f"`` {text} ``"
    return f"`{text}`"


def _groups() -> list[tuple[str, tuple[str, ...]]]:
    """GROUPS plus an "Other" group for any capability not placed in one."""
    placed = {name for _, names in GROUPS for name in names} | LISTED_SEPARATELY
    known = {f.name for f in fields(Capabilities)}
    other = tuple(f.name for f in fields(Capabilities) if f.name not in placed)
    groups = [(title, tuple(n for n in names if n in known)) for title, names in GROUPS]
    if other:
        groups.append(("Other", other))
    return groups


def _table(dialects: Sequence[Dialect], names: Sequence[str]) -> list[str]:
    header = ["dialect", *names]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(" --- " for _ in header) + "|",
    ]
    for d in dialects:
        row = [f"**{d.name}**", *(_cell(getattr(d.capabilities, n)) for n in names)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def render_matrix(dialects: Iterable[Dialect] | None = None) -> str:
    """The matrix as Markdown: one table per capability group, a row per dialect, then the
    functions each dialect cannot express."""
    chosen = list(all_dialects() if dialects is None else dialects)
    out = [
        (
            "Generated from `dialects/*.toml`. ✓ supported, – absent; the [sources] table of "
            "each file cites the documentation behind every value that differs from Neo4j 5 / "
            "Cypher 25."
        ),
        "",
    ]
    out.append("| dialect | family | aliases | description |")
    out.append("| --- | --- | --- | --- |")
    for d in chosen:
        aliases = ", ".join(f"`{a}`" for a in d.aliases) or "–"
        out.append(f"| **{d.name}** | {d.family} | {aliases} | {d.description} |")
    for title, names in _groups():
        if not names:
            continue
        out.extend(["", f"**{title}**", ""])
        out.extend(_table(chosen, names))
    out.extend(["", "**Functions without a same-meaning spelling**", ""])
    for d in chosen:
        missing = d.capabilities.unsupported_functions
        text = ", ".join(f"`{n}`" for n in missing) if missing else "none"
        out.append(f"- **{d.name}**: {text}")
    return "\n".join(out) + "\n"


def _split(text: str) -> tuple[str, str, str] | None:
    """(before, inside, after) around the markers, or None if they are missing or misordered."""
    start = text.find(START_MARKER)
    end = text.find(END_MARKER)
    if start < 0 or end < 0 or end < start:
        return None
    head = start + len(START_MARKER)
    return text[:head], text[head:end], text[end:]


def _section(matrix: str) -> str:
    return "\n" + matrix


def check_file(path: Path, matrix: str | None = None) -> CheckResult:
    """Whether the marked section of ``path`` holds the current matrix."""
    if not path.is_file():
        return CheckResult(EXIT_MISSING, f"{path}: no such file")
    parts = _split(path.read_text(encoding="utf-8"))
    if parts is None:
        return CheckResult(
            EXIT_MISSING, f"{path}: markers {START_MARKER} ... {END_MARKER} not found"
        )
    current = _section(render_matrix() if matrix is None else matrix)
    if parts[1] != current:
        return CheckResult(
            EXIT_STALE,
            f"{path}: capability matrix is out of date; run python -m gqlir.capmatrix --write {path}",
        )
    return CheckResult(EXIT_OK, f"{path}: capability matrix is up to date")


def write_file(path: Path, matrix: str | None = None) -> CheckResult:
    """Replace the marked section of ``path`` with the current matrix."""
    if not path.is_file():
        return CheckResult(EXIT_MISSING, f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    parts = _split(text)
    if parts is None:
        return CheckResult(
            EXIT_MISSING,
            f"{path}: markers {START_MARKER} ... {END_MARKER} not found; add them where the "
            "matrix belongs",
        )
    current = _section(render_matrix() if matrix is None else matrix)
    if parts[1] == current:
        return CheckResult(EXIT_OK, f"{path}: capability matrix already up to date")
    path.write_text(parts[0] + current + parts[2], encoding="utf-8")
    return CheckResult(EXIT_OK, f"{path}: capability matrix written")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gqlir.capmatrix",
        description="Print the dialect capability matrix (Markdown), or check / update the "
        f"section of a file between {START_MARKER} and {END_MARKER}.",
        epilog="examples:\n"
        "  python -m gqlir.capmatrix\n"
        "  python -m gqlir.capmatrix --check README.md\n"
        "  python -m gqlir.capmatrix --write README.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", metavar="FILE", type=Path, help="exit 1 if FILE's matrix is stale")
    mode.add_argument("--write", metavar="FILE", type=Path, help="rewrite FILE's matrix section")
    args = parser.parse_args(argv)
    if args.check is None and args.write is None:
        sys.stdout.write(render_matrix())
        return EXIT_OK
    result = check_file(args.check) if args.check is not None else write_file(args.write)
    print(result.message, file=sys.stderr if result.code else sys.stdout)
    return result.code


if __name__ == "__main__":
    raise SystemExit(main())
