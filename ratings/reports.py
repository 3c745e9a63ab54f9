"""The rating report of a competition: per player old rating, games, W, W_e, bonus, K, new rating.

Built from the competition's games (`tournaments.state.CompetitionData`) with the pure maths of
`ratings.maths`:
- DSU: `report.rating_report` (seed 004 §4.5.2-§4.5.5), with the player's class (§23), the candidate
  result (§26) and norms (§4.7.4);
- FIDE: `fide_report.fide_report` (B.02 8.2, 8.3, 7.2.1): month by month on each month's list, K from
  the club's records (`ratings.history`), initial ratings of unrated players, the 1400 floor, by the
  competition's time control; norms (§4.7.4);
- KNSB: `knsb.rating_change` (reference/ratings.md §8). The KNSB's own K table is not confirmed, so
  the FIDE K is used and the page says so.

Old ratings are the ratings on the day of round 1 (`models.ratings_on`, from the rating history).
Which system applies: a competition has no rating setting yet, so it follows the club's federation
(DEN: DSU, NED: KNSB, else FIDE), unless the page is asked for another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club
from tournaments.models import Participant, Stage
from tournaments.state import CompetitionData

from . import history
from .maths import dsu, fide, knsb
from .maths.fide_report import PlayerRecord, ReportGame, TimeControl, fide_report, period_of
from .maths.report import rating_report
from .maths.tables import round_half_away
from .maths.titles import (
    CandidateRequirement,
    NormOpponent,
    NormTitle,
    PlayerClass,
    QualifyingKind,
    norm_check,
)
from .models import RatingSystem, ratings_on

SYSTEM_BY_FEDERATION = {"DEN": RatingSystem.DSU, "NED": RatingSystem.KNSB}
PLAYED = {"1-0": Fraction(1), "½-½": Fraction(1, 2), "0-1": Fraction(0)}
FORFEITS = {"1-0R": Fraction(1), "0-1R": Fraction(0)}  # the loser did not appear
NORM_TITLES = (NormTitle.GM, NormTitle.IM, NormTitle.WGM, NormTitle.WIM)
WOMEN_TITLES = {NormTitle.WGM, NormTitle.WIM}
ESTABLISHED_GAMES = 30  # KNSB K (as FIDE's): the number of games a player completed is not known here

CLASS_NAMES = {
    PlayerClass.MASTER: gettext_lazy("master player"),
    PlayerClass.FIRST: gettext_lazy("1st class"),
    PlayerClass.SECOND: gettext_lazy("2nd class"),
    PlayerClass.THIRD: gettext_lazy("3rd class"),
}
QUALIFYING_NAMES = {
    QualifyingKind.EMT: gettext_lazy("EMT or an event coordinated with it"),
    QualifyingKind.DIVISION: gettext_lazy("division event"),
    QualifyingKind.RATED_TEAM: gettext_lazy("rated team event"),
    QualifyingKind.FIDE_INTERNATIONAL: gettext_lazy("FIDE-rated international event"),
    QualifyingKind.RK_APPROVED: gettext_lazy("event approved by the rating committee"),
    QualifyingKind.REGIONAL_RATED: gettext_lazy("rated regional event"),
}
DEFAULT_QUALIFYING = QualifyingKind.RK_APPROVED
TIME_CONTROL_NAMES = {
    TimeControl.STANDARD: gettext_lazy("standard"),
    TimeControl.RAPID: gettext_lazy("rapid"),
    TimeControl.BLITZ: gettext_lazy("blitz"),
}


def default_system(club: Club) -> str:
    """The rating system of the club's federation: DEN -> DSU, NED -> KNSB, any other -> FIDE."""
    return SYSTEM_BY_FEDERATION.get(club.federation.upper(), RatingSystem.FIDE)


