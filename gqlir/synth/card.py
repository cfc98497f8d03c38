"""The dataset card: README.md with the statistics a user checks first (distribution by
difficulty, pattern, library, dialect coverage, why candidates were dropped), as text bars
in the card and as SVG bar charts beside it."""

from __future__ import annotations

import random
from collections import Counter
from html import escape
from typing import Any

from ..metrics.difficulty import LEVELS

BAR = 30


def counts(items: list[dict[str, Any]], key: str) -> Counter:
    return Counter(str(item.get(key)) for item in items)


def coverage(items: list[dict[str, Any]], dialects: list[str]) -> dict[str, int]:
    return {d: sum(1 for item in items if d in item["queries"]) for d in dialects}


def text_bars(counter: dict[str, int], order: list[str] | None = None) -> str:
    names = order or sorted(counter, key=lambda k: (-counter[k], k))
    total = max(counter.values(), default=0) or 1
    width = max((len(n) for n in names), default=0)
    lines = []
    for name in names:
        n = counter.get(name, 0)
        lines.append(f"{name.ljust(width)}  {'█' * round(BAR * n / total):<{BAR}}  {n}")
    return "```\n" + "\n".join(lines) + "\n```"


def svg_bars(title: str, counter: dict[str, int], order: list[str] | None = None) -> str:
    """A horizontal bar chart as a standalone SVG document."""
    names = order or sorted(counter, key=lambda k: (-counter[k], k))
    top = max(counter.values(), default=0) or 1
    label_w, bar_w, row_h = 8 * max((len(n) for n in names), default=4) + 10, 300, 18
    height = 30 + row_h * len(names)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 60}" '
        f'height="{height}" font-family="monospace" font-size="12">',
        f'<text x="4" y="16" font-weight="bold">{escape(title)}</text>',
    ]
    for i, name in enumerate(names):
        n = counter.get(name, 0)
        y = 26 + i * row_h
        w = round(bar_w * n / top)
        parts.append(f'<text x="4" y="{y + 12}">{escape(name)}</text>')
        parts.append(
            f'<rect x="{label_w}" y="{y + 2}" width="{w}" height="{row_h - 4}" fill="#4a7"/>'
        )
        parts.append(f'<text x="{label_w + w + 4}" y="{y + 12}">{n}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def plots(items: list[dict[str, Any]], dialects: list[str]) -> dict[str, str]:
    """SVG files by name."""
    return {
        "difficulty.svg": svg_bars("difficulty", counts(items, "difficulty"), list(LEVELS)),
        "pattern.svg": svg_bars("pattern", counts(items, "pattern")),
        "dialects.svg": svg_bars("dialect coverage", coverage(items, dialects), dialects),
    }


def _most_common(counter: Counter, n: int) -> list[tuple[Any, int]]:
    """The ``n`` largest counts, ties by key: ``Counter.most_common`` breaks ties by insertion
    order, which a resumed run does not repeat."""
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def _table(rows: list[tuple[Any, ...]], head: tuple[str, ...]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def question_samples(items: list[dict[str, Any]], seed: Any, k: int = 10) -> list[str]:
    """Ten questions per level, drawn at random (seeded) so a reader sees what the dataset asks,
    each beside its Cypher query."""
    levels = sorted({level for item in items for level in item["questions"]})
    out: list[str] = []
    for level in levels:
        having = [i for i in items if i["questions"].get(level)]
        picked = random.Random(f"{seed}:card:{level}").sample(having, min(k, len(having)))
        out += [f"### {level}", ""]
        for item in picked:
            query = item["queries"].get("neo4j") or next(iter(item["queries"].values()))
            out.append(f"* {item['questions'][level]}  \n  `{query}`")
        out.append("")
    return out


def card(items: list[dict[str, Any]], stats: dict[str, Any], dialects: list[str]) -> str:
    n = len(items)
    cov = coverage(items, dialects)
    sections = [
        "# gqlir synthetic text-to-graph-query dataset",
        "",
        f"{n} verified (question, query) pairs over {len(stats['schemas'])} schema(s): "
        f"{', '.join(sorted(stats['schemas']))}. Every query was executed on the "
        f"`{stats['engine']}` engine; `result` holds its answer. Built by `gqlir synth` "
        f"with seed {stats['seed']} from the template libraries "
        f"{', '.join(stats['libraries'])}.",
        "",
        "## Files",
        "",
        "* `items.jsonl`"
        + ("" if "items.parquet" in stats.get("not_written", {}) else " (and `items.parquet`)")
        + ": one item per line: `id`, `question`, "
        "`questions` by level, `queries` by dialect, `unsupported` (dialect → the construct "
        "it cannot express), `schema`, `difficulty`, `pattern`, `match_category`, "
        "`return_category`, `operators`, `hops`, `result`, `bindings`;",
        "* `splits/{train,dev,test}.jsonl`: " + stats["split_method"] + ";",
        "* `exports/`: the same items as Text2GQL-Bench records, CypherBench samples and "
        "NGDBench query records; `schemas/`: the schemas;",
        "* `plots/`: the charts below as SVG.",
        "",
        "## Questions",
        "",
        "Ten random questions per level (`syntactic`, `logical` and `business` are "
        "Text2GQL-Bench's levels 1–3, `cypherbench` CypherBench's style, `paraphrase` a "
        "verified rewording when an LLM endpoint was configured):",
        "",
        *question_samples(items, stats["seed"]),
        "## Difficulty (Text2GQL-Bench levels)",
        "",
        text_bars(dict(counts(items, "difficulty")), list(LEVELS)),
        "",
        "## Pattern (CypherBench MATCH patterns, NGDBench families, extras)",
        "",
        text_bars(dict(counts(items, "pattern"))),
        "",
        "## Library",
        "",
        text_bars(dict(counts(items, "library"))),
        "",
        "## RETURN category (CypherBench)",
        "",
        text_bars(dict(counts(items, "return_category"))),
        "",
        "## Dialect coverage",
        "",
        _table(
            [(d, cov[d], f"{100 * cov[d] / n:.1f} %" if n else "-") for d in dialects],
            ("dialect", "items", "share"),
        ),
        "",
        "Most frequent refusals:",
        "",
        _table(
            [(d, why, k) for (d, why), k in _most_common(stats["refusals"], 15)],
            ("dialect", "construct", "items"),
        ),
        "",
        "## Per schema",
        "",
        _table(
            [
                (s, v["items"], v["attempts"], ", ".join(v["not_applicable"]) or "-")
                for s, v in sorted(stats["schemas"].items())
            ],
            ("schema", "items", "candidates", "templates that do not apply"),
        ),
        "",
        "## Dropped candidates",
        "",
        _table(sorted(stats["drops"].items()), ("reason", "candidates")),
        "",
        "Realism filters (label and type assignments never instantiated):",
        "",
        _table(sorted(stats["realism"].items()), ("filter", "assignments")),
        "",
    ]
    return "\n".join(sections)
