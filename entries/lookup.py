"""Rating lookup for an entry: what the rating lists say of a player, by id or by name.

Two places are searched, in order:
1. the club's members, guests included: a club's list import (`ratings.imports`) writes FIDE id and
   rating, national (KNSB or DSU) id and rating, title and federation on them;
2. the site's full rating lists (`ratings.full_lists`): every player of the FIDE, KNSB and DSU lists,
   so a player of another club or country is found too.
Each is searched first by FIDE id, then by national id, then by name (words compared without accents,
case or order, as the importer matches: "van der Berg, Jan" = "Jan van der Berg") and year of birth when
both are known; a name must name exactly one player. In the full lists a player found in one list is
completed from the others by the same name (and year of birth): a FIDE id found gives the national
rating too. `candidates` lists the players whose name begins as typed, for the form to offer.
`differences` lists where what a player typed and the list disagree, for the TD's inbox.

A look-up costs a fixed number of queries whatever the lists' size: at most three on the club's
members and two on the full lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from ratings import full_lists
from ratings.lists import name_key
from ratings.models import ListedPlayer, RatingSystem


@dataclass(frozen=True)
class Found:
    """A player as the rating lists know him: a member of the club (`member`), or the full lists' rows."""

    how: str  # "fide-id", "national-id" or "name"
    first_name: str
    last_name: str
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    national_id: str = ""
    fide_rating: int | None = None
    national_rating: int | None = None
    birth_year: int | None = None
    member: Member | None = None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_member(self) -> bool:
        """A member of the club (not a guest of an earlier competition, not only in the full lists)."""
        return self.member is not None and not self.member.is_guest

    @classmethod
    def of_member(cls, member: Member, how: str) -> Found:
        return cls(how=how, first_name=member.first_name, last_name=member.last_name, title=member.title,
                   federation=member.federation, fide_id=member.fide_id, national_id=member.national_id,
                   fide_rating=member.fide_rating, national_rating=member.national_rating,
                   birth_year=member.birth_date.year if member.birth_date else None, member=member)  # fmt: skip


def _listed(club: Club):
    """The club's members a rating list has matched: they carry a FIDE or national id."""
    return club.members.exclude(fide_id="", national_id="")


def _in_club(club: Club, fide_id: str, national_id: str, first_name: str, last_name: str,
             birth_year: int | None) -> Found | None:  # fmt: skip
    listed = _listed(club)
    for value, field, how in ((fide_id, "fide_id", "fide-id"), (national_id, "national_id", "national-id")):
        value = (value or "").strip().lstrip("0")
        if value:
            hit = listed.filter(Q(**{field: value}) | Q(**{field: "0" + value})).order_by("is_guest", "pk").first()
            if hit is not None:
                return Found.of_member(hit, how)
    key = name_key(first_name or "", last_name or "")
    if not key:
        return None
    words = [w for w in key if len(w) > 2][:1] or list(key[:1])
    candidates = listed.filter(Q(last_name__icontains=words[0]) | Q(first_name__icontains=words[0]))
    same = [m for m in candidates[:500] if name_key(m.first_name, m.last_name) == key]
    if birth_year:
        same = [m for m in same if m.birth_date is None or m.birth_date.year == birth_year]
    return Found.of_member(same[0], "name") if len(same) == 1 else None


def split_name(printed: str) -> tuple[str, str]:
    """(first name, last name) of a name as the lists print it, "Surname, First names"."""
    last, _comma, first = printed.partition(",")
    return " ".join(first.split()), " ".join(last.split())


