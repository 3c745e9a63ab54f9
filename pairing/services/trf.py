"""TRF import: a TRF file as a new competition, on top of the pure TRF module (`pairing.engines.trf`).

Players are matched to the club's members, others become guests; with Clubavond's own lines (an export of
Clubavond, `tournaments.trf_export`) rounds, games and byes are read from them exactly, otherwise from the
player lines. All or nothing: a malformed file saves nothing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from itertools import combinations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import log as audit
from clubs import validation
from clubs.models import Club, Member
from pairing.engines import tiebreaks, trf
from pairing.engines.state import BYE_POINTS, Colour, InvalidInput, Kind, Player, TournamentState
from pairing.engines.tiebreaks.teams import parse_team
from tournaments import versioning
from tournaments.access import slug_taken
from tournaments.models import Bye, Competition, ForbiddenPair, Game, Participant, Result, Round, Stage
from tournaments.state import ENGINE_TO_BYE
from tournaments.trf_export import BYE, ENTRY, GAME, META, OTHER_PREFIX, RESULT_OF_CODE, ROUND, split_name

from .guard import StaleAction, changed


def tiebreaks_from_document(doc: trf.TrfDocument) -> list[str] | None:
    """The tie-break list of a 212 (or 202) record, `OTHER_` removed; None if absent or not in the catalogue."""
    value = doc.header_value("212") or doc.header_value("202")
    if not value:
        return None
    codes = []
    for raw in value.split(","):
        raw = raw.strip().removeprefix(OTHER_PREFIX)
        try:
            spec = tiebreaks.parse(raw)
        except InvalidInput:
            return None
        if spec.acronym != "PTS":
            codes.append(spec.code)
    return codes


def _result(white: Player, black: Player, index: int) -> str:
    """The game's result from the two players' entries; a forfeit lost by both is a double forfeit."""
    record = white.history[index]
    if record.kind is Kind.FORFEIT:
        if record.score == 1.0:
            return Result.WHITE_FORFEIT_WIN
        won_by_black = black.history[index].score == 1.0
        return Result.BLACK_FORFEIT_WIN if won_by_black else Result.DOUBLE_FORFEIT
    if record.score is None:
        return Result.PENDING
    return {1.0: Result.WHITE_WINS, 0.5: Result.DRAW, 0.0: Result.BLACK_WINS}[record.score]


def _check(doc: trf.TrfDocument, state: TournamentState, competition: Competition) -> None:
    """Every value against the model's limits before anything is saved (clubs.validation): the
    competition's rounds, each player's fields, one FIDE id per player, the points of byes."""
    rounds_line = next((line.line_no for line in reversed(doc.other("XXR", "142"))), None)
    where = f"{doc.source}:{rounds_line}" if rounds_line else doc.source
    validation.check_value(Competition, "rounds", competition.rounds, where)  # the name: `_competition`
    line_of = {p.number: p.line_no for p in doc.players}
    fide_ids: dict[str, int] = {}
    for player in state.players:
        where = f"{doc.source}:{line_of.get(player.id, '')}".rstrip(":")
        validation.check_instance(_member(competition.club, player), where)
        validation.check_value(Participant, "start_number", player.id, where)
        if player.fide_id:
            if player.fide_id in fide_ids:
                message = _("FIDE id %(id)s is also player %(other)s's")
                other = fide_ids[player.fide_id]
                raise trf.TrfError(doc.source, line_of.get(player.id), message % {"id": player.fide_id, "other": other})
            fide_ids[player.fide_id] = player.id
        for record in player.history:
            validation.check_value(Bye, "points", Decimal(str(record.score or 0)), where)
    for kind in state.requested_byes.values():
        validation.check_value(Bye, "points", Decimal(str(BYE_POINTS.get(kind, 0))), doc.source)


def _member(club: Club, player: Player) -> Member:
    """A guest member for a TRF player ("Last, First" split); not saved."""
    first, _comma, last_name = player.name.partition(",")
    return Member(
        club=club,
        first_name=last_name.strip() or first.strip(),
        last_name=first.strip() if last_name else "",
        title=player.title if player.title in Member.Title.values else "",
        fide_id=player.fide_id,
        fide_rating=player.rating or None,
        federation=player.federation,
        sex={"m": "m", "w": "w", "f": "w"}.get(player.sex.lower(), ""),
        is_guest=True,
    )


# --------------------------------------------------------------------------- Clubavond's lines, read


@dataclass
class ClubavondLines:
    """What Clubavond's own lines of a document say; `full` when the document has its round lines."""

    meta: dict = field(default_factory=dict)
    entries: dict[int, dict] = field(default_factory=dict)
    rounds: dict[int, tuple[str, bool]] = field(default_factory=dict)
    games: list[tuple[int, int, int | None, str, int, int, str, int]] = field(default_factory=list)
    byes: list[tuple[int, int, str, Decimal, int]] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return bool(self.rounds)


