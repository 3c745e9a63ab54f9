"""The engines' notes (`pairing.engines.notes`) in the reader's language.

    {% load notes %}
    {% for note in round.explanation|notes %}
      <li{% if note.warning %} role="alert"{% endif %}>{{ note|note }}</li>
    {% endfor %}

The rendering itself is `tournaments.notes`.
"""

from django import template

from pairing.engines.notes import Note

from ..notes import as_notes, in_print, render_note

register = template.Library()


@register.filter
def notes(values) -> list[Note]:
    """A stored explanation (JSON notes, or strings from before notes) as notes, for a loop."""
    return as_notes(values)


@register.filter
def note(value) -> str:
    """The note in the reader's language, its rule references in small print."""
    return in_print(render_note(value))


@register.filter(name="in_print")
def in_print_filter(value) -> str:
    """A help text with its rule references in small print (`tournaments.notes.in_print`)."""
    return in_print(value) if value else ""
