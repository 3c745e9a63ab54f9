"""The writes of the entries app, each in one transaction with its audit row.

A player's entry is checked against the TD's settings and the entries already made, then saved; the
TD's decisions (accept, refuse, merge, waiting list, withdraw, paid, arrived) change it. Each decision
carries what the TD's page showed of the entry (`seen`: the id of the audit log's latest entry about it),
checked under the entry's lock: a decision on an entry another TD (or the player) changed meanwhile is
refused, naming who did what and when (`pairing.services.check_basis`); so are the entry settings and
closing check-in. Whenever a place comes free in a full field (a player withdraws or lets an offer lapse,
the TD refuses or withdraws one, or raises the maximum), `offer_free_places` offers it to the first on the
waiting list, who has the TD's number of hours to confirm it (`confirm_offer`); `expire_offers` (a command
run from cron) passes a lapsed offer to the next. Accepting enters the player through `pairing.services`
(the one writer of participants), in the same transaction that marks the entry accepted, so either both
happen or neither. Mails are sent by the job worker once the transaction has committed (`entries.tasks`).
"""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.log import record, values
from audit.models import AuditEntry
from clubs.models import Member
from pairing import services
from ratings.lists import name_key
from tournaments.models import Bye, Competition

from . import lookup
from .models import Entry, EntrySettings

# What the audit log keeps of an entry, before and after a decision (never the e-mail or birth year).
AUDITED = ("status", "reason", "member", "participant", "paid", "arrived", "offer_expires_at")
# What the check-in page shows, by the audit log's actions that change it.
CHECK_IN_ACTIONS = ("entry-accept", "entry-merge", "entry-arrived", "entry-withdraw", "entry-remove", "check-in-close")


def settings_of(competition: Competition) -> EntrySettings:
    found = EntrySettings.objects.filter(competition=competition).first()
    return found or EntrySettings(competition=competition)


def _mail(entry: Entry, kind: str) -> None:
    from .tasks import send_entry_mail

    entry_id = entry.pk
    transaction.on_commit(lambda: send_entry_mail.enqueue(entry_id, kind))


def accepted_count(competition: Competition) -> int:
    return competition.entries.filter(status=Entry.Status.ACCEPTED).count()


HOLDING = (Entry.Status.ACCEPTED, Entry.Status.PENDING, Entry.Status.OFFERED)


def places_taken(competition: Competition) -> int:
    """Entries holding a place: accepted, those the TD has still to decide on, and places offered."""
    return competition.entries.filter(status__in=HOLDING).count()


def double_of(entry: Entry) -> Entry | None:
    """An active entry of the same player in the competition: same FIDE id, same national id, or same name
    and year of birth."""
    others = entry.competition.entries.filter(status__in=[*HOLDING, Entry.Status.WAITING]).exclude(pk=entry.pk)
    for field in ("fide_id", "national_id"):
        value = getattr(entry, field).lstrip("0")
        if value:
            for other in others.exclude(**{field: ""}):
                if getattr(other, field).lstrip("0") == value:
                    return other
    key = name_key(entry.first_name, entry.last_name)
    for other in others:
        if name_key(other.first_name, other.last_name) == key and other.birth_year == entry.birth_year:
            return other
    return None


def eligibility_problems(entry: Entry, rules: EntrySettings, found: lookup.Found | None) -> list[str]:
    """Why the TD's settings refuse the entry: members only, the rating range, the range of birth years."""
    problems = []
    if rules.members_only and (found is None or not found.is_member):
        problems.append(_("Only members of the club may enter; we could not find you among them by id or name."))
    rating = entry.rating
    if rules.min_rating is not None and rating < rules.min_rating:
        problems.append(_("This competition is for ratings of %(n)s and higher; the club's lists give you %(r)s.")
                        % {"n": rules.min_rating, "r": rating or _("no rating")})  # fmt: skip
    if rules.max_rating is not None and rating > rules.max_rating:
        problems.append(_("This competition is for ratings up to %(n)s; the club's lists give you %(r)s.")
                        % {"n": rules.max_rating, "r": rating})  # fmt: skip
    year = entry.birth_year
    if (rules.min_birth_year or rules.max_birth_year) and year is None:
        problems.append(_("This competition has an age range: give your year of birth."))
    elif rules.min_birth_year and year < rules.min_birth_year:
        problems.append(_("Players born in %(y)s or later may enter.") % {"y": rules.min_birth_year})
    elif rules.max_birth_year and year > rules.max_birth_year:
        problems.append(_("Players born in %(y)s or earlier may enter.") % {"y": rules.max_birth_year})
    return problems


