"""Match a rating list to a club's members and apply it: preview first, then one transaction.

Reading (`read_and_match`) is one streaming pass over the list. Only rows that concern the club are
kept: a row whose id is a member's federation id, or whose name (`lists.name_key`) is a member's name.
Memory therefore grows with the club (tens to hundreds of members), never with the list. Every line is
still checked: the first malformed one stops the import with its line number and nothing is saved.

Matching, for each member:
1. by federation id (FIDE id for the FIDE list, national id for the KNSB and DSU lists): applied on
   confirmation;
2. otherwise by name and birth date: a proposal the TD confirms one by one. The birth date agrees when
   both dates (or, for the FIDE list, which has only years, both years) are equal; a proposal without a
   birth date on either side is marked so; a name with another birth date is shown but not proposed.
   A confirmed proposal also stores the list's id on the member, so the next list matches by id.
Members matched neither way are reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import BinaryIO

from django.db import transaction
from django.utils import timezone

from audit.log import record
from clubs.models import Club, Member

from .lists import ListEntry, Progress, name_key, read_list
from .models import MEMBER_FIELDS, RatingChange, RatingListImport

WORD = re.compile(r"[a-z0-9]+")
MAX_NAME_CANDIDATES = 5  # per member: bounds memory when a list holds many players of one name


@dataclass
class Match:
    """A list row that concerns a member."""

    member: int
    member_name: str
    line: int
    player_id: str
    name: str
    rating: int | None
    old_rating: int | None
    birth: str  # as the list gives it: "1990" or "1990-05-17", "" when unknown
    birth_check: str = "id"  # "id", "same" (birth agrees), "unknown" (not compared), "different"
    games: int | None = None  # FIDE: rated games of the list's period
    k: int | None = None  # FIDE: the published K


@dataclass
class MatchResult:
    """What one pass over a list found for a club."""

    players_read: int = 0
    by_id: list[Match] = field(default_factory=list)
    by_name: list[Match] = field(default_factory=list)  # proposals, to be confirmed
    different_birth: list[Match] = field(default_factory=list)  # same name, other birth date
    unmatched: list[dict] = field(default_factory=list)  # {"member", "name", "id"}

    def as_json(self) -> dict:
        return {
            "by_id": [asdict(m) for m in self.by_id],
            "by_name": [asdict(m) for m in self.by_name],
            "different_birth": [asdict(m) for m in self.different_birth],
            "unmatched": self.unmatched,
        }


def _birth_check(member: Member, entry: ListEntry) -> str:
    if member.birth_date is None or entry.birth_year is None:
        return "unknown"
    if entry.birth_date is not None:
        return "same" if entry.birth_date == member.birth_date else "different"
    return "same" if entry.birth_year == member.birth_date.year else "different"


def _birth_text(entry: ListEntry) -> str:
    if entry.birth_date:
        return entry.birth_date.isoformat()
    return str(entry.birth_year or "")


def match_entries(members: Iterable[Member], source: str, entries: Iterable[ListEntry]) -> MatchResult:
    """Consume `entries` (a generator over the whole list), keeping only the rows that match a member."""
    id_field, rating_field = MEMBER_FIELDS[source]
    members = list(members)
    by_id: dict[str, list[Member]] = {}
    by_name: dict[tuple[str, ...], list[Member]] = {}
    for member in members:
        key = getattr(member, id_field).strip()
        if key:
            by_id.setdefault(key.lstrip("0") or "0", []).append(member)
        by_name.setdefault(name_key(member.first_name, member.last_name), []).append(member)
    words = {word for key in by_name for word in key}
    result = MatchResult()
    found_by_id: dict[int, Match] = {}
    candidates: dict[int, list[Match]] = {}
    for entry in entries:
        result.players_read += 1
        for member in by_id.get(entry.player_id.lstrip("0") or "0", ()):
            if member.id not in found_by_id:
                found_by_id[member.id] = _match(member, entry, rating_field, "id")
        # cheap filter first (the name key costs a Unicode normalisation): an ASCII name needs a member's word
        if entry.name.isascii() and not any(w in words for w in WORD.findall(entry.name.lower())):
            continue
        for member in by_name.get(name_key(entry.name), ()):
            found = candidates.setdefault(member.id, [])
            if len(found) < MAX_NAME_CANDIDATES:
                found.append(_match(member, entry, rating_field, _birth_check(member, entry)))
    for member in members:
        if member.id in found_by_id:
            result.by_id.append(found_by_id[member.id])
            continue
        agreeing = [c for c in candidates.get(member.id, []) if c.birth_check != "different"]
        result.different_birth += [c for c in candidates.get(member.id, []) if c.birth_check == "different"]
        if agreeing:
            result.by_name += agreeing
        else:
            result.unmatched.append({"member": member.id, "name": member.full_name, "id": getattr(member, id_field)})
    return result


def _match(member: Member, entry: ListEntry, rating_field: str, check: str) -> Match:
    return Match(
        member=member.id,
        member_name=member.full_name,
        line=entry.line,
        player_id=entry.player_id,
        name=entry.name,
        rating=entry.rating,
        old_rating=getattr(member, rating_field),
        birth=_birth_text(entry),
        birth_check=check,
        games=entry.games,
        k=entry.k,
    )


def read_and_match(club: Club, source: str, stream: BinaryIO, progress: Progress | None = None) -> MatchResult:
    """Read a whole list and match it to the club's members; raises `lists.ListError` on a bad line."""
    return match_entries(club.members.all(), source, read_list(source, stream, progress))


