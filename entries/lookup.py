"""Rating lookup for an entry: what the club's imported rating lists say of a player, by id or by name.

A rating list import (`ratings.imports`) keeps the rows of the club's members, guests included, and
writes them on the members: FIDE id and rating, national (KNSB or DSU) id and rating, title and
federation. The lookup reads them there, first by FIDE id, then by national id, then by name (words
compared without accents, case or order, as the importer matches: "van der Berg, Jan" = "Jan van der
Berg") and year of birth when both are known. `differences` lists where what a player typed and the
list disagree, for the TD's inbox.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from ratings.lists import name_key


@dataclass(frozen=True)
class Found:
    """A player as the club's rating lists know him."""

    member: Member
    how: str  # "fide-id", "national-id" or "name"

    @property
    def first_name(self) -> str:
        return self.member.first_name

    @property
    def last_name(self) -> str:
        return self.member.last_name

    @property
    def title(self) -> str:
        return self.member.title

    @property
    def federation(self) -> str:
        return self.member.federation

    @property
    def fide_rating(self) -> int | None:
        return self.member.fide_rating

    @property
    def national_rating(self) -> int | None:
        return self.member.national_rating


def _listed(club: Club):
    """The club's members a rating list has matched: they carry a FIDE or national id."""
    return club.members.exclude(fide_id="", national_id="")


def find(club: Club, fide_id: str = "", national_id: str = "", first_name: str = "", last_name: str = "",
         birth_year: int | None = None) -> Found | None:  # fmt: skip
    """The player with this FIDE id, else this national id, else exactly one of this name (and year)."""
    listed = _listed(club)
    for value, field, how in ((fide_id, "fide_id", "fide-id"), (national_id, "national_id", "national-id")):
        value = (value or "").strip().lstrip("0")
        if value:
            hit = listed.filter(Q(**{field: value}) | Q(**{field: "0" + value})).order_by("is_guest", "pk").first()
            if hit is not None:
                return Found(hit, how)
    key = name_key(first_name or "", last_name or "")
    if not key:
        return None
    words = [w for w in key if len(w) > 2][:1] or list(key[:1])
    candidates = listed.filter(Q(last_name__icontains=words[0]) | Q(first_name__icontains=words[0]))
    same = [m for m in candidates[:500] if name_key(m.first_name, m.last_name) == key]
    if birth_year:
        same = [m for m in same if m.birth_date is None or m.birth_date.year == birth_year]
    return Found(same[0], "name") if len(same) == 1 else None


FIELDS = {
    "name": _("name"),
    "federation": _("federation"),
    "fide_id": _("FIDE id"),
    "national_id": _("national id"),
    "birth_year": _("year of birth"),
}


def differences(entry, found: Found | None) -> list[tuple[str, str, str]]:
    """(field, typed, list) wherever the entry and the list disagree (a field left empty disagrees with nothing)."""
    if found is None:
        return []
    member = found.member
    pairs = [
        ("name", entry.full_name, member.full_name, name_key(entry.full_name) != name_key(member.full_name)),
        ("federation", entry.federation, member.federation, entry.federation.upper() != member.federation.upper()),
        ("fide_id", entry.fide_id, member.fide_id, entry.fide_id.lstrip("0") != member.fide_id.lstrip("0")),
        ("national_id", entry.national_id, member.national_id,
         entry.national_id.lstrip("0") != member.national_id.lstrip("0")),
        ("birth_year", str(entry.birth_year or ""), str(member.birth_date.year if member.birth_date else ""), True),
    ]  # fmt: skip
    return [
        (str(FIELDS[field]), typed, listed)
        for field, typed, listed, differ in pairs
        if typed and listed and differ and typed != listed
    ]
