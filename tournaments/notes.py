"""The engines' notes (`pairing.engines.notes`) in the reader's language: a note's template is looked up
with its code as the gettext context; explanations stored before notes existed (plain strings) are shown
as they are."""

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, pgettext

from pairing.engines import all_notes  # noqa: F401 (declares every note, so stored ones render)
from pairing.engines.notes import Note, from_json, render


def render_note(value) -> str:
    """One note (a `Note`, its JSON form or an old plain string) in the active language."""
    if value is None or value == "":
        return ""
    note = value if isinstance(value, Note) else from_json(value)
    return render(note, pgettext)


def as_notes(values) -> list[Note]:
    """A stored explanation (JSON notes, or strings from before notes) as notes."""
    return [value if isinstance(value, Note) else from_json(value) for value in values or []]


# The regulations by the names a club knows them by (conformance/articles.py lists them).
REGULATIONS = {
    "000": gettext_lazy("KNSB Swiss on rating"),
    "001": gettext_lazy("KNSB Swiss on resistance points"),
    "002": gettext_lazy("KNSB Swiss on rating"),
    "003": gettext_lazy("the Keizer rules"),
    "004": gettext_lazy("DSU handbook"),
}
_SEED = re.compile(r"\bseed (\d{3})\b")
# A reference in brackets: a regulation and its article, an article alone, a criterion of the Dutch system.
_REFERENCE = re.compile(r"\((?:seed \d{3}|C\.0\d|FIDE|KNSB|DSU|§|Art\.|[A-F]\d)[^()]*\)")


def regulation_names(text: str) -> str:
    """ "seed 004 §4.9.8" -> "DSU handbook §4.9.8": the regulation by its name, not the project's number."""
    return _SEED.sub(lambda m: str(REGULATIONS.get(m.group(1), m.group(0))), text)


def in_print(text) -> SafeString:
    """A help text or a note for the page: the words first, each reference to a rule in brackets set in
    small print ("Berger table for 4 players, round 3 <small>(DSU handbook §4.9.11)</small>")."""
    text = str(text)
    out, last = [], 0
    for match in _REFERENCE.finditer(text):
        out.append(escape(regulation_names(text[last : match.start()])))
        out.append(f'<small class="ref">{escape(regulation_names(match.group(0)))}</small>')
        last = match.end()
    out.append(escape(regulation_names(text[last:])))
    return mark_safe("".join(out))
