"""Split an event into rating groups, one competition per group (seed 004 §65).

The division is the pure `pairing.engines.groups.rating_groups`: strength order
(DSU rating, title, Elo, lot), groups of the chosen size, the lowest taking the
rest, and outside a round robin only one group with an odd number of players.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.log import record, values
from pairing.engines.groups import rating_groups
from pairing.engines.state import InvalidInput

from . import services, versioning
from .models import Competition, ForbiddenPair, Participant
from .notes import render_note
from .state import CompetitionData


def divide(competition: Competition, size: int) -> list[list[Participant]]:
    """The groups the event would have with groups of `size`, strongest group first."""
    data = CompetitionData.load(competition)
    by_start = {p.start_number: p for p in data.participants if not p.withdrawn}
    players = [p for p in data.state().players if p.id in by_start]
    try:
        groups = rating_groups(players, size, round_robin=competition.engine.scheduled, seed=competition.seed)
    except InvalidInput as error:
        raise ValidationError(render_note(error.note)) from error
    return [[by_start[p.id] for p in group] for group in groups]


@versioning.one_action
def split_into_groups(competition: Competition, size: int, user) -> list[Competition]:
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
        entered = {p.member_id: services.add_participant(new, p.member, user) for p in group}
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
