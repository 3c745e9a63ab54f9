"""`record`: the one function every write calls to leave its row in the audit log.

    record(user, "result", game, before={"result": ""}, after={"result": "1-0"})

`target` is the object written (a club, competition, round, game, bye, participant, member, prize table,
rating list, ...); the club, competition and round it belongs to are found from it, and kept as ids and
names. `before` and `after` are any JSON-able values (dates and decimals become text); `values` and
`boards` make them from model objects. `params` holds what the action's code needs besides them (start
numbers, a board, the rules an override set aside). Everything stored is a value or a code, never a
word of the writer's language: the log is rendered in the reader's (`audit.history`). Call it inside
the write's transaction: when the write is rolled back, so is its row. Each action is recorded once.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from .models import AuditEntry


def record(
    user, action: str, target=None, before: Any = None, after: Any = None, *, label: str = "", params: Any = None
) -> AuditEntry:
    """Append one row: who (`user`, None for the system), `action`, on `target`, from `before` to `after`."""
    club, competition, round_number = _context(target)
    authenticated = user is not None and getattr(user, "is_authenticated", False)
    return AuditEntry.objects.create(
        user_id=user.pk if authenticated else None,
        username=user.get_username()[:150] if authenticated else "",
        action=action[:40],
        club_id=getattr(club, "pk", None),
        club_name=str(club or "")[:120],
        competition_id=getattr(competition, "pk", None),
        competition_name=str(competition or "")[:120],
        round_number=round_number,
        object_type=target._meta.model_name if target is not None else "",
        object_id=str(target.pk or "") if target is not None else "",
        object_label=(label or _label(target))[:250],
        before=_jsonable(before),
        after=_jsonable(after),
        params=_jsonable(params) or None,
    )


def values(obj, *fields: str) -> dict[str, Any]:
    """The named fields of a model object, related objects by their names: for `before` and `after`."""
    out: dict[str, Any] = {}
    for name in fields:
        field = obj._meta.get_field(name)
        if field.is_relation:
            out[name] = str(getattr(obj, name)) if getattr(obj, field.attname) is not None else None
        else:
            out[name] = field.value_from_object(obj)
    return _jsonable(out)


def boards(rnd, games=None, byes=None) -> dict[str, list[str]]:
    """A round's pairing board by board, and its byes, as names, numbers and codes (a bye's kind is its
    code, shown in the reader's language): for pairing, undo and manual edits. `games` and `byes`: the
    round's rows as the caller holds them already (players and their members loaded), else read here."""
    if games is None:
        games = rnd.games.select_related("white__member", "black__member").order_by("board", "pk")
    if byes is None:
        byes = rnd.byes.select_related("participant__member").order_by("participant__start_number")
    games = [
        f"{g.board}. {g.white.start_number} {g.white.name} – {g.black.start_number} {g.black.name}"
        + (f" {g.result}" if g.result else "")
        for g in sorted(games, key=lambda g: (g.board, g.pk or 0))
    ]
    byes = [
        f"{b.participant.start_number} {b.participant.name}: {{{b.kind}}} ({b.points})"
        for b in sorted(byes, key=lambda b: b.participant.start_number)
    ]
    return {"games": games, "byes": byes}


def _context(target):
    """The club, competition and round number `target` belongs to (None where it has none)."""
    if target is None:
        return None, None, None
    kind = target._meta.model_name
    club = competition = rnd = None
    if kind == "club":
        club = target
    elif kind == "competition":
        competition = target
    else:
        rnd = target if kind == "round" else getattr(target, "round", None)
        if rnd is not None and not hasattr(rnd, "competition"):
            rnd = None
        competition = rnd.competition if rnd is not None else getattr(target, "competition", None)
        club = getattr(target, "club", None)
    if club is None and competition is None:  # a club night, a planned round: through its season
        club = getattr(getattr(target, "season", None), "club", None)
    if competition is not None:
        club = competition.club
    return club, competition, (rnd.number if rnd is not None else None)


def _label(target) -> str:
    """What the row is about, in names and numbers only (the history page adds the words)."""
    if target is None:
        return ""
    kind = target._meta.model_name
    if kind == "game":
        return f"{target.round.number}.{target.board} {target.white.name} – {target.black.name}"
    if kind == "round":
        return f"{target.competition.name} {target.number}"
    if kind == "bye":
        return target.participant.name
    if kind in ("prizetable", "signoffrules"):
        return target.competition.name
    if kind == "clubnight":
        return f"{target.date:%Y-%m-%d}"
    return str(target)


def _jsonable(value: Any) -> Any:
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))
