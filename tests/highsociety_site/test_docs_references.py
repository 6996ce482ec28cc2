"""The code's pointers into the docs (a check's hint, an error message, a comment:
``docs/operations.md, "HTTPS"``) name sections that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POINTER = re.compile(r"""docs/(\w+\.md), (?:"([^"]+)"|'([^']+)')""")


def _headings(doc: Path) -> set[str]:
    return {
        line.lstrip("#").strip().strip("`")
        for line in doc.read_text().splitlines()
        if line.startswith("#")
    }


def test_every_pointer_into_the_docs_names_a_section():
    pointers = []
    for folder in ("accounts", "games", "ops", "highsociety_site", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html", ".txt", ".js") and "migrations" not in path.parts:
                pointers += [(path, d, a or b) for d, a, b in POINTER.findall(path.read_text())]
    assert pointers
    for path, doc, section in pointers:
        section = re.sub(r"\s*\n\s*(#\s*)?", " ", section).strip("`")  # a wrapped line
        headings = {h.strip("`") for h in _headings(ROOT / "docs" / doc)}
        headings |= {h.split(":")[0] for h in headings}  # "Title: subtitle" named by its title
        assert section in headings, f"{path.relative_to(ROOT)}: {doc}, {section!r}"
