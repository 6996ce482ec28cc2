"""The templates themselves: what Django would print instead of reading."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_comment_tag_spans_lines():
    """``{# … #}`` is a one-line comment: over two lines it is page text (the lobby
    once showed its own comment to every player). Longer notes use {% comment %}."""
    broken = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.*"))
        if path.suffix in (".html", ".txt")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert broken == []
