"""TRF export of a competition, on top of the pure TRF module (`pairing.engines.trf`).

The player lines carry what TRF16/TRF26 can say (names as `Last, First`, ratings, titles, every round's
opponent, colour and result, the next round's requested byes); Clubavond's own `XX` lines
(docs/trf.md, "Clubavond's lines") carry the rest, so that an export imported again
(`pairing.services.trf`) gives the same competition: round status (a draft stays a draft), every game with
its board, knockout match and stage (knockout matches, Gladiator replays), every bye with its kind and
points, withdrawals, late entries, and the system's settings. Other programs ignore those lines.
"""

from __future__ import annotations

import json

from clubs.models import Member
from pairing.engines import tiebreaks, trf
from pairing.engines.state import Kind, TournamentState

from . import standings
from .models import Competition
from .state import CompetitionData, forbidden_pairs

# Clubavond's own lines (docs/trf.md): meta, entries, rounds, games, byes.
META, ENTRY, ROUND, GAME, BYE = "XXM", "XXE", "XXT", "XXG", "XXY"
RESULT_CODES = {"": "*", "1-0": "1-0", "½-½": "=", "0-1": "0-1", "1-0R": "+-", "0-1R": "-+", "0-0R": "--"}
RESULT_OF_CODE = {code: result for result, code in RESULT_CODES.items()}


def trf_name(member: Member) -> str:
    """TRF's `Last, First` (TRF16 001, columns 15-47); a member without a last name is the first name alone."""
    if member.last_name and member.first_name:
        return f"{member.last_name}, {member.first_name}"
    return member.last_name or member.first_name


def split_name(name: str) -> tuple[str, str]:
    """(first, last) of a TRF name: `Last, First`; a name without a comma is kept whole as the first name."""
    last, comma, first = name.partition(",")
    if not comma:
        return name.strip(), ""
    return first.strip(), last.strip()


def export_trf(competition: Competition) -> str:
    """The competition as TRF: every paired round, results as entered, the next round's absences, the
    pairs the TD forbids (`260`, and `XXP` for a ban over every round), and Clubavond's lines for
    everything else (module docstring)."""
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
    by_number = {p.start_number: p for p in data.participants}
    for player in state.players:
        member = by_number[player.id].member
        player.name = trf_name(member)
        player.sex = member.sex
        player.birth = member.birth_date.strftime("%Y/%m/%d") if member.birth_date else ""
    doc = trf.document_from_state(state)
    _points_from_codes(doc)
    if not competition.engine.own_standings:
        _add_tiebreaks(doc, data, state)
    withdrawn = [p.id for p in state.players if p.withdrawn and p.id not in state.requested_byes]
    if withdrawn and last < state.total_rounds:  # JaVaFo's players not to pair, for other programs
        doc.lines.append(trf.Line("XXZ " + " ".join(str(pid) for pid in withdrawn)))
    doc.lines.extend(trf.Line(text) for text in _clubavond_lines(data))
    return trf.write(doc)


def _points_from_codes(doc: trf.TrfDocument) -> None:
    """The points column as the codes written give them (a Keizer club-match evening is written `Z`;
    its points travel in its `XXY` line)."""
    score = trf.scoring(doc)
    for player in doc.players:
        player.points = sum(score.points(entry) or 0.0 for entry in player.rounds)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _clubavond_lines(data: CompetitionData) -> list[str]:
    """XXM, XXE, XXT, XXG and XXY lines (docs/trf.md)."""
    c = data.competition
    meta = {
        "system": c.system,
        "settings": c.settings,
        "rounds": c.rounds,
        "status": c.status,
        "tiebreaks": c.tiebreaks,
        "late_entry_points": str(c.late_entry_points),
        "seed": c.seed,
        "gladiator": c.gladiator,
        "time_control": c.time_control,
    }
    lines = [f"{META} {_json(meta)}"]
    for p in data.participants:
        m = p.member
        entry = {"first": m.first_name, "last": m.last_name, "joined": p.joined_round}
        if m.national_id:
            entry["national_id"] = m.national_id
        if m.national_rating:
            entry["national_rating"] = m.national_rating
        if m.fide_rating:
            entry["fide_rating"] = m.fide_rating
        if m.is_guest:
            entry["guest"] = True
        if p.withdrawn_after is not None:
            entry["withdrawn_after"] = p.withdrawn_after
        if p.lost_evenings:
            entry["lost_evenings"] = p.lost_evenings
        lines.append(f"{ENTRY} {p.start_number} {_json(entry)}")
    start_of = {p.id: p.start_number for p in data.participants}
    for rnd in data.rounds:
        lines.append(f"{ROUND} {rnd.number} {rnd.status} {'paired' if rnd.is_paired else 'unpaired'}")
    for g in data.games:
        match = "-" if g.match is None else str(g.match)
        lines.append(
            f"{GAME} {g.round.number} {g.board} {match} {g.stage} {start_of[g.white_id]} {start_of[g.black_id]} "
            f"{RESULT_CODES[g.result]}"
        )
    for b in sorted(data.byes, key=lambda b: (b.round.number, start_of[b.participant_id])):
        lines.append(f"{BYE} {b.round.number} {start_of[b.participant_id]} {b.kind} {b.points}")
    return lines


# C.07's own acronyms; the seeds' tie-breaks are written with TRF26's prefix for self-defined ones.
FIDE_TIEBREAKS = frozenset(
    {"PTS", "DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "BH", "AOB", "FB", "SB", "KS", "ARO", "TPR", "PTP", "APRO"}
    | {"APPO", "RTNG", "TPN", "STD"}
)
OTHER_PREFIX = "OTHER_"


def trf_tiebreak_code(code: str) -> str:
    """A catalogue code as TRF26 writes it (202/212): FIDE's as they are, the seeds' with `OTHER_`, and
    `AOB/P` too (no C.07 code: AOB takes no /P)."""
    spec = tiebreaks.parse(code)
    fide = spec.acronym in FIDE_TIEBREAKS and not (spec.acronym == "AOB" and spec.forfeits_played)
    return spec.code if fide else OTHER_PREFIX + spec.code


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