def fill_from_lists(entry: Entry) -> lookup.Found | None:
    """Title and ratings from the rating lists (the typed data stays as typed, for the TD to compare)."""
    found = lookup.find(entry.competition.club, entry.fide_id, entry.national_id, entry.first_name, entry.last_name,
                        entry.birth_year)  # fmt: skip
    if found is not None:
        entry.title = found.title
        entry.fide_rating = found.fide_rating
        entry.national_rating = found.national_rating
    return found


@transaction.atomic
def submit(entry: Entry) -> Entry:
    """Save a player's entry (a valid form's unsaved instance); ValidationError when it may not be made.

    Refused, with nothing saved: the form is closed, the player does not fit the TD's settings, or he has
    entered already. Over the maximum the entry goes to the waiting list.
    """
    competition = Competition.objects.select_for_update().get(pk=entry.competition_id)
    rules = settings_of(competition)
    if not rules.is_open():
        raise ValidationError(_("Entries for this competition are closed."))
    found = fill_from_lists(entry)
    problems = eligibility_problems(entry, rules, found)
    if problems:
        raise ValidationError(problems)
    if double_of(entry) is not None:
        raise ValidationError(_("%(name)s has already entered this competition.") % {"name": entry.full_name})
    if rules.max_players and places_taken(competition) >= rules.max_players:
        entry.status = Entry.Status.WAITING
    entry.save()
    record(None, "entry", entry, None, values(entry, "status", "federation", "club_name", "fide_id", "national_id"))
    _mail(entry, "receipt")
    return entry


def _entry_log(competition_id: int):
    return AuditEntry.objects.filter(competition_id=competition_id, object_type="entry")


def seen(competition: Competition) -> dict[int, int]:
    """What the TD's page shows of each entry of the competition: its latest audit entry's id, by entry."""
    latest = _entry_log(competition.pk).values("object_id").annotate(latest=Max("id"))
    return {int(row["object_id"]): row["latest"] for row in latest if row["object_id"].isdigit()}


def _locked(entry: Entry, based_on: int | None = None) -> Entry:
    """The entry, locked, read afresh; refused (StaleAction) when it changed since the TD's page showed
    `based_on` (`seen`; None: not known, not checked)."""
    entry = Entry.objects.select_for_update(of=("self",)).select_related("competition__club", "member").get(pk=entry.pk)
    services.check_basis(_entry_log(entry.competition_id).filter(object_id=str(entry.pk)), based_on)
    return entry


def page_seen(competition: Competition, actions: tuple[str, ...]) -> int:
    """What the check-in page (`CHECK_IN_ACTIONS`) or the entry settings (("entry-settings",)) are based on."""
    return services.latest_id(AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions))


def _lock_competition(competition: Competition, actions: tuple[str, ...], based_on: int | None) -> Competition:
    """The competition's row lock, then the check of what the page showed among `actions` of its log."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    services.check_basis(AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions), based_on)
    return competition


def _decided(entry: Entry, user, status: str, before: dict, action: str) -> Entry:
    entry.status = status
    entry.decided_at = timezone.now()
    entry.decided_by = user if getattr(user, "is_authenticated", False) else None
    entry.save()
    record(user, action, entry, before, values(entry, *AUDITED))
    return entry


def _same_id_member(entry: Entry) -> Member | None:
    club = entry.competition.club
    for field in ("fide_id", "national_id"):
        value = getattr(entry, field).strip()
        if value and (hit := club.members.filter(**{field: value}).first()):
            return hit
    return None


@transaction.atomic
def accept(entry: Entry, user, member: Member | None = None, based_on: int | None = None) -> Entry:
    """The TD accepts an entry: the player becomes a participant, as a new guest of the club or, `member`
    given, as that member or earlier guest (a merge). Refused when the field is full; `based_on` as for
    `_locked`."""
    entry = _locked(entry, based_on)
    competition = entry.competition
    if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITING, Entry.Status.OFFERED):
        raise ValidationError(_("%(name)s's entry is %(status)s: it cannot be accepted.")
                              % {"name": entry.full_name, "status": entry.get_status_display()})  # fmt: skip
    rules = settings_of(competition)
    if rules.max_players and accepted_count(competition) >= rules.max_players:
        raise ValidationError(_("The field is full (%(n)s players).") % {"n": rules.max_players})
    before = values(entry, *AUDITED)
    if member is None:
        if (same := _same_id_member(entry)) is not None:
            raise ValidationError(_("%(member)s has the same id: merge the entry with that member instead.")
                                  % {"member": same.full_name})  # fmt: skip
        participant = services.add_guest(competition, _guest(entry), user)
    else:
        if member.club_id != competition.club_id:
            raise ValidationError(_("Choose a member of the club."))
        participant = services.add_participants(competition, [member], user)[0]
    entry.member, entry.participant = participant.member, participant
    _decided(entry, user, Entry.Status.ACCEPTED, before, "entry-accept" if member is None else "entry-merge")
    _mail(entry, "accepted")
    return entry


def _guest(entry: Entry) -> Member:
    """The unsaved guest an accepted entry makes: the typed name, the lists' title and ratings."""
    return Member(
        first_name=entry.first_name, last_name=entry.last_name, sex=entry.sex, federation=entry.federation.upper(),
        fide_id=entry.fide_id, national_id=entry.national_id, title=entry.title if entry.title in Member.Title.values
        else "", fide_rating=entry.fide_rating, national_rating=entry.national_rating,
    )  # fmt: skip


