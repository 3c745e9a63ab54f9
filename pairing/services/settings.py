"""A competition's settings: the pairing system's settings and presets, the time control, a cup's match format
and a team event's teams, the tie-breaks and the rule for unrated opponents, the prize table, the split into
rating groups. Each action passes the guard (`guard.changed`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.log import record, values
from tournaments import prizes, versioning
from tournaments.groups import divide
from tournaments.models import Competition, ForbiddenPair, PrizeTable

from . import records
from .guard import (
    GROUP_ACTIONS,
    PRIZE_ACTIONS,
    SETTINGS_ACTIONS,
    TIEBREAK_ACTIONS,
    TIME_CONTROL_ACTIONS,
    changed,
    check_seen,
    settings_values,
)


@versioning.one_action
def save_settings(
    competition: Competition,
    settings: dict,
    user,
    override: bool = False,
    preset: str = "",
    gladiator: dict[str, int] | None = None,
    based_on: int | None = None,
) -> None:
    """The pairing system's settings (validated by the system when saved), recorded as a TD action;
    `gladiator` holds the Gladiator variation (`gladiator_ordinary_games`, `gladiator_replays`);
    `based_on` what the TD's page showed of the settings (`seen`, `SETTINGS_ACTIONS`)."""
    competition = changed(competition, "settings", user)
    check_seen(competition, SETTINGS_ACTIONS, based_on)
    before = settings_values(competition)
    competition.settings = settings
    for name, value in (gladiator or {}).items():
        setattr(competition, name, value)
    competition.full_clean(validate_unique=False, validate_constraints=False)
    competition.save()
    action = "settings-override" if override else "settings"
    params = {"preset": preset} if preset else None
    record(user, action, competition, before, settings_values(competition), params=params)


@versioning.one_action
def set_time_control(competition: Competition, time_control: str, user, based_on: int | None = None) -> None:
    """The time control the FIDE rating report rates the games by (standard, rapid, blitz), recorded;
    `based_on` what the report page showed of it (`seen`, `TIME_CONTROL_ACTIONS`)."""
    if time_control not in Competition.TimeControl.values:
        raise ValidationError(_("Unknown time control %(value)s.") % {"value": time_control})
    competition = changed(competition, "time-control", user)
    check_seen(competition, TIME_CONTROL_ACTIONS, based_on)
    before = settings_values(competition)
    competition.time_control = time_control
    competition.save()
    record(user, "time-control", competition, before, settings_values(competition))


@versioning.one_action
def save_format(
    competition: Competition, settings: dict, user, fixed_message: str, based_on: int | None = None
) -> None:
    """Settings that hold only until round 1 is paired (a cup's match format, the teams of a team event);
    `based_on` as for `save_settings`."""
    competition = changed(competition, "settings", user)
    check_seen(competition, SETTINGS_ACTIONS, based_on)
    if competition.round_set.paired().exists():
        raise ValidationError(fixed_message)
    before = {"settings": dict(competition.settings)}
    competition.settings = {**competition.settings, **settings}
    competition.save(update_fields=["settings"])
    action = "cup-format" if competition.engine.bracket else "teams"
    record(user, action, competition, before, {"settings": competition.settings})


@versioning.one_action
def set_tiebreaks(
    competition: Competition,
    codes: list[str],
    user,
    override: bool = False,
    unrated: tuple[str, int | None] | None = None,
    based_on: int | None = None,
) -> None:
    """The tie-break list and, when given, the rule for unrated opponents (C.07 art. 10); `based_on` what the
    TD's page showed of them (`seen`, `TIEBREAK_ACTIONS`)."""
    competition = changed(competition, "tiebreaks", user)
    check_seen(competition, TIEBREAK_ACTIONS, based_on)
    _set_tiebreaks(competition, codes, user, override)
    if unrated is not None:
        _set_unrated(competition, unrated[0], unrated[1], user, override)


@versioning.one_action
def save_prize_table(table: PrizeTable, user, based_on: int | None = None) -> PrizeTable:
    """Save the prize table (a form's validated instance); `based_on` what the TD's page showed of it
    (`seen`, `PRIZE_ACTIONS`)."""
    competition = changed(table.competition, "prizes", user)
    check_seen(competition, PRIZE_ACTIONS, based_on)
    fields = ("sharing", "one_prize_each", "currency", "age_on", "main", "groups")
    old = PrizeTable.objects.filter(pk=table.pk).first() if table.pk else None
    table.save()
    record(user, "prizes", table, values(old, *fields) if old else None, values(table, *fields))
    return table


