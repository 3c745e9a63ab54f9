"""A competition's version: raised in the same transaction as any change to its data.

The public pages (pairings, standings, crosstable, prizes, the live board, their PDFs) are cached
under keys made from `Competition.version` and `changed_at` (tournaments.caching), and answer
conditional requests with ETags and Last-Modified made from them. A change that does not raise the
version would leave a stale page in the cache, so the bump is called from two sides:

- the services that write call `bump` themselves, first, in their transaction (it also takes the
  competition's row lock, so writers to one competition queue in one order);
- every save and delete of a model a public page shows raises it through signals
  (`tournaments.signals`), so the admin and any other path invalidate too.

Queryset `.update()`, `bulk_create` and `bulk_update` send no signals: code that uses them calls
`bump` (or `bump_members`) itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from .models import Competition, Participant


def bump(competition) -> None:
    """Raise the version of `competition` (an instance or a primary key), in the current transaction."""
    pk = getattr(competition, "pk", competition)
    if pk is None:
        return
    now = timezone.now()
    Competition.objects.filter(pk=pk).update(version=F("version") + 1, changed_at=now)
    if isinstance(competition, Competition):  # the caller's copy follows, approximately (keys read the database)
        competition.version = (competition.version or 0) + 1
        competition.changed_at = now


def bump_many(competitions: Iterable[int]) -> None:
    """Raise the version of several competitions (primary keys) in one statement."""
    ids = sorted(set(competitions))
    if ids:
        Competition.objects.filter(pk__in=ids).update(version=F("version") + 1, changed_at=timezone.now())


def bump_members(member_ids: Iterable[int]) -> None:
    """A member's name, title or ratings changed: every competition the member plays in shows them."""
    ids = list(member_ids)
    if ids:
        bump_many(Participant.objects.filter(member_id__in=ids).values_list("competition_id", flat=True))


def bump_club(club_id: int) -> None:
    """The club's own data (its name) is on every competition's pages."""
    bump_many(Competition.objects.filter(club_id=club_id).values_list("pk", flat=True))
