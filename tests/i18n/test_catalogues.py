"""The translations are complete: every string marked in the code and the templates has
a German and a French translation, none fuzzy; and the templates mark their text.

The first test runs Django's makemessages, as a developer does after adding a string
(docs/operations.md, "Languages"), into a copy of the catalogues, and reads what it
made: a string marked but not translated, or translated only as a fuzzy guess, fails
here with its text.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# What makemessages reads: the project's own code and templates, not its tools.
MAKEMESSAGES_IGNORE = [".venv", "tests", "bench", "examples", "staticfiles", "node_modules"]


def makemessages_into(locale_dir: Path) -> None:
    """Run makemessages over the project, writing into ``locale_dir`` (a copy)."""
    shutil.copytree(ROOT / "locale", locale_dir)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        patch.setattr(settings, "LOCALE_PATHS", [str(locale_dir)])
        call_command(
            "makemessages",
            locale=LANGUAGES,
            ignore_patterns=MAKEMESSAGES_IGNORE,
            no_wrap=True,
            add_location="file",
            verbosity=0,
        )


def entries(po_file: Path) -> list[dict]:
    """The entries of a .po file written by makemessages --no-wrap (obsolete ones left out)."""
    found = []
    for block in po_file.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        if not any(line.startswith("msgid ") for line in lines):
            continue
        entry = {"fuzzy": any(line.startswith("#,") and "fuzzy" in line for line in lines)}
        for line in lines:
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                entry[match.group(1)] = match.group(2)
        if entry.get("msgid"):
            found.append(entry)
    return found


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    locale_dir = tmp_path_factory.mktemp("i18n") / "locale"
    makemessages_into(locale_dir)
    return locale_dir


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated(extracted, language):
    made = entries(extracted / language / "LC_MESSAGES" / "django.po")
    assert len(made) > 400, "makemessages found suspiciously few strings"
    untranslated = [
        e["msgid"]
        for e in made
        if not any(e.get(key) for key in ("msgstr", "msgstr[0]"))
        or ("msgid_plural" in e and not e.get("msgstr[1]"))
    ]
    fuzzy = [e["msgid"] for e in made if e["fuzzy"]]
    assert not untranslated, f"{language}: not translated: {untranslated}"
    assert not fuzzy, f"{language}: fuzzy: {fuzzy}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_catalogue_is_complete(language):
    """The catalogue in the repository itself: every entry translated, none fuzzy (a
    string added to the code without running makemessages fails the test above)."""
    po_file = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    shipped = entries(po_file)
    assert [e["msgid"] for e in shipped if not (e.get("msgstr") or e.get("msgstr[0]"))] == []
    assert "#, fuzzy" not in po_file.read_text(encoding="utf-8")


def test_french_puts_a_no_break_space_before_its_double_punctuation():
    """French writes "Votre argent : 25 000" with a space before : ; ! ? that a line
    never breaks at; none is missing or an ordinary space.  (Code quoted in a sentence,
    ``Authorization: Token``, keeps its own spelling.)"""
    po_file = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    wrong = []
    for entry in entries(po_file):
        for key, text in entry.items():
            if not key.startswith("msgstr"):
                continue
            for header in (
                "Authorization: Token",
                "Transfer-Encoding: chunked",
                "Content-Type: application/json",
            ):
                text = text.replace(header, "")  # an HTTP header, written as sent
            text = re.sub(r"\{[^{}]*\}", " ", text)  # JSON examples: {"open": true}
            text = re.sub(r"\\[nt]", " ", text)  # escapes: \n ends a line
            if re.search(r"(?<=[^\s\u00a0])[:;!?](?=\s|$)| [:;!?]", text):
                wrong.append(text)
    assert wrong == []


def test_french_never_puts_de_or_que_before_a_name():
    """French elides "de" and "que" before a vowel ("d’Alice", "qu’Eve"), which a
    sentence with a name filled in later cannot do: "En attente de Alice" read as a
    mistake.  The French sentences name people and bots without either before them
    ("envoyées par Alice", "En attente : Alice")."""
    po_file = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    names = r"(?:<strong>)?%\((?:name|names|who|bots|author|host|player|me)\)s"
    wrong = [
        text
        for entry in entries(po_file)
        for key, text in entry.items()
        if key.startswith("msgstr") and re.search(rf"\b(?:de|que) {names}", text, re.I)
    ]
    assert wrong == []


def test_french_speaks_to_the_reader_without_a_gender():
    """ "Vous êtes désabonné", "Une fois inscrit", "Connecté sous le nom": the site does
    not know the reader's gender, and a masculine agreement addressed to them read as
    if it did.  Sentences say it otherwise ("Votre désabonnement est enregistré",
    "Après l’inscription", "Compte connecté")."""
    po_file = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    participles = r"(?:connecté|déconnecté|inscrit|désabonné|abonné|absent|invité|assis|sûr|seul)"
    addressed = re.compile(
        rf"\b(?:vous (?:êtes|étiez|serez)(?: déjà| de nouveau)? {participles}\b(?!\(e\))"
        rf"|^(?:une fois |)(?:connecté|inscrit)\b|vous seul\b)",
        re.I,
    )
    wrong = [
        text
        for entry in entries(po_file)
        for key, text in entry.items()
        if key.startswith("msgstr") and addressed.search(text)
    ]
    assert wrong == []


# --- templates: text outside translation tags ---------------------------------------

TEMPLATES = ROOT / "templates"
# Templates whose text is not marked yet, each to be taken off this list once it is
# (the test below fails for a listed template that has become clean, and for any
# template not listed that shows unmarked text).
NOT_YET_MARKED: set[str] = set()
# Words that are the same in every language: the game's title, symbols.
SAME_EVERYWHERE = re.compile(r"High Society|Reiner Knizia|JSON|API|UTC|OK")
VISIBLE_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "data-label", "data-choice")


def unmarked_text(source: str) -> list[str]:
    """The words of a template that a reader sees but no translation tag covers."""
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", source, flags=re.S)
    text = re.sub(r"{#.*?#}", " ", text, flags=re.S)
    text = re.sub(r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}", " ", text, flags=re.S)
    text = re.sub(r"{%\s*translate\s.*?%}", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"{%.*?%}|{{.*?}}", " ", text, flags=re.S)  # other tags, variables
    shown = []
    for name in VISIBLE_ATTRIBUTES:  # text in attributes a reader or screen reader meets
        shown += re.findall(rf'\s{name}="([^"]*)"', text)
    text = re.sub(r"<[^<>]*>", " ", text)  # tags (with their other attributes)
    shown.append(text)
    found = []
    for chunk in shown:
        chunk = SAME_EVERYWHERE.sub(" ", chunk)
        chunk = re.sub(r"\S*(--|__)\S*", " ", chunk)  # CSS classes (a block's sheet--narrow)
        found += re.findall(r"[A-Za-z][A-Za-z'’-]+(?:\s+[A-Za-z'’-]+)*", chunk)
    return found


def templates() -> list[str]:
    return sorted(
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*")
        if path.suffix in (".html", ".txt")
    )


@pytest.mark.parametrize("name", templates())
def test_no_punctuation_is_left_outside_a_translation(name):
    """A colon written after a translation tag ("{% translate "Watch the replay" %}:")
    cannot take the space French puts before it: it belongs inside the string.  (A
    question mark after a tag starts a URL's query.)"""
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    assert not re.findall(r"{%\s*(?:translate|endblocktranslate)\b[^%]*%}[:;!]", source)


@pytest.mark.parametrize("name", templates())
def test_templates_write_dates_by_their_languages_formats(name):
    """A date is written with a named format (``DATE_FORMAT``, ``DATETIME_FORMAT``, …:
    highsociety_site/formats), which each language spells its own way; a pattern such
    as "j M Y" would print "28 Nov" in a French page.  Machine forms stay: "c" (ISO
    8601), "U", and the zone's name "e"."""
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    patterns = re.findall(r"\|date:[\"']([^\"']*)[\"']", source)
    assert [p for p in patterns if not p.endswith("_FORMAT") and p not in ("c", "U", "e")] == []


@pytest.mark.parametrize("name", templates())
def test_templates_mark_the_text_they_show(name):
    words = unmarked_text((TEMPLATES / name).read_text(encoding="utf-8"))
    if name in NOT_YET_MARKED:
        assert words, f"{name} is clean now: take it off NOT_YET_MARKED"
    else:
        assert not words, f"{name}: text outside {{% translate %}}: {words}"


def test_the_scan_finds_an_unmarked_sentence():
    assert unmarked_text('<p>{% translate "Bid" %} <span title="Hi there">now</span></p>') == [
        "Hi there",
        "now",
    ]
    assert unmarked_text("{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}") == []


def test_stylesheets_write_no_words():
    """Text generated by CSS (``content: "Money"``) cannot be translated: words come
    from the page (``content: attr(data-label)``)."""
    for sheet in sorted((ROOT / "static" / "css").glob("*.css")):
        words = re.findall(
            r'content:\s*"([^"]*[A-Za-z]{2,}[^"]*)"', sheet.read_text(encoding="utf-8")
        )
        assert not words, f"{sheet.name}: {words}"


def test_scripts_take_their_sentences_from_the_page():
    """A sentence in a script cannot be translated: scripts read it from the page
    (``button.dataset.copied``), keeping the English only as a fallback after ``||``."""
    for script in sorted((ROOT / "static" / "js").glob("*.js")):
        text = re.sub(r"//[^\n]*", "", script.read_text(encoding="utf-8"))
        sentences = [
            match.group(1)
            for match in re.finditer(r'(?<!\|\| )"([A-Z][a-z]+ [^"]*)"', text)
            if not match.group(1).startswith("High Society")
        ]
        assert not sentences, f"{script.name}: {sentences}"
