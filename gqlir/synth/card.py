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


STATUSES = ("confirmed", "disagrees", "engine error", "refused", "no engine")


def verification(
    items: list[dict[str, Any]], stats: dict[str, Any], dialects: list[str]
) -> dict[str, dict[str, Any]]:
    """Per dialect: the engine that runs its texts, the items by status of their check (the
    item's text and, for judge items, its anti-query's), and the candidates dropped because an
    engine disagreed."""
    out: dict[str, dict[str, Any]] = {}
    for d in dialects:
        row: dict[str, Any] = {"engine": stats.get("verification", {}).get(d, "-")}
        row.update(dict.fromkeys(STATUSES, 0))
        row["confirmed by"] = {}
        row["dropped for disagreement"] = sum(
            n for key, n in stats.get("disagreed", {}).items() if key.split("|")[0] == d
        )
        out[d] = row
    for item in items:
        for key in ("verified", "anti_verified"):
            for d, record in item.get(key, {}).items():
                if d not in out:
                    continue
                out[d][record["status"]] += 1
                if record["status"] == "confirmed":
                    by = out[d]["confirmed by"]
                    by[record["engine"]] = by.get(record["engine"], 0) + 1
    return out


def unconfirmed(items: list[dict[str, Any]]) -> Counter:
    """Why texts were not confirmed: (dialect, status, engine, reason) -> texts."""
    reasons: Counter = Counter()
    for item in items:
        for key in ("verified", "anti_verified"):
            for d, r in item.get(key, {}).items():
                if r["status"] == "engine error":
                    why = f"{r['code']}: {r['message'][:90]}"
                elif r["status"] in ("no engine", "disagrees"):
                    why = r.get("reason") or r.get("difference", "")[:90]
                else:
                    continue
                reasons[(d, r["status"], r.get("engine", "-"), why)] += 1
    return reasons


def disagreement_examples(items: list[dict[str, Any]], stats: dict[str, Any]) -> list[str]:
    """The disagreements in full: kept items (marked) first, then dropped candidates."""
    rows: list[tuple[str, ...]] = []
    for item in items:
        for key, texts in (("verified", "queries"), ("anti_verified", "anti_queries")):
            for d, r in item.get(key, {}).items():
                if r["status"] == "disagrees":
                    rows.append(
                        (f"kept: {item['id']}", d, r["engine"], r["difference"], item[texts][d])
                    )
    for ex in stats.get("disagreements", []):
        rows.append(
            (
                f"dropped: {ex['schema']} {ex['template']}",
                ex["dialect"],
                ex["engine"],
                ex["difference"],
                ex["text"],
            )
        )
    out = []
    for what, d, engine, diff, text in rows[:20]:
        out.append(f"* {what}, `{d}` on {engine}: {diff}  \n  `` {text} ``")
    if len(rows) > 20:
        out.append(f"* … and {len(rows) - 20} more (stats.json: `disagreements`)")
    return out


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
        f"`{stats['engine']}` engine; `result` holds its answer, and every dialect's text "
        "was run on its own engine (below). Built by `gqlir synth` "
        f"with seed {stats['seed']} from the template libraries "
        f"{', '.join(stats['libraries'])}.",
        "",
        "## Files",
        "",
        "* `items.jsonl`"
        + ("" if "items.parquet" in stats.get("not_written", {}) else " (and `items.parquet`)")
        + ": one item per line: `id`, `question`, "
        "`questions` by level, `queries` by dialect, `unsupported` (dialect → the construct "
        "it cannot express), `verified` (dialect → the engine that confirmed the answer, or why "
        "none did), `schema`, `difficulty`, `pattern`, `match_category`, "
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
        "## Verification on each dialect's engine",
        "",
        "Every text was run as it is on the engine that runs its dialect here, and its answer "
        "compared with `result` as the eval harness compares result tables (rows as a bag "
        "unless the query orders them). `verified` in each item says, per dialect, which engine "
        "confirmed the answer, or why none did. Items an engine disagreed with were "
        + (
            "kept, marked `disagrees`."
            if stats.get("keep_disagreements")
            else "dropped (counted here; `--keep-disagreements` keeps them, marked)."
        )
        + "",
        "",
        _table(
            [
                (
                    d,
                    v["engine"],
                    ", ".join(f"{e} {k}" for e, k in sorted(v["confirmed by"].items())) or "0",
                    v["disagrees"],
                    v["dropped for disagreement"],
                    v["engine error"],
                    v["refused"],
                    v["no engine"],
                )
                for d, v in verification(items, stats, dialects).items()
            ],
            (
                "dialect",
                "engine",
                "confirmed",
                "disagrees (kept)",
                "dropped for disagreement",
                "engine error",
                "refused",
                "no engine",
            ),
        ),
        "",
        "Texts not confirmed, most frequent reasons:",
        "",
        _table(
            [
                (d, st, e, why.replace("|", "\\|"), k)
                for (d, st, e, why), k in _most_common(unconfirmed(items), 15)
            ],
            ("dialect", "status", "engine", "reason", "texts"),
        ),
        "",
        *(
            ["Disagreements:", "", *disagreement_examples(items, stats), ""]
            if stats.get("disagreed")
            or any(
                r["status"] == "disagrees" for i in items for r in i.get("verified", {}).values()
            )
            else []
        ),
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
