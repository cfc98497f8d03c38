"""The run's summary as files: ``summary.json``, a plain-text table (``summary.md``) and a
self-contained HTML report whose plots are inline SVG drawn here (no plotting library)."""

from __future__ import annotations

import html
import json
import os
from typing import Any

from .summary import summarize

__all__ = ["format_table", "render_html", "write_reports"]

# (key, heading, higher is better)
COLUMNS = (
    ("items", "items", None),
    ("ex", "EX", True),
    ("executable", "exec", True),
    ("psjs", "PSJS", True),
    ("grammar", "grammar", True),
    ("google_bleu", "G-BLEU", True),
    ("jaro_winkler", "J-W", True),
    ("ir_similarity", "IR-sim", True),
    ("jaccard", "Jaccard", True),
    ("f1", "F1", True),
    ("boolean", "bool", True),
    ("step_accuracy", "step", True),
)
NUMERIC = (("mdre", "MdRE"), ("msle", "MSLE"), ("smape", "sMAPE"), ("mlre", "MLRE"))


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _present(rows: list[dict[str, Any]]) -> list[tuple[str, str, bool | None]]:
    """The columns that have a value in some row (a metric that applies to nothing is left
    out of the table)."""
    return [c for c in COLUMNS if any(r.get(c[0]) is not None for r in rows)]


def format_table(summary: dict[str, Any]) -> str:
    """The summary as Markdown tables: overall, numeric errors, then each breakdown."""
    overall = summary["overall"]
    cols = _present([overall])
    lines = ["## Overall", ""]
    lines.append("| " + " | ".join(h for _, h, _ in cols) + " |")
    lines.append("|" + "---|" * len(cols))
    lines.append("| " + " | ".join(_cell(overall.get(k)) for k, _, _ in cols) + " |")
    numeric = overall.get("numeric")
    if numeric:
        lines += ["", "## Numeric answers", ""]
        lines.append("| n | " + " | ".join(h for _, h in NUMERIC) + " | missing | undefined |")
        lines.append("|" + "---|" * (len(NUMERIC) + 3))
        cells = [_cell(numeric.get(k)) for k, _ in NUMERIC]
        lines.append(
            f"| {numeric['n']} | " + " | ".join(cells) + f" | {numeric['missing']} | "
            f"{numeric['undefined']} |"
        )
    for name, groups in summary["breakdowns"].items():
        cols = _present(list(groups.values()))
        lines += ["", f"## By {name}", ""]
        lines.append(f"| {name} | " + " | ".join(h for _, h, _ in cols) + " |")
        lines.append("|" + "---|" * (len(cols) + 1))
        for value, figures in groups.items():
            row = " | ".join(_cell(figures.get(k)) for k, _, _ in cols)
            lines.append(f"| {value} | {row} |")
    status = summary.get("status", {})
    if status:
        lines += ["", "## Run outcomes", ""]
        for side in ("gold", "pred"):
            parts = ", ".join(f"{k}: {v}" for k, v in sorted(status.get(side, {}).items()))
            lines.append(f"* {side}: {parts}")
    return "\n".join(lines) + "\n"


# -- SVG --------------------------------------------------------------------------------------------

_BAR = "#4a7ab5"


def _bar_chart(title: str, bars: list[tuple[str, float | None]], *, scale: float = 1.0) -> str:
    """Horizontal bars, one per (label, value in [0, scale]); a missing value is drawn empty."""
    width, label_w, row_h = 520, 170, 22
    height = 30 + row_h * len(bars)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{html.escape(title)}">',
        f'<text x="0" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>',
    ]
    span = width - label_w - 60
    for i, (label, value) in enumerate(bars):
        y = 26 + i * row_h
        out.append(
            f'<text x="{label_w - 6}" y="{y + 14}" font-size="12" text-anchor="end">'
            f"{html.escape(label[:26])}</text>"
        )
        out.append(
            f'<rect x="{label_w}" y="{y + 2}" width="{span}" height="{row_h - 6}" fill="#eee"/>'
        )
        if value is not None:
            w = max(0.0, min(1.0, value / scale)) * span
            out.append(
                f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row_h - 6}" '
                f'fill="{_BAR}"/>'
            )
        out.append(
            f'<text x="{label_w + span + 6}" y="{y + 14}" font-size="12">{_cell(value)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _histogram(title: str, values: list[float], bins: int = 10) -> str:
    """Counts of values in [0, 1] over ``bins`` equal bins, as vertical bars."""
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, int(v * bins)))] += 1
    width, height, top, bottom = 520, 200, 26, 24
    peak = max(counts) or 1
    bar_w = (width - 40) / bins
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{html.escape(title)}">',
        f'<text x="0" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>',
    ]
    plot_h = height - top - bottom
    for i, c in enumerate(counts):
        h = plot_h * c / peak
        x = 20 + i * bar_w
        out.append(
            f'<rect x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
            f'height="{h:.1f}" fill="{_BAR}"><title>{i / bins:.1f}–{(i + 1) / bins:.1f}: '
            f"{c}</title></rect>"
        )
        if c:
            out.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{top + plot_h - h - 3:.1f}" font-size="10" '
                f'text-anchor="middle">{c}</text>'
            )
    for i in range(0, bins + 1, 2):
        out.append(
            f'<text x="{20 + i * bar_w:.1f}" y="{height - 8}" font-size="10" '
            f'text-anchor="middle">{i / bins:.1f}</text>'
        )
    out.append("</svg>")
    return "".join(out)


