"""The site's full rating lists (FIDE, KNSB, DSU): loading a whole list, and looking players up in it.

Loading (`load`) streams the file through the readers of `ratings.lists` and writes it with `bulk_create`
in batches of BATCH rows, inside one transaction that also removes the list it replaces (the system's
list of the same or an earlier period). A malformed line stops the load with its line number and the
transaction is rolled back: the previous list stays whole, nothing of the new one is kept. Memory holds
one batch, never the list (a FIDE list has about 1.2 million players; bench/bench_full_list.py).

Looking up (`by_id`, `by_name`) costs one indexed query each, whatever the list's size: an id is an
equality on (player_id, system); a name is either the same words in any order (`lists.name_key`, an
equality) or a prefix of the name as the list prints it, surname first (`ListedPlayer.search`): "de vries
a" finds "de Vries, Anna". The prefix is a range on the index on SQLite (whose LIKE is not indexed for
a column of the default collation) and a LIKE on PostgreSQL (whose pattern index serves it, while a
range would follow the database's collation, which may ignore spaces).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import BinaryIO

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.log import record

from .lists import ListEntry, ListError, Progress, name_words, read_list
from .models import ListedPlayer, RatingList, RatingSystem

BATCH = 5_000  # rows per bulk_create
NAME_LIMIT = 10  # players a name look-up returns at most
NATIONAL = (RatingSystem.KNSB, RatingSystem.DSU)


def _field(value: str, field: str) -> str:
    return value[: ListedPlayer._meta.get_field(field).max_length]


def listed_player(rating_list: RatingList, entry: ListEntry) -> ListedPlayer:
    """The row of one list entry: its names for searching made once, here."""
    words = name_words(entry.name)
    return ListedPlayer(
        rating_list=rating_list,
        system=rating_list.system,
        player_id=entry.player_id.lstrip("0") or "0",
        name=entry.name,
        search=_field(" ".join(words), "search"),
        name_key=_field(" ".join(sorted(words)), "name_key"),
        federation=_field(entry.federation.upper(), "federation"),
        title=_field(entry.title, "title"),
        rating=entry.rating,
        birth_year=entry.birth_year,
    )


def _write(rating_list: RatingList, entries: Iterable[ListEntry]) -> int:
    count = 0
    batch: list[ListedPlayer] = []
    for entry in entries:
        batch.append(listed_player(rating_list, entry))
        if len(batch) >= BATCH:
            ListedPlayer.objects.bulk_create(batch)
            count += len(batch)
            batch = []
    ListedPlayer.objects.bulk_create(batch)
    return count + len(batch)


def load(
    system: str, stream: BinaryIO, period: date, file_name: str = "", user=None, progress: Progress | None = None
) -> RatingList:
    """Load the whole list of `system` for `period` from `stream`, replacing the one the site holds.

    Raises `lists.ListError` (with the line number) on a malformed line, and also when the site already
    holds a later list of the system; either way nothing is changed."""
    with transaction.atomic():
        replaced = list(RatingList.objects.select_for_update().filter(system=system))
        later = [old for old in replaced if old.period > period]
        if later:
            message = _("the site already holds the %(list)s list of %(date)s, a later one") % {
                "list": RatingSystem(system).label, "date": later[0].period.isoformat(),
            }  # fmt: skip
            raise ListError(1, message)
        rating_list = RatingList.objects.create(system=system, period=period, file_name=file_name[:255], loaded_by=user)
        rating_list.players = _write(rating_list, read_list(system, stream, progress))
        rating_list.save(update_fields=["players"])
        ListedPlayer.objects.filter(rating_list__in=replaced).delete()
        RatingList.objects.filter(pk__in=[old.pk for old in replaced]).delete()
        before = {"date": replaced[0].period, "players": replaced[0].players} if replaced else None
        after = {"file": rating_list.file_name, "date": period, "players": rating_list.players}
        record(user, "rating-list-load", None, before, after, label=str(rating_list))
    return rating_list


# ---------------------------------------------------------------------------------------------------
# Look-ups


def by_id(fide_id: str = "", national_id: str = "") -> list[ListedPlayer]:
    """The players with this FIDE id (FIDE list) or this national id (KNSB and DSU lists): one query."""
    wanted = Q(pk__in=[])
    if fide_id := (fide_id or "").strip().lstrip("0"):
        wanted |= Q(player_id=fide_id, system=RatingSystem.FIDE)
    if national_id := (national_id or "").strip().lstrip("0"):
        wanted |= Q(player_id=national_id, system__in=NATIONAL)
    if not fide_id and not national_id:
        return []
    return list(ListedPlayer.objects.filter(wanted).order_by("system", "pk")[:NAME_LIMIT])


def _prefix(text: str) -> Q:
    if connection.vendor == "postgresql":
        return Q(search__startswith=text)
    # Every character of `search` is a-z, 0-9 or a space, all below "~": the range holds exactly the prefix.
    return Q(search__gte=text, search__lt=text + "~")


def by_name(*parts: str, limit: int = NAME_LIMIT) -> list[ListedPlayer]:
    """At most `limit` players of this name: first those with the same words in any order (best rated
    first), then those whose name as the list prints it (surname first) begins with the words typed,
    surname first, in the list's alphabetical order. Two queries, each reading `limit` rows of an index."""
    words = name_words(*parts)
    if not words:
        return []
    same = list(ListedPlayer.objects.filter(name_key=" ".join(sorted(words))).order_by("-rating", "pk")[:limit])
    seen = {p.pk for p in same}
    rest = ListedPlayer.objects.filter(_prefix(" ".join(words))).order_by("search", "pk")[: limit + len(same)]
    return (same + [p for p in rest if p.pk not in seen])[:limit]


def held_lists() -> list[RatingList]:
    return list(RatingList.objects.all())
