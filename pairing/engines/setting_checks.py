"""Checks of an engine's settings: one function and one note per kind of fault, so every engine says a bad
setting the same way (the settings pages show the note in the reader's language)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .notes import note_text
from .state import InvalidInput

NOT_BOOLEAN = note_text("setting.not_boolean", "%(setting)s must be true or false.")
NOT_NUMBER = note_text("setting.not_number", "%(setting)s must be a number of at least %(least)s.")
NOT_WHOLE = note_text("setting.not_whole", "%(setting)s must be a whole number of at least %(least)s.")
NOT_CHOICE = note_text("setting.not_choice", "%(setting)s must be one of %(choices)s.")
AT_MOST = note_text("setting.at_most", "%(setting)s must be at most %(most)s.")
# No setting needs more (the largest default, a search limit, is 200 000): a larger number is a typing
# error, and it stays within a 32-bit integer wherever it goes.
LARGEST = 1_000_000_000
UNKNOWN = note_text("setting.unknown", "Unknown setting(s) for %(system)s: %(names)s.")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def booleans(settings: Mapping[str, Any], names: Iterable[str]) -> None:
    for name in names:
        if not isinstance(settings.get(name), bool):
            raise InvalidInput(NOT_BOOLEAN(setting=name))


def whole_numbers(settings: Mapping[str, Any], names: Iterable[str], least: int) -> None:
    for name in names:
        value = settings.get(name)
        if not _is_number(value) or isinstance(value, float) or value < least:
            raise InvalidInput(NOT_WHOLE(setting=name, least=least))
        if value > LARGEST:
            raise InvalidInput(AT_MOST(setting=name, most=LARGEST))


def numbers(settings: Mapping[str, Any], names: Iterable[str], least: float) -> None:
    for name in names:
        value = settings.get(name)
        if not _is_number(value) or not math.isfinite(value) or value < least:
            raise InvalidInput(NOT_NUMBER(setting=name, least=least))
        if value > LARGEST:
            raise InvalidInput(AT_MOST(setting=name, most=LARGEST))


def choice(settings: Mapping[str, Any], name: str, choices: Iterable[str]) -> None:
    choices = list(choices)
    if settings.get(name) not in choices:
        raise InvalidInput(NOT_CHOICE(setting=name, choices=", ".join(choices)))


def at_most(settings: Mapping[str, Any], name: str, most: float) -> None:
    if settings[name] > most:
        raise InvalidInput(AT_MOST(setting=name, most=most))