def _fail(doc: trf.TrfDocument, line: trf.Line, reason: str) -> trf.TrfError:
    return trf.TrfError(doc.source, line.line_no, reason)


def _int(doc: trf.TrfDocument, line: trf.Line, token: str, what: str, low: int = 1, high: int = 32767) -> int:
    if not (token.isascii() and token.isdigit()) or not low <= int(token) <= high:
        raise _fail(doc, line, f"{what} {token!r} is not a number from {low} to {high}")
    return int(token)


def _json_object(doc: trf.TrfDocument, line: trf.Line, text: str) -> dict:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise _fail(doc, line, f"not valid JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise _fail(doc, line, "expected a JSON object")
    return value


def read_clubavond_lines(doc: trf.TrfDocument) -> ClubavondLines:
    """Clubavond's lines, checked: every player, round, stage, result and bye kind must exist."""
    found = ClubavondLines()
    numbers = {p.number for p in doc.players}
    for line in doc.other(META, ENTRY, ROUND, GAME, BYE):
        rest = line.text[3:].strip()
        tokens = rest.split()
        if line.code == META:
            found.meta = _json_object(doc, line, rest)
        elif line.code == ENTRY:
            number, _sep, text = rest.partition(" ")
            pid = _int(doc, line, number, "player")
            if pid not in numbers:
                raise _fail(doc, line, f"player {pid} does not exist")
            found.entries[pid] = _json_object(doc, line, text)
        elif line.code == ROUND:
            if len(tokens) != 3 or tokens[1] not in Round.Status.values or tokens[2] not in ("paired", "unpaired"):
                raise _fail(doc, line, "XXT needs a round, a status (draft, published, finished) and paired/unpaired")
            number = _int(doc, line, tokens[0], "round")
            if number in found.rounds:
                raise _fail(doc, line, f"round {number} is listed twice")
            found.rounds[number] = (tokens[1], tokens[2] == "paired")
        elif line.code == GAME:
            if len(tokens) != 7:
                raise _fail(doc, line, "XXG needs round, board, match, stage, white, black and result")
            rnd, board = _int(doc, line, tokens[0], "round"), _int(doc, line, tokens[1], "board")
            match = None if tokens[2] == "-" else _int(doc, line, tokens[2], "match")
            if tokens[3] not in Stage.values:
                raise _fail(doc, line, f"unknown stage {tokens[3]!r}")
            white, black = _int(doc, line, tokens[4], "player"), _int(doc, line, tokens[5], "player")
            for pid in (white, black):
                if pid not in numbers:
                    raise _fail(doc, line, f"player {pid} does not exist")
            if white == black:
                raise _fail(doc, line, f"player {white} cannot play himself")
            if tokens[6] not in RESULT_OF_CODE:
                raise _fail(doc, line, f"unknown result {tokens[6]!r}")
            found.games.append((rnd, board, match, tokens[3], white, black, RESULT_OF_CODE[tokens[6]], line.line_no))
        else:
            if len(tokens) != 4:
                raise _fail(doc, line, "XXY needs a round, a player, a kind and points")
            rnd, pid = _int(doc, line, tokens[0], "round"), _int(doc, line, tokens[1], "player")
            if pid not in numbers:
                raise _fail(doc, line, f"player {pid} does not exist")
            if tokens[2] not in Bye.Kind.values:
                raise _fail(doc, line, f"unknown bye kind {tokens[2]!r}")
            try:
                points = Decimal(tokens[3])
            except InvalidOperation:
                points = Decimal("NaN")
            if not points.is_finite() or not 0 <= points <= 99 or points != points.quantize(Decimal("0.1")):
                raise _fail(doc, line, f"points {tokens[3]!r} are not a number from 0 to 99")
            found.byes.append((rnd, pid, tokens[2], points, line.line_no))
    if found.full:
        for rnd, *_rest, line_no in found.games:
            if rnd not in found.rounds:
                raise trf.TrfError(doc.source, line_no, f"round {rnd} has no XXT line")
        for rnd, *_rest, line_no in found.byes:
            if rnd not in found.rounds:
                raise trf.TrfError(doc.source, line_no, f"round {rnd} has no XXT line")
    return found


# --------------------------------------------------------------------------- import


def _text(doc: trf.TrfDocument, value, what: str, limit: int, pid: int) -> str:
    if not isinstance(value, str) or "\x00" in value or len(value) > limit:
        raise trf.TrfError(doc.source, None, f"player {pid}: {what} must be text of at most {limit} characters")
    return value.strip()


def _number(value, what: str, doc: trf.TrfDocument, pid: int, high: int = 32767) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise trf.TrfError(doc.source, None, f"player {pid}: {what} {value!r} is not a number from 0 to {high}")
    return value


def match_member(club: Club, fide_id: str, national_id: str, first: str, last: str, taken: set[int]) -> Member | None:
    """The club's member who is this player: the same FIDE id, else the same national id, else exactly the
    same name (a member not already matched to another player of the file)."""
    members = Member.objects.filter(club=club).exclude(pk__in=taken)
    if fide_id:
        found = members.filter(fide_id=fide_id).order_by("pk").first()
        if found:
            return found
    if national_id:
        found = members.filter(national_id=national_id).order_by("pk").first()
        if found:
            return found
    return members.filter(first_name=first, last_name=last).order_by("pk").first()


class _Members:
    """The club's members, read in one query, found as `match_member` finds them."""

    def __init__(self, club: Club) -> None:
        self.by_fide: dict[str, list[Member]] = {}
        self.by_national: dict[str, list[Member]] = {}
        self.by_name: dict[tuple[str, str], list[Member]] = {}
        for member in Member.objects.filter(club=club).order_by("pk"):
            self.by_fide.setdefault(member.fide_id, []).append(member)
            self.by_national.setdefault(member.national_id, []).append(member)
            self.by_name.setdefault((member.first_name, member.last_name), []).append(member)

    def match(self, fide_id: str, national_id: str, first: str, last: str, taken: set[int]) -> Member | None:
        """`match_member`'s answer (the lowest primary key of the first kind of match that finds one)."""
        for found in (
            self.by_fide.get(fide_id, []) if fide_id else [],
            self.by_national.get(national_id, []) if national_id else [],
            self.by_name.get((first, last), []),
        ):
            member = next((m for m in found if m.pk not in taken), None)
            if member is not None:
                return member
        return None


def _participants(
    club: Club, competition: Competition, doc: trf.TrfDocument, lines: ClubavondLines, new_members: list[str]
) -> dict[int, Participant]:
    """The file's players as participants, each the club's member `match_member` finds or a new guest
    (whose name is added to `new_members`). The members are read in one query, the new guests and the
    participants written in one statement each."""
    participants: dict[int, Participant] = {}
    taken: set[int] = set()
    members = _Members(club)
    guests: list[Member] = []
    fide_seen: dict[str, int] = {}
    for player in doc.players:
        entry = lines.entries.get(player.number, {})
        pid = player.number
        if player.fide_id and player.fide_id in fide_seen:
            raise trf.TrfError(
                doc.source, player.line_no, f"FIDE id {player.fide_id} is also player {fide_seen[player.fide_id]}'s"
            )
        fide_seen[player.fide_id] = pid
        if player.fide_id and not (player.fide_id.isascii() and player.fide_id.isdigit()):
            raise trf.TrfError(doc.source, player.line_no, f"FIDE id {player.fide_id!r} is not a number")
        if "first" in entry or "last" in entry:
            first = _text(doc, entry.get("first", ""), "first name", 60, pid)
            last = _text(doc, entry.get("last", ""), "last name", 80, pid)
        else:
            first, last = split_name(player.name)
            if len(first) > 60 or len(last) > 80:
                raise trf.TrfError(doc.source, player.line_no, "the name is too long")
        if not first and not last:
            raise trf.TrfError(doc.source, player.line_no, "the player has no name")
        if any("\x00" in text for text in (first, last, player.federation, player.title, player.sex)):
            raise trf.TrfError(doc.source, player.line_no, "a NUL character in the player's data")
        national_id = _text(doc, entry.get("national_id", ""), "national id", 20, pid)
        member = members.match(player.fide_id, national_id, first, last, taken)
        if member is None:
            birth = None
            if player.birth:
                try:
                    birth = date(*(int(part) for part in player.birth.replace("-", "/").split("/")))
                except (TypeError, ValueError):
                    birth = None
            member = Member(
                club=club,
                first_name=first or last,
                last_name=last if first else "",
                title=player.title if player.title in Member.Title.values else "",
                fide_id=player.fide_id,
                fide_rating=_number(entry.get("fide_rating", player.rating or 0), "FIDE rating", doc, pid, 9999)
                or None,
                national_id=national_id,
                national_rating=_number(entry.get("national_rating", 0), "national rating", doc, pid, 9999) or None,
                federation=player.federation,
                sex={"m": "m", "w": "w", "f": "w"}.get(player.sex.lower(), ""),
                birth_date=birth,
                is_guest=entry.get("guest", True) is not False,
            )
            validation.check_instance(member, f"{doc.source}:{player.line_no}")  # the model's limits
            guests.append(member)
            new_members.append(member.full_name)
        else:
            taken.add(member.pk)
        withdrawn = entry.get("withdrawn_after")
        participants[pid] = Participant(
            competition=competition,
            member=member,
            start_number=_number(pid, "start number", doc, pid, 9999),
            rating=player.rating or 0,
            title=player.title if player.title in Member.Title.values else "",
            joined_round=_number(entry.get("joined", 1), "joined round", doc, pid) or 1,
            withdrawn_after=None if withdrawn is None else _number(withdrawn, "withdrawn after round", doc, pid),
            lost_evenings=_number(entry.get("lost_evenings", 0), "lost evenings", doc, pid),
        )
    Member.objects.bulk_create(guests)  # no member's signal is due: none is sent for a new member
    line_of = {player.number: player.line_no for player in doc.players}
    for pid, participant in participants.items():
        participant.member = participant.member  # the guest's primary key, given by the statement above
        validation.check_instance(participant, f"{doc.source}:{line_of[pid]}")
    Participant.objects.bulk_create(participants.values())
    return participants


def _competition(club: Club, doc: trf.TrfDocument, lines: ClubavondLines, *, name, slug, system, total) -> Competition:
    meta = lines.meta if lines.meta.get("system") == system else {}
    competition = Competition(club=club, name=name or doc.header_value("012") or slug, slug=slug, system=system)
    competition.rounds = total
    if meta:
        rounds = meta.get("rounds")
        if rounds is None or (isinstance(rounds, int) and not isinstance(rounds, bool)):
            competition.rounds = rounds
        if isinstance(meta.get("settings"), dict):
            competition.settings = meta["settings"]
        if meta.get("status") in Competition.Status.values:
            competition.status = meta["status"]
        if isinstance(meta.get("tiebreaks"), list) and all(isinstance(t, str) for t in meta["tiebreaks"]):
            # A team event's list is of team tie-breaks (pairing.engines.tiebreaks.teams).
            check = parse_team if competition.engine.teams else tiebreaks.parse
            for code in meta["tiebreaks"]:
                try:
                    check(code)
                except InvalidInput as error:
                    raise trf.TrfError(doc.source, None, f"XXM: tie-break {code!r}: {error}") from None
            competition.tiebreaks = meta["tiebreaks"]
        seed = meta.get("seed")
        if isinstance(seed, int) and not isinstance(seed, bool) and 0 < seed < 2**31:
            competition.seed = seed
        competition.gladiator = meta.get("gladiator") is True
        if meta.get("time_control") in Competition.TimeControl.values:
            competition.time_control = meta["time_control"]
        try:
            late = Decimal(str(meta.get("late_entry_points", "0")))
        except InvalidOperation:
            late = Decimal("NaN")
        if not late.is_finite() or not 0 <= late <= 99 or late != late.quantize(Decimal("0.1")):
            raise trf.TrfError(doc.source, None, "XXM: late_entry_points is not a number from 0 to 99")
        competition.late_entry_points = late
    if competition.rounds is not None and not 0 <= competition.rounds <= 32767:
        raise trf.TrfError(doc.source, None, f"{competition.rounds} rounds is not a number from 0 to 32767")
    if (not meta or "tiebreaks" not in meta) and not competition.engine.teams:  # 212: the players' list
        codes = tiebreaks_from_document(doc)
        if codes is not None:
            competition.tiebreaks = codes
    # The model's limits (name length, slug, settings) checked here, not by the database.
    competition.full_clean(exclude=["club", "season", "previous", "seed"], validate_unique=False)
    competition.save()
    return competition


@transaction.atomic
@versioning.one_action
def import_trf(club: Club, text: str, user=None, **fields) -> Competition:
    """A TRF file as a new competition (`_import_trf`), passing the guard; a malformed file saves nothing. The
    page offered the short name `fields["slug"]` as free: when another TD took it meanwhile (a competition made
    or imported), StaleAction says who and when, checked under the club's lock, and nothing is saved."""
    Club.objects.select_for_update().get(pk=club.pk)
    if taken := slug_taken(club, fields.get("slug", "")):
        raise StaleAction(taken, code="stale")
    competition = _import_trf(club, text, user=user, **fields)
    changed(competition, "import", user)
    return competition


def _import_trf(
    club: Club, text: str, *, name: str, slug: str, system: str, source: str = "upload", user=None
) -> Competition:
    """A new competition from a TRF file; all or nothing (TrfError names the line); `user` is recorded.

    Players are matched to the club's members (`match_member`); a player who is no member becomes a guest.
    With Clubavond's lines (an export of Clubavond) of the chosen system, rounds, games and byes are read
    from them exactly; otherwise (another program's file, or another system chosen) from the player lines."""
    if "\x00" in text:
        raise trf.TrfError(source, text[: text.index("\x00")].count("\n") + 1, _("a NUL character"))
    doc = trf.parse(text, source)
    lines = read_clubavond_lines(doc)
    played = doc.last_paired_round
    total = trf.total_rounds_of(doc) or max(played, 1)
    # Every recorded round as history; the round after it carries the announced absences.
    state = trf.state_from_document(doc, played + 1, total_rounds=max(total, played + 1))
    _check(
        doc,
        state,
        Competition(club=club, name=name or doc.header_value("012") or slug, slug=slug, system=system, rounds=total),
    )
    competition = _competition(club, doc, lines, name=name, slug=slug, system=system, total=total)
    new_members: list[str] = []
    participants = _participants(club, competition, doc, lines, new_members)
    try:
        with transaction.atomic():
            if lines.full and lines.meta.get("system", system) == system:
                _rounds_from_lines(competition, lines, participants)
            else:
                _rounds_from_columns(competition, state, participants, played, total)
        ForbiddenPair.objects.bulk_create(  # 260 and XXP: a group of players becomes every pair in it
            ForbiddenPair(
                competition=competition, first=participants[a], second=participants[b],
                first_round=ban.first_round, last_round=ban.last_round,
            )
            for ban in state.forbidden
            for a, b in combinations(ban.players, 2)
        )  # fmt: skip
    except IntegrityError as error:
        raise trf.TrfError(source, None, "two games on one board, or two byes of one player in a round") from error
    if not lines.meta or lines.meta.get("system") != system:
        competition.status = Competition.Status.RUNNING if played < total else Competition.Status.FINISHED
        competition.save(update_fields=["status"])
    summary = {"file": source, "system": system, "players": len(participants), "rounds": played,
               "new guest members": new_members}  # fmt: skip
    audit.record(user, "import-trf", competition, None, summary)
    return competition


def _rounds_from_lines(competition: Competition, lines: ClubavondLines, participants: dict[int, Participant]) -> None:
    now = timezone.now()
    rounds = {}
    for number, (status, paired) in sorted(lines.rounds.items()):
        public = status != Round.Status.DRAFT
        rounds[number] = Round(
            competition=competition, number=number, status=status,
            paired_at=now if paired else None, published_at=now if public else None,
        )  # fmt: skip
    Round.objects.bulk_create(rounds.values())  # no round is published by it: no pairing mail is due
    Game.objects.bulk_create(
        Game(round=rounds[rnd], board=board, match=match, stage=stage, white=participants[white],
             black=participants[black], result=result)
        for rnd, board, match, stage, white, black, result, _line in lines.games
    )  # fmt: skip
    Bye.objects.bulk_create(
        Bye(round=rounds[rnd], participant=participants[pid], kind=kind, points=points)
        for rnd, pid, kind, points, _line in lines.byes
    )


def _rounds_from_columns(competition, state, participants, played: int, total: int) -> None:
    now = timezone.now()
    games, byes, rounds = [], [], []
    for number in range(1, played + 1):
        complete = all(p.history[number - 1].score is not None for p in state.players)
        status = Round.Status.FINISHED if complete else Round.Status.PUBLISHED
        rnd = Round(competition=competition, number=number, status=status, paired_at=now, published_at=now)
        rounds.append(rnd)
        board = 0
        for player in sorted(state.players, key=lambda p: p.id):
            record = player.history[number - 1]
            if record.paired and record.colour is Colour.WHITE:
                board += 1
                games.append(Game(
                    round=rnd, board=board, white=participants[player.id], black=participants[record.opponent],
                    result=_result(player, state.player(record.opponent), number - 1),
                ))  # fmt: skip
            elif not record.paired and record.kind in ENGINE_TO_BYE and record.kind is not Kind.ABSENT:
                score = record.score or 0
                byes.append(Bye(
                    round=rnd, participant=participants[player.id], kind=ENGINE_TO_BYE[record.kind],
                    points=Decimal(str(score if math.isfinite(score) else 0)),
                ))  # fmt: skip
    if state.requested_byes and played < total:
        rnd = Round(competition=competition, number=played + 1)
        rounds.append(rnd)
        for pid, kind in state.requested_byes.items():
            points = Decimal(str(BYE_POINTS.get(kind, 0)))
            byes.append(Bye(round=rnd, participant=participants[pid], kind=ENGINE_TO_BYE[kind], points=points))
    Round.objects.bulk_create(rounds)  # no round is published by it: no pairing mail is due
    Game.objects.bulk_create(games)
    Bye.objects.bulk_create(byes)
