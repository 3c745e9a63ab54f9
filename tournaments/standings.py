"""Standings, crosstable and player cards, computed from the engine state.

The tiebreak values come from the pure tiebreak module (`pairing.engines.tiebreaks`);
this module only arranges them for the pages and PDFs.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from pairing.engines import gladiator as gladiator_engine
from pairing.engines import keizer, tiebreaks, withdrawal
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState
from ratings.maths import knsb

from . import encounters
from .models import Participant
from .state import CompetitionData


@dataclass
class Row:
    rank: str  # "3" or "3-4" for a shared place
    participant: Participant
    points: float
    tiebreaks: list[float | None] = field(default_factory=list)
    games: int = 0
    # How each value came about (pairing.engines.tiebreaks.Explanation), same order as `tiebreaks`.
    explanations: list[tiebreaks.Explanation | None] = field(default_factory=list)
    # Standings ranked without writing the explanations: whether each value has one (the page links to it).
    explained: list[bool] | None = None


@dataclass
class Cell:
    text: str  # "12w1", "10b½", "7+", "bye", "" (not met): the notation chess players read
    colour: str = ""  # "w" / "b" (the shading), "" for an unplayed round or a forfeit
    title: str = ""  # the same in words, for the tooltip and screen readers


def colour_letter(colour: Colour) -> str:
    """The colour's letter in the reader's language: w/b in English, w/z (wit/zwart) in Dutch, h/s
    (hvid/sort) in Danish."""
    if colour is Colour.WHITE:
        return pgettext("crosstable: the letter for white", "w")
    return pgettext("crosstable: the letter for black", "b")


def result_symbol(score: float | None) -> str:
    """A game's result for the player: 1, ½, 0; * while it is being played."""
    if score is None:
        return "*"
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(score, f"{score:g}")


class CellWords:
    """The words of the crosstable's cells in the reader's language, translated once for a whole table
    (a 3000-player table has 27,000 cells; each translation is a dictionary look-up of its own)."""

    def __init__(self) -> None:
        self.won_forfeit = _("won by forfeit against no. %(number)s")
        self.lost_forfeit = _("lost by forfeit against no. %(number)s")
        self.result = {
            "1": _("won against no. %(number)s with %(colour)s"),
            "½": _("drew against no. %(number)s with %(colour)s"),
            "0": _("lost against no. %(number)s with %(colour)s"),
        }
        self.other_result = _("against no. %(number)s with %(colour)s")
        self.colour = {Colour.WHITE: _("white"), Colour.BLACK: _("black")}
        self.letter = {Colour.WHITE: colour_letter(Colour.WHITE), Colour.BLACK: colour_letter(Colour.BLACK)}
        self.unpaired = {
            Kind.PAIRING_BYE: Cell(pgettext("crosstable: a pairing-allocated bye", "bye"), "", _("bye")),
            Kind.HALF_BYE: Cell("½", "", _("half-point bye")),
            Kind.FULL_BYE: Cell("1", "", _("full-point bye")),
        }
        self.did_not_play = Cell("–", "", _("did not play"))


def crosstable_cell(record: RoundRecord, number: int | None, words: CellWords | None = None) -> Cell:
    """One round of a player in the crosstable (FIDE's crosstable notation): the opponent's number in
    the table, the colour and the result, "12w1" (won with white against no. 12), "10b0"; a forfeit
    has no colour, "7+" (won by forfeit against no. 7), "7-"; a bye its points. `words`: the cells'
    words (`CellWords`), when the caller translated them once for the table."""
    words = CellWords() if words is None else words
    if record.paired and number is not None:
        if record.kind is Kind.FORFEIT:
            won = (record.score or 0) >= 1
            title = words.won_forfeit if won else words.lost_forfeit
            return Cell(f"{number}{'+' if won else '-'}", "", title % {"number": number})
        white = record.colour is Colour.WHITE
        result = result_symbol(record.score)
        said = words.result.get(result, words.other_result)
        colour = words.colour[Colour.WHITE if white else Colour.BLACK]
        return Cell(f"{number}{words.letter[Colour.WHITE if white else Colour.BLACK]}{result}", "w" if white else "b",
                    said % {"number": number, "colour": colour})  # fmt: skip
    return words.unpaired.get(record.kind, words.did_not_play)


