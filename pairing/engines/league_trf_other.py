"""Team files of other programs read as a league (trf.md §2, §3 and §5): a TRF-16 file with `013` team
records and ordinary `001` player records, without the league's own X-lines.

Pure: no Django. `read_league(text)` reads a file `write_league` wrote (it has an `XLN` line) with
`parse_league`, and any other file with `013` lines with `parse_other`, which rebuilds the league:

- the teams from the `013` lines (TRF-16: name in columns 5-36, the members' starting ranks at 37-40,
  42-45, ...), in file order; a name ending in a number ("Caissa 2") is the club's team of that rank,
  the club's short name made from the rest of the name ("caissa"); the members are the regulars;
- the matches from the `001` games: two teams whose players meet in a round play one match that round;
  a forfeit win against no opponent (`0000 - +`, TRF-2026) is a board the other team of the match left
  empty; a `330` line (TRF-2026) gives a forfeited match, a `320` line (team byes) a round off;
- the boards in the order of the `013` lines: a team's players sit in the order of its line, and a board
  left empty by one team goes where its player's place in his team's order puts it;
- the home team (the first-named) is the one with White on the odd boards: the colours of the games
  must alternate board by board; a match without colours is the first-named team's of its `330` line,
  else of the team first in the file;
- the players' names (`Lastname, Firstname`) as members' full names ("Firstname Lastname"), each of
  the club of his team;
- the matches' dates from the round dates of a `132` line (TRF-16: round r's date `YY/MM/DD` at columns
  92+10(r-1) to 99+10(r-1); `YYYY/MM/DD` read too);
- the rules: as many boards as the largest match, a double round robin when two teams meet twice, the
  other settings their defaults (`LeagueRules`).

Every error is a `TrfError` naming the line and the reason; nothing partial is returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from .kinds import league_rules
from .league import LeagueRules
from .league_trf import (
    LeagueBoard,
    LeagueFile,
    LeagueMatch,
    LeaguePlayer,
    LeagueTeam,
    Reader,
    check_byes_and_forfeits,
    parse_league,
    read_forfeit,
    read_team_byes,
)
from .state import InvalidInput
from .trf import Line, PlayerLine, TrfDocument, TrfError, parse

# A game's result codes (White's, Black's) as a board's result, White-Black (trf.md §3; W/D/L are
# games of less than one move, read as 1/=/0; blank: not played yet).
GAME_RESULTS = {
    ("1", "0"): "1-0", ("=", "="): "½-½", ("0", "1"): "0-1",
    ("W", "L"): "1-0", ("D", "D"): "½-½", ("L", "W"): "0-1",
    ("+", "-"): "1-0R", ("-", "+"): "0-1R", ("-", "-"): "0-0R", (" ", " "): "",
}  # fmt: skip
TEAM_RANK = re.compile(r"(.*?)\s+([0-9]{1,2})")


def slugify(text: str) -> str:
    """A short name from a name: lower-case letters and digits, other characters one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:50]


def full_name(name: str) -> str:
    """A `001` name (`Lastname, Firstname`, trf.md §2) as a member's full name: "Firstname Lastname"."""
    last, comma, first = name.partition(",")
    return f"{first.strip()} {last.strip()}".strip() if comma else name.strip()


@dataclass
class _Team:
    number: int
    name: str
    members: tuple[int, ...]
    line_no: int


@dataclass
class _Board:
    """A board of a match being read: the players of the first and of the second team (None: left
    empty), White's team (None: unknown), the result codes of the first and the second team's player,
    and the line it was read from."""

    first: int | None
    second: int | None
    white: int | None
    codes: tuple[str, str]
    line_no: int


@dataclass
class _Match:
    round: int
    teams: tuple[int, int]  # the lower team number first
    boards: list[_Board] = field(default_factory=list)
    forfeit: tuple[str, int, int] | None = None  # 330 type, its home team, line