# -- HTML -------------------------------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}
th{background:#f3f3f3} .bad{color:#a00} .plots{display:flex;flex-wrap:wrap;gap:18px}
details{margin:.3em 0} code{font-size:12px;white-space:pre-wrap}
"""


def _html_table(name: str, groups: dict[str, dict[str, Any]]) -> str:
    cols = _present(list(groups.values()))
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h, _ in cols)
    rows = []
    for value, figures in groups.items():
        cells = "".join(f"<td>{_cell(figures.get(k))}</td>" for k, _, _ in cols)
        rows.append(f"<tr><td>{html.escape(value)}</td>{cells}</tr>")
    return f"<table><tr><th>{html.escape(name)}</th>{head}</tr>{''.join(rows)}</table>"


def _item_rows(records: list[dict[str, Any]]) -> str:
    out = []
    for r in records:
        m = r.get("metrics", {})
        ex = m.get("ex")
        status = r.get("status", {})
        mark = "" if ex == 1.0 else ' class="bad"'
        errors = r.get("errors", {})
        detail = "".join(f"<div><b>{k}</b>: {html.escape(str(v))}</div>" for k, v in errors.items())
        out.append(
            f"<tr{mark}><td>{html.escape(str(r['id']))}</td>"
            f"<td>{html.escape(str(r.get('difficulty') or r.get('difficulty_ir') or '-'))}</td>"
            f"<td>{_cell(ex)}</td><td>{_cell(m.get('psjs'))}</td>"
            f"<td>{_cell(m.get('grammar'))}</td><td>{_cell(m.get('jaro_winkler'))}</td>"
            f"<td>{_cell(m.get('ir_similarity'))}</td>"
            f"<td>{html.escape(str(status.get('pred', '-')))}</td>"
            f"<td><details><summary>queries</summary><code>gold: "
            f"{html.escape(r.get('gold') or '')}\npred: {html.escape(r.get('pred') or '')}"
            f"</code>{detail}</details></td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("id", "difficulty", "EX", "PSJS", "grammar", "J-W", "IR-sim", "pred", "")
    )
    return f"<table><tr>{head}</tr>{''.join(out)}</table>"


def render_html(summary: dict[str, Any], records: list[dict[str, Any]], title: str) -> str:
    overall = summary["overall"]
    cols = [c for c in _present([overall]) if c[0] != "items"]
    plots = [_bar_chart("Overall", [(h, overall.get(k)) for k, h, _ in cols])]
    for name in ("difficulty", "difficulty_ir", "match_category", "match_ir", "domain", "level"):
        groups = summary["breakdowns"].get(name)
        if groups:
            plots.append(_bar_chart(f"EX by {name}", [(k, g.get("ex")) for k, g in groups.items()]))
    for key, label in (("jaro_winkler", "Jaro-Winkler"), ("ir_similarity", "IR similarity")):
        values = [r["metrics"][key] for r in records if r["metrics"].get(key) is not None]
        if values:
            plots.append(_histogram(f"{label} per item", values))
    tables = [_html_table("overall", {"all": overall})]
    numeric = overall.get("numeric")
    if numeric:
        cells = "".join(f"<td>{_cell(numeric.get(k))}</td>" for k, _ in NUMERIC)
        heads = "".join(f"<th>{h}</th>" for _, h in NUMERIC)
        tables.append(
            f"<table><tr><th>numeric answers</th>{heads}<th>missing</th><th>undefined</th></tr>"
            f"<tr><td>{numeric['n']}</td>{cells}<td>{numeric['missing']}</td>"
            f"<td>{numeric['undefined']}</td></tr></table>"
        )
    for name, groups in summary["breakdowns"].items():
        tables.append(f"<h3>By {html.escape(name)}</h3>" + _html_table(name, groups))
    status = summary.get("status", {})
    status_html = "".join(
        f"<li>{side}: "
        + ", ".join(f"{html.escape(k)} {v}" for k, v in sorted(status.get(side, {}).items()))
        + "</li>"
        for side in ("gold", "pred")
    )
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
        f"<p>{overall['items']} items{'' if summary.get('complete', True) else ' (partial run)'}"
        f". Run outcomes:</p><ul>{status_html}</ul>"
        f"<div class='plots'>{''.join(plots)}</div><h2>Figures</h2>{''.join(tables)}"
        f"<h2>Items</h2>{_item_rows(records)}</body></html>"
    )


def write_reports(records: list[dict[str, Any]], config: Any, *, complete: bool) -> dict[str, Any]:
    """Summarise ``records`` and write ``summary.json``, ``summary.md`` and ``report.html``
    into ``config.out``; returns the summary."""
    summary = summarize(records, config.settings())
    summary["complete"] = complete
    summary["settings"] = config.fingerprint()
    out = config.out
    # A lone surrogate in an item's text (no character, not UTF-8) is written as its \u escape
    # (in summary.json inside a string, where that is its JSON escape).
    with open(
        os.path.join(out, "summary.json"), "w", encoding="utf-8", errors="backslashreplace"
    ) as fh:
        json.dump(summary, fh, ensure_ascii=False, indent=1)
    with open(
        os.path.join(out, "summary.md"), "w", encoding="utf-8", errors="backslashreplace"
    ) as fh:
        fh.write(format_table(summary))
    title = f"gqlir eval: {os.path.basename(config.pred)} vs {os.path.basename(config.gold)}"
    with open(
        os.path.join(out, "report.html"), "w", encoding="utf-8", errors="backslashreplace"
    ) as fh:
        fh.write(render_html(summary, records, title))
    return summary
