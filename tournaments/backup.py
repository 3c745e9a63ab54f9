"""Full-fidelity JSON exports: a whole club (a backup, restored by `import_club`) and one competition.

A club's export holds every row that belongs to it: the club, its seasons, members, roles, rating
lists and rating changes, competitions with their participants, rounds, games, byes and prize tables,
and every further model of the project's apps that points (through foreign keys) at one of these, so a
model added later travels without a change here. The job queue (`jobs`) is left out: uploads and jobs
are transient, and so are the printed PDFs of large competitions. The club's audit log travels too
(every action, results included: who, when, what); a competition's export carries the competition's
part of it. The user accounts the rows refer to (the
club's TDs and viewers, members' logins, who entered a result) travel with their username, name, e-mail
and password hash, never with staff or superuser rights.

A club's leagues travel whole: the leagues it organises with every team, roster, match and board, also
those of other clubs. A model names the foreign keys that may point at another club's rows
(`OUTSIDE_REFERENCES`, e.g. a team's club, a board's players); these do not bring rows into the export
(a club's team in a league another club organises is in that club's backup), and the clubs and members
they point at outside the club travel in the file's `outside` section (short name and name; first and
last name and FIDE id). The restore finds such a club on this site by its short name and such a member
among that club's members (by FIDE id, else by a full name no other member of the club has); what it
does not find it keeps by name in the field the model names (a team's `club_name`, a player's `name`),
or drops (a captain), and says so (`import_club`'s `notes`).

Ids are the exporting database's; `import_club` gives every row a new id and maps every reference,
so a club is restored into an empty database or next to other clubs. The document is versioned
(`FORMAT`, `VERSION`); reading refuses another format or version, and every row is checked by the
model's own validation before anything is saved, in one transaction.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, models, transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Club, Member

from .models import Competition

FORMAT = "clubavond-club"
COMPETITION_FORMAT = "clubavond-competition"
VERSION = 1
# Models of older files that the audit log replaced: a file that still holds them is read without them.
RETIRED_MODELS = {"tournaments.resultchange", "tournaments.tdaction"}
EXCLUDED_APPS = {"jobs"}  # uploads and background jobs are transient
EXCLUDED_MODELS = {"tournaments.printedpdf"}  # printed files: made again from the data when asked for
USER_FIELDS = ("username", "first_name", "last_name", "email", "password", "is_active", "date_joined", "last_login")


class BackupError(Exception):
    """A file that cannot be restored; the message says why (format, version, the row at fault)."""


def _project_models() -> list[type[models.Model]]:
    base = Path(settings.BASE_DIR).resolve()
    found = []
    for config in apps.get_app_configs():
        if config.label in EXCLUDED_APPS or not Path(config.path).resolve().is_relative_to(base):
            continue
        models_ = config.get_models()
        found.extend(m for m in models_ if not m._meta.proxy and m._meta.label_lower not in EXCLUDED_MODELS)
    return found


def _references(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)]


def _outside(model: type[models.Model]) -> dict[str, str]:
    """The model's foreign keys that may point at another club's rows, each with the field that keeps
    the name of a row not found on restore ("" for none: the reference is dropped)."""
    return getattr(model, "OUTSIDE_REFERENCES", {})


def scope(root: type[models.Model]) -> list[type[models.Model]]:
    """`root` and every project model that points at a model already in scope, in an order where each
    model comes after those it points at (self-references aside)."""
    members = [root]
    candidates = [m for m in _project_models() if m is not root]
    grew = True
    while grew:
        grew = False
        for model in candidates:
            if model not in members and any(f.related_model in members for f in _references(model)):
                members.append(model)
                grew = True
    graph = {
        m: {f.related_model for f in _references(m) if f.related_model in members and f.related_model is not m}
        for m in members
    }
    try:
        return list(TopologicalSorter(graph).static_order())
    except CycleError as error:  # the models are the project's: a cycle is a programming error
        raise RuntimeError(f"models refer to each other in a cycle: {error.args[1]}") from error


def _row(obj: models.Model) -> dict[str, Any]:
    row: dict[str, Any] = {"id": obj.pk}
    for f in obj._meta.concrete_fields:
        if not f.primary_key:
            row[f.attname] = f.value_from_object(obj)
    return row


def _collect(root: models.Model, ids_out: dict | None = None) -> tuple[list[dict[str, Any]], set[int]]:
    """Every row in `root`'s scope, model by model, and the ids of the users they refer to (the ids of
    the rows per model into `ids_out`). A reference to another club's rows brings no rows in."""
    user_model = get_user_model()
    ids: dict[type[models.Model], set[int]] = {type(root): {root.pk}}
    sections = []
    users: set[int] = set()
    for model in scope(type(root)):
        if model is type(root):
            rows = [root]
        else:
            query = Q()
            for f in _references(model):
                if f.related_model in ids and f.related_model is not model and f.name not in _outside(model):
                    query |= Q(**{f"{f.attname}__in": ids[f.related_model]})
            rows = list(model._default_manager.filter(query).order_by("pk")) if query else []
            ids[model] = {obj.pk for obj in rows}
        for f in _references(model):
            if f.related_model is user_model:
                users.update(v for v in (f.value_from_object(obj) for obj in rows) if v is not None)
        sections.append({"model": model._meta.label_lower, "rows": [_row(obj) for obj in rows]})
    if ids_out is not None:
        ids_out.update(ids)
    return sections, users