def tiebreak_names(data: CompetitionData) -> list[str]:
    """The competition's tiebreak list (its regulation's default unless the TD chose one), points aside.
    A team event's list is its team tie-breaks (`olympiad.team_event`); its players rank by the system's."""
    chosen = [] if data.competition.engine.teams else data.competition.tiebreaks
    names = list(chosen or tiebreaks.default_tiebreaks(data.competition.system))
    return [name for name in names if name != "PTS"]


def final_state(data: CompetitionData, whole: TournamentState | None = None) -> TournamentState:
    """The state the standings rank: in a round robin, a player who left under 50 % is struck (seed 004 §16).

    His results, and every result against him, no longer count; from 50 % his remaining games are
    already forfeits (`pairing.services.save_pairing`), so nothing changes. `whole`: `data.state()`,
    when the caller has it at hand; it is left as it is.
    """
    state = data.state() if whole is None else whole
    if not data.competition.engine.scheduled:
        return state
    for participant in data.participants:
        if participant.withdrawn_after is None:
            continue
        sn = participant.start_number
        if withdrawal.leave(state, sn, round_robin=True, left_after=participant.withdrawn_after).ranked:
            continue
        players = [
            replace(
                player,
                history=[
                    RoundRecord(kind=Kind.ABSENT, score=0.0) if record.opponent == sn else record
                    for record in player.history
                ],
            )
            for player in state.players
            if player.id != sn
        ]
        state = replace(state, players=players)
    return state


def standings(
    data: CompetitionData,
    state: TournamentState | None = None,
    *,
    whole: TournamentState | None = None,
    explain: bool = True,
) -> tuple[list[str], list[Row]]:
    """The ranking by points and the competition's tiebreak list; shared places where all are equal.

    A Gladiator competition without a list of its own ranks by the Gladiator tie-breaks (seed 004
    §4.9.8), which need the games; a state given by the caller (the TRF export, whose 202 and 212
    records take catalogue codes) is ranked by the catalogue. `whole`: `data.state()`, when the caller
    has it at hand (the standings are the same, without reading the games again). Without `explain` the
    rows say only which values have an explanation (`Row.explained`; the pages ask for each on its own).
    """
    if state is None and data.competition.gladiator and not data.competition.tiebreaks:
        return gladiator_standings(data, final_state(data, whole))
    given = state is not None
    state = state or final_state(data, whole)
    names = tiebreak_names(data)
    by_start = {p.start_number: p for p in data.participants}
    unrated = tiebreaks.Unrated(data.competition.unrated_opponents, data.competition.unrated_rating or 0)
    rules = tiebreaks.default_rules(data.competition.system)
    if explain or given:
        lines = tiebreaks.standings(state, ["PTS", *names], rules=rules, unrated=unrated, explain=explain)
    else:
        lines = live_lines(data, state, ["PTS", *names], rules, unrated)
    # Every value of the catalogue has its explanation; direct encounter only where it broke a tie (C.07 6).
    encounter = [i for i, name in enumerate(names) if tiebreaks.parse(name).acronym in tiebreaks.ENCOUNTER]
    shared = Counter(line.rank for line in lines)
    # Games played over the board, counted once per table (RoundRecord.played: a game).
    games = {p.id: [r.kind for r in p.history].count(Kind.GAME) for p in state.players}
    rows = []
    for line in lines:
        values = [line.values.get(name) for name in names]
        if explain:
            explanations, explained = [line.explanations.get(name) for name in names], None
        else:
            explanations, explained = [None] * len(names), [True] * len(names)
            for i in encounter:
                explained[i] = values[i] is not None
        count = shared[line.rank]
        rows.append(
            Row(
                rank=str(line.rank) if count == 1 else f"{line.rank}-{line.rank + count - 1}",
                participant=by_start[line.player],
                points=line.points,
                tiebreaks=values,
                explanations=explanations,
                explained=explained,
                games=games[line.player],
            )
        )
    return names, rows


# The standings last ranked in this process, kept up to date result by result (`tiebreaks.LiveStandings`),
# the most recently used last; see `live_lines`.
_LIVE: OrderedDict[tuple, tiebreaks.LiveStandings] = OrderedDict()
_LIVE_LOCK = threading.Lock()
LIVE_KEPT = 8  # competitions (and views of them: the public rounds, a TD's drafts) kept