@transaction.atomic
def refuse(entry: Entry, user, reason: str, based_on: int | None = None) -> Entry:
    entry = _locked(entry, based_on)
    if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITING, Entry.Status.OFFERED):
        raise ValidationError(_("%(name)s's entry is %(status)s: it cannot be refused.")
                              % {"name": entry.full_name, "status": entry.get_status_display()})  # fmt: skip
    before = values(entry, *AUDITED)
    entry.reason = reason.strip()
    _decided(entry, user, Entry.Status.REFUSED, before, "entry-refuse")
    _mail(entry, "refused")
    offer_free_places(entry.competition, user)
    return entry


@transaction.atomic
def to_waiting_list(entry: Entry, user, based_on: int | None = None) -> Entry:
    entry = _locked(entry, based_on)
    if entry.status != Entry.Status.PENDING:
        raise ValidationError(_("Only an entry waiting for the TD goes to the waiting list."))
    return _decided(entry, user, Entry.Status.WAITING, values(entry, *AUDITED), "entry-wait")


@transaction.atomic
def set_flag(entry: Entry, user, flag: str, value: bool, based_on: int | None = None) -> Entry:
    """The TD marks an entry paid (or not), or its player arrived (or not); `based_on` as for `_locked`."""
    if flag not in ("paid", "arrived"):
        raise ValidationError(_("Nothing to change."))
    entry = _locked(entry, based_on)
    before = values(entry, *AUDITED)
    setattr(entry, flag, value)
    entry.save(update_fields=[flag])
    record(user, f"entry-{flag}", entry, before, values(entry, *AUDITED))
    return entry


@transaction.atomic
def withdraw(entry: Entry) -> Entry:
    """The player withdraws through his link: an accepted player is withdrawn from the competition. His
    place, if he held one, is offered to the first on the waiting list."""
    entry = _locked(entry)
    if not entry.active:
        raise ValidationError(_("This entry is %(status)s already.") % {"status": entry.get_status_display()})
    _withdrawn(entry, None, "entry-withdraw")
    return entry


def _withdrawn(entry: Entry, user, action: str) -> None:
    before = values(entry, *AUDITED)
    if entry.status == Entry.Status.ACCEPTED and entry.participant is not None:
        services.withdraw(entry.participant, user)
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    record(user, action, entry, before, values(entry, *AUDITED))
    offer_free_places(entry.competition, user)


@transaction.atomic
def remove(entry: Entry, user, based_on: int | None = None) -> Entry:
    """The TD withdraws an accepted entry (the player leaves the competition through `pairing.services`) or
    one still waiting for his decision; the place goes to the first on the waiting list. `based_on` as for
    `_locked`."""
    entry = _locked(entry, based_on)
    if entry.status not in (Entry.Status.ACCEPTED, Entry.Status.PENDING, Entry.Status.OFFERED):
        raise ValidationError(_("%(name)s's entry is %(status)s: it cannot be withdrawn.")
                              % {"name": entry.full_name, "status": entry.get_status_display()})  # fmt: skip
    entry.decided_at = timezone.now()
    entry.decided_by = user if getattr(user, "is_authenticated", False) else None
    entry.save(update_fields=["decided_at", "decided_by"])
    _withdrawn(entry, user, "entry-remove")
    return entry


# The waiting list --------------------------------------------------------------------------------


def offer_free_places(competition: Competition, user=None, now=None) -> list[Entry]:
    """Offer every free place of a full field (a maximum set) to the first entries of the waiting list, in
    the order they came in: each gets a mail with his link and `offer_hours` to confirm. Call it inside
    the write that freed the place; the competition is locked so that two such writes offer a place once."""
    rules = settings_of(Competition.objects.select_for_update().get(pk=competition.pk))
    if not rules.max_players:
        return []
    free = rules.max_players - places_taken(competition)
    if free <= 0:
        return []
    now = now or timezone.now()
    first = competition.entries.select_for_update().filter(status=Entry.Status.WAITING).order_by("created_at", "id")
    offered = list(first[:free])
    for entry in offered:
        before = values(entry, *AUDITED)
        entry.status = Entry.Status.OFFERED
        entry.offer_expires_at = now + timedelta(hours=rules.offer_hours)
        entry.save(update_fields=["status", "offer_expires_at"])
        record(user, "entry-offer", entry, before, values(entry, *AUDITED))
        _mail(entry, "offer")
    return offered