def _outside_rows(sections: list[dict[str, Any]], ids: dict) -> dict[str, list[dict[str, Any]]]:
    """The clubs and members outside the export that its rows point at (`OUTSIDE_REFERENCES`), with
    what the restore finds them by."""
    found: dict[type[models.Model], set[int]] = {Club: set(), Member: set()}
    for section in sections:
        model = apps.get_model(section["model"])
        for name in _outside(model):
            field = model._meta.get_field(name)
            if field.related_model not in found:  # the project's models: a programming error
                raise RuntimeError(f"{model._meta.label_lower}.{name} points at neither a club nor a member")
            known = ids.get(field.related_model, set())
            found[field.related_model].update(
                row[field.attname]
                for row in section["rows"]
                if row[field.attname] is not None and row[field.attname] not in known
            )
    members = list(Member.objects.filter(pk__in=found[Member]).order_by("pk"))
    clubs = Club.objects.filter(pk__in=found[Club] | {m.club_id for m in members}).order_by("pk")
    return {
        "clubs": [{"id": c.pk, "slug": c.slug, "name": c.name} for c in clubs],
        "members": [
            {"id": m.pk, "club_id": m.club_id, "first_name": m.first_name, "last_name": m.last_name,
             "fide_id": m.fide_id}
            for m in members
        ],
    }  # fmt: skip


def _users(ids: Iterable[int], secrets: bool = True) -> list[dict[str, Any]]:
    """The users by id; without `secrets` only their usernames and names (no e-mail, no password hash)."""
    fields = USER_FIELDS if secrets else ("username", "first_name", "last_name")
    return [
        {"id": user.pk, **{name: getattr(user, name) for name in fields}}
        for user in get_user_model().objects.filter(pk__in=set(ids)).order_by("pk")
    ]


def export_club(club: Club) -> dict[str, Any]:
    """The whole club as JSON data (module docstring)."""
    ids: dict[type[models.Model], set[int]] = {}
    sections, users = _collect(club, ids)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now(),
        "club": club.slug,
        "users": _users(users),
        "models": sections,
        "outside": _outside_rows(sections, ids),
        "audit": _audit_rows(club),
    }


def _audit_model():
    try:
        return apps.get_model("audit", "AuditEntry")
    except LookupError:
        return None


def _audit_rows(club: Club) -> list[dict[str, Any]]:
    """The club's audit log (rows hold ids, not foreign keys: they are mapped on restore)."""
    model = _audit_model()
    if model is None:
        return []
    return [_row(entry) for entry in model.objects.filter(club_id=club.pk).order_by("at", "pk")]


