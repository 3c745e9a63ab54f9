"""A competition's players: the competition created with its first entries, members and guests entered,
withdrawals, absences and byes asked for, forbidden pairs. Each action passes the guard (`guard.changed`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.history import author, moment
from audit.log import record, values
from audit.models import AuditEntry
from clubs.models import Member
from tournaments import versioning
from tournaments.models import Bye, Competition, ForbiddenPair, Participant

from . import records
from .guard import (
    ENTRY_ACTIONS,
    FORBIDDEN_ACTIONS,
    StaleAction,
    changed,
    check_seen,
    member_values,
    next_round_number,
    settings_values,
)


@versioning.one_action
def create_competition(competition: Competition, members: list[Member], user) -> Competition:
    """Save a new competition (a form's unsaved instance) with its first entries."""
    competition.save()
    changed(competition, "create", user)
    record(user, "competition-create", competition, None, settings_values(competition))
    records.add_participants(competition, members, user)
    return competition


@versioning.one_action
def add_participants(
    competition: Competition, members: list[Member], user, based_on: int | None = None
) -> list[Participant]:
    """Enter members; `based_on` is what the TD's page showed of the entries (`seen`, `ENTRY_ACTIONS`)."""
    competition = changed(competition, "enter", user)
    check_seen(competition, ENTRY_ACTIONS, based_on)
    return records.add_participants(competition, members, user)


@versioning.one_action
def add_guest(competition: Competition, guest: Member, user, based_on: int | None = None) -> Participant:
    """Save a guest (a form's unsaved member) as a member of the competition's club, and enter him;
    `based_on` as for `add_participants`."""
    competition = changed(competition, "enter", user)
    check_seen(competition, ENTRY_ACTIONS, based_on)
    guest.club = competition.club
    guest.is_guest = True
    guest.save()
    record(user, "member-add", guest, None, member_values(guest))
    return records.add_participant(competition, guest, user)


@versioning.one_action
def withdraw(participant: Participant, user, based_on: int | None = None) -> None:
    """Withdraw a player from the rounds to come; `based_on` as for `add_participants`."""
    competition = changed(participant.competition, "withdraw", user)
    check_seen(competition, ENTRY_ACTIONS, based_on)
    participant.refresh_from_db(fields=["withdrawn_after"])
    if participant.withdrawn_after is not None:
        raise ValidationError(_("%(name)s has withdrawn already.") % {"name": participant.name})
    records.withdraw(participant, user)


@versioning.one_action
def set_absence(
    competition: Competition,
    participant: Participant,
    kind: str | None,
    user,
    number: int | None = None,
    shown: str | None = None,
) -> int:
    """Record (kind None: clear) an absence or bye asked for the next round, or for a later round not yet
    paired (`number`); returns its number. The rows of later rounds wait for their pairing.

    `shown` is the presence the TD's page showed ("" present; None: not known), checked as a result is:
    when another entry changed it meanwhile to something else than `kind`, StaleAction names who and when
    and nothing is saved."""
    competition = changed(competition, "absence", user)
    number = max(number or 0, next_round_number(competition))
    if shown is not None:
        _check_absence(competition, number, participant, kind or "", shown)
    records.set_absence(competition, number, participant, kind, user)
    return number


def _check_absence(competition: Competition, number: int, participant: Participant, kind: str, shown: str) -> None:
    bye = Bye.objects.filter(round__competition=competition, round__number=number, participant=participant).first()
    now = bye.kind if bye else ""
    if now in (shown, kind):
        return
    entries = AuditEntry.objects.filter(competition_id=competition.pk, round_number=number,
                                        action__in=("absence", "notice"), params__player=participant.name)  # fmt: skip
    latest = entries.order_by("-id").first()
    values = {"name": participant.name, "n": number, "who": author(latest) if latest else "–",
              "when": moment(latest.at) if latest else "–"}  # fmt: skip
    raise StaleAction(
        _(
            "The presence of %(name)s in round %(n)s changed after your page was shown (by %(who)s at "
            "%(when)s): nothing was saved. Check it, then try again."
        )
        % values,
        code="stale",
    )


@versioning.one_action
def forbid_pair(competition: Competition, pair: ForbiddenPair, user, based_on: int | None = None) -> ForbiddenPair:
    """Two participants who must not meet (the form has checked them); refused for a system that cannot
    honour it (round robin, knockout: the table or the draw fixes who meets whom). `based_on`: what the
    TD's page showed of the forbidden pairs (`seen`, `FORBIDDEN_ACTIONS`)."""
    competition = changed(competition, "forbid-pair", user)
    check_seen(competition, FORBIDDEN_ACTIONS, based_on)
    if not competition.engine.forbidden_pairs:
        raise ValidationError(_("%(system)s cannot honour forbidden pairs.") % {"system": competition.system_name})
    pair.competition = competition
    pair.created_by = user
    pair.save()
    record(user, "forbid-pair", pair, None, values(pair, "first", "second", "first_round", "last_round"))
    return pair


@versioning.one_action
def allow_pair(competition: Competition, pair: ForbiddenPair | None, user, based_on: int | None = None) -> None:
    """Lift a ban: the two may be paired against each other again; `based_on` as for `forbid_pair` (a
    pair lifted meanwhile, None here, is refused by it when known)."""
    competition = changed(competition, "allow-pair", user)
    check_seen(competition, FORBIDDEN_ACTIONS, based_on)
    if pair is None:
        raise ValidationError(_("This pair may meet already; reload the page."))
    record(user, "allow-pair", pair, values(pair, "first", "second", "first_round", "last_round"), None)
    pair.delete()
