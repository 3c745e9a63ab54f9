"""The engines' notes (`pairing.engines.notes`) in the reader's language: a note's template is looked up
with its code as the gettext context; explanations stored before notes existed (plain strings) are shown
as they are."""

from django.utils.translation import pgettext

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
