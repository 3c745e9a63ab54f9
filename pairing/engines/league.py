"""Team leagues: clubs' teams meeting in a round robin of matches (the KNSB's and the regions' team
competitions, the DSU's Holdturnering), over plain data.

Pure: no Django. What a league needs besides the team tie-breaks (`tiebreaks.teams`, C.07 art. 11-13):

- `league_schedule`: the rounds of matches, home team first, from the Berger tables (seed 004 §4.9.11,
  `roundrobin.schedule`): the first-named of a pair plays at home, so every team is at home about as
  often as away and rarely twice in a row; an odd number of teams gives each round one team off.
- `board_colours`: which team has White on each board (the home team on the odd boards by default).
- `match_outcome`: a match's board points from its boards' results, forfeits and unfilled boards
  included, and the match points they give (2/1/0 by default).
- `league_standings`: match points then board points (or the other way round), then the team
  tie-breaks the league chose (direct encounter, extended Sonneborn-Berger, board count, ...).
- `check_lineup`: a team's line-up against the rosters: the roster order kept, reserves from lower
  teams of the club only as far up as the league allows, nobody twice.

Every refusal is a `Problem` with a code and parameters, rendered in the reader's language by the
pages; `InvalidInput` only for data no page should produce.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .roundrobin import schedule
from .state import InvalidInput
from .tiebreaks.teams import GROUP_CODES, Match, TeamCalculator, TeamEvent, encounter_blocks, parse_team

# ---------------------------------------------------------------- the league's rules

DEFAULTS: dict[str, Any] = {
    "boards": 8,
    "cycles": 1,
    "match_win": 2.0,
    "match_draw": 1.0,
    "match_loss": 0.0,
    "forfeited_match": 0.0,
    "primary": "MP",
    "home_white": "odd",
    "play_up": 1,
    "max_reserves": 0,
    "format": "league",
    "cup_tie": "boards",
    "cup_decider": "lot",
}
CHOICES: dict[str, tuple[str, ...]] = {
    "primary": ("MP", "BP"),
    "home_white": ("odd", "even"),
    "format": ("league", "cup"),
    "cup_tie": ("boards", "decider"),
    "cup_decider": ("lot", "blitz"),
}


@dataclass(frozen=True, slots=True)
class LeagueRules:
    """A league's settings.

    `boards` per match; `cycles` 1 (single) or 2 (double round robin); match points for a match won,
    drawn, lost, and for a team that forfeited the whole match (a penalty may be negative);
    `primary` "MP" (match points, then board points) or "BP" (board points first), C.07 11.1;
    `home_white` "odd" (the home team has White on boards 1, 3, 5, ...) or "even"; `play_up`: how
    many teams higher a player of a lower team of the club may play as a reserve (0: none, -1: any);
    `max_reserves`: reserves in one line-up at most (0: no limit); `format` "league" (a round robin) or
    "cup" (a knockout of matches, `team_cup`), whose level matches are decided by `cup_tie` "boards" (the
    KNSB cup's board count, then the decider) or "decider" (the decider at once), the decider being
    `cup_decider` "lot" (drawn by the TD) or "blitz" (a blitz decider the TD enters)."""

    boards: int = 8
    cycles: int = 1
    match_win: float = 2.0
    match_draw: float = 1.0
    match_loss: float = 0.0
    forfeited_match: float = 0.0
    primary: str = "MP"
    home_white: str = "odd"
    play_up: int = 1
    max_reserves: int = 0
    format: str = "league"
    cup_tie: str = "boards"
    cup_decider: str = "lot"

    @property
    def cup(self) -> bool:
        """A knockout of matches rather than a round robin."""
        return self.format == "cup"

    @classmethod
    def from_settings(cls, given: Mapping[str, Any] | None = None) -> LeagueRules:
        """The defaults overlaid with `given`; `InvalidInput` names an unknown or bad setting."""
        merged = {**DEFAULTS, **(given or {})}
        unknown = sorted(set(merged) - set(DEFAULTS))
        if unknown:
            raise InvalidInput(f"unknown league settings: {', '.join(unknown)}")
        for name, words in CHOICES.items():
            if merged[name] not in words:
                raise InvalidInput(f"{name} is one of {', '.join(words)}, not {merged[name]!r}")
        for name in ("boards", "cycles", "play_up", "max_reserves"):
            if not isinstance(merged[name], int) or isinstance(merged[name], bool):
                raise InvalidInput(f"{name} is a whole number, not {merged[name]!r}")
        if not 1 <= merged["boards"] <= 20:
            raise InvalidInput(f"a match has 1 to 20 boards, not {merged['boards']}")
        if merged["cycles"] not in (1, 2):
            raise InvalidInput(f"a league is a single or double round robin, not {merged['cycles']} cycles")
        if merged["play_up"] < -1 or merged["max_reserves"] < 0:
            raise InvalidInput("play_up is -1 (any), 0 or more; max_reserves 0 (no limit) or more")
        points = [float(merged[k]) for k in ("match_win", "match_draw", "match_loss")]
        if not points[0] > points[1] >= points[2]:
            raise InvalidInput("a match won must count more than a draw, a draw at least as much as a loss")
        merged.update(match_win=points[0], match_draw=points[1], match_loss=points[2])
        merged["forfeited_match"] = float(merged["forfeited_match"])
        return cls(**merged)

    def settings(self) -> dict[str, Any]:
        """The rules as JSON-able settings (what `from_settings` reads)."""
        return {name: getattr(self, name) for name in DEFAULTS}


@dataclass(frozen=True, slots=True)
class Problem:
    """Why something was refused: a code and its parameters (the pages word it in the reader's language)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- the schedule (seed 004 §4.9.11)


@dataclass(frozen=True, slots=True)
class Fixture:
    """A match of the schedule: `round`, the `home` team, the `away` team (team numbers 1..n)."""

    round: int
    home: int
    away: int


@dataclass(frozen=True, slots=True)
class LeagueRound:
    """One round of the schedule: its matches in table order and the team without a match (odd field)."""

    number: int
    fixtures: tuple[Fixture, ...]
    free: int | None = None


def league_schedule(n_teams: int, cycles: int = 1, swap_seam: bool = True) -> list[LeagueRound]:
    """The rounds of a league of `n_teams` teams numbered 1..n by the Berger tables (seed 004 §4.9.11).

    The colours the tables give a player are a team's home and away: the first-named team plays at
    home. In a single round robin every team is at home (n-1)/2 times, rounded up or down; the second
    cycle of a double round robin reverses every match, and the last two rounds of the first cycle are
    swapped (`swap_seam`) so that no team is at home, or away, three times running across the seam."""
    if n_teams < 2:
        raise InvalidInput("a league needs at least 2 teams")
    if cycles not in (1, 2):
        raise InvalidInput(f"a league is a single or double round robin, not {cycles} cycles")
    out: list[LeagueRound] = []
    for number, pairs in enumerate(schedule(n_teams, cycles, swap_seam), start=1):
        fixtures = tuple(Fixture(number, a, b) for a, b in pairs if a and b)
        free = next((a or b for a, b in pairs if not (a and b)), None)
        out.append(LeagueRound(number, fixtures, free))
    return out


def home_away(rounds: Sequence[LeagueRound]) -> dict[int, str]:
    """Each team's sequence of the schedule: "H" at home, "A" away, "-" no match that round."""
    teams = sorted(
        {t for r in rounds for f in r.fixtures for t in (f.home, f.away)} | {r.free for r in rounds if r.free}
    )
    out = dict.fromkeys(teams, "")
    for rnd in rounds:
        where = {f.home: "H" for f in rnd.fixtures} | {f.away: "A" for f in rnd.fixtures}
        for team in teams:
            out[team] += where.get(team, "-")
    return out


def breaks(sequence: str) -> int:
    """How often a team plays at home (or away) in two consecutive matches; a round off is skipped."""
    played = sequence.replace("-", "")
    return sum(1 for a, b in zip(played, played[1:], strict=False) if a == b)


# ---------------------------------------------------------------- colours per board


def board_colours(boards: int, home_white: str = "odd") -> tuple[bool, ...]:
    """For boards 1..`boards`: True where the home team has White. `home_white` "odd": White on the odd
    boards (board 1, 3, ...), the away team on the even ones (as the olympiad's first-named team,
    seed 004 §4.9.9.5); "even": the other way round."""
    if home_white not in CHOICES["home_white"]:
        raise InvalidInput(f"home_white is odd or even, not {home_white!r}")
    first = home_white == "odd"
    return tuple((board % 2 == 1) == first for board in range(1, boards + 1))


# ---------------------------------------------------------------- a match's result

BOARD_RESULTS: dict[str, tuple[float, float]] = {
    "1-0": (1.0, 0.0),
    "½-½": (0.5, 0.5),
    "0-1": (0.0, 1.0),
    "1-0R": (1.0, 0.0),
    "0-1R": (0.0, 1.0),
    "0-0R": (0.0, 0.0),
}
"""A board's result as White-Black, forfeits marked R as on Dutch score sheets (the codes of
`tournaments.models.Result`); "" is a game still in play."""


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a match: whether each side fielded a player, and the result as White-Black."""

    number: int
    home_player: bool = True
    away_player: bool = True
    result: str = ""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A match's board points per board (home's, away's; None still in play), their totals, the match
    points of each team once every board is decided, and whether a team forfeited the whole match."""

    boards: tuple[tuple[float, float] | None, ...]
    home_points: float
    away_points: float
    complete: bool
    home_match_points: float | None
    away_match_points: float | None
    forfeited: str = ""  # "home", "away", "both" when a team fielded nobody


def board_score(board: Board, home_white: bool) -> tuple[float, float] | None:
    """A board's points as (home's, away's). A board a team left empty is lost by it (default win of
    the other); a board both left empty scores nothing for either; otherwise the entered result turned
    from White-Black into home-away."""
    if not board.home_player or not board.away_player:
        return (float(board.home_player), float(board.away_player))
    if not board.result:
        return None
    if board.result not in BOARD_RESULTS:
        raise InvalidInput(f"board {board.number}: result {board.result!r} is none of {', '.join(BOARD_RESULTS)}")
    white, black = BOARD_RESULTS[board.result]
    return (white, black) if home_white else (black, white)


def match_points(own: float, other: float, rules: LeagueRules) -> float:
    """The match points of a team scoring `own` board points against `other` (C.07 11.1: more board
    points win the match, equal ones draw it): 2/1/0 by default, as the league sets them."""
    if own > other:
        return rules.match_win
    return rules.match_draw if own == other else rules.match_loss


def match_outcome(boards: Sequence[Board], rules: LeagueRules) -> MatchOutcome:
    """The result of a match from its boards (board 1 first); boards missing from `boards` up to
    `rules.boards` were left empty by both teams. A team that fielded nobody forfeited the match: the
    other team wins every board (a default win) and the forfeiting team gets `rules.forfeited_match`
    match points, which may be a penalty."""
    if len(boards) > rules.boards:
        raise InvalidInput(f"a match of this league has {rules.boards} boards, not {len(boards)}")
    colours = board_colours(rules.boards, rules.home_white)
    given = {b.number: b for b in boards}
    if len(given) != len(boards) or not set(given) <= set(range(1, rules.boards + 1)):
        raise InvalidInput(f"boards are numbered 1..{rules.boards}, each once")
    full = [given.get(n, Board(n, False, False)) for n in range(1, rules.boards + 1)]
    home_none = not any(b.home_player for b in full)
    away_none = not any(b.away_player for b in full)
    forfeited = "both" if home_none and away_none else "home" if home_none else "away" if away_none else ""
    scores = tuple(board_score(b, colours[b.number - 1]) for b in full)
    home = sum(s[0] for s in scores if s)
    away = sum(s[1] for s in scores if s)
    complete = all(s is not None for s in scores)
    home_mp = away_mp = None
    if complete:
        home_mp, away_mp = match_points(home, away, rules), match_points(away, home, rules)
        if forfeited in ("home", "both"):
            home_mp = rules.forfeited_match
        if forfeited in ("away", "both"):
            away_mp = rules.forfeited_match
    return MatchOutcome(scores, home, away, complete, home_mp, away_mp, forfeited)


# ---------------------------------------------------------------- the league table


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A match of the league with its outcome (`match_outcome`)."""

    round: int
    home: int
    away: int
    outcome: MatchOutcome


@dataclass(slots=True)
class LeagueLine:
    """One line of the league table. `values` holds each tie-break's value by its code as given (an
    encounter code, which depends on the tied group: the team's place within its group, else None)."""

    team: int
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: float = 0.0
    board_points: float = 0.0
    values: dict[str, float | None] = field(default_factory=dict)

    def score(self, which: str) -> float:
        return self.match_points if which == "MP" else self.board_points


def _table(teams: Sequence[int], matches: Sequence[PlayedMatch], rules: LeagueRules) -> dict[int, LeagueLine]:
    lines = {t: LeagueLine(t) for t in teams}
    for match in matches:
        if not match.outcome.complete:
            continue
        out = match.outcome
        for team, mp, own, other in (
            (match.home, out.home_match_points, out.home_points, out.away_points),
            (match.away, out.away_match_points, out.away_points, out.home_points),
        ):
            line = lines[team]
            line.played += 1
            line.match_points += mp or 0.0
            line.board_points += own
            if own > other:
                line.won += 1
            elif own == other:
                line.drawn += 1
            else:
                line.lost += 1
    return lines


def tiebreak_event(teams: Sequence[int], matches: Sequence[PlayedMatch], rules: LeagueRules) -> TeamEvent:
    """The finished matches as the team tie-breaks read them (C.07 art. 11-13): every board's points
    from the home team's side, a board still in play None. The tie-breaks count a match lost as 0: with
    a loss worth points, a win and a draw count `match_win - match_loss` and `match_draw - match_loss`
    (the same order among teams that played as many matches); a forfeited match's penalty is not seen."""
    done = [m for m in matches if m.outcome.complete]
    return TeamEvent(
        tuple(teams),
        rules.boards,
        tuple(Match(m.round, (m.home, m.away), m.outcome.boards) for m in done),
        primary="MP" if rules.primary == "MP" else "GP",
        match_win=rules.match_win - rules.match_loss,
        match_draw=rules.match_draw - rules.match_loss,
    )


def league_standings(
    teams: Sequence[int], matches: Sequence[PlayedMatch], rules: LeagueRules, tiebreaks: Sequence[str] = ()
) -> list[LeagueLine]:
    """The league table: teams ordered by match points then board points (`rules.primary` "MP"), or
    board points then match points ("BP"), C.07 11.1 and 13.1; teams still equal by `tiebreaks` in
    order, the team tie-break codes of `tiebreaks.teams` (C.07 13: "EDE" direct encounter, "EMGSB"
    Sonneborn-Berger for teams, "BC" board count, ...); teams equal on all share the place (C.07 4).
    Only finished matches count."""
    if len(set(teams)) != len(teams):
        raise InvalidInput("a team is listed twice")
    lines = _table(teams, matches, rules)
    first = rules.primary
    second = "BP" if first == "MP" else "MP"
    calc = TeamCalculator(tiebreak_event(teams, matches, rules))
    specs = [(code, parse_team(code)) for code in (c.strip() for c in tiebreaks) if code]

    def split(group: list[int], k: int) -> list[list[int]]:
        if len(group) == 1 or k == len(specs):
            return [group]
        code, spec = specs[k]
        if spec.acronym in GROUP_CODES:
            blocks = encounter_blocks(calc, sorted(group), spec.acronym)[0]
            for place, block in enumerate(blocks, start=1):
                for team in block:
                    lines[team].values[code] = float(place)
        else:
            keys = {t: calc.explain(spec, t).key for t in group}
            blocks = [[t for t in group if keys[t] == key] for key in sorted(set(keys.values()), reverse=True)]
        return [tie for block in blocks for tie in split(block, k + 1)]

    for team, line in lines.items():
        for code, spec in specs:
            line.values[code] = None if spec.acronym in GROUP_CODES else calc.explain(spec, team).value
    scores = sorted({(line.score(first), line.score(second)) for line in lines.values()}, reverse=True)
    ranked: list[LeagueLine] = []
    for score in scores:
        group = sorted(t for t, line in lines.items() if (line.score(first), line.score(second)) == score)
        for tie in split(group, 0):
            place = len(ranked) + 1
            for team in sorted(tie):
                lines[team].rank = place
                ranked.append(lines[team])
    return ranked


# ---------------------------------------------------------------- line-ups


@dataclass(frozen=True, slots=True)
class Roster:
    """A club's team in the league: `rank` among the club's teams (1 its first team), its `regulars` in
    board order, and `reserves` listed for it (members of the club without a team of their own)."""

    rank: int
    regulars: tuple[int, ...]
    reserves: tuple[int, ...] = ()


def _club_order(rosters: Sequence[Roster]) -> dict[int, tuple[int, int, int]]:
    """Every rostered player's place in the club's order: team by team, regulars before the listed
    reserves, each in roster order. A regular of a team keeps that place even if listed as a reserve."""
    order: dict[int, tuple[int, int, int]] = {}
    for roster in sorted(rosters, key=lambda r: r.rank):
        for position, player in enumerate(roster.regulars):
            if player in order and order[player][1] == 0:
                raise InvalidInput(f"player {player} is a regular of two teams")
            order[player] = (roster.rank, 0, position)
    for roster in sorted(rosters, key=lambda r: r.rank):
        for position, player in enumerate(roster.reserves):
            order.setdefault(player, (roster.rank, 1, position))
    return order


def check_lineup(
    lineup: Sequence[int | None], team: int, rosters: Sequence[Roster], rules: LeagueRules
) -> list[Problem]:
    """What is wrong with the line-up (players board by board, None for a board left empty) of the
    club's team ranked `team`, given all the club's `rosters` in the league. The rules a league sets:

    - the board order follows the club's order (roster by roster, regulars before reserves): a player
      sits below every player of the line-up ahead of him in that order (`order`);
    - a regular of a higher team does not play down (`plays_down`); a regular of a lower team plays
      up at most `rules.play_up` teams (`plays_up`; -1: any, 0: none);
    - nobody plays twice (`twice`) or without being on the club's rosters (`not_rostered`); no more
      boards than the match has (`boards`), no more reserves than `rules.max_reserves` (`reserves`)."""
    problems: list[Problem] = []
    if len(lineup) > rules.boards:
        problems.append(Problem("boards", {"given": len(lineup), "boards": rules.boards}))
    order = _club_order(rosters)
    seen: dict[int, int] = {}
    reserves = 0
    last: tuple[tuple[int, int, int], int, int] | None = None  # (place, player, board): the latest in order above
    for board, player in enumerate(lineup, start=1):
        if player is None:
            continue
        if player in seen:
            problems.append(Problem("twice", {"player": player, "board": board, "first": seen[player]}))
            continue
        seen[player] = board
        if player not in order:
            problems.append(Problem("not_rostered", {"player": player, "board": board}))
            continue
        place = order[player]
        own_team, is_reserve = place[0], place[1] == 1
        if own_team < team:
            problems.append(Problem("plays_down", {"player": player, "board": board, "team": own_team}))
        elif own_team > team or is_reserve:
            reserves += 1
            if own_team > team and rules.play_up != -1 and own_team - team > rules.play_up:
                params = {"player": player, "board": board, "team": own_team, "limit": rules.play_up}
                problems.append(Problem("plays_up", params))
        if last is not None and place < last[0]:
            params = {"player": player, "board": board, "above": last[1], "above_board": last[2]}
            problems.append(Problem("order", params))
        elif last is None or place > last[0]:
            last = (place, player, board)
    if rules.max_reserves and reserves > rules.max_reserves:
        problems.append(Problem("reserves", {"count": reserves, "limit": rules.max_reserves}))
    return problems


# ---------------------------------------------------------------- individual scores


@dataclass(frozen=True, slots=True)
class BoardCard:
    """One board of a match as played: the home and away team, their players (None: left empty), the
    board's points as (home's, away's) (None: still in play) and whether it was a forfeit."""

    board: int
    home: int
    away: int
    home_player: int | None
    away_player: int | None
    points: tuple[float, float] | None
    forfeit: bool = False


@dataclass(slots=True)
class PlayerScore:
    """A player's score in the league for one team: points, games played over the board, the points
    won by forfeit, the boards played on, and per board the points and the boards decided there
    (forfeits included)."""

    player: int
    team: int
    points: float = 0.0
    games: int = 0
    forfeits: int = 0
    boards: list[int] = field(default_factory=list)
    per_board: dict[int, tuple[float, int]] = field(default_factory=dict)

    @property
    def percentage(self) -> float | None:
        """Points per game over the board (forfeits left out), as a percentage; None without games."""
        return None if not self.games else 100.0 * (self.points - self.forfeits) / self.games


def player_scores(cards: Sequence[BoardCard]) -> list[PlayerScore]:
    """Every player's score per team from the boards decided, best first (points, then fewer games);
    a forfeit counts its point, not as a game played; a board left empty by the other team is a
    forfeit won."""
    found: dict[tuple[int, int], PlayerScore] = {}
    for card in cards:
        if card.points is None:
            continue
        unplayed = card.forfeit or card.home_player is None or card.away_player is None
        for player, team, points in (
            (card.home_player, card.home, card.points[0]),
            (card.away_player, card.away, card.points[1]),
        ):
            if player is None:
                continue
            line = found.setdefault((player, team), PlayerScore(player, team))
            line.points += points
            line.boards.append(card.board)
            before, count = line.per_board.get(card.board, (0.0, 0))
            line.per_board[card.board] = (before + points, count + 1)
            if unplayed:
                line.forfeits += int(points == 1.0)
            else:
                line.games += 1
    return sorted(found.values(), key=lambda s: (-s.points, s.games, s.team, s.player))
