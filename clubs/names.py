"""Sorting people by name as a club's members list does: Dutch surnames by the name after their particles.

A Dutch surname's particles (tussenvoegsels: "de", "van", "van der", "ten", "'t", ...) do not count in an
alphabetical list: "de Boer" stands under B, after "Bakker" and before "Claassen"; "van der Berg" under B
too. The particles decide only between names otherwise alike.
"""

from __future__ import annotations

import unicodedata

PARTICLES = frozenset({
    "van", "de", "der", "den", "het", "'t", "te", "ten", "ter", "in", "op", "onder", "over", "aan", "bij", "uit",
    "voor", "tot", "d'", "'s", "von", "zu",
})  # fmt: skip


def split_particles(last_name: str) -> tuple[str, str]:
    """("de Boer") -> ("de", "Boer"); ("van der Berg") -> ("van der", "Berg"); a surname made only of
    particles ("Van") keeps its last word: ("", "Van")."""
    words = last_name.split()
    count = 0
    while count < len(words) - 1 and words[count].lower() in PARTICLES:
        count += 1
    return " ".join(words[:count]), " ".join(words[count:])


def _fold(text: str) -> str:
    """Case and accents do not count: "Émile" sorts with "Emile"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def sort_key(last_name: str, first_name: str = "") -> tuple[str, str, str]:
    """The key members are listed by: the surname without its particles, the first name, the particles."""
    particles, name = split_particles(last_name)
    return _fold(name), _fold(first_name), _fold(particles)


def sorted_by_name(people):
    """People (anything with `last_name` and `first_name`) in the members list's order."""
    return sorted(people, key=lambda person: sort_key(person.last_name, person.first_name))