def _years_agree(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _found_of_rows(rows: list[ListedPlayer], how: str) -> Found:
    """One player from his rows in the lists (FIDE first): name, title and federation of the first row."""
    rows = sorted(rows, key=lambda r: r.system != RatingSystem.FIDE)
    first, last = split_name(rows[0].name)
    fide = next((r for r in rows if r.system == RatingSystem.FIDE), None)
    national = next((r for r in rows if r.system != RatingSystem.FIDE), None)
    return Found(
        how=how, first_name=first, last_name=last, title=next((r.title for r in rows if r.title), ""),
        federation=next((r.federation for r in rows if r.federation), ""),
        fide_id=fide.player_id if fide else "", national_id=national.player_id if national else "",
        fide_rating=fide.rating if fide else None, national_rating=national.rating if national else None,
        birth_year=next((r.birth_year for r in rows if r.birth_year), None),
    )  # fmt: skip


def _one_per_system(rows: list[ListedPlayer], anchor: ListedPlayer | None, year: int | None) -> list[ListedPlayer]:
    """The player's row in each list: `anchor` in its own, elsewhere the only row of his name and year."""
    chosen = [anchor] if anchor else []
    for system in RatingSystem.values:
        if anchor is not None and system == anchor.system:
            continue
        same = [r for r in rows if r.system == system and _years_agree(r.birth_year, year)]
        if len(same) == 1:
            chosen.append(same[0])
    return chosen


def _name_anchor(rows: list[ListedPlayer], year: int | None) -> ListedPlayer | None:
    """A name alone must name one player: the only row of his name (and year) in the first list having any."""
    for system in RatingSystem.values:
        same = [r for r in rows if r.system == system and _years_agree(r.birth_year, year)]
        if same:
            return same[0] if len(same) == 1 else None
    return None


def _in_full_lists(fide_id: str, national_id: str, first_name: str, last_name: str,
                   birth_year: int | None) -> Found | None:  # fmt: skip
    """The player in the site's full lists: two queries (the ids, then every row of the name found)."""
    hits = full_lists.by_id(fide_id, national_id)
    fide_hit = next((r for r in hits if r.system == RatingSystem.FIDE), None)
    national_hit = next((r for r in hits if r.system != RatingSystem.FIDE), None)
    anchor, how = (fide_hit, "fide-id") if fide_hit else (national_hit, "national-id")
    if anchor is None:
        how = "name"
    key = anchor.name_key if anchor else " ".join(name_key(first_name or "", last_name or ""))
    if not key:
        return None
    rows = list(ListedPlayer.objects.filter(name_key=key).order_by("system", "pk")[:50])
    if anchor is None and (anchor := _name_anchor(rows, birth_year)) is None:
        return None
    return _found_of_rows(_one_per_system(rows, anchor, anchor.birth_year or birth_year), how)


def picked(row_id: int | None) -> Found | None:
    """The player of one row of the full lists (picked among the `candidates`), completed from the other
    lists by his name and year. Found by name: his national id is not filled in from it."""
    anchor = ListedPlayer.objects.filter(pk=row_id).first() if row_id else None
    if anchor is None:
        return None
    rows = list(ListedPlayer.objects.filter(name_key=anchor.name_key).order_by("system", "pk")[:50])
    return _found_of_rows(_one_per_system(rows, anchor, anchor.birth_year), "name")


def find(club: Club, fide_id: str = "", national_id: str = "", first_name: str = "", last_name: str = "",
         birth_year: int | None = None) -> Found | None:  # fmt: skip
    """The player with this FIDE id, else this national id, else exactly one of this name (and year): among
    the club's members first, then in the site's full lists."""
    return _in_club(club, fide_id, national_id, first_name, last_name, birth_year) or _in_full_lists(
        fide_id, national_id, first_name, last_name, birth_year
    )


def candidates(first_name: str = "", last_name: str = "", limit: int = full_lists.NAME_LIMIT
               ) -> list[tuple[int, Found]]:  # fmt: skip
    """At most `limit` (row id, player) of the full lists whose name is, or begins with, the name typed
    (surname first): for the player to pick himself from. Two queries."""
    rows = full_lists.by_name(last_name or "", first_name or "", limit=limit)
    return [(row.pk, _found_of_rows([row], "name")) for row in rows]


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
    pairs = [
        ("name", entry.full_name, found.full_name, name_key(entry.full_name) != name_key(found.full_name)),
        ("federation", entry.federation, found.federation, entry.federation.upper() != found.federation.upper()),
        ("fide_id", entry.fide_id, found.fide_id, entry.fide_id.lstrip("0") != found.fide_id.lstrip("0")),
        ("national_id", entry.national_id, found.national_id,
         entry.national_id.lstrip("0") != found.national_id.lstrip("0")),
        ("birth_year", str(entry.birth_year or ""), str(found.birth_year or ""), True),
    ]  # fmt: skip
    return [
        (str(FIELDS[field]), typed, listed)
        for field, typed, listed, differ in pairs
        if typed and listed and differ and typed != listed
    ]
