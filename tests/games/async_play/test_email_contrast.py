"""The e-mails' text reaches WCAG AA's 4.5:1 against every background they set: their
footer (the links that stop the e-mails) was #777 on the page's #f4f1ea, 3.97:1."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
MAILS = [
    *TEMPLATES.joinpath("emails").rglob("*.html"),
    *TEMPLATES.joinpath("account", "email").rglob("*.html"),
]


def _luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_text_colour_of_the_emails_reads_on_their_backgrounds():
    texts, backgrounds = set(), set()
    for path in MAILS:
        source = path.read_text()
        texts.update(re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", source))
        backgrounds.update(re.findall(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", source))
    assert texts and backgrounds
    light = {b for b in backgrounds if _luminance(b) > 0.5}
    dark = backgrounds - light
    poor = [
        (text, ground, round(_contrast(text, ground), 2))
        for text in texts
        # Dark text sits on the light backgrounds, light text on the dark ones (buttons).
        for ground in (light if _luminance(text) <= 0.5 else dark)
        if _contrast(text, ground) < 4.5
    ]
    assert poor == []
