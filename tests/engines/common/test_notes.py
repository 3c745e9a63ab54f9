"""Notes: codes with values, rendered from one English template, stored as JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pairing.engines.notes import (
    NONE,
    TEMPLATES,
    TEXT,
    Level,
    Note,
    english,
    from_json,
    joined,
    note_text,
    render,
    to_json,
)

_PAIR = note_text("test.pair", "pairs %(pairs)s in bracket %(score)s")
_WHY = note_text("test.why", "%(player)s floats: %(reason)s")
_REASON = note_text("test.reason", "no opponent in %(group)s")
_ALARM = note_text("test.alarm", "(§1): round %(round)s is at risk", Level.WARNING)
_PERCENT = note_text("test.percent", "under 50 %%, struck")


def test_a_note_renders_its_template_with_nested_notes_lists_and_numbers():
    note = _WHY(player=3, reason=_REASON(group=[1.5, 2]))
    assert note.text() == "3 floats: no opponent in 1.5, 2"
    assert _PAIR(pairs=["1-2", "3-4"], score="1.5").text() == "pairs 1-2, 3-4 in bracket 1.5"
    assert _PAIR(pairs=NONE(), score="0").text() == "pairs none in bracket 0"
    assert _PERCENT().text() == "under 50 %, struck"


def test_joined_parts_keep_their_separator():
    assert joined([_PAIR(pairs=["1-2"], score="1"), "moved down"]).text() == "pairs 1-2 in bracket 1; moved down"
    assert joined(["a", "b"], ", then ").text() == "a, then b"


def test_a_warning_is_a_level_and_the_command_line_marks_it():
    alarm = _ALARM(round=4)
    assert alarm.warning and not _REASON(group="A").warning
    assert alarm.text() == "(§1): round 4 is at risk"
    assert english([alarm, _REASON(group="A")]) == ["WARNING (§1): round 4 is at risk", "no opponent in A"]
    assert str(alarm) == "WARNING (§1): round 4 is at risk"


def test_json_round_trip_keeps_codes_values_nesting_and_level():
    notes = [_WHY(player=3, reason=_REASON(group=[1, 2])), _ALARM(round=4), joined([NONE(), "x"], ", ")]
    data = json.loads(json.dumps([to_json(n) for n in notes]))
    assert data[1] == {"code": "test.alarm", "params": {"round": 4}, "level": "warning"}
    assert "level" not in data[0]
    assert [from_json(d) for d in data] == notes


def test_strings_stored_before_notes_render_as_they_are():
    old = from_json("bracket 1: 3 residents")
    assert old == TEXT(text="bracket 1: 3 residents") and old.text() == "bracket 1: 3 residents"
    warning = from_json("WARNING (§4.9.2): round 4 cannot be paired")
    assert warning.warning and english([warning]) == ["WARNING (§4.9.2): round 4 cannot be paired"]
    assert to_json("a line") == to_json(TEXT(text="a line"))


def test_translation_goes_through_the_code_and_a_broken_one_falls_back_to_english():
    dutch = {"test.why": "%(player)s schuift door: %(reason)s", "test.reason": "geen tegenstander in %(group)s"}
    note = _WHY(player=3, reason=_REASON(group="A"))
    assert render(note, lambda code, template: dutch.get(code, template)) == "3 schuift door: geen tegenstander in A"
    broken = {"test.reason": "geen tegenstander in %(groep)s"}
    assert render(note, lambda code, template: broken.get(code, template)) == "3 floats: no opponent in A"


def test_an_unknown_code_shows_its_values_and_a_code_is_declared_once():
    assert render(Note("gone.code", {"b": 2, "a": 1})) == "gone.code a=1 b=2"
    assert note_text("test.pair", "pairs %(pairs)s in bracket %(score)s") is not None  # the same text again
    with pytest.raises(ValueError, match="declared twice"):
        note_text("test.pair", "other text")
    assert TEMPLATES["test.pair"].template == "pairs %(pairs)s in bracket %(score)s"


def test_the_engines_speak_no_user_language_but_the_english_templates():
    """No gettext in the pure core: the web app translates the notes (pairing/engines/notes.py)."""
    engines = Path(__file__).resolve().parents[3] / "pairing" / "engines"
    sources = {path: path.read_text(encoding="utf-8") for path in engines.rglob("*.py")}
    assert len(sources) > 20
    translating = re.compile(r"^\s*(?:from|import)\s+(?:django|gettext)\b|\b\w*gettext\w*\(", re.M)
    assert [path.name for path, text in sources.items() if translating.search(text)] == []


def test_odd_stored_data_still_renders():
    """Whatever a stored explanation holds, the page shows something rather than failing."""
    assert from_json({"code": "test.pair", "params": {"pairs": ["1-2"]}}).text() == "pairs 1-2 in bracket "
    assert from_json({"code": "test.pair", "params": [1], "level": "loud"}) == Note("test.pair", {})
    assert from_json(42).text() == "42"
    assert from_json({"code": "join"}).text() == ""