@versioning.one_action
def split_into_groups(competition: Competition, size: int, user, based_on: int | None = None) -> list[Competition]:
    """One competition per rating group; `based_on` what the preview showed (`seen`, `GROUP_ACTIONS`: the
    entries it divided, an earlier split)."""
    competition = changed(competition, "split-groups", user)
    check_seen(competition, GROUP_ACTIONS, based_on)
    return _split_into_groups(competition, size, user)


def _set_tiebreaks(competition: Competition, codes: list[str], user, override: bool = False) -> None:
    """Store the list (empty: the system's regulation); after round 1 only with an override, recorded."""
    versioning.bump(competition)
    new = [] if codes == prizes.competition_defaults(competition) else codes
    old = list(competition.tiebreaks or [])
    if new == old:
        return
    paired = prizes.last_paired_round(competition)
    locked = paired > 0
    if locked and not override:
        raise ValidationError(
            _("Round 1 has been paired: the tie-breaks can only change with an explicit override, which is recorded.")
        )
    competition.tiebreaks = new
    competition.save(update_fields=["tiebreaks"])
    record(user, "tiebreaks-override" if locked else "tiebreaks", competition, {"tiebreaks": old}, {"tiebreaks": new})


def _set_unrated(competition: Competition, how: str, rating: int | None, user, override: bool = False) -> None:
    """How the rating-based tie-breaks treat unrated opponents (C.07 art. 10); locked like the list."""
    versioning.bump(competition)
    rating = rating if how == Competition.UnratedOpponents.RATING else None
    if (how, rating) == (competition.unrated_opponents, competition.unrated_rating):
        return
    paired = prizes.last_paired_round(competition)
    if paired and not override:
        raise ValidationError(
            _("Round 1 has been paired: the tie-breaks can only change with an explicit override, which is recorded.")
        )
    fields = ("unrated_opponents", "unrated_rating")
    before = values(competition, *fields)
    competition.unrated_opponents, competition.unrated_rating = how, rating
    competition.save(update_fields=list(fields))
    action = "unrated-opponents-override" if paired else "unrated-opponents"
    record(user, action, competition, before, values(competition, *fields))


def _split_into_groups(competition: Competition, size: int, user) -> list[Competition]:
    """One new competition per rating group, with the event's system and settings; the event itself stays.
    A forbidden pair whose two players land in the same group is forbidden there too."""
    versioning.bump(competition)
    if competition.round_set.paired().exists():
        raise ValidationError(_("Split the event into groups before round 1 is paired."))
    groups = divide(competition, size)
    if len(groups) < 2:
        raise ValidationError(_("With groups of %(n)s there is only one group.") % {"n": size})
    bans = list(ForbiddenPair.objects.filter(competition=competition).select_related("first", "second"))
    created = []
    for number, group in enumerate(groups, 1):
        slug = f"{competition.slug[:45]}-{number}"
        if Competition.objects.filter(club=competition.club, slug=slug).exists():
            raise ValidationError(
                _("The club already has a competition with the short name %(slug)s.") % {"slug": slug}
            )
        new = Competition.objects.create(
            club=competition.club,
            season=competition.season,
            name=_("%(name)s, group %(n)s") % {"name": competition.name, "n": number},
            slug=slug,
            system=competition.system,
            settings=dict(competition.settings),
            rounds=competition.rounds,
            tiebreaks=list(competition.tiebreaks),
            late_entry_points=competition.late_entry_points,
        )
        record(user, "competition-create", new, None, values(new, "name", "slug", "system", "settings", "rounds"))
        entered = {p.member_id: records.add_participant(new, p.member, user) for p in group}
        for ban in bans:
            if ban.first.member_id in entered and ban.second.member_id in entered:
                ForbiddenPair.objects.create(
                    competition=new,
                    first=entered[ban.first.member_id],
                    second=entered[ban.second.member_id],
                    first_round=ban.first_round,
                    last_round=ban.last_round,
                    created_by=user,
                )
        created.append(new)
    sizes = [len(group) for group in groups]
    record(user, "split-groups", competition, None, [c.name for c in created], params={"group_sizes": sizes})
    return created
