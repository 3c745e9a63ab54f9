"""The engine's JSON state: a `TournamentState` with everything TRF cannot carry (docs/json-state.md).

Absences with and without notice, club-match evenings, withdrawals, the system's settings and the
seed of every lot travel in one document. `write_json_state(state)` and `read_json_state(text)` are
inverse: reading what was written gives an equal state.
"""

from __future__ import annotations

import json
from typing import Any

from .state import Colour, ForbiddenPair, InvalidInput, Kind, Player, RoundRecord, TournamentState

FORMAT = "clubavond-state"
VERSION = 1


class JsonStateError(InvalidInput):
    """A malformed JSON state: `source`, the line (JSON syntax errors) or the field's path, `reason`."""

    def __init__(self, source: str, where: str, reason: str) -> None:
        self.source = source
        self.where = where
        self.reason = reason
        super().__init__(f"{source}:{where}: {reason}" if where else f"{source}: {reason}")


def _record_json(record: RoundRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": record.kind.value}
    if record.opponent is not None:
        data["opponent"] = record.opponent
    if record.colour is not None:
        data["colour"] = record.colour.value
    data["score"] = record.score
    return data


def state_to_json(state: TournamentState) -> dict[str, Any]:
    """The state as plain JSON data (the layout of docs/json-state.md)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": state.name,
        "total_rounds": state.total_rounds,
        "round_to_pair": state.round_to_pair,
        "top_colour_round1": state.top_colour_round1.value,
        "seed": state.seed,
        "settings": state.settings,
        "requested_byes": {str(pid): kind.value for pid, kind in sorted(state.requested_byes.items())},
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "title": p.title,
                "federation": p.federation,
                "fide_id": p.fide_id,
                "national_rating": p.national_rating,
                "sex": p.sex,
                "birth": p.birth,
                "withdrawn": p.withdrawn,
                "extra": p.extra,
                "history": [_record_json(r) for r in p.history],
            }
            for p in state.players
        ],
    }
    if state.forbidden:
        data["forbidden"] = [
            {"players": list(ban.players), "first_round": ban.first_round, "last_round": ban.last_round}
            for ban in state.forbidden
        ]
    return data


def write_json_state(state: TournamentState) -> str:
    return json.dumps(state_to_json(state), indent=1, ensure_ascii=False) + "\n"


class _Reader:
    """Typed access to the JSON data, each failure naming the field's path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, reason: str) -> JsonStateError:
        return JsonStateError(self.source, where, reason)

    def get(self, obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
        if key not in obj:
            if default is ...:
                raise self.fail(where, f"missing field {key!r}")
            return default
        value = obj[key]
        path = f"{where}.{key}" if where else key
        numeric = kind in (int, float) or (isinstance(kind, tuple) and int in kind)
        if isinstance(value, bool) and numeric:
            raise self.fail(path, f"expected a number, not {value!r}")
        if not isinstance(value, kind):
            raise self.fail(path, f"expected {_name(kind)}, not {value!r}")
        return value

    def enum(self, enum: type[Kind] | type[Colour], value: Any, where: str) -> Any:
        try:
            return enum(value)
        except ValueError:
            known = ", ".join(repr(e.value) for e in enum)
            raise self.fail(where, f"unknown value {value!r} (one of {known})") from None


def _name(kind: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        float: "a number",
        str: "a string",
        bool: "true or false",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _record(r: _Reader, data: Any, where: str) -> RoundRecord:
    if not isinstance(data, dict):
        raise r.fail(where, "expected an object")
    kind = r.enum(Kind, r.get(data, "kind", str, where), f"{where}.kind")
    opponent = r.get(data, "opponent", (int, type(None)), where, None)
    colour_raw = r.get(data, "colour", (str, type(None)), where, None)
    colour = None if colour_raw is None else r.enum(Colour, colour_raw, f"{where}.colour")
    score = r.get(data, "score", (int, float, type(None)), where, 0.0)
    paired = kind in (Kind.GAME, Kind.FORFEIT)
    if paired and opponent is None:
        raise r.fail(where, f"a {kind.value} needs an opponent")
    if not paired and (opponent is not None or colour is not None):
        raise r.fail(where, f"a {kind.value} has no opponent and no colour")
    if kind is Kind.GAME and colour is None:
        raise r.fail(where, "a game needs a colour")
    return RoundRecord(kind, opponent, colour, None if score is None else float(score))


def state_from_json(data: Any, source: str = "<json>") -> TournamentState:
    """Build and check a state from JSON data; `JsonStateError` names the field at fault."""
    r = _Reader(source)
    if not isinstance(data, dict):
        raise r.fail("", "expected an object at the top")
    if data.get("format", FORMAT) != FORMAT:
        raise r.fail("format", f"not a {FORMAT} document")
    version = r.get(data, "version", int, "", VERSION)
    if version > VERSION:
        raise r.fail("version", f"version {version} is newer than this program ({VERSION})")
    total = r.get(data, "total_rounds", int, "")
    rnd = r.get(data, "round_to_pair", int, "")
    if rnd < 1:
        raise r.fail("round_to_pair", "must be 1 or more")
    if total < 1:
        raise r.fail("total_rounds", "must be 1 or more")
    players: list[Player] = []
    seen: set[int] = set()
    for i, pdata in enumerate(r.get(data, "players", list, "")):
        where = f"players[{i}]"
        if not isinstance(pdata, dict):
            raise r.fail(where, "expected an object")
        pid = r.get(pdata, "id", int, where)
        if pid < 1 or pid in seen:
            raise r.fail(f"{where}.id", f"start number {pid} is not positive or not unique")
        seen.add(pid)
        history = [
            _record(r, h, f"{where}.history[{j}]") for j, h in enumerate(r.get(pdata, "history", list, where, []))
        ]
        if len(history) != rnd - 1:
            raise r.fail(f"{where}.history", f"has {len(history)} rounds; round_to_pair {rnd} needs {rnd - 1}")
        players.append(
            Player(
                id=pid,
                name=r.get(pdata, "name", str, where, ""),
                rating=r.get(pdata, "rating", int, where, 0),
                title=r.get(pdata, "title", str, where, ""),
                federation=r.get(pdata, "federation", str, where, ""),
                fide_id=r.get(pdata, "fide_id", str, where, ""),
                national_rating=r.get(pdata, "national_rating", int, where, 0),
                sex=r.get(pdata, "sex", str, where, ""),
                birth=r.get(pdata, "birth", str, where, ""),
                history=history,
                withdrawn=r.get(pdata, "withdrawn", bool, where, False),
                extra=r.get(pdata, "extra", dict, where, {}),
            )
        )
    _check_meetings(r, players)
    requested: dict[int, Kind] = {}
    for key, value in r.get(data, "requested_byes", dict, "", {}).items():
        where = f"requested_byes.{key}"
        if not (key.isascii() and key.isdigit()) or int(key) not in seen:
            raise r.fail(where, f"no player {key!r}")
        kind = r.enum(Kind, value, where)
        if kind in (Kind.GAME, Kind.FORFEIT, Kind.PAIRING_BYE):
            raise r.fail(where, f"{kind.value} is not a requested bye")
        requested[int(key)] = kind
    top = r.enum(Colour, r.get(data, "top_colour_round1", str, "", Colour.WHITE.value), "top_colour_round1")
    bans = r.get(data, "forbidden", list, "", [])
    forbidden = [_forbidden(r, ban, f"forbidden[{i}]", seen) for i, ban in enumerate(bans)]
    return TournamentState(
        players=players,
        total_rounds=total,
        round_to_pair=rnd,
        settings=r.get(data, "settings", dict, "", {}),
        requested_byes=requested,
        top_colour_round1=top,
        seed=r.get(data, "seed", (int, type(None)), "", None),
        name=r.get(data, "name", str, "", ""),
        forbidden=forbidden,
    )


def _forbidden(r: _Reader, data: Any, where: str, known: set[int]) -> ForbiddenPair:
    """A pair (or group) the TD forbids: {"players": [ids], "first_round": n|null, "last_round": n|null}."""
    if not isinstance(data, dict):
        raise r.fail(where, "expected an object")
    ids = r.get(data, "players", list, where)
    if not all(isinstance(pid, int) and not isinstance(pid, bool) for pid in ids):
        raise r.fail(f"{where}.players", "expected a list of start numbers")
    ban = ForbiddenPair(
        tuple(ids),
        r.get(data, "first_round", (int, type(None)), where, None),
        r.get(data, "last_round", (int, type(None)), where, None),
    )
    problem = ban.problem(known)
    if problem:
        raise r.fail(where, problem)
    return ban


def _check_meetings(r: _Reader, players: list[Player]) -> None:
    """Every opponent exists and records the same game back, with the other colour."""
    by_id = {p.id: p for p in players}
    for i, p in enumerate(players):
        for j, record in enumerate(p.history):
            if not record.paired:
                continue
            where = f"players[{i}].history[{j}]"
            other = by_id.get(record.opponent or 0)
            if other is None or other.id == p.id:
                raise r.fail(where, f"opponent {record.opponent} does not exist")
            back = other.history[j]
            if back.opponent != p.id or back.kind is not record.kind:
                raise r.fail(where, f"{p.id} plays {other.id} in round {j + 1} but {other.id}'s round disagrees")
            if record.colour is not None and back.colour is record.colour:
                raise r.fail(where, f"{p.id} and {other.id} both have {record.colour.name.lower()} in round {j + 1}")


def read_json_state(text: str, source: str = "<json>") -> TournamentState:
    """Parse and check a JSON state; syntax errors name the line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonStateError(source, str(err.lineno), err.msg) from None
    return state_from_json(data, source)
