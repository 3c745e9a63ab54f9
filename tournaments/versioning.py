"""A competition's version: raised once per action, in the action's transaction.

The public pages (pairings, standings, crosstable, prizes, the live board, their PDFs) are cached
under keys made from `Competition.version` and `changed_at` (tournaments.caching), and answer
conditional requests with ETags and Last-Modified made from them. A change that does not raise the
version would leave a stale page in the cache, so every action that writes a competition's data
raises it: `pairing.services` does, first thing in the action's transaction (the statement takes
the competition's row lock, so writers to one competition queue in one order), and the services do
when called on their own. An action is one `one_action` scope: inside it a competition's version is
raised by the first `bump` and the others are no-ops, so an action raises it exactly once however
many rows it writes, and the new version becomes visible with the action's data, when its
transaction commits. No signal raises it per saved row. The admin's edits raise it too
(`tournaments.admin`); a member's, club's or season's change, which every competition of theirs
shows, raises the versions of those competitions (`tournaments.signals`, `ratings.signals`).

Reading the version costs a query, and the public pages are read far more often than they change, so
each web process keeps the versions it read in its own memory (the `stamps` cache: a competition's
*stamp*, under `stamp_key`, for `settings.PAGE_STAMP_SECONDS`). A bump forgets the writing process's
copy twice: at once, so its own next request reads the new version, and again when its transaction
commits, since a reader that read the old version just before the commit may have stored it again
meanwhile. A process knows the address it stored each of its stamps under (`remember_stamp`), so
forgetting asks nothing of the database. The other processes' copies, and whatever slips through,
live no longer than `PAGE_STAMP_SECONDS`.

When a new version commits, the large PDFs printed of the competition before are queued to be printed
again for it (`tournaments.printed.reprint`), so the file is ready before anyone asks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.core.cache import caches
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from . import printed
from .models import Competition, Participant

# The competitions whose version the running action has raised, each with whether it raised their shape too
# (None: no action is running).
_raised: ContextVar[dict[int, bool] | None] = ContextVar("raised_versions", default=None)
P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def one_bump() -> Iterator[None]:
    """The scope of one action: each competition's version is raised at most once inside it (an inner
    scope belongs to the outer one)."""
    token = _raised.set({}) if _raised.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _raised.reset(token)


def one_action(func: Callable[P, R]) -> Callable[P, R]:
    """An action: one transaction (`transaction.atomic`) and one version bump per competition."""

    @functools.wraps(func)
    def action(*args: P.args, **kwargs: P.kwargs) -> R:
        # Inside another action, its transaction: an error rolls the whole action back, so no savepoint.
        with transaction.atomic(savepoint=_raised.get() is None), one_bump():
            return func(*args, **kwargs)

    return action


def bump(competition, *, result: bool = False) -> None:
    """Raise the version of `competition` (an instance or a primary key), in the current transaction;
    inside an action, only the first time. `result`: the change is a game's result and nothing else (its
    writer marks the game, `Game.result_version`); any other change raises the shape version too, once an
    action."""
    pk = getattr(competition, "pk", competition)
    if pk is None:
        return
    raised = _raised.get()
    if raised is not None and pk in raised:
        if not result and not raised[pk]:  # the action changes more than results after all
            Competition.objects.filter(pk=pk).update(shape_version=F("shape_version") + 1)
            raised[pk] = True
        return
    if raised is not None:
        raised[pk] = not result
    now = timezone.now()
    row = Competition.objects.filter(pk=pk)
    if result:
        row.update(version=F("version") + 1, changed_at=now)
    else:
        row.update(version=F("version") + 1, shape_version=F("shape_version") + 1, changed_at=now)
    if isinstance(competition, Competition):  # the caller's copy follows, approximately (keys read the database)
        competition.version = (competition.version or 0) + 1
        competition.changed_at = now
    forget_stamps([pk])


def bump_many(competitions: Iterable[int]) -> None:
    """Raise the version of several competitions (primary keys) in one statement: a change besides results."""
    ids = sorted(set(competitions))
    if ids:
        Competition.objects.filter(pk__in=ids).update(
            version=F("version") + 1, shape_version=F("shape_version") + 1, changed_at=timezone.now()
        )
        forget_stamps(ids)


def bump_members(member_ids: Iterable[int]) -> None:
    """A member's name, title or ratings changed: every competition the member plays in shows them."""
    ids = list(member_ids)
    if ids:
        bump_many(Participant.objects.filter(member_id__in=ids).values_list("competition_id", flat=True))


def bump_club(club_id: int) -> None:
    """The club's own data (its name) is on every competition's pages."""
    bump_many(Competition.objects.filter(club_id=club_id).values_list("pk", flat=True))


def stamp_key(club_slug: str, slug: str) -> str:
    """The cache key of a competition's stamp (its primary key, version and time of change), by its address."""
    return f"stamp:{club_slug}/{slug}"


def _address_key(pk: int, kind: str = "") -> str:
    return f"address:{kind}{pk}"


def remember_stamp(key: str, stamp: tuple[int, int, float], seconds: float, kind: str = "") -> None:
    """Keep a stamp read from the database (under `stamp_key`), and which key its competition has here,
    so a change can forget it without asking the database where the competition lives. `kind` keeps the
    stamps of other rows with a version (a team league's: `teams.caching`) apart from the competitions'."""
    stamps = caches["stamps"]
    stamps.set(key, stamp, seconds)
    stamps.set(_address_key(stamp[0], kind), key, None)  # one small entry per competition this process has read


def forget_stamps(competitions: Iterable[int]) -> None:
    """Drop this process's stamps of these competitions now and once more when the transaction commits."""
    pks = list(competitions)
    if pks:
        drop_stamps(pks)
        transaction.on_commit(lambda: printed.reprint(pks), robust=True)  # a failure is logged, the change stays


def drop_stamps(pks: list[int], kind: str = "") -> None:
    """Drop this process's stamps of these rows (competitions, or those `remember_stamp` kept as `kind`) now
    and once more when the transaction commits."""
    _forget(pks, kind)
    transaction.on_commit(lambda: _forget(pks, kind))


def _forget(pks: list[int], kind: str = "") -> None:
    stamps = caches["stamps"]
    stamps.delete_many(list(stamps.get_many([_address_key(pk, kind) for pk in pks]).values()))
