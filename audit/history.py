"""The audit log as people read it, in the reader's language: an action's name, what it was about, its
parameters, and each changed value from before to after.

Entries hold codes and values (`audit.log.record`); the words are found here when the page is read. An
app whose models store codes (a round's status, a bye's kind) names their labels once, at start-up, with
`describe_codes`, as the engines declare their notes: the log shows "half-point bye", "halve bye" or
"halv bye", never `half-bye`. Entries written before the log held codes show what they stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from .models import AuditEntry

ACTIONS = {
    "result": gettext_lazy("result"),
    "result-override": gettext_lazy("result in a finished round (override)"),
    "club-match-result": gettext_lazy("club match result"),
    "pair": gettext_lazy("round paired"),
    "publish": gettext_lazy("round published"),
    "finish": gettext_lazy("round closed"),
    "undo-round": gettext_lazy("round undone"),
    "exchange-players": gettext_lazy("players exchanged"),
    "swap-colours": gettext_lazy("colours swapped"),
    "add-games": gettext_lazy("games added"),
    "remove-games": gettext_lazy("games removed"),
    "competition-create": gettext_lazy("competition created"),
    "settings": gettext_lazy("settings"),
    "settings-override": gettext_lazy("settings (override)"),
    "cup-format": gettext_lazy("match format"),
    "teams": gettext_lazy("teams"),
    "tiebreaks": gettext_lazy("tie-breaks"),
    "tiebreaks-override": gettext_lazy("tie-breaks (override)"),
    "prizes": gettext_lazy("prize table"),
    "split-groups": gettext_lazy("split into rating groups"),
    "participant-add": gettext_lazy("player entered"),
    "late-entry": gettext_lazy("late entry"),
    "presence": gettext_lazy("presence set by the TD"),
    "notice": gettext_lazy("absence reported by the player"),
    "unrated-opponents": gettext_lazy("unrated opponents"),
    "unrated-opponents-override": gettext_lazy("unrated opponents (override)"),
    "withdraw": gettext_lazy("player withdrawn"),
    "forbid-pair": gettext_lazy("pair forbidden"),
    "time-control": gettext_lazy("time control"),
    "allow-pair": gettext_lazy("forbidden pair lifted"),
    "absence": gettext_lazy("absence"),
    "member-add": gettext_lazy("member added"),
    "import-members": gettext_lazy("members imported"),
    "import-trf": gettext_lazy("TRF imported"),
    "rating-list": gettext_lazy("rating list applied"),
    "rating-list-read": gettext_lazy("rating list read"),
    "rating-list-load": gettext_lazy("full rating list loaded"),
    "club-started": gettext_lazy("club started"),
    "club-language": gettext_lazy("club's language"),
    "invite-td": gettext_lazy("TD invited"),
    "td-added": gettext_lazy("TD added"),
    "season-added": gettext_lazy("season added"),
    "nights-added": gettext_lazy("club nights added"),
    "night-moved": gettext_lazy("club night moved"),
    "night-changed": gettext_lazy("club night changed"),
    "night-removed": gettext_lazy("club night removed"),
    "rounds-planned": gettext_lazy("rounds planned"),
    "sign-off-rules": gettext_lazy("sign-off rules"),
    "member-login": gettext_lazy("member's login"),
    "invite-member": gettext_lazy("member invited to link a login"),
    "invitation-revoked": gettext_lazy("invitation revoked"),
    "account-created": gettext_lazy("account made"),
    "password-change": gettext_lazy("password changed"),
    "email-change": gettext_lazy("e-mail address changed"),
    "account-change": gettext_lazy("account changed"),
    "password-reset": gettext_lazy("password reset"),
    "entry": gettext_lazy("online entry"),
    "entry-accept": gettext_lazy("entry accepted"),
    "entry-merge": gettext_lazy("entry accepted as a known player"),
    "entry-refuse": gettext_lazy("entry refused"),
    "entry-wait": gettext_lazy("entry on the waiting list"),
    "entry-paid": gettext_lazy("entry fee"),
    "entry-arrived": gettext_lazy("arrival"),
    "entry-withdraw": gettext_lazy("entry withdrawn by the player"),
    "entry-remove": gettext_lazy("entry withdrawn by the TD"),
    "entry-offer": gettext_lazy("place offered from the waiting list"),
    "entry-confirm": gettext_lazy("offered place confirmed"),
    "entry-offer-expired": gettext_lazy("offered place not confirmed in time"),
    "entry-settings": gettext_lazy("entry form settings"),
    "entry-remind": gettext_lazy("reminders sent"),
    "check-in-close": gettext_lazy("check-in closed"),
    "admin-add": gettext_lazy("added in the admin"),
    "admin-change": gettext_lazy("changed in the admin"),
    "admin-delete": gettext_lazy("deleted in the admin"),
    "league-create": gettext_lazy("team league created"),
    "league-team-add": gettext_lazy("team added to the league"),
    "league-roster": gettext_lazy("team roster"),
    "league-captain": gettext_lazy("team captain"),
    "league-schedule": gettext_lazy("league schedule made"),
    "league-import": gettext_lazy("league imported from a TRF"),
    "league-match-date": gettext_lazy("match date"),
    "league-lineup": gettext_lazy("line-up"),
    "league-result": gettext_lazy("board result in a team match"),
    "league-confirm": gettext_lazy("team match result confirmed by a captain"),
    "league-dispute": gettext_lazy("team match result disputed by a captain"),
    "league-settle": gettext_lazy("disputed team match result settled"),
    "club-remove": gettext_lazy("club removed with all its data"),
}
# The values' names, as the models and `record`'s callers name them.
FIELDS = {
    "reason": gettext_lazy("reason"),
    "participant": gettext_lazy("player"),
    "paid": gettext_lazy("paid"),
    "arrived": gettext_lazy("arrived"),
    "club_name": gettext_lazy("club"),
    "absent": gettext_lazy("absent"),
    "present": gettext_lazy("present"),
    "opens_at": gettext_lazy("open from"),
    "closes_at": gettext_lazy("open until"),
    "max_players": gettext_lazy("maximum number of players"),
    "language": gettext_lazy("language"),
    "result": gettext_lazy("result"),
    "status": gettext_lazy("status"),
    "member": gettext_lazy("member"),
    "rating": gettext_lazy("rating"),
    "joined_round": gettext_lazy("joined in round"),
    "withdrawn_after": gettext_lazy("withdrawn after round"),
    "points": gettext_lazy("points"),
    "settings": gettext_lazy("system settings"),
    "tiebreaks": gettext_lazy("tiebreaks"),
    "name": gettext_lazy("name"),
    "slug": gettext_lazy("short name"),
    "system": gettext_lazy("pairing system"),
    "rounds": gettext_lazy("number of rounds"),
    "first": gettext_lazy("player"),
    "second": gettext_lazy("must not meet"),
    "first_round": gettext_lazy("from round"),
    "last_round": gettext_lazy("to round"),
    "gladiator": gettext_lazy("Gladiator model"),
    "late_entry_points": gettext_lazy("points for rounds missed by a late entry"),
    "time_control": gettext_lazy("time control"),
    "season": gettext_lazy("season"),
    "previous": gettext_lazy("start ranking from"),
    "games": gettext_lazy("games"),
    "byes": gettext_lazy("byes"),
    "first_name": gettext_lazy("first name"),
    "last_name": gettext_lazy("last name"),
    "sex": gettext_lazy("sex"),
    "birth_date": gettext_lazy("birth date"),
    "title": gettext_lazy("FIDE title"),
    "fide_id": gettext_lazy("FIDE id"),
    "fide_rating": gettext_lazy("FIDE rating"),
    "federation": gettext_lazy("federation"),
    "national_id": gettext_lazy("national id"),
    "national_rating": gettext_lazy("national rating"),
    "is_guest": gettext_lazy("guest"),
    "sharing": gettext_lazy("equal points"),
    "one_prize_each": gettext_lazy("one prize per player"),
    "currency": gettext_lazy("currency"),
    "age_on": gettext_lazy("ages on"),
    "main": gettext_lazy("prizes"),
    "groups": gettext_lazy("prize groups"),
    "board": gettext_lazy("board"),
    "white": gettext_lazy("white"),
    "black": gettext_lazy("black"),
    "match": gettext_lazy("match"),
    "stage": gettext_lazy("stage"),
    "file": gettext_lazy("file"),
    "players": gettext_lazy("players"),
    "members": gettext_lazy("members"),
    "new guest members": gettext_lazy("new guest members"),
    "unmatched": gettext_lazy("not matched"),
    "email": gettext_lazy("e-mail address"),
    "user": gettext_lazy("user"),
    "username": gettext_lazy("user name"),
    "password": gettext_lazy("password"),
    "role": gettext_lazy("role"),
    "changed": gettext_lazy("changed"),
    "night": gettext_lazy("club night"),
    "date": gettext_lazy("date"),
    "start": gettext_lazy("start time"),
    "end": gettext_lazy("end time"),
    "kind": gettext_lazy("kind"),
    "note": gettext_lazy("note"),
    "deadline_hours": gettext_lazy("deadline (hours before the night starts)"),
    "half_byes": gettext_lazy("half-point byes a player may request"),
    "open": gettext_lazy("members may sign off online"),
    "player": gettext_lazy("player"),
    "unrated_opponents": gettext_lazy("unrated opponents"),
    "unrated_rating": gettext_lazy("rating of an unrated opponent"),
    "rounds_missed_points": gettext_lazy("points for each round missed"),
    "offer_expires_at": gettext_lazy("offered place open until"),
    "offer_hours": gettext_lazy("hours to confirm an offered place"),
}
# The parameters' names (`record(..., params=...)`).
PARAMS = {
    "players": gettext_lazy("start numbers"),
    "board": gettext_lazy("board"),
    "override": gettext_lazy("override of"),
    "preset": gettext_lazy("preset"),
    "player": gettext_lazy("player"),
    "stage": gettext_lazy("stage"),
    "group_sizes": gettext_lazy("group sizes"),
    "rounds": gettext_lazy("rounds moved with it"),
    "detail": gettext_lazy("details"),
    "team": gettext_lazy("team"),
    "teams": gettext_lazy("teams"),
    "match": gettext_lazy("match"),
    "club_name": gettext_lazy("club"),
    "rank": gettext_lazy("team of the club"),
    "captain": gettext_lazy("captain"),
    "match_id": gettext_lazy("match number"),
    "team_id": gettext_lazy("team number"),
}
# The labels of stored codes, by the name of the value that holds them (filled by `describe_codes`).
CODES: dict[str, dict[str, Any]] = {}
# A code inside a line of text (a bye in `audit.log.boards`): `{half-bye}`.
CODE_IN_TEXT = re.compile(r"\{([a-z][a-z-]*)\}")
# The time of an entry to the second, in each language's way of writing times.
TIME_FORMATS = {"en": "g:i:s a", "nl": "H:i:s", "da": "H:i:s"}
PAGE_SIZE = 200
# The actions that enter or change a game's result.
RESULT_ACTIONS = ("result", "result-override")
# The actions that change a round's boards: a page showing the boards is based on the latest of them.
BOARD_ACTIONS = ("pair", "undo-round", "exchange-players", "swap-colours", "add-games", "remove-games")


@dataclass
class Change:
    field: str
    before: str
    after: str


def describe_codes(name: str, choices: Iterable[tuple[str, Any]]) -> None:
    """The labels of the codes a value called `name` holds (a model's `choices`), for every reader."""
    CODES.setdefault(name, {}).update(choices)


def changes(entry: AuditEntry) -> list[Change]:
    """What changed, value by value: the keys of two objects side by side, otherwise the two values."""
    before, after = entry.before, entry.after
    # An absence of entries written before the log held codes: the player's name, then the kind.
    coded = "kind" if entry.action == "absence" else None
    if isinstance(before, dict) and isinstance(after, dict):
        keys = list(dict.fromkeys([*before, *after]))
        return [Change(_field(k), _text(before.get(k), coded or k), _text(after.get(k), coded or k))
                for k in keys if before.get(k) != after.get(k)]  # fmt: skip
    if isinstance(before, dict) and after is None:
        return [Change(_field(k), _text(v, coded or k), _text(None)) for k, v in before.items()]
    if isinstance(after, dict) and before is None:
        return [Change(_field(k), _text(None), _text(v, coded or k)) for k, v in after.items()]
    return [Change("", _text(before), _text(after))]


def details(entry: AuditEntry) -> list[str]:
    """The entry's parameters, one "name: value" line each, in the reader's language."""
    return [f"{PARAMS.get(key, key)}: {_text(value, key)}" for key, value in (entry.params or {}).items()]


def action_name(entry: AuditEntry) -> str:
    return str(ACTIONS.get(entry.action, entry.action))


def subject(entry: AuditEntry) -> str:
    """What the entry is about: a round by its number (a player's absence in it by the player's name), a
    prize table by its name, anything else by the names it stored."""
    if entry.object_type == "round" and entry.round_number is not None and "player" not in (entry.params or {}):
        return _("round %(n)s") % {"n": entry.round_number}
    if entry.object_type == "prizetable":
        return _("prize table")
    if entry.object_type == "signoffrules":
        return _("sign-off rules")
    return entry.object_label


def author(entry: AuditEntry) -> str:
    """Who made an entry: the user's full name while the account exists, its login name otherwise."""
    user = get_user_model().objects.filter(pk=entry.user_id).first() if entry.user_id else None
    return (user.get_full_name() or user.get_username()) if user else (entry.username or "–")


def moment(at: datetime) -> str:
    """A time to the second, in the reader's language: 28-11-2026 13:33:25, 11/28/2026 1:33:25 p.m."""
    local = timezone.localtime(at)
    language = (get_language() or "en").split("-")[0]
    time = formats.time_format(local, TIME_FORMATS.get(language, "H:i:s"))
    return f"{formats.date_format(local, 'SHORT_DATE_FORMAT')} {time}"


def prepare(entries: Iterable[AuditEntry]) -> list[AuditEntry]:
    """The entries with what a page shows of each: `when`, `action_name`, `subject`, `details`, `changes`."""
    prepared = list(entries)
    for entry in prepared:
        entry.when = moment(entry.at)
        entry.action_name = action_name(entry)
        entry.subject = subject(entry)
        entry.details = details(entry)
        entry.changes = changes(entry)
    return prepared


def _field(key: str) -> str:
    return str(FIELDS.get(key, key))


def _text(value: Any, name: str | None = None) -> str:
    """A stored value in the reader's language; `name` is the value's name, whose codes have labels."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return "\n".join(_text(v, name) for v in value) or "–"
    if isinstance(value, dict):
        return "\n".join(f"{_field(k)}: {_text(v, k)}" for k, v in value.items()) or "–"
    if isinstance(value, str):
        labels = CODES.get(name or "", {})
        if value in labels:
            return str(labels[value])
        return CODE_IN_TEXT.sub(lambda m: str(CODES.get("kind", {}).get(m.group(1), m.group(0))), value)
    return str(value)


def render_history(request, entries, context: dict):
    """One page of `entries` (newest first), each with its action's name and its changes."""
    page = Paginator(entries.order_by("-at", "-id"), PAGE_SIZE).get_page(request.GET.get("page"))
    prepare(page)
    return render(request, "audit/history.html", context | {"page": page})