def live_lines(
    data: CompetitionData, state: TournamentState, codes: list[str], rules: str, unrated: tiebreaks.Unrated
) -> list[tiebreaks.Standing]:
    """`tiebreaks.standings(state, codes, rules=rules, unrated=unrated, explain=False)`, from the standings
    this process last ranked for the same competition, rounds and tie-break list, with the results entered
    since put in (`tiebreaks.LiveStandings`: only the values a result can move are computed again). When
    anything but results changed (a pairing, a bye, a withdrawal, a rating, the settings) or nothing is
    kept, the standings are ranked in full and kept for the next version. Kept in the process's memory,
    not in the shared cache: a result costs a few milliseconds to put in, a copy through the cache more."""
    key = (data.competition.pk, tuple(r.number for r in data.rounds), tuple(codes), rules, unrated)
    with _LIVE_LOCK:
        live = _LIVE.pop(key, None)
        changes = None if live is None else live.changes_to(state)
        if live is None or changes is None:
            live = tiebreaks.LiveStandings(state, codes, rules=rules, unrated=unrated)
        elif changes:
            live.apply(changes)
        _LIVE[key] = live
        while len(_LIVE) > LIVE_KEPT:
            _LIVE.popitem(last=False)
        return live.lines()


def explanation(data: CompetitionData, number: int, index: int) -> tuple[str, tiebreaks.Explanation] | None:
    """The code of the standings' tie-break column `index` and how player `number`'s value in it came
    about, as `standings` shows it (None where it shows none), computing that one value only
    (`tiebreaks.explanation`). The Gladiator ranking of seed 004 §4.9.8 has no explanations."""
    if data.competition.gladiator and not data.competition.tiebreaks:
        return None
    names = tiebreak_names(data)
    if not 0 <= index < len(names):
        return None
    unrated = tiebreaks.Unrated(data.competition.unrated_opponents, data.competition.unrated_rating or 0)
    found = tiebreaks.explanation(
        final_state(data), ["PTS", *names], names[index], number,
        rules=tiebreaks.default_rules(data.competition.system), unrated=unrated,
    )  # fmt: skip
    return None if found is None else (names[index], found)


def unused_columns(names: list[str], rows: list[Row]) -> set[int]:
    """The columns a standings table leaves out: a direct encounter (C.07 6) that no tie was broken by,
    which has no value for anybody."""
    encounter = {i for i, name in enumerate(names) if name.split("/")[0].upper() in tiebreaks.ENCOUNTER}
    return {i for i in encounter if all(i >= len(row.tiebreaks) or row.tiebreaks[i] is None for row in rows)}


def unrated_note(data: CompetitionData):
    """Which rule for unrated opponents the standings follow (C.07 art. 10), when a tie-break of the
    catalogue needs it (the Gladiator tie-breaks of seed 004 §4.9.8 need no rating)."""
    if data.competition.gladiator and not data.competition.tiebreaks:
        return None
    names = tiebreak_names(data)
    unrated = tiebreaks.Unrated(data.competition.unrated_opponents, data.competition.unrated_rating or 0)
    return tiebreaks.unrated_rule_note(names, unrated)


def crosstable(data: CompetitionData) -> list[tuple[int, Row, list[Cell]]]:
    """Rows in standings order, each with its number in the table (its place, 1, 2, ...; the standings'
    rank unless the place is shared) and one cell per round; struck players last, numbered on."""
    state = data.state()
    _names, rows = standings(data, whole=state, explain=False)
    ranked = {row.participant.start_number for row in rows}
    struck = [p for p in data.participants if p.start_number not in ranked]
    rows += [Row(rank="–", participant=p, points=state.player(p.start_number).score()) for p in struck]
    number_of = {row.participant.start_number: place for place, row in enumerate(rows, 1)}
    words = CellWords()
    table = []
    for row in rows:
        player = state.player(row.participant.start_number)
        cells = [crosstable_cell(record, number_of.get(record.opponent), words) for record in player.history]
        table.append((number_of[row.participant.start_number], row, cells))
    return table


@dataclass
class KeizerRow:
    """A Keizer standings line with the seed's columns (seed 003 §1.5)."""

    line: keizer.StandingRow
    participant: Participant
    start_rating: int  # BRtg
    current_rating: int  # HRtg: the start rating moved by the KNSB change over the games so far (K = 20, §2.1)

    @property
    def rating_change(self) -> int:  # Rtgver
        return self.current_rating - self.start_rating


KNSB_K = 20  # seed 003 §2.1 "K-factor: 20"


