"""The guard every action of `pairing.services` passes first: the competition's row lock, the one version
bump, the `state_changed` signal, and what a page was based on (`boards_seen`, `seen`), checked under the
lock so an action based on a page that is out of date writes nothing (`StaleAction`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.dispatch import Signal
from django.utils.translation import gettext as _

from audit.history import BOARD_ACTIONS, action_name, author, moment
from audit.log import values
from audit.models import AuditEntry
from clubs.models import Member
from tournaments import versioning
from tournaments.models import Competition, Round

# Sent inside the transaction of every state change: competition (the locked row), action, user.
state_changed = Signal()


class StaleAction(ValidationError):
    """The page the action came from is out of date (a double click, another TD): nothing was changed."""


def changed(competition: Competition | int, action: str, user, read=None, *, result: bool = False) -> Competition:
    """The one hook every state change of a competition passes, first thing inside its transaction.

    Raises the competition's version (`tournaments.versioning`), so its cached pages are renewed when
    the transaction commits; the statement locks the competition's row, so two actions on one
    competition run one after the other and the second sees what the first did. Then reads the row
    afresh, with its club, and tells the `state_changed` receivers. Returns the locked row. `read`:
    a function returning it (reading it with the row the action is about, in one query). `result`: the
    action enters a game's result and nothing else, unless its writer raises the version again
    (`versioning.bump`).
    """
    pk = getattr(competition, "pk", competition)  # an instance or its primary key
    versioning.bump(pk, result=result)
    if read is None:
        locked = Competition.objects.select_for_update(of=("self",)).select_related("club").get(pk=pk)
    else:
        locked = read()
    state_changed.send(sender=Competition, competition=locked, action=action, user=user)
    return locked


def settings_values(competition: Competition) -> dict:
    """A competition's settings as the audit log keeps them, before and after a change."""
    return values(competition, "name", "slug", "system", "settings", "rounds", "gladiator", "late_entry_points",
                  "season", "previous", "tiebreaks", "time_control")  # fmt: skip


def member_values(member: Member) -> dict:
    return values(member, "first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating",
                  "federation", "national_id", "national_rating", "is_guest")  # fmt: skip


def next_round_number(competition: Competition) -> int:
    return competition.round_set.next_number()


def boards_seen(rnd: Round) -> int:
    """What a page showing the boards of `rnd` is based on: the id of the audit log's latest entry that
    changed them (paired, exchanged, colours swapped, undone; 0 for none)."""
    return board_entries(rnd).values_list("id", flat=True).first() or 0


def board_entries(rnd: Round):
    entries = AuditEntry.objects.filter(competition_id=rnd.competition_id, round_number=rnd.number)
    return entries.filter(action__in=BOARD_ACTIONS).order_by("-id")


# What a settings, tie-break or entries page shows, by the audit log's actions that change it.
SETTINGS_ACTIONS = ("settings", "settings-override", "cup-format", "teams")
TIEBREAK_ACTIONS = ("tiebreaks", "tiebreaks-override", "unrated-opponents", "unrated-opponents-override")
ENTRY_ACTIONS = ("participant-add", "late-entry", "withdraw")
FORBIDDEN_ACTIONS = ("forbid-pair", "allow-pair")
PRIZE_ACTIONS = ("prizes",)
TIME_CONTROL_ACTIONS = ("time-control",)
GROUP_ACTIONS = (*ENTRY_ACTIONS, "split-groups")  # the division follows the entries


def seen(competition: Competition, actions: tuple[str, ...]) -> int:
    """What a page showing a competition's settings, tie-breaks or entries is based on: the id of the audit
    log's latest entry among `actions` (`SETTINGS_ACTIONS`, `TIEBREAK_ACTIONS`, `ENTRY_ACTIONS`; 0 for none)."""
    return latest_id(AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions))


def latest_id(entries) -> int:
    """What a page showing what `entries` (audit entries) changed is based on: the latest one's id, 0 for none."""
    return entries.order_by("-id").values_list("id", flat=True).first() or 0


def check_seen(competition: Competition, actions: tuple[str, ...], based_on: int | None) -> None:
    """Refuse a change based on a page that no longer shows the competition as it is (a double click,
    another TD): StaleAction names what changed, by whom and when; None: not known, not checked."""
    check_basis(AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions), based_on)


def check_basis(entries, based_on: int | None) -> None:
    """`check_seen` for any page: `entries` are the audit entries that change what it shows (a club's
    nights, a competition's entries), `based_on` the `latest_id` the page showed. Call it holding the lock
    of the row the writers share (the competition's, the club's)."""
    if based_on is None:
        return
    latest = entries.order_by("-id").first()
    if (latest.pk if latest else 0) == based_on:
        return
    if latest is None:
        raise StaleAction(_("Your page showed another competition; reload the page."), code="stale")
    values = {"what": action_name(latest), "who": author(latest), "when": moment(latest.at)}
    raise StaleAction(
        _(
            "This changed after your page was shown (%(what)s, by %(who)s at %(when)s): nothing was saved. "
            "Check the page, then try again."
        )
        % values,
        code="stale",
    )
