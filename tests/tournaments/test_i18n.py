"""English, Dutch and Danish ship complete: every message translated, compiled, and used by the pages."""

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse

from pairing.engines.all_notes import TEMPLATES
from tests.conftest import make_competition, play_round

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"


def po_entries(path: Path) -> list[tuple[str, list[str], bool, str | None]]:
    """(msgid, msgstrs, fuzzy, msgctxt) for every entry of a .po file but the header."""
    entries, msgid, strs, fuzzy, current, context = [], None, [], False, None, None

    def unquote(line: str) -> str:
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), line[1:-1])

    def flush():
        if msgid:
            entries.append((msgid, strs, fuzzy, context))

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            msgid, strs, fuzzy, current, context = None, [], False, None, None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgctxt "):
            context, current = unquote(line[8:]), "ctxt"
        elif line.startswith("msgid "):
            msgid, current = unquote(line[6:]), "id"
        elif line.startswith("msgid_plural "):
            current = "plural"
        elif line.startswith("msgstr"):
            strs.append(unquote(line.split(" ", 1)[1]))
            current = "str"
        elif line.startswith('"'):
            if current == "ctxt":
                context += unquote(line)
            elif current == "id":
                msgid += unquote(line)
            elif current == "str":
                strs[-1] += unquote(line)
    return entries


@pytest.mark.parametrize("language", ["nl", "da"])
def test_every_message_is_translated_and_compiled(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    entries = po_entries(po)
    assert len(entries) > 200
    untranslated = [msgid for msgid, strs, fuzzy, _context in entries if fuzzy or not all(strs)]
    assert not untranslated, untranslated[:10]
    with open(po.with_suffix(".mo"), "rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    for msgid, strs, _fuzzy, context in entries:
        if len(strs) == 1:
            found = catalog.pgettext(context, msgid) if context else catalog.gettext(msgid)
            assert found == strs[0], f"{language}: {msgid!r} is not compiled (make messages)"


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\((\w+)\)", text))


def _declared_codes() -> set[str]:
    """The codes the engines declare (`note_text("code", ...)` in pairing/engines)."""
    codes = set()
    for path in (ROOT / "pairing" / "engines").rglob("*.py"):
        codes |= set(re.findall(r'note_text\(\s*"([^"]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_every_module_declaring_notes_is_loaded_for_the_web_app():
    """A stored note renders only when its declaration was imported: `all_notes` imports every engine
    module that calls `note_text`."""
    declared = _declared_codes()
    assert len(declared) > 250 and declared <= set(TEMPLATES), sorted(declared - set(TEMPLATES))


@pytest.mark.parametrize("language", ["nl", "da"])
def test_every_engine_note_has_a_translation_with_the_same_placeholders(language):
    """Each note code's English template (pairing/engines/notes.py) is in the catalogue, translated,
    under its code as the message context, with the placeholders of the English text."""
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    translated = {(context, msgid): strs[0] for msgid, strs, fuzzy, context in po_entries(po) if not fuzzy}
    for code in sorted(_declared_codes()):
        declared = TEMPLATES[code]
        text = translated.get((code, declared.template))
        assert text, f"{language}: note {code} has no translation (make messages)"
        assert _placeholders(text) == _placeholders(declared.template), f"{language}: {code}: {text!r}"


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