def _read_teams(doc: TrfDocument, source: str) -> list[_Team]:
    teams = []
    for line in doc.other("013"):
        name = line.text[4:36].strip()
        if not name:
            raise TrfError(source, line.line_no, "a team record needs a name in columns 5-36")
        rest, members = line.text[36:], []
        for start in range(0, len(rest), 5):
            text = rest[start : start + 5]
            if text[4:].strip() or not re.fullmatch(r"[0-9]+", text.strip()) or not int(text):
                where = f"columns {37 + start}-{40 + start}"
                raise TrfError(source, line.line_no, f"member in {where} is not a starting rank: {text!r}")
            members.append(int(text))
        teams.append(_Team(len(teams) + 1, name, tuple(members), line.line_no))
    return teams


def _team_of(doc: TrfDocument, teams: list[_Team], source: str) -> dict[int, int]:
    players = {p.number for p in doc.players}
    found: dict[int, int] = {}
    for team in teams:
        for member in team.members:
            if member not in players:
                raise TrfError(source, team.line_no, f"no player has starting rank {member}")
            if member in found:
                raise TrfError(source, team.line_no, f"player {member} is on two teams' lines")
            found[member] = team.number
    for player in doc.players:
        if player.number not in found:
            raise TrfError(source, player.line_no, f"player {player.number} is on no team's 013 line")
    return found


def _game(p: PlayerLine, rnd: int, lines: dict[int, PlayerLine], team_of: dict[int, int], source: str) -> _Board:
    """Round `rnd` of player `p` against a real opponent, as a board seen from the lower team."""
    entry = p.entry(rnd)
    other = lines.get(entry.opponent)
    if other is None:
        raise TrfError(source, p.line_no, f"round {rnd}: no player has starting rank {entry.opponent}")
    back = other.entry(rnd)
    if back.opponent != p.number:
        raise TrfError(source, p.line_no, f"round {rnd}: player {other.number} does not play {p.number}")
    if team_of[p.number] == team_of[other.number]:
        raise TrfError(source, p.line_no, f"round {rnd}: players of one team meet")
    colours = (entry.colour, back.colour)
    if colours not in (("w", "b"), ("b", "w"), ("-", "-"), (" ", " ")):
        raise TrfError(source, p.line_no, f"round {rnd}: colours {colours[0]!r} and {colours[1]!r} of one game")
    if (entry.code, back.code) not in GAME_RESULTS:
        raise TrfError(source, p.line_no, f"round {rnd}: results {entry.result!r} and {back.result!r} of one game")
    first, second = sorted((p, other), key=lambda x: team_of[x.number])
    white = p if entry.colour == "w" else other if entry.colour == "b" else None
    white_team = team_of[white.number] if white else None
    codes = (first.entry(rnd).code, second.entry(rnd).code)
    return _Board(first.number, second.number, white_team, codes, p.line_no)


def _read_games(doc: TrfDocument, team_of: dict[int, int], source: str) -> dict[tuple[int, tuple[int, int]], _Match]:
    """The matches the games make, by round and teams; boards left empty are added by `_add_empty`."""
    lines = {p.number: p for p in doc.players}
    matches: dict[tuple[int, tuple[int, int]], _Match] = {}
    for p in doc.players:
        for rnd, entry in enumerate(p.rounds, start=1):
            other = lines.get(entry.opponent)
            if not entry.opponent or entry.opponent < p.number and other and other.entry(rnd).opponent == p.number:
                continue  # a game is read once, from its lower starting rank
            board = _game(p, rnd, lines, team_of, source)
            teams = (team_of[board.first or 0], team_of[board.second or 0])
            matches.setdefault((rnd, teams), _Match(rnd, teams)).boards.append(board)
    return matches


def _match_of(matches: dict, rnd: int, team: int, line_no: int, source: str) -> _Match:
    found = [m for (r, teams), m in matches.items() if r == rnd and team in teams]
    if len(found) != 1:
        what = "no opponent (no game, no 330 line)" if not found else "two matches"
        raise TrfError(source, line_no, f"round {rnd}: team {team} has {what}")
    return found[0]


def _add_forfeits(reader: Reader, matches: dict, n_teams: int, source: str) -> None:
    for rnd, home, away, kind, line_no in reader.forfeits:
        if max(home, away) > n_teams or home == away:
            raise TrfError(source, line_no, f"teams {home} and {away}: not two of the {n_teams} teams")
        teams = (min(home, away), max(home, away))
        match = matches.setdefault((rnd, teams), _Match(rnd, teams))
        match.forfeit = (kind, home, line_no)