@dataclass
class ReportRow:
    """One player's line (the fields a system does not have are None)."""

    participant: Participant
    old_rating: int | None  # for a DSU player without a rating: the performance rating (`provisional`)
    provisional: bool
    games: int  # rated games
    score: Fraction  # W
    expected: Fraction | float | None  # W_e
    bonus: Fraction | None  # DSU only
    k: int | None
    new_rating: int | None
    change: int | None
    player_class: str = ""  # DSU §23
    candidate: CandidateRequirement | None = None  # DSU §26
    candidate_round: int | None = None
    performance: int | None = None  # FIDE/KNSB, unrated players: the tournament performance
    norms: list[str] = field(default_factory=list)
    bonus_extrapolated: bool = False  # DSU: more games than the bonus table of §4.5.2.2
    initial_rating: int | None = None  # FIDE: an unrated player's initial rating (B.02 8.2)
    initial_games: int = 0  # FIDE: the games it rests on, earlier pooled ones included
    off_list: bool = False  # FIDE: the rating fell below 1400 (B.02 7.2.1), or the initial rating is under it
    periods: list = field(default_factory=list)  # FIDE: `fide_report.PeriodLine` per month

    @property
    def candidate_result(self) -> bool:
        return self.candidate_round is not None


@dataclass
class RatingReport:
    system: str
    derived: bool  # the system follows the club's federation
    day: date
    rows: list[ReportRow]
    qualifying: QualifyingKind | None
    notes: list[str]
    time_control: str = TimeControl.STANDARD
    periods: list[date] = field(default_factory=list)  # FIDE: the rating periods (months) of the event

    @property
    def system_name(self) -> str:
        return RatingSystem(self.system).label

    def row_for(self, start_number: int) -> ReportRow | None:
        return next((r for r in self.rows if r.participant.start_number == start_number), None)


def competition_day(data: CompetitionData) -> date:
    """The day of round 1 (when it was paired), else the day the competition was created."""
    first = next((r for r in data.rounds if r.paired_at), None)
    moment = first.paired_at if first else data.competition.created
    return timezone.localdate(moment)


def _is_junior(participant: Participant, day: date) -> bool:
    """FIDE K: to the end of the year of the 18th birthday."""
    born = participant.member.birth_date
    return born is not None and born.year + 18 >= day.year


@dataclass
class _Inputs:
    """What every system's rows are computed from."""

    day: date
    ratings: dict[int, int | None]  # start number -> rating in the system on the day of round 1
    games: list[dsu.Game]
    games_of: dict[str, list[dsu.Game]]  # start number (as text) -> that player's games
    norm_players: dict[str, NormOpponent]
    by_start: dict[int, Participant]


def _inputs(data: CompetitionData, system: str) -> _Inputs:
    day = competition_day(data)
    members = [p.member for p in data.participants]
    on_day = ratings_on(members, system, day)
    ratings = {p.start_number: on_day[p.member_id] for p in data.participants}
    fide_ratings = on_day if system == RatingSystem.FIDE else ratings_on(members, RatingSystem.FIDE, day)
    start_of = {p.id: p.start_number for p in data.participants}
    by_start = {p.start_number: p for p in data.participants}
    games: list[dsu.Game] = []
    for game in data.games:
        if data.competition.gladiator and game.stage != Stage.CLASSICAL:
            continue  # seed 004 §4.9.8: each game by its own result; the replays miss the time limits of §4.5.3
        white, black = str(start_of[game.white_id]), str(start_of[game.black_id])
        if game.result in PLAYED:
            games.append(dsu.Game(white, black, PLAYED[game.result], round=game.round.number))
        elif game.result in FORFEITS:
            absent = black if game.result == "1-0R" else white
            games.append(dsu.Game(white, black, FORFEITS[game.result], False, absent, round=game.round.number))
    games_of: dict[str, list[dsu.Game]] = {str(n): [] for n in by_start}
    for game in games:
        games_of[game.white].append(game)
        games_of[game.black].append(game)
    norm_players = {
        str(p.start_number): NormOpponent(fide_ratings[p.member_id], p.member.federation, p.title or None)
        for p in data.participants
    }
    return _Inputs(day, ratings, games, games_of, norm_players, by_start)