def _restore_audit(rows: Any, id_maps, user_map) -> None:
    """The audit rows of the file, their club, competition and user ids those of the restored rows
    (an id not in the file is kept empty; the names the rows carry stay as they were)."""
    model = _audit_model()
    if model is None or not rows:
        return
    if not isinstance(rows, list):
        raise BackupError("'audit' is not a list")
    maps = {"club_id": id_maps.get(Club, {}), "competition_id": id_maps.get(Competition, {}), "user_id": user_map}
    entries = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise BackupError(f"audit[{i}]: not an object")
        entry = model()
        for f in model._meta.concrete_fields:
            if f.primary_key or f.attname not in row:
                continue
            value = row[f.attname]
            if f.attname in maps:
                value = maps[f.attname].get(value)
            else:
                try:
                    value = f.to_python(value)
                except ValidationError as error:
                    raise BackupError(f"audit[{i}].{f.attname}: {'; '.join(error.messages)}") from None
            setattr(entry, f.attname, value)
        try:
            entry.full_clean(validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            raise BackupError(f"audit[{i}]: {_messages(error)}") from None
        entries.append(entry)
    model.objects.bulk_create(entries)


def export_competition(competition: Competition) -> dict[str, Any]:
    """One competition as JSON data: its rows (participants, rounds, games, byes, result history, TD
    actions, prizes), the members who take part, and the engine's JSON state (docs/json-state.md).
    Users appear by username and name only: a TD downloads this, not a server's administrator."""
    from pairing.engines.jsonstate import state_to_json

    from .state import CompetitionData

    sections, users = _collect(competition)
    member_ids = competition.participants.values_list("member_id", flat=True)
    members = [_row(m) for m in Member.objects.filter(pk__in=member_ids).order_by("pk")]
    users.update(m["user_id"] for m in members if m["user_id"] is not None)
    model = _audit_model()
    log = [_row(e) for e in model.objects.filter(competition_id=competition.pk).order_by("at", "pk")] if model else []
    users.update(row["user_id"] for row in log if row["user_id"] is not None)
    return {
        "format": COMPETITION_FORMAT,
        "version": VERSION,
        "exported_at": timezone.now(),
        "club": competition.club.slug,
        "competition": competition.slug,
        "users": _users(users, secrets=False),
        "members": members,
        "models": sections,
        "state": state_to_json(CompetitionData.load(competition).state()),
        "audit": log,
    }


class _Encoder(DjangoJSONEncoder):
    """Django's JSON, with moments to the microsecond (Django's own stops at milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, cls=_Encoder, ensure_ascii=False, indent=1) + "\n"


# --------------------------------------------------------------------------- restore


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise BackupError(f"not a Clubavond club export (format {found!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise BackupError(
            f"club export version {data.get('version')!r} is not one this Clubavond reads (version {VERSION})"
        )
    if not isinstance(data.get("users"), list) or not isinstance(data.get("models"), list):
        raise BackupError("the export has no 'users' and 'models' lists")


def _restore_users(rows: list[Any]) -> dict[int, int]:
    """Old user ids to users of this database: an existing username is that user, left unchanged;
    another is created with its password hash (no staff or superuser rights)."""
    user_model = get_user_model()
    mapping: dict[int, int] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("id"), int) or not isinstance(row.get("username"), str):
            raise BackupError(f"users[{i}]: needs an id and a username")
        user = user_model.objects.filter(username=row["username"]).first()
        if user is None:
            user = user_model(username=row["username"])
            for name in USER_FIELDS[1:]:
                if name in row and row[name] is not None:
                    field = user_model._meta.get_field(name)
                    try:
                        setattr(user, name, field.to_python(row[name]))
                    except ValidationError as error:
                        raise BackupError(f"users[{i}].{name}: {'; '.join(error.messages)}") from None
            try:
                user.full_clean(exclude=["password"], validate_unique=False)
            except ValidationError as error:
                raise BackupError(f"user {row['username']!r}: {_messages(error)}") from None
            user.save()
        mapping[row["id"]] = user.pk
    return mapping


def _messages(error: ValidationError) -> str:
    if hasattr(error, "message_dict"):
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in error.message_dict.items())
    return "; ".join(error.messages)


def _remap_proposals(value: Any, members: dict[int, int]) -> Any:
    """A rating list's matches name members by id (ratings.imports): those ids follow the members."""
    if not isinstance(value, dict):
        return value
    for items in value.values():
        if isinstance(items, list):
            for item in items:
                if isinstance(item, dict) and item.get("member") in members:
                    item["member"] = members[item["member"]]
    return value


def _missing(at: str, f: models.Field, target, value) -> BackupError:
    return BackupError(f"{at}.{f.attname}: refers to {target._meta.label_lower} {value!r}, not in the file")


class _Outside:
    """The file's clubs and members outside the club, each found on this site or kept by name."""

    def __init__(self, data: Any) -> None:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise BackupError("'outside' is not an object")
        self.names: dict[type[models.Model], dict[int, str]] = {Club: {}, Member: {}}
        self.found: dict[type[models.Model], dict[int, int]] = {Club: {}, Member: {}}
        self.notes: list[str] = []
        self._members: dict[int, list[Member]] = {}
        clubs: dict[int, Club | None] = {}
        for i, row in enumerate(self._rows(data, "clubs")):
            if not isinstance(row.get("id"), int) or not all(isinstance(row.get(k), str) for k in ("slug", "name")):
                raise BackupError(f"outside.clubs[{i}]: needs an id, a short name (slug) and a name")
            club = Club.objects.filter(slug=row["slug"]).first()
            clubs[row["id"]] = club
            self.names[Club][row["id"]] = row["name"]
            if club is not None:
                self.found[Club][row["id"]] = club.pk
        for i, row in enumerate(self._rows(data, "members")):
            names = [row.get(k) for k in ("first_name", "last_name", "fide_id")]
            if not isinstance(row.get("id"), int) or not all(isinstance(n, str) for n in names):
                raise BackupError(f"outside.members[{i}]: needs an id, a first and last name and a FIDE id")
            if row.get("club_id") not in clubs:
                raise BackupError(f"outside.members[{i}].club_id: refers to a club not in 'outside'")
            full_name = f"{row['first_name']} {row['last_name']}".strip()
            self.names[Member][row["id"]] = full_name
            member = self._member(clubs[row["club_id"]], full_name, row["fide_id"])
            if member is not None:
                self.found[Member][row["id"]] = member.pk

    @staticmethod
    def _rows(data: dict, key: str) -> list[dict]:
        rows = data.get(key, [])
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise BackupError(f"outside.{key}: not a list of objects")
        return rows

    def _member(self, club: Club | None, full_name: str, fide_id: str) -> Member | None:
        """The club's member with that FIDE id, else the one member of that full name; None if none is."""
        if club is None:
            return None
        if club.pk not in self._members:
            self._members[club.pk] = list(club.members.all())
        members = self._members[club.pk]
        by_id = [m for m in members if fide_id and m.fide_id == fide_id]
        named = [m for m in members if m.full_name.casefold() == full_name.casefold()]
        return by_id[0] if len(by_id) == 1 else (named[0] if len(named) == 1 else None)

    def resolve(self, at: str, model, f: models.Field, value: int) -> tuple[int | None, str]:
        """The row on this site an outside reference points at, or None and the name to keep."""
        target = f.related_model
        if value not in self.names.get(target, {}):
            raise _missing(at, f, target, value)
        if value in self.found[target]:
            return self.found[target][value], ""
        name = self.names[target][value]
        kept = _outside(model)[f.name]
        what = "club" if target is Club else "player"
        label = model._meta.label_lower
        kept_as = f"kept by name ({label}.{kept})" if kept else f"{label}.{f.name} left empty"
        note = f"{what} {name!r} is not on this site: {kept_as}"
        if note not in self.notes:
            self.notes.append(note)
        return None, name


def _restore_section(model, rows, id_maps, user_map, where: str, outside: _Outside | None = None) -> None:
    user_model = get_user_model()
    outside = outside or _Outside({})
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    created_fields = [f for f in fields if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)]
    objects, olds, deferred = [], [], []
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            raise BackupError(f"{at}: a row needs an id")
        obj = model()
        kept_names = {}
        for f in fields:
            if f.attname not in row:
                continue
            value = row[f.attname]
            if f.is_relation and value is not None:
                target = f.related_model
                if target is model:
                    deferred.append((obj, f, value, at))
                    continue
                known = user_map if target is user_model else id_maps.get(target, {})
                if value in known:
                    value = known[value]
                elif f.name in _outside(model):
                    value, name = outside.resolve(at, model, f, value)
                    if value is None and _outside(model)[f.name]:
                        kept_names[_outside(model)[f.name]] = name
                else:
                    raise _missing(at, f, target, value)
            elif not f.is_relation:
                try:
                    value = f.to_python(value)
                except ValidationError as error:
                    raise BackupError(f"{at}.{f.attname}: {'; '.join(error.messages)}") from None
                if model._meta.label_lower == "ratings.ratinglistimport" and f.name == "proposals":
                    value = _remap_proposals(value, id_maps.get(Member, {}))
            setattr(obj, f.attname, value)
        for name, value in kept_names.items():
            if not getattr(obj, name):
                setattr(obj, name, value[: model._meta.get_field(name).max_length])
        try:
            exclude = [f.name for f in fields if f.is_relation] + [f.name for f in created_fields]
            obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            raise BackupError(f"{at} ({model._meta.label_lower} {row['id']}): {_messages(error)}") from None
        objects.append(obj)
        olds.append(row)
    model._default_manager.bulk_create(objects)
    id_maps[model] = {row["id"]: obj.pk for row, obj in zip(olds, objects, strict=True)}
    if created_fields:  # saving stamps "now": the file's moments are put back
        for row, obj in zip(olds, objects, strict=True):
            for f in created_fields:
                if f.attname in row:
                    setattr(obj, f.attname, f.to_python(row[f.attname]))
        model._default_manager.bulk_update(objects, [f.name for f in created_fields])
    if deferred:
        for obj, f, value, at in deferred:
            if value not in id_maps[model]:
                raise _missing(at, f, model, value)
            setattr(obj, f.attname, id_maps[model][value])
        changed = {id(obj): obj for obj, *_rest in deferred}
        model._default_manager.bulk_update(changed.values(), list({f.name for _obj, f, *_rest in deferred}))