def _add_empty(doc: TrfDocument, matches: dict, team_of: dict[int, int], source: str) -> None:
    """A forfeit win against no opponent (`0000 - +`): a board of the player's team's match that the
    other team left empty."""
    for p in doc.players:
        for rnd, entry in enumerate(p.rounds, start=1):
            if entry.opponent or entry.code != "+":
                continue
            team = team_of[p.number]
            match = _match_of(matches, rnd, team, p.line_no, source)
            first = team == match.teams[0]
            lone = _Board(p.number if first else None, None if first else p.number, None, (" ", " "), p.line_no)
            match.boards.append(lone)


def _in_order(match: _Match, place: dict[int, int], source: str) -> list[_Board]:
    """The match's boards in the order of the teams' `013` lines: the first team's players in its order,
    a board its team left empty where the second team's player's place puts it."""
    boards = sorted((b for b in match.boards if b.first is not None), key=lambda b: place[b.first or 0])
    for lone in sorted((b for b in match.boards if b.first is None), key=lambda b: place[b.second or 0]):
        at = next((i for i, b in enumerate(boards) if b.second and place[b.second] > place[lone.second or 0]), None)
        boards.insert(len(boards) if at is None else at, lone)
    last = -1
    for board in boards:
        if board.second is None:
            continue
        if place[board.second] < last:
            reason = f"round {match.round}: the boards of team {match.teams[1]} do not follow its 013 line"
            raise TrfError(source, board.line_no, reason)
        last = place[board.second]
    return boards


def _home(match: _Match, boards: list[_Board], source: str) -> int:
    """The first-named team: White on the odd boards; the colours must alternate board by board."""
    home = None
    for number, board in enumerate(boards, start=1):
        if board.white is None:
            continue
        here = board.white if number % 2 else sum(match.teams) - board.white
        if home is not None and here != home:
            raise TrfError(source, board.line_no, f"round {match.round}: the colours do not alternate by board")
        home = here
    if match.forfeit is not None:
        kind, first, line_no = match.forfeit
        if home is not None and home != first:
            raise TrfError(source, line_no, f"round {match.round}: team {first} has Black on board 1")
        home = first
    return home if home is not None else match.teams[0]


def _league_match(match: _Match, place: dict[int, int], source: str) -> LeagueMatch:
    boards = _in_order(match, place, source)
    home = _home(match, boards, source)
    flip = home != match.teams[0]
    rows = []
    for number, b in enumerate(boards, start=1):
        home_player, away_player = (b.second, b.first) if flip else (b.first, b.second)
        home_code, away_code = b.codes[::-1] if flip else b.codes
        # The home team has White on the odd boards; the result is written White-Black.
        result = GAME_RESULTS[(home_code, away_code) if number % 2 else (away_code, home_code)]
        rows.append(LeagueBoard(number, home_player, away_player, result))
    home_in = any(r.home for r in rows)
    away_in = any(r.away for r in rows)
    if match.forfeit is not None:
        kind, _, line_no = match.forfeit
        if (kind[0] == "-" and home_in) or (kind[1] == "-" and away_in):
            raise TrfError(source, line_no, f"round {match.round}: a team that forfeited the match has players")
        home_in, away_in = home_in or kind[0] == "-", away_in or kind[1] == "-"
    away = sum(match.teams) - home
    return LeagueMatch(match.round, home, away, None, home_in, away_in, tuple(rows))


def _rules(matches: list[LeagueMatch], source: str) -> LeagueRules:
    boards = max((len(m.boards) for m in matches), default=1) or 1
    meetings: dict[frozenset[int], int] = {}
    for m in matches:
        pair = frozenset((m.home, m.away))
        meetings[pair] = meetings.get(pair, 0) + 1
    cycles = max(meetings.values(), default=1)
    try:
        return league_rules({"boards": boards, "cycles": cycles})
    except InvalidInput as error:
        raise TrfError(source, None, str(error)) from None