def build_report(
    data: CompetitionData, system: str | None = None, qualifying: QualifyingKind | None = DEFAULT_QUALIFYING
) -> RatingReport:
    """The rating report of a loaded competition in `system` (None: the club's federation decides)."""
    derived = system is None
    system = system or default_system(data.competition.club)
    inputs = _inputs(data, system)
    notes: list[str] = []
    if system == RatingSystem.DSU:
        rows = _dsu_rows(data, inputs, qualifying)
        notes.append(_("Unplayed games count only where a player did not appear (§4.5.4.2)."))
        if any(row.bonus_extrapolated for row in rows):
            notes.append(
                _(
                    "† More than 11 games: §4.5.2.2 gives the bonus only up to “10 eller 11 partier”; the "
                    "threshold used (another half point every two games) is an extrapolation, not the rule."
                )
            )
    elif system == RatingSystem.FIDE:
        rows, periods = _fide_rows(data, inputs)
        notes += _fide_notes(rows, periods, data.competition.time_control)
    else:
        rows = _knsb_rows(inputs)
        notes.append(_("Only played games against rated opponents count; K assumes 30 or more rated games."))
        notes.append(_("KNSB: logistic expected score; K as FIDE's (the KNSB K table is not confirmed)."))
    rows.sort(key=lambda r: r.participant.start_number)
    report = RatingReport(system, derived, inputs.day, rows, qualifying if system == RatingSystem.DSU else None, notes)
    if system == RatingSystem.FIDE:
        report.time_control, report.periods = data.competition.time_control, periods
    return report


def player_row(
    data: CompetitionData,
    start_number: int,
    system: str | None = None,
    qualifying: QualifyingKind | None = DEFAULT_QUALIFYING,
) -> ReportRow | None:
    """Player `start_number`'s line of `build_report(data, system, qualifying)`, the same values, computing
    what that line needs: the KNSB line from the player's own games; the DSU and FIDE lines with the event
    rated as a whole (an unrated opponent's performance rating, §4.5.5.2, and a later month's rating of an
    opponent, B.02 8.3, come from the other players' games) but the norms (§4.7.4) of this player only."""
    system = system or default_system(data.competition.club)
    if start_number not in {p.start_number for p in data.participants}:
        return None
    inputs = _inputs(data, system)
    if system == RatingSystem.DSU:
        rows = _dsu_rows(data, inputs, qualifying, only=start_number)
    elif system == RatingSystem.FIDE:
        rows = _fide_rows(data, inputs, only=start_number)[0]
    else:
        rows = _knsb_rows(inputs, only=start_number)
    return next((r for r in rows if r.participant.start_number == start_number), None)