@transaction.atomic
def confirm_offer(entry: Entry, now=None) -> Entry:
    """The player takes the offered place through his link before the offer lapses: his entry holds the
    place and waits for the TD's decision, as any entry does."""
    entry = _locked(entry)
    now = now or timezone.now()
    if entry.status != Entry.Status.OFFERED:
        raise ValidationError(_("No place is offered to you: your entry is %(status)s.")
                              % {"status": entry.get_status_display()})  # fmt: skip
    if entry.offer_expires_at is not None and now >= entry.offer_expires_at:
        raise ValidationError(_("The offer has lapsed: the place has passed to the next on the waiting list."))
    before = values(entry, *AUDITED)
    entry.status = Entry.Status.PENDING
    entry.save(update_fields=["status"])
    record(None, "entry-confirm", entry, before, values(entry, *AUDITED))
    return entry


def expire_offers(now=None) -> int:
    """Every offer not confirmed in time lapses (the entry is withdrawn, with a mail saying so) and its place
    is offered to the next on the waiting list; one transaction per entry. Returns how many lapsed."""
    now = now or timezone.now()
    lapsed = 0
    due = Entry.objects.filter(status=Entry.Status.OFFERED, offer_expires_at__lte=now).order_by("offer_expires_at")
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            entry = Entry.objects.select_for_update().select_related("competition").get(pk=pk)
            if entry.status != Entry.Status.OFFERED or entry.offer_expires_at > now:
                continue  # confirmed meanwhile
            before = values(entry, *AUDITED)
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
            record(None, "entry-offer-expired", entry, before, values(entry, *AUDITED))
            _mail(entry, "expired")
            offer_free_places(entry.competition, None, now)
            lapsed += 1
    return lapsed


@transaction.atomic
def close_check_in(competition: Competition, user, based_on: int | None = None) -> tuple[int, int]:
    """Before round 1 is paired: every accepted player who has not arrived is absent from round 1 (left out
    of its pairing, `pairing.services.set_absence`); one who arrived since has that absence lifted.
    Returns (absent, present). `based_on`: what the check-in page showed (`CHECK_IN_ACTIONS`)."""
    competition = _lock_competition(competition, CHECK_IN_ACTIONS, based_on)
    if services.next_round_number(competition) != 1:
        raise ValidationError(_("Round 1 is paired: check-in is over."))
    absent = present = 0
    accepted = competition.entries.filter(status=Entry.Status.ACCEPTED, participant__isnull=False)
    byes = dict(Bye.objects.filter(round__competition=competition, round__number=1).values_list("participant", "kind"))
    for entry in accepted.select_related("participant__member"):
        participant = entry.participant
        if participant.withdrawn:
            continue
        if not entry.arrived:
            absent += 1
            if byes.get(participant.pk) != Bye.Kind.ABSENT:
                services.set_absence(competition, participant, Bye.Kind.ABSENT, user)
        else:
            present += 1
            if byes.get(participant.pk) == Bye.Kind.ABSENT:
                services.set_absence(competition, participant, None, user)
    record(user, "check-in-close", competition, None, {"absent": absent, "present": present})
    return absent, present


@transaction.atomic
def save_settings(rules: EntrySettings, user, based_on: int | None = None) -> EntrySettings:
    """The entry form's settings; `based_on` what the TD's page showed of them (the log's "entry-settings")."""
    _lock_competition(rules.competition, ("entry-settings",), based_on)
    fields = ("open", "opens_at", "closes_at", "max_players", "members_only", "min_rating", "max_rating",
              "min_birth_year", "max_birth_year", "ask_sex", "fee_link", "fee_note", "offer_hours")  # fmt: skip
    old = EntrySettings.objects.filter(pk=rules.pk).first() if rules.pk else None
    rules.save()
    record(user, "entry-settings", rules.competition, values(old, *fields) if old else None, values(rules, *fields))
    offer_free_places(rules.competition, user)  # a higher maximum frees places
    return rules


@transaction.atomic
def remind(competition: Competition, user) -> int:
    """The TD sends the reminder before round 1 to every accepted player not yet reminded; returns how many."""
    due = list(competition.entries.select_for_update().filter(status=Entry.Status.ACCEPTED, reminded_at__isnull=True))
    now = timezone.now()
    for entry in due:
        entry.reminded_at = now
        entry.save(update_fields=["reminded_at"])
        _mail(entry, "reminder")
    record(user, "entry-remind", competition, None, {"players": len(due)})
    return len(due)
