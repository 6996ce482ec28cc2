"""How a name reads: the key two names share when one could be taken for the other.

``name_key`` folds a username or a display name the way a reader's eye does: NFKC
(fullwidth "ａｌｉｃｅ" is "alice"), letters of other alphabets that look like Latin
ones read as those ("аlice" with a Cyrillic а), accents dropped ("alicé"), the Latin
characters that pass for each other made one (capital I, 1 and | for l; 0 for O), case
folded, and then i read as l too: a capital I reads as an l ("AIice" for "Alice") and,
ignoring case, as an i ("ALICE" for "Alice"), so both readings must meet.  The account keeps the key of its username and of its display name
(``User.username_key``, ``User.display_name_key``), so a new name is compared with
every stored one in one indexed query, whichever of the two was written oddly.
"""

from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import confusables

# Latin characters that a reader takes for one another (Unicode's confusables, TR39).
_SAME_SHAPE = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "O"})


def latin_reading(name: str) -> str:
    """``name`` with every letter that looks like a Latin one replaced by it."""
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    swap = {item["character"]: item["homoglyphs"][0]["c"] for item in found if item["homoglyphs"]}
    return "".join(swap.get(char, char) for char in name)


def name_key(name: str) -> str:
    """What ``name`` reads as: two names with the same key can be taken for each other."""
    text = latin_reading(unicodedata.normalize("NFKC", name or ""))
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return bare.translate(_SAME_SHAPE).casefold().replace("i", "l").strip()


# What the board and the lobby write for seats that are not a person's, in every
# language of the site: "Bot (medium)", "Open seat", "Kept for the host", the seat of
# an erased account ("Deleted player"), …, and the lobby's one word for an open seat
# ("open", "frei", "libre"), alone.
SEAT_WORDS = (
    "bot",
    "open seat",
    "freier platz",
    "place libre",
    "kept for the host",
    "für den gastgeber",
    "réservée à l’hôte",
    "deleted player",
    "gelöschter spieler",
    "joueur supprimé",
)
SEAT_WORD_ALONE = ("open", "frei", "libre")
APOSTROPHES = re.compile(r"['‘’ʼ`´]")
# What a username puts between words, where it may have no space: "Deleted_player".
JOINERS = re.compile(r"[_.+-]")


def _readings(text: str) -> set[str]:
    """``text`` as ``name_key`` reads it in lower and in upper case (it reads a capital
    I as an l, so "FREI" and "FREl" meet only in upper case), with one apostrophe for
    all and single spaces: a page shows "Place  libre" as "Place libre"; a username's
    "_", ".", "+" and "-" read as spaces."""
    plain = " ".join(JOINERS.sub(" ", APOSTROPHES.sub("’", text)).split())
    return {name_key(plain.lower()), name_key(plain.upper())}


_SEAT_KEYS = "|".join(re.escape(key) for word in SEAT_WORDS for key in _readings(word))
RESERVED_NAME = re.compile(rf"^\s*({_SEAT_KEYS})\b", re.IGNORECASE)
RESERVED_ALONE = {key for word in SEAT_WORD_ALONE for key in _readings(word)}


def reads_as_a_seat(name: str) -> bool:
    """Whether ``name`` reads as a bot or an empty seat."""
    for key in _readings(name):
        if RESERVED_NAME.match(key) or re.sub(r"\W+$", "", key) in RESERVED_ALONE:
            return True
    return False