def _month_end(period: date) -> date:
    following = date(period.year + period.month // 12, period.month % 12 + 1, 1)
    return following - timedelta(days=1)


def _fide_rows(data, inputs: _Inputs, only: int | None = None) -> tuple[list[ReportRow], list[date]]:
    """B.02: each month's games on that month's list (`fide_report`), with the club's records of each player.
    With `only`, the norms of that player only."""
    competition = data.competition
    games, ratings, day, by_start = inputs.games, inputs.ratings, inputs.day, inputs.by_start
    round_days = {r.number: timezone.localdate(r.paired_at) if r.paired_at else day for r in data.rounds}
    played = [
        ReportGame(g.white, g.black, g.score_of(g.white), max(round_days.get(g.round, day), day))
        for g in games
        if g.played
    ]
    periods = sorted({period_of(g.day) for g in played} | {period_of(day)})
    members = [p.member for p in by_start.values()]
    listed: dict[date, dict[int, int | None]] = {periods[0]: {p.member_id: ratings[n] for n, p in by_start.items()}}
    for period in periods[1:]:
        dates = history.list_dates(members, period, _month_end(period))
        if dates:
            listed[period] = ratings_on(members, RatingSystem.FIDE, dates[-1])
    records = history.fide_list_records(members, day)
    reached = history.reached_2400(members, records, day)
    players = []
    for number, participant in by_start.items():
        member = participant.member
        unrated = ratings[number] is None
        players.append(
            PlayerRecord(
                key=str(number),
                listed={period: on_list[member.id] for period, on_list in listed.items()},
                birth_year=member.birth_date.year if member.birth_date else None,
                completed_games=history.completed_games(
                    member, records.get(member.id, []), day, competition.time_control, competition.id
                ),
                ever_2400=member.id in reached,
                earlier=history.earlier_events(member, day, competition.time_control, competition.id)
                if unrated
                else (),
            )
        )
    lines = fide_report(players, played, TimeControl(competition.time_control), day)
    rows = []
    for number, participant in by_start.items():
        line = lines[str(number)]
        row = ReportRow(participant, line.old_rating, False, line.games, line.score, line.expected, None, line.k,
                        line.new_rating, line.change)  # fmt: skip
        if only is None or number == only:
            row.norms = _fide_norms(inputs, number, participant)
        if line.initial is not None:
            row.initial_rating, row.initial_games = line.initial.value, line.initial_games
        row.off_list = line.off_list or (
            line.initial is not None and line.initial.value is not None and not line.initial.published
        )
        row.periods = line.periods
        rows.append(row)
    return rows, periods


def _fide_norms(inputs: _Inputs, number: int, participant: Participant) -> list[str]:
    """The norms (§4.7.4) of player `number`, from his own games."""
    key = str(number)
    played = [(g.opponent_of(key), g.score_of(key)) for g in inputs.games_of[key] if g.played]
    opponents = [inputs.norm_players[o] for o, _ in played]
    total = sum((s for _, s in played), Fraction(0))
    return _norm_names(
        [norm_check(participant.member.federation, opponents, total, t) for t in NORM_TITLES], participant
    )


def _fide_notes(rows: list[ReportRow], periods: list[date], time_control: str) -> list[str]:
    notes = [_("Only played games against rated opponents count (B.02 8.3).")]
    if time_control == TimeControl.STANDARD:
        notes.append(_("Rated as standard games."))
    else:
        notes.append(
            _(
                "Rated as %(control)s games (FIDE rapid and blitz regulations): a difference over 400 points counts "
                "as 400 for everyone, and a game between players 600 or more points apart is not rated when one of "
                "them is rated above 2600."
            )
            % {"control": TIME_CONTROL_NAMES[time_control]}
        )
    notes.append(
        _(
            "K (B.02 8.3.3): 10 once a published rating reached 2400, even if it dropped; 40 for a junior under 2300 "
            "and for a player with fewer than 30 games of completed events (counted from the FIDE lists imported "
            "and the club's own games); otherwise 20; at most 700 divided by the games of the month."
        )
    )
    if len(periods) > 1:
        notes.append(
            _(
                "The event spans %(count)s rating periods: FIDE rates each month's games on the ratings of that "
                "month's list (the club's imported list of that month, otherwise the previous month's rating plus "
                "its change). The table below shows each month."
            )
            % {"count": len(periods)}
        )
    if any(row.old_rating is None for row in rows):
        notes.append(
            _(
                "Players without a rating get an initial rating (B.02 8.2): the average of their rated opponents and "
                "two hypothetical opponents rated 1800, both drawn, plus dp of that score; at least 5 games against "
                "rated opponents, earlier results in the club's events of the last 26 months pooled (a zero score in "
                "the first event disregarded); at most 2200."
            )
        )
    if any(row.off_list for row in rows):
        notes.append(_("A rating below 1400 is not published: the player drops off the list (B.02 7.2.1)."))
    return notes


def _norm_names(results, participant: Participant) -> list[str]:
    women = participant.member.sex == "w"
    return [r.title.value for r in results if r.achieved and (women or r.title not in WOMEN_TITLES)]


def _dsu_rows(data, inputs: _Inputs, qualifying, only: int | None = None) -> list[ReportRow]:
    """§4.5: the event rated as a whole (`report.rating_report`); with `only`, the norms of that player only."""
    ratings, by_start = inputs.ratings, inputs.by_start
    system_ratings = {str(n): r for n, r in ratings.items()}
    lines = rating_report(
        inputs.games,
        system_ratings,
        all_play_all=data.competition.engine.scheduled,
        day=inputs.day,
        qualifying=qualifying,
        norm_players=inputs.norm_players,
        norm_titles=NORM_TITLES,
        norms_for=None if only is None else {str(only)},
    )
    rows = []
    for line in lines:
        participant = by_start[int(line.player)]
        rows.append(
            ReportRow(
                participant=participant,
                old_rating=line.old_rating,
                provisional=line.provisional,
                games=line.games,
                score=line.score,
                expected=line.expected,
                bonus=line.bonus,
                k=line.k,
                new_rating=line.new_rating,
                change=line.change,
                player_class=str(CLASS_NAMES[line.player_class]),
                candidate=line.candidate,
                candidate_round=line.candidate_round,
                norms=_norm_names(line.norms, participant),
                bonus_extrapolated=line.bonus_extrapolated,
            )
        )
    reported = {r.participant.start_number for r in rows}
    rows += [_empty_row(p, ratings[n]) for n, p in by_start.items() if n not in reported]
    return rows


def _empty_row(participant: Participant, rating: int | None) -> ReportRow:
    return ReportRow(participant, rating, False, 0, Fraction(0), None, None, None, None, None)


def _knsb_rows(inputs: _Inputs, only: int | None = None) -> list[ReportRow]:
    """KNSB: the logistic expectation, K as FIDE's for a player with 30 games (the KNSB K table is not confirmed).
    Each line comes from the player's own games and his opponents' ratings: with `only`, that line alone."""
    ratings, day = inputs.ratings, inputs.day
    chosen = inputs.by_start if only is None else {only: inputs.by_start[only]}
    played: dict[int, list[tuple[int, Fraction]]] = {}  # (opponent, score)
    for number in chosen:
        key = str(number)
        own = sorted((g for g in inputs.games_of[key] if g.played), key=lambda g: g.round)
        played[number] = [(int(g.opponent_of(key)), g.score_of(key)) for g in own]
    rows = []
    for number, participant in chosen.items():
        own = ratings[number]
        rated = [(ratings[o], s) for o, s in played[number] if ratings[o] is not None]
        score = sum((s for _, s in rated), Fraction(0))
        row = ReportRow(participant, own, False, len(rated), score, None, None, None, None, None)
        row.norms = _fide_norms(inputs, number, participant)
        if own is None:
            row.performance = fide.tournament_performance([r for r, _ in rated], score)
        elif rated:
            k = fide.k_factor(own, ESTABLISHED_GAMES, _is_junior(participant, day), own >= 2400, len(rated))
            result = knsb.rating_change(own, rated, k)
            row.expected, row.change = result.expected, round_half_away(Fraction(result.change))
            row.k, row.new_rating = k, own + row.change
        else:
            row.new_rating, row.change = own, 0
        rows.append(row)
    return rows


def rating_line(competition, start_number: int, data: CompetitionData | None = None):
    """One player's line of the competition's rating report over its public rounds, or None: that line only
    (`player_row`), not the whole report. `data`: the competition's public rounds, when the page has them
    loaded already: the KNSB line needs the player's own games only (`CompetitionData.only`), the DSU and FIDE
    lines the whole event (see `player_row`)."""
    if data is None:
        data = CompetitionData.load(competition, public=True)
    elif default_system(competition.club) != RatingSystem.KNSB:
        data = data.whole()
    try:
        return player_row(data, start_number)
    except ValueError:
        return None
