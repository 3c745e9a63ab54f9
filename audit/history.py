"""The audit log as people read it: an action's name, and each changed value from before to after."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    "admin-add": gettext_lazy("added in the admin"),
    "admin-change": gettext_lazy("changed in the admin"),
    "admin-delete": gettext_lazy("deleted in the admin"),
}
# The values' names, as the models and `record`'s callers name them.
FIELDS = {
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
}
PAGE_SIZE = 200


@dataclass
class Change:
    field: str
    before: str
    after: str


def changes(entry: AuditEntry) -> list[Change]:
    """What changed, value by value: the keys of two objects side by side, otherwise the two values."""
    before, after = entry.before, entry.after
    if isinstance(before, dict) and isinstance(after, dict):
        keys = list(dict.fromkeys([*before, *after]))
        return [Change(_field(k), _text(before.get(k)), _text(after.get(k)))
                for k in keys if before.get(k) != after.get(k)]  # fmt: skip
    if isinstance(before, dict) and after is None:
        return [Change(_field(k), _text(v), _text(None)) for k, v in before.items()]
    if isinstance(after, dict) and before is None:
        return [Change(_field(k), _text(None), _text(v)) for k, v in after.items()]
    return [Change("", _text(before), _text(after))]


def _field(key: str) -> str:
    return str(FIELDS.get(key, key))


def _text(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value) or "–"
    if isinstance(value, dict):
        return "\n".join(f"{k}: {_text(v)}" for k, v in value.items()) or "–"
    return str(value)


def render_history(request, entries, context: dict):
    """One page of `entries` (newest first), each with its action's name and its changes."""
    page = Paginator(entries.order_by("-at", "-id"), PAGE_SIZE).get_page(request.GET.get("page"))
    for entry in page:
        entry.action_name = ACTIONS.get(entry.action, entry.action)
        entry.changes = changes(entry)
    return render(request, "audit/history.html", context | {"page": page})
