"""The audit log becomes the one record of a TD's actions: the history of `TDAction` and `ResultChange`
moves into `audit.AuditEntry`, then 0012 removes the two tables.

Until now an action left a row in each. A row already in the audit log (an entry of the same action,
competition, user and round within `SAME_ACTION` of it; for a result, of the same game, from the same
result to the same one) is not copied again. Every other row, from before the audit log or an action only
the old tables held, becomes an entry of its own with its time, user, competition and round; the free
text of a TD action (`detail`) is kept as it was written, under the parameter `detail`, as notes keep
explanations written before notes existed. A TD action whose text says more than its entry (the rules an
override set aside, a preset) is copied too, so nothing it said is lost.

The audit table only takes new rows (its triggers refuse updates and deletes): this migration only adds.
"""

from datetime import timedelta

from django.db import migrations

SAME_ACTION = timedelta(seconds=5)
# A TD action's name -> the audit log's code.
CODES = {
    "exchange": "exchange-players",
    "tiebreaks override": "tiebreaks-override",
    "unrated opponents": "unrated-opponents",
    "unrated opponents override": "unrated-opponents-override",
}
# The audit codes an old action's entry may have (a late entry was recorded as the player's entry, a
# player's notice and the TD's presence decision as an absence).
COUNTERPARTS = {
    "late-entry": ("participant-add", "late-entry"),
    "notice": ("absence", "notice"),
    "presence": ("absence",),
}
# The club's entries of these carry no competition.
CLUB_LEVEL = {"night-moved"}
# Text in a detail that its entry does not hold.
MORE_THAN_THE_ENTRY = ("override:",)
RESULT_CODES = ("result", "result-override")


def _name(member) -> str:
    return f"{member.first_name} {member.last_name}".strip()


def _username(user) -> str:
    return user.username[:150] if user is not None else ""


def _already_logged(code, competition_id, round_number, user_id, at, candidates) -> bool:
    for entry in candidates.get((code, user_id), []):
        if abs(entry.at - at) > SAME_ACTION:
            continue
        if code not in CLUB_LEVEL and entry.competition_id != competition_id:
            continue
        if round_number is not None and entry.round_number is not None and entry.round_number != round_number:
            continue
        return True
    return False


def _index(*querysets) -> dict:
    """Entries by (action, user id); an entry in two of the querysets counts once."""
    by_key: dict = {}
    seen = set()
    for entries in querysets:
        for entry in entries:
            if entry.pk not in seen:
                seen.add(entry.pk)
                by_key.setdefault((entry.action, entry.user_id), []).append(entry)
    return by_key


def move_td_actions(apps, schema_editor):
    TDAction = apps.get_model("tournaments", "TDAction")
    AuditEntry = apps.get_model("audit", "AuditEntry")
    actions = list(TDAction.objects.select_related("competition__club", "user").order_by("at", "id"))
    if not actions:
        return
    candidates = _index(
        AuditEntry.objects.filter(competition_id__in={a.competition_id for a in actions}),
        AuditEntry.objects.filter(action__in=CLUB_LEVEL),
    )
    new = []
    for action in actions:
        code = CODES.get(action.action, action.action)
        says_more = any(text in action.detail for text in MORE_THAN_THE_ENTRY) or (
            code.startswith("settings") and action.detail
        )
        logged = any(
            _already_logged(counterpart, action.competition_id, action.round_number, action.user_id,
                            action.at, candidates)
            for counterpart in COUNTERPARTS.get(action.action, (code,))
        )  # fmt: skip
        if logged and not says_more:
            continue
        competition = action.competition
        new.append(
            AuditEntry(
                at=action.at,
                user_id=action.user_id,
                username=_username(action.user),
                action=code[:40],
                club_id=competition.club_id,
                club_name=competition.club.name[:120],
                competition_id=competition.pk,
                competition_name=competition.name[:120],
                round_number=action.round_number,
                object_type="competition",
                object_id=str(competition.pk),
                object_label=competition.name[:250],
                params={"detail": action.detail} if action.detail else None,
            )
        )
    AuditEntry.objects.bulk_create(new)


def move_result_changes(apps, schema_editor):
    ResultChange = apps.get_model("tournaments", "ResultChange")
    AuditEntry = apps.get_model("audit", "AuditEntry")
    changes = list(
        ResultChange.objects.select_related(
            "game__round__competition__club", "game__white__member", "game__black__member", "changed_by"
        ).order_by("changed_at", "id")
    )
    if not changes:
        return
    logged: dict = {}
    entries = AuditEntry.objects.filter(object_type="game", action__in=RESULT_CODES)
    for entry in entries.filter(object_id__in={str(c.game_id) for c in changes}):
        logged.setdefault(entry.object_id, []).append(entry)
    new = []
    for change in changes:
        before, after = {"result": change.old_result}, {"result": change.new_result}
        if any(
            abs(entry.at - change.changed_at) <= SAME_ACTION and entry.before == before and entry.after == after
            for entry in logged.get(str(change.game_id), [])
        ):
            continue
        game = change.game
        rnd, competition = game.round, game.round.competition
        label = f"{rnd.number}.{game.board} {_name(game.white.member)} – {_name(game.black.member)}"
        new.append(
            AuditEntry(
                at=change.changed_at,
                user_id=change.changed_by_id,
                username=_username(change.changed_by),
                action="result",
                club_id=competition.club_id,
                club_name=competition.club.name[:120],
                competition_id=competition.pk,
                competition_name=competition.name[:120],
                round_number=rnd.number,
                object_type="game",
                object_id=str(game.pk),
                object_label=label[:250],
                before=before,
                after=after,
            )
        )
    AuditEntry.objects.bulk_create(new)


def forward(apps, schema_editor):
    move_result_changes(apps, schema_editor)
    move_td_actions(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_competition_time_control"),
        ("audit", "0004_auditentry_params"),
    ]

    # Backwards the old tables come back empty; the entries stay (the log only grows).
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