def import_club(data: Any, notes: list[str] | None = None) -> Club:
    """Restore a club from `export_club`'s data, all or nothing; `BackupError` says what is wrong. What
    of the `outside` section is not on this site is kept by name or dropped, each said in `notes`."""
    _check_header(data)
    order = scope(Club)
    by_label = {m._meta.label_lower: m for m in order}
    sections: dict[type[models.Model], list] = defaultdict(list)
    for i, section in enumerate(data["models"]):
        label = section.get("model") if isinstance(section, dict) else None
        if label in RETIRED_MODELS:  # their history travels in the file's `audit` section
            continue
        if label not in by_label or not isinstance(section.get("rows"), list):
            raise BackupError(f"models[{i}]: not a list of rows of a known model ({label!r})")
        sections[by_label[section["model"]]].extend(section["rows"])
    clubs = sections.get(Club, [])
    if len(clubs) != 1:
        raise BackupError(f"the export holds {len(clubs)} clubs, expected one")
    slug = clubs[0].get("slug") if isinstance(clubs[0], dict) else None
    if Club.objects.filter(slug=slug).exists():
        raise BackupError(f"a club with the short name {slug!r} exists already; nothing was imported")
    try:
        with transaction.atomic():
            user_map = _restore_users(data["users"])
            outside = _Outside(data.get("outside"))
            id_maps: dict[type[models.Model], dict[int, int]] = {}
            for model in order:
                label = model._meta.label_lower
                _restore_section(model, sections.get(model, []), id_maps, user_map, label, outside)
            _restore_audit(data.get("audit", []), id_maps, user_map)
            if notes is not None:
                notes.extend(outside.notes)
            return Club.objects.get(pk=id_maps[Club][clubs[0]["id"]])
    except DatabaseError as error:  # a constraint only the database checks (two rows with one key, ...)
        raise BackupError(f"the database refused the data: {error}") from error