def create_preview(
    club: Club,
    source: str,
    stream: BinaryIO,
    file_name: str,
    list_date: date,
    user=None,
    progress: Progress | None = None,
) -> RatingListImport:
    """Read and match a list and record the result as a preview (nothing is saved on a malformed list)."""
    return save_preview(club, source, read_and_match(club, source, stream, progress), file_name, list_date, user)


def save_preview(
    club: Club, source: str, result: MatchResult, file_name: str, list_date: date, user=None
) -> RatingListImport:
    """Record what reading a list found, as a preview waiting for the TD's confirmation."""
    list_import = RatingListImport.objects.create(
        club=club,
        source=source,
        file_name=file_name[:255],
        list_date=list_date,
        uploaded_by=user,
        players_read=result.players_read,
        matched_by_id=len(result.by_id),
        matched_by_name=len({m.member for m in result.by_name}),
        unmatched=len(result.unmatched),
        proposals=result.as_json(),
    )  # fmt: skip
    summary = {"file": file_name, "players": result.players_read, "unmatched": len(result.unmatched)}
    record(user, "rating-list-read", list_import, None, summary)
    return list_import


@transaction.atomic
def apply(list_import: RatingListImport, accepted_lines: Iterable[int], user=None) -> int:
    """Apply a preview: every id match and the accepted name proposals (by list line); one transaction.

    Each changed rating gets a `RatingChange` dated with the list. A member named in two accepted
    proposals takes the first. Returns the number of ratings changed.
    """
    list_import = RatingListImport.objects.select_for_update().get(pk=list_import.pk)
    if list_import.status != RatingListImport.Status.PREVIEW:
        raise ValueError("this list has already been applied")
    id_field, rating_field = MEMBER_FIELDS[list_import.source]
    accepted = set(accepted_lines)
    chosen: dict[int, dict] = {}
    for match in list_import.proposals.get("by_id", []):
        chosen[match["member"]] = match
    for match in list_import.proposals.get("by_name", []):
        if match["line"] in accepted and match["member"] not in chosen:
            chosen[match["member"]] = match
    members = Member.objects.select_for_update().filter(club=list_import.club, id__in=chosen)
    changes = []
    before: dict[str, dict] = {}
    after: dict[str, dict] = {}
    for member in members:
        match = chosen[member.id]
        fields = []
        if match["birth_check"] != "id" and not getattr(member, id_field):
            setattr(member, id_field, match["player_id"])
            fields.append(id_field)
        old, new = getattr(member, rating_field), match["rating"]
        if new is not None and old != new:
            setattr(member, rating_field, new)
            fields.append(rating_field)
            changes.append(
                RatingChange(
                    member=member, system=list_import.source, date=list_import.list_date,
                    old=old, new=new, source=list_import,
                )
            )  # fmt: skip
        if fields:
            before[member.full_name] = {f: old if f == rating_field else "" for f in fields}
            after[member.full_name] = {f: getattr(member, f) for f in fields}
            member.save(update_fields=fields)
    RatingChange.objects.bulk_create(changes)
    list_import.status = RatingListImport.Status.APPLIED
    list_import.applied_by = user
    list_import.applied_at = timezone.now()
    list_import.updated = len(changes)
    list_import.matched_by_name = sum(1 for m in chosen.values() if m["birth_check"] != "id")
    list_import.proposals["accepted"] = sorted(m["line"] for m in chosen.values() if m["birth_check"] != "id")
    list_import.save()
    record(user, "rating-list", list_import, before, after)
    return len(changes)
