"""Sentences written in Python reach players only marked for translation: an AST scan
of the apps for the places a sentence becomes visible (a refusal raised, a message
flashed, a form's error or label, an engine's IllegalAction) whose text is a bare
string or an f-string instead of gettext (or a Message in the engine)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PACKAGES = ("games", "accounts", "highsociety_site", "ops")
SKIP_PARTS = {"migrations", "management", "admin.py", "admin_site.py", "settings.py", "env.py"}

# Exceptions whose text a player reads (the site's pages and the API show it).
SHOWN_ERRORS = {
    "GameError",
    "IllegalMove",
    "VersionConflict",
    "NotYourSeat",
    "NotAllowed",
    "InvalidOrder",
    "AuctionOver",
    "NotReplayable",
    "ValidationError",
    "NotFound",
    "PermissionDenied",
    "Http404",
    "ApiError",
    "ParseError",
    "AuthenticationFailed",
    "Throttled",
    "TokenLimitReached",
    "IllegalAction",
}
FLASHES = {"success", "error", "info", "warning"}
KEYWORDS = {"label", "help_text", "detail"}


def literal(node: ast.AST | None) -> bool:
    """A bare text: a string constant with a letter, or an f-string."""
    if isinstance(node, ast.JoinedStr):
        return True
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(ch.isalpha() for ch in node.value)
    )


def name_of(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def findings(source: str, *, forms_module: bool = True) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = name_of(node.func)
        first = node.args[0] if node.args else None
        if name in SHOWN_ERRORS and literal(first):
            found.append((node.lineno, f"{name}(…) with a bare text"))
        if name in FLASHES and isinstance(node.func, ast.Attribute) and len(node.args) >= 2:
            if name_of(node.func.value) == "messages" and literal(node.args[1]):
                found.append((node.lineno, f"messages.{name}(…) with a bare text"))
        if name == "add_error" and len(node.args) >= 2 and literal(node.args[1]):
            found.append((node.lineno, "add_error(…) with a bare text"))
        for keyword in node.keywords:
            if keyword.arg == "help_text" and not forms_module:
                continue  # a model's help (the admin) or the API schema's (English docs)
            if keyword.arg in KEYWORDS and literal(keyword.value):
                found.append((node.lineno, f"{keyword.arg}= with a bare text"))
            if keyword.arg == "error_messages" and isinstance(keyword.value, ast.Dict):
                if any(literal(value) for value in keyword.value.values):
                    found.append((node.lineno, "error_messages with a bare text"))
    return found


def modules() -> list[str]:
    paths = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if not SKIP_PARTS & set(path.relative_to(ROOT).parts):
                paths.append(str(path.relative_to(ROOT)))
    return sorted(paths)


@pytest.mark.parametrize("module", modules())
def test_shown_sentences_are_marked_for_translation(module):
    schema_or_model = module.endswith("models.py") or module.startswith("games/api/")
    text = (ROOT / module).read_text(encoding="utf-8")
    assert findings(text, forms_module=not schema_or_model) == []


def test_the_scan_finds_a_bare_sentence():
    source = (
        "def f(request, form):\n"
        "    messages.success(request, 'Saved.')\n"
        "    form.add_error('x', f'Bad {1}')\n"
        "    raise NotAllowed(_('Fine.'))\n"
        "    raise NotAllowed('Not fine.')\n"
    )
    assert [line for line, _what in findings(source)] == [2, 3, 5]
