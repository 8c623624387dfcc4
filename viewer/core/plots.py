"""Plots as inline SVG, made by hand (no plotting library): a bar chart of counts, for
``stats --html`` (the lengths of the games, their ends by reason, the wins by seat, the
scores). Each chart has a text alternative (its ``<title>`` and ``<desc>`` list every bar).
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

from .page import page

_E = html.escape


def bar_chart(title: str, counts: Mapping[str, int], *, x_label: str = "",
              width: int = 420, height: int = 200,
              expected: Mapping[str, float] | None = None) -> str:
    """``counts`` (label -> count, in the order given) as an SVG bar chart; ``expected``
    (label -> count): a dark mark across each bar at the count a fair chance gives.

    >>> '<rect class="bar" data-label="a" data-count="3"' in bar_chart("t", {"a": 3, "b": 1})
    True
    """
    items = list(counts.items())
    expected = expected or {}
    top = max([c for _, c in items] + [1] + [int(e + 1) for e in expected.values()])
    left, bottom, right = 40, 34, 10
    plot_w, plot_h = width - left - right, height - bottom - 24
    step = plot_w / max(1, len(items))
    bar_w = max(1.0, step * 0.8)
    desc = "; ".join(f"{k}: {v}" + (f" (expected {expected[k]:.1f})" if k in expected else "")
                     for k, v in items) or "no data"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'role="img" aria-label="{_E(title)}: {_E(desc)}"><title>{_E(title)}</title>'
           f'<desc>{_E(desc)}</desc>',
           f'<line x1="{left}" y1="{24 + plot_h}" x2="{width - right}" y2="{24 + plot_h}" '
           f'stroke="#444"/>',
           f'<text x="{left - 4}" y="{24 + 4}" font-size="10" text-anchor="end">{top}</text>',
           f'<text x="{left - 4}" y="{24 + plot_h}" font-size="10" text-anchor="end">0</text>']
    every = max(1, len(items) // 16)
    for i, (label, count) in enumerate(items):
        h = plot_h * count / top
        x = left + i * step + (step - bar_w) / 2
        out.append(f'<rect class="bar" data-label="{_E(str(label))}" data-count="{count}" '
                   f'x="{x:.1f}" y="{24 + plot_h - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
                   f'fill="#b0305a"><title>{_E(str(label))}: {count}</title></rect>')
        if label in expected:
            y = 24 + plot_h - plot_h * expected[label] / top
            out.append(f'<line class="expected" data-label="{_E(str(label))}" '
                       f'data-expected="{expected[label]:.3f}" x1="{x - 1:.1f}" y1="{y:.1f}" '
                       f'x2="{x + bar_w + 1:.1f}" y2="{y:.1f}" stroke="#111" stroke-width="2">'
                       f'<title>{_E(str(label))}: expected {expected[label]:.1f}</title></line>')
        if i % every == 0:
            out.append(f'<text x="{x + bar_w / 2:.1f}" y="{24 + plot_h + 13}" font-size="10" '
                       f'text-anchor="middle">{_E(str(label))}</text>')
    if x_label:
        out.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" font-size="11" '
                   f'text-anchor="middle">{_E(x_label)}</text>')
    out.append("</svg>")
    return "".join(out)


Chart = tuple  # (caption, x label, counts) or (caption, x label, counts, expected counts)


def stats_page(title: str, groups: Sequence[tuple[str, Sequence[Chart]]]) -> str:
    """A page of plots: for each group (a heading), its charts (caption, x label, counts, and
    optionally the counts a fair chance expects)."""
    parts = []
    for heading, charts in groups:
        parts.append(f"<h2>{_E(heading)}</h2>")
        for caption, x_label, counts, *expected in charts:
            chart = bar_chart(caption, counts, x_label=x_label,
                              expected=expected[0] if expected else None)
            parts.append(f'<figure class="plot"><figcaption>{_E(caption)}</figcaption>'
                         f'{chart}</figure>')
    return page("stats", title, {"kind": "stats", "games": []}, (), "\n".join(parts))


def audit_charts(result: Any) -> list[tuple[str, list[Chart]]]:
    """The plots of an audit (:class:`~hanamikoji.oracle.core.audit.Audit`): for each test of a
    place, what was found there (bars) against what a fair shuffle expects (marks)."""
    groups = []
    for group in result.groups:
        charts: list[Chart] = []
        for test in group.tests:
            if len(test.cells) < 2:
                continue
            verdict = "FAIL" if test.failed else ("pass" if test.p_value is not None
                                                   else "too few to judge")
            charts.append((f"{test.name} ({verdict}): {test.sentence()}",
                           f"bars: found in {group.outcomes} {group.unit}s; marks: a fair "
                           "shuffle's expected counts",
                           {label: round(o) for label, o, _ in test.cells},
                           {label: e for label, _, e in test.cells}))
        groups.append((f"chance: {group.outcomes} {group.unit}s of {group.game}", charts))
    return groups
