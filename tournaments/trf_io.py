"""TRF import and export of a competition, on top of the pure TRF module (`pairing.engines.trf`)."""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from django.db import transaction
from django.utils import timezone

from audit import log as audit
from clubs.models import Club, Member
from pairing.engines import tiebreaks, trf
from pairing.engines.state import BYE_POINTS, Colour, InvalidInput, Kind, Player, TournamentState

from . import standings
from .models import Bye, Competition, ForbiddenPair, Game, Participant, Result, Round
from .state import ENGINE_TO_BYE, CompetitionData, forbidden_pairs


def export_trf(competition: Competition) -> str:
    """The competition as TRF: every paired round, results as entered, the next round's absences, the
    pairs the TD forbids (`260`, and `XXP` for a ban over every round)."""
    data = CompetitionData.load(competition)
    paired = [r for r in data.rounds if r.is_paired]
    last = paired[-1].number if paired else 0
    state = data.state(upto_round=last, round_to_pair=last + 1)
    upcoming = next((r for r in data.rounds if r.number == last + 1), None)
    if upcoming:
        start_of = {p.id: p.start_number for p in data.participants}
        for bye in data.byes:
            if bye.round_id == upcoming.id:
                state.requested_byes[start_of[bye.participant_id]] = Kind(bye.kind)
    state.total_rounds = max(state.total_rounds, last, 1)
    state.forbidden = forbidden_pairs(competition)
    doc = trf.document_from_state(state)
    if not competition.engine.own_standings:
        _add_tiebreaks(doc, data, state)
    return trf.write(doc)


# C.07's own acronyms; the seeds' tie-breaks are written with TRF26's prefix for self-defined ones.
FIDE_TIEBREAKS = frozenset(
    {"PTS", "DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "BH", "AOB", "FB", "SB", "KS", "ARO", "TPR", "PTP", "APRO"}
    | {"APPO", "RTNG", "TPN"}
)
OTHER_PREFIX = "OTHER_"


def trf_tiebreak_code(code: str) -> str:
    """A catalogue code as TRF26 writes it (202/212): FIDE's as they are, the seeds' with `OTHER_`."""
    spec = tiebreaks.parse(code)
    return spec.code if spec.acronym in FIDE_TIEBREAKS else OTHER_PREFIX + spec.code


def _add_tiebreaks(doc: trf.TrfDocument, data: CompetitionData, state: TournamentState) -> None:
    """TRF26 202 (tie-breaks among equal scores) and 212 (the standings: PTS first), and the rank column
    (86-89) by that list, equal ranks where every tie-break is equal."""
    names, rows = standings.standings(data, state=state)
    codes = [trf_tiebreak_code(name) for name in names]
    rank = {row.participant.start_number: int(row.rank.split("-")[0]) for row in rows}
    for player in doc.players:
        player.rank = rank.get(player.number, player.rank)
    at = next((i for i, line in enumerate(doc.lines) if isinstance(line, trf.PlayerLine)), len(doc.lines))
    doc.lines[at:at] = [trf.Line("202 " + ",".join(codes)), trf.Line("212 " + ",".join(["PTS", *codes]))]


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


@transaction.atomic
def import_trf(
    club: Club, text: str, *, name: str, slug: str, system: str, source: str = "upload", user=None
) -> Competition:
    """A new competition from a TRF file; all or nothing (TrfError names the line)."""
    doc = trf.parse(text, source)
    played = doc.last_paired_round
    total = trf.total_rounds_of(doc) or max(played, 1)
    # Every recorded round as history; the round after it carries the announced absences.
    state = trf.state_from_document(doc, played + 1, total_rounds=max(total, played + 1))
    competition = Competition.objects.create(
        club=club, name=name or doc.header_value("012") or slug, slug=slug, system=system, rounds=total
    )
    codes = tiebreaks_from_document(doc)
    if codes is not None:
        competition.tiebreaks = codes
        competition.save(update_fields=["tiebreaks"])
    participants: dict[int, Participant] = {}
    for player in state.players:
        first, _comma, last_name = player.name.partition(",")
        member = Member.objects.filter(club=club, fide_id=player.fide_id).first() if player.fide_id else None
        if member is None:
            member = Member.objects.create(
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
        participants[player.id] = Participant.objects.create(
            competition=competition, member=member, start_number=player.id, rating=player.rating, title=member.title
        )
    now = timezone.now()
    for number in range(1, played + 1):
        complete = all(p.history[number - 1].score is not None for p in state.players)
        status = Round.Status.FINISHED if complete else Round.Status.PUBLISHED
        rnd = Round.objects.create(
            competition=competition, number=number, status=status, paired_at=now, published_at=now
        )
        board = 0
        for player in sorted(state.players, key=lambda p: p.id):
            record = player.history[number - 1]
            if record.paired and record.colour is Colour.WHITE:
                board += 1
                Game.objects.create(
                    round=rnd,
                    board=board,
                    white=participants[player.id],
                    black=participants[record.opponent],
                    result=_result(player, state.player(record.opponent), number - 1),
                )
            elif not record.paired and record.kind in ENGINE_TO_BYE and record.kind is not Kind.ABSENT:
                Bye.objects.create(
                    round=rnd,
                    participant=participants[player.id],
                    kind=ENGINE_TO_BYE[record.kind],
                    points=Decimal(str(record.score or 0)),
                )
    if state.requested_byes and played < total:
        rnd = Round.objects.create(competition=competition, number=played + 1)
        for pid, kind in state.requested_byes.items():
            points = Decimal(str(BYE_POINTS.get(kind, 0)))
            Bye.objects.create(round=rnd, participant=participants[pid], kind=ENGINE_TO_BYE[kind], points=points)
    for ban in state.forbidden:  # 260 and XXP: a group of players becomes every pair in it
        for a, b in combinations(ban.players, 2):
            ForbiddenPair.objects.create(
                competition=competition,
                first=participants[a],
                second=participants[b],
                first_round=ban.first_round,
                last_round=ban.last_round,
            )
    competition.status = Competition.Status.RUNNING if played < total else Competition.Status.FINISHED
    competition.save(update_fields=["status"])
    summary = {"file": source, "players": len(participants), "rounds": played}
    audit.record(user, "import-trf", competition, None, summary)
    return competition
