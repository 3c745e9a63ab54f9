"""Notes: what an engine says about its decisions, as data (a code, its values and a level), not as text.

Every code's English template is declared once, beside the engine code that uses it, with `note_text`;
English is the fallback. The command line prints a note's English text (`english`); the web app renders
the same note through gettext in the reader's language, the code being the message context (the
project's `makemessages` extracts every `note_text` call). Templates use `%(name)s` placeholders.

A note's values are JSON values, other notes or lists of them, so a pairing's explanation is stored as
JSON (`to_json`, `from_json`) and rendered later in whatever language the reader uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Level(str, Enum):  # noqa: UP042 (str values in JSON and templates)
    INFO = "info"
    WARNING = "warning"  # the arbiter should act: the pages show it as an alert


@dataclass(frozen=True, slots=True)
class Note:
    """One statement of an engine: `code` names its template, `params` fill the placeholders.

    A value is a JSON value (str, int, float, bool, None), a `Note`, or a list of them (rendered
    joined by ", "); None renders as nothing.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    level: Level = Level.INFO

    @property
    def warning(self) -> bool:
        return self.level is Level.WARNING

    def __hash__(self) -> int:  # the values may be lists: equal notes have equal codes, levels and keys
        return hash((self.code, self.level, tuple(sorted(self.params))))

    def text(self) -> str:
        """The English text (without the warning mark the command line adds)."""
        return render(self)

    def __str__(self) -> str:
        return line(self)


@dataclass(frozen=True, slots=True)
class NoteText:
    """A declared note: its code, its English template and its level; calling it makes a `Note`."""

    code: str
    template: str
    level: Level = Level.INFO

    def __call__(self, **params: Any) -> Note:
        return Note(self.code, params, self.level)


TEMPLATES: dict[str, NoteText] = {}


def note_text(code: str, template: str, level: Level = Level.INFO) -> NoteText:
    """Declare the English `template` of `code` (once; string literals, so gettext can extract them)."""
    declared = NoteText(code, template, level)
    existing = TEMPLATES.get(code)
    if existing is not None and existing != declared:
        raise ValueError(f"note {code!r} is declared twice with different texts")
    TEMPLATES[code] = declared
    return declared


# Text kept as it was given: explanations stored before they were notes, and names.
TEXT = note_text("text", "%(text)s")
# Nothing: an empty list of pairs, criteria, players.
NONE = note_text("none", "none")
_JOIN = "join"  # items joined by a separator (punctuation only): rendered here, never translated


def joined(items: Iterable[Any], separator: str = "; ") -> Note:
    """Items (notes or values) shown one after the other, separated by `separator`."""
    return Note(_JOIN, {"items": list(items), "separator": separator})


Translate = Callable[[str, str], str]  # (code, English template) -> template in the reader's language


def _english(code: str, template: str) -> str:
    return template


def render(note: Note | str, translate: Translate = _english) -> str:
    """The note's text, each template passed through `translate` (English by default)."""
    if isinstance(note, str):
        return note
    if note.code == _JOIN:
        items = note.params.get("items") or []
        return str(note.params.get("separator", "; ")).join(_value(v, translate) for v in items)
    values = {key: _value(value, translate) for key, value in note.params.items()}
    declared = TEMPLATES.get(note.code)
    if declared is None:  # a code no engine declares any more: its values as they are
        return " ".join([note.code, *(f"{key}={value}" for key, value in sorted(values.items()))])
    try:
        return translate(note.code, declared.template) % values
    except (KeyError, ValueError, TypeError):  # a translation whose placeholders do not fit: English
        return declared.template % _Lenient(values)


class _Lenient(dict):
    """Values for a template from stored data that lacks one: nothing in its place."""

    def __missing__(self, key: str) -> str:
        return ""


def _value(value: Any, translate: Translate) -> str:
    if isinstance(value, Note):
        return render(value, translate)
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, translate) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def line(note: Note | str) -> str:
    """The English line the command line prints: a warning starts with WARNING."""
    text = render(note)
    return f"WARNING {text}" if isinstance(note, Note) and note.warning else text


def english(notes: Iterable[Note | str]) -> list[str]:
    """The English lines of an explanation, as the command line prints them."""
    return [line(note) for note in notes]


# ------------------------------------------------------------------------------------------ JSON


def to_json(note: Note | str) -> dict[str, Any]:
    """A note as JSON data: {"code", "params"} and "level" when it is not info (a string: a `TEXT` note)."""
    if isinstance(note, str):
        note = TEXT(text=note)
    data: dict[str, Any] = {"code": note.code, "params": {key: _to_json(v) for key, v in note.params.items()}}
    if note.level is not Level.INFO:
        data["level"] = note.level.value
    return data


def _to_json(value: Any) -> Any:
    if isinstance(value, Note):
        return to_json(value)
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


_LEGACY_WARNING = "WARNING "


def from_json(data: Any) -> Note:
    """A note from `to_json`'s data. A plain string (an explanation line stored before notes) becomes a
    `TEXT` note; such a line starting with "WARNING" was a warning."""
    if isinstance(data, str):
        if data.startswith(_LEGACY_WARNING):
            return Note(TEXT.code, {"text": data[len(_LEGACY_WARNING) :]}, Level.WARNING)
        return TEXT(text=data)
    if isinstance(data, Mapping) and isinstance(data.get("code"), str):
        params = data.get("params")
        params = params if isinstance(params, Mapping) else {}
        level = Level.WARNING if data.get("level") == Level.WARNING.value else Level.INFO
        return Note(data["code"], {key: _from_json(v) for key, v in params.items()}, level)
    return TEXT(text=str(data))


def _from_json(value: Any) -> Any:
    if isinstance(value, Mapping) and "code" in value:
        return from_json(value)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value
