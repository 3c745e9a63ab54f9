"""English, Dutch and Danish ship complete: every message translated, compiled, and used by the pages."""

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import make_competition, play_round

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def po_entries(path: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) for every entry of a .po file but the header."""
    entries, msgid, strs, fuzzy, current = [], None, [], False, None

    def unquote(line: str) -> str:
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), line[1:-1])

    def flush():
        if msgid:
            entries.append((msgid, strs, fuzzy))

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            msgid, strs, fuzzy, current = None, [], False, None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            msgid, current = unquote(line[6:]), "id"
        elif line.startswith("msgid_plural "):
            current = "plural"
        elif line.startswith("msgstr"):
            strs.append(unquote(line.split(" ", 1)[1]))
            current = "str"
        elif line.startswith('"'):
            if current == "id":
                msgid += unquote(line)
            elif current == "str":
                strs[-1] += unquote(line)
    return entries


@pytest.mark.parametrize("language", ["nl", "da"])
def test_every_message_is_translated_and_compiled(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    entries = po_entries(po)
    assert len(entries) > 200
    untranslated = [msgid for msgid, strs, fuzzy in entries if fuzzy or not all(strs)]
    assert not untranslated, untranslated[:10]
    with open(po.with_suffix(".mo"), "rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    for msgid, strs, _fuzzy in entries:
        if len(strs) == 1:
            assert catalog.gettext(msgid) == strs[0], f"{language}: {msgid!r} is not compiled (make messages)"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("nl", ["Stand", "Punten"]), ("da", ["Stilling", "Point"])])
def test_pages_speak_the_chosen_language(client, club, td, members, language, words):
    competition = make_competition(club, td, members[:4])
    play_round(competition, td, {1: "½-½"})
    client.post(reverse("set_language"), {"language": language, "next": "/"})
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    for word in words:
        assert word in page
    assert f'lang="{language}"' in page and "½" in page