def _check_rounds(matches: dict, source: str) -> None:
    busy: dict[tuple[int, int], int] = {}
    for (rnd, teams), match in sorted(matches.items()):
        line_no = match.boards[0].line_no if match.boards else match.forfeit[2]
        for team in teams:
            if (rnd, team) in busy:
                reason = f"round {rnd}: team {team} plays two matches (the other on line {busy[rnd, team]})"
                raise TrfError(source, line_no, reason)
            busy[rnd, team] = line_no


def _teams(teams: list[_Team], source: str) -> tuple[LeagueTeam, ...]:
    out: list[LeagueTeam] = []
    for team in teams:
        found = TEAM_RANK.fullmatch(team.name)
        club, rank = (slugify(found.group(1)), int(found.group(2))) if found else (slugify(team.name), 1)
        if not club or not rank:
            raise TrfError(source, team.line_no, f"no club's short name can be made from {team.name!r}")
        if any(t.name == team.name or (t.club, t.rank) == (club, rank) for t in out):
            raise TrfError(source, team.line_no, f"two teams called {team.name}, or two teams {rank} of {club}")
        out.append(LeagueTeam(team.number, team.name, club, rank, team.members))
    return tuple(out)


def round_dates(doc: TrfDocument, source: str) -> dict[int, date]:
    """The rounds' dates of the `132` line (TRF-16: round r at columns 92+10(r-1) to 99+10(r-1), `YY/MM/DD`,
    the century 2000; `YYYY/MM/DD` as TRF-2026 writes dates); none without the line."""
    dates: dict[int, date] = {}
    for line in doc.other("132"):
        rest = line.text[91:]
        for rnd, start in enumerate(range(0, len(rest), 10), start=1):
            text = rest[start : start + 10].strip()
            if not text:
                continue
            found = re.fullmatch(r"([0-9]{2}|[0-9]{4})/([0-9]{2})/([0-9]{2})", text)
            try:
                if not found:
                    raise ValueError(text)
                year = int(found.group(1)) + (2000 if len(found.group(1)) == 2 else 0)
                dates[rnd] = date(year, int(found.group(2)), int(found.group(3)))
            except ValueError:
                where = f"columns {92 + start}-{99 + start}"
                raise TrfError(
                    source, line.line_no, f"round {rnd}: {text!r} in {where} is no date (YY/MM/DD)"
                ) from None
    return dates


def parse_other(doc: TrfDocument, source: str = "<string>") -> LeagueFile:
    """A league rebuilt from a team file of another program (the module's docstring); `TrfError` names
    the first line that cannot be read and why."""
    name = (doc.header_value("012") or "")[:120]
    if not name:
        raise TrfError(source, None, "a league needs its name (012)")
    raw = _read_teams(doc, source)
    team_of = _team_of(doc, raw, source)
    place = {member: i for team in raw for i, member in enumerate(team.members)}
    reader = Reader(source)
    for line in doc.other("320", "330"):
        (read_team_byes if line.code == "320" else read_forfeit)(reader, line)
    matches = _read_games(doc, team_of, source)
    _add_forfeits(reader, matches, len(raw), source)
    _check_rounds(matches, source)
    _add_empty(doc, matches, team_of, source)
    dates = round_dates(doc, source)
    played = [replace(_league_match(m, place, source), date=dates.get(m.round)) for _, m in sorted(matches.items())]
    teams = _teams(raw, source)
    clubs = {t.number: t.club for t in teams}
    players = tuple(
        LeaguePlayer(
            p.number, full_name(p.name), clubs[team_of[p.number]], p.rating, p.fide_id, p.federation, p.title, p.sex
        )
        for p in doc.players
    )
    league = LeagueFile(name, slugify(name) or "league", _rules(played, source), (), players, teams, tuple(played))
    check_byes_and_forfeits(reader, league)
    return league


def read_league(text: str, source: str = "<string>") -> LeagueFile:
    """A league from a TRF: the league's own file (with its `XLN` line) by `parse_league`, a team file
    of another program (`013` lines, no `XLN`) by `parse_other`."""
    doc = parse(text, source)
    codes = {line.code for line in doc.lines if isinstance(line, Line)}
    if "XLN" in codes or "013" not in codes:
        return parse_league(text, source)
    return parse_other(doc, source)