def keizer_standings(data: CompetitionData) -> tuple[keizer.Standings, list[KeizerRow]]:
    """The Keizer standings (pairing.engines.keizer) with the rating columns of §1.5."""
    state = data.state()
    table = keizer.standings(state)
    by_start = {p.start_number: p for p in data.participants}
    rating = {p.id: p.rating for p in state.players}
    rows = []
    for line in table.rows:
        player = state.player(line.player)
        games = [(rating[r.opponent], Fraction(r.score)) for r in player.history if r.played and r.score is not None]
        start = rating[line.player]
        change = knsb.rating_change(start, games, KNSB_K).change if games and start else 0.0
        rows.append(KeizerRow(line, by_start[line.player], start, round(start + change)))
    return table, rows


def progression(
    data: CompetitionData,
    limit: int | None = 10,
    current: list[Row] | None = None,
    whole: TournamentState | None = None,
) -> tuple[list[int], list[tuple[Participant, list]]]:
    """Each player's place after every finished or published round, for the standings chart.

    Keizer: the Keizer ranking after each round (seed 003 §1.6, `keizer.ranking_after`); the other
    systems: the standings after each round (points, then the competition's tie-breaks), a shared
    place counted as its best, the last round's being the current standings (`current`, when the
    caller has them at hand; `whole` likewise `data.state()`). The players in the current standings' order,
    the first `limit`.
    """
    numbers = [r.number for r in data.rounds if r.is_paired]
    places: dict[int, list[int | None]] = {p.start_number: [] for p in data.participants}
    keizer_system = data.competition.engine.own_standings
    if keizer_system:
        order = [row.participant for row in keizer_standings(data)[1]]
    else:
        current = standings(data, whole=whole, explain=False)[1] if current is None else current
        order = [row.participant for row in current]
    chosen = order if limit is None else order[:limit]
    shown = [p.start_number for p in chosen]
    last = max((r.number for r in data.rounds), default=0)
    if whole is None and numbers and not keizer_system:
        whole = data.state()
    written = round_fingerprints(data, whole) if whole is not None else None
    for number in numbers:
        if keizer_system:
            state = data.state(upto_round=number)
            after = {pid: place for place, pid in enumerate(keizer.ranking_after(state, number), 1)}
        elif number == last:
            after = {row.participant.start_number: int(row.rank.split("-")[0]) for row in current}
        else:
            after = places_after(data, number, shown, whole=whole, written=written)
        for start, line in places.items():
            line.append(after.get(start))
    return numbers, [(p, places[p.start_number]) for p in chosen]


def places_after(
    data: CompetitionData,
    number: int,
    players: list[int] | None = None,
    state: TournamentState | None = None,
    made_from: Callable[[TournamentState], str] | None = None,
    *,
    whole: TournamentState | None = None,
    written: Callable[[int], str] | None = None,
) -> dict[int, int]:
    """Start number -> place in the standings after round `number` (a shared place counted as its best),
    for `players` (start numbers; all when None); `state`: `data.state(upto_round=number)`, when the caller
    has it at hand; `made_from`: `fingerprint`, or the same from `fingerprints` of the state it was cut from.
    Or `whole`: `data.state()`, whose first `number` rounds are ranked without cutting a state from it
    (the tie-breaks read nothing of a state but its players, their first rounds and the point system:
    `tiebreaks.places(..., rounds=number)` of the whole equals that of the cut state), with `written`:
    `round_fingerprints(data, whole)`.

    Only the points groups of those players are ranked by the tie-breaks (`tiebreaks.places`), without
    explanations: the same places as the full standings of that round, at a fraction of the work. An
    earlier round's places change only when its own data does: they are cached under a digest of
    everything they are computed from (the state of rounds 1..number, the tiebreak list and rules), with
    the places of every player of the points groups ranked so far, so the chart does not rank every round
    again whenever a result of the round in play comes in, nor when another player joins the leaders.
    """
    rounds = None
    if whole is not None:
        state, rounds = whole, number
        source = (written or round_fingerprints(data, whole))(number)
    else:
        state = data.state(upto_round=number) if state is None else state
        source = (made_from or fingerprint)(state)
    competition = data.competition
    wanted = sorted(p.id for p in state.players) if players is None else list(players)
    digest = repr((source, tiebreak_names(data), competition.system, competition.unrated_opponents,
                   competition.unrated_rating, competition.gladiator))  # fmt: skip
    key = "places:" + hashlib.sha256(digest.encode()).hexdigest()
    # The places known of that round: the whole points groups ranked so far, whoever was asked for (the
    # leaders change as results come in, their groups mostly not).
    known = cache.get(key) or {}
    missing = [p for p in wanted if p not in known]
    if missing:
        unrated = tiebreaks.Unrated(competition.unrated_opponents, competition.unrated_rating or 0)
        known = known | tiebreaks.places(
            state, ["PTS", *tiebreak_names(data)], missing, rounds=rounds,
            rules=tiebreaks.default_rules(competition.system), unrated=unrated, whole_groups=True,
        )  # fmt: skip
        cache.set(key, known, settings.PAGE_CACHE_SECONDS)
    return {p: known[p] for p in wanted}


_PLAYER_FIELDS = [f.name for f in fields(Player) if f.name not in ("history", "withdrawn")]


def fingerprint(state: TournamentState) -> str:
    """Everything in `state`, written out compactly: the state's own fields, then each player's fields and
    his rounds (kind, opponent, colour, score). Equal for equal states, as `repr(state)` is, and several
    times quicker to write for thousands of players (the dataclasses' and enums' own reprs name every
    field and member)."""
    return fingerprints(state)(state)


def fingerprints(whole: TournamentState) -> Callable[[TournamentState], str]:
    """`fingerprint` of the states cut from `whole` (`CompetitionData.earlier`: each player's first rounds,
    withdrawn or not as of then), with each player's fields and rounds written once for all of them."""
    fixed = {p.id: repr([getattr(p, name) for name in _PLAYER_FIELDS]) for p in whole.players}
    rounds = {
        p.id: [f"{r.kind._value_},{r.opponent},{r.colour._value_ if r.colour else ''},{r.score}" for r in p.history]
        for p in whole.players
    }

    def of(state: TournamentState) -> str:
        parts = [repr(replace(state, players=[]))]
        for p in state.players:
            parts.append(f"{fixed[p.id]}{p.withdrawn}")
            parts.append(";".join(rounds[p.id][: len(p.history)]))
        return "\n".join(parts)

    of.fixed, of.rounds = fixed, rounds  # type: ignore[attr-defined]  # for `round_fingerprints`
    return of


def round_fingerprints(data: CompetitionData, whole: TournamentState) -> Callable[[int], str]:
    """`fingerprint` of `data.earlier(whole, number)` as a function of `number`, without cutting the state:
    the same text, each player's fields and rounds written once for every round. Of the data's own whole
    state, each round's text is kept with the data (`CompetitionData.kept`; tournaments.live carries the
    rounds before a changed result over to the next version)."""
    kept = data.kept if data.kept is not None and whole is data.kept.get("state") else {}
    memo = kept.setdefault("fingerprints", {})
    left = {p.start_number: p.withdrawn_after for p in data.participants}
    written: list[Callable[[TournamentState], str]] = []

    def upto(number: int) -> str:
        if number in memo:
            return memo[number]
        if not written:
            written.append(fingerprints(whole))
        of = written[0]
        head = repr(replace(whole, players=[], round_to_pair=number + 1))
        parts = [head]
        for p in whole.players:
            gone = left[p.id] is not None and left[p.id] < number + 1
            parts.append(f"{of.fixed[p.id]}{gone}")
            parts.append(";".join(of.rounds[p.id][:number]))
        text = memo[number] = "\n".join(parts)
        return text

    return upto


def gladiator_standings(data: CompetitionData, state: TournamentState) -> tuple[list[str], list[Row]]:
    """The Gladiator ranking (§4.9.8): points, then most ordinary games won, most games won at
    reduced time, direct encounter. Byes and forfeits add their points outside the encounters."""
    start_of = {p.id: p.start_number for p in data.participants}
    by_start = {p.start_number: p for p in data.participants}
    ranked = {p.id for p in state.players}
    found = [
        e
        for e in encounters.encounters(data.games, start_of, **data.competition.gladiator_format).values()
        if set(e.players) <= ranked
    ]
    in_encounters = {n: sum(e.points(n) for e in found) for n in ranked}
    other = {p.id: p.score() - in_encounters[p.id] for p in state.players}
    lines = gladiator_engine.standings(ranked, found, other)
    names = [_("ordinary wins"), _("wins at reduced time"), _("direct encounter")]
    shared = Counter(line.rank for line in lines)
    rows = []
    for line in lines:
        count = shared[line.rank]
        rows.append(
            Row(
                rank=str(line.rank) if count == 1 else f"{line.rank}-{line.rank + count - 1}",
                participant=by_start[line.player],
                points=line.points,
                tiebreaks=[float(line.ordinary_wins), float(line.reduced_wins), line.direct],
                games=sum(1 for r in state.player(line.player).history if r.played),
            )
        )
    return names, rows
