"""A team league as a Tournament Report File, and back (trf.md §5, the TRF-16 team record `013` and the
TRF-2026 team records `310`, `320` and `330`).

Pure: no Django. `write_league(league) -> str` and `parse_league(text) -> LeagueFile` round-trip every
fact of a league: its rules and tie-breaks, the teams with their clubs and rosters, the schedule with
its dates, which line-ups are entered, and every board's players and result.

What a reader of individual TRF-16 sees (FIDE TRF-16, `001` player records; trf.md §2): one `001` line
per player, every board game in the column of its round, with the colour the player had and the result
from his side (`1`, `=`, `0`; forfeits `+`/`-`; a board the other team left empty `0000 - +`, the
TRF-2026 forfeit win against an undefined opponent, trf.md §3). What a reader of team records sees: one
`013` line per team (TRF-16: name in columns 5-36, the members' starting ranks at 37-40, 42-45, ...) and
one `310` line per team (TRF-2026: team number 5-7, name 9-40, members at 74-77, 79-82, ...); `320`
lines naming the teams without a match in each round (TRF-2026 team byes: match points 5-8 and board
points 9-13 the round off gives, 0.0 in a league; the team of round r at columns 15+4(r-1) to 17+4(r-1),
blank when every team plays; one line for each team off in the same round); one `330` line per
forfeited match (TRF-2026: `+-` the home team, the first-named, won by forfeit, `-+` the away team,
`--` both forfeited, at columns 5-6; the round 8-10; the home team 12-14; the away team 16-18). A
match is forfeited by a team whose line-up is in with nobody on any board (`league.match_outcome`).

What only a league needs is written in lines of its own, which other readers skip as unknown records:

- `XLN slug` the league's short name; `XLS name=value ...` its rules (`LeagueRules`); `XLT code ...` its
  team tie-breaks (C.07 art. 11-14);
- `XPC nnnn club` the club of player `nnnn`;
- `XTM ttt club rank regulars` team `ttt` (its `013` line's place): its club, its place among the club's
  teams, and how many of its `013` members are regulars (the rest are its listed reserves);
- `XTC ttt nnnn` the captain of team `ttt` is player `nnnn`;
- `XCL ttt lll` in a cup: team `ttt` has lot number `lll`, its place in the bracket (`team_cup`);
- `XMT rrr hhh aaa date lineups` a match of round `rrr`, home team `hhh` against away team `aaa`, its
  date (`-` none) and whose line-ups are in (`-`, `H`, `A`, `HA`);
- `XBD rrr hhh aaa bb home away result` board `bb` of that match: the home and the away player's
  starting ranks (`0`: the board left empty) and the result as White-Black (`*`: none yet);
- `XCD rrr hhh aaa side` in a cup: that level match's lot or blitz decider was won by `side` (`home`,
  `away`).

The `001` lines are checked against the boards, and the `320` and `330` lines against the matches: a
file whose games and boards disagree, or that names a team off in a round it plays or a forfeit of a
match that was played, is refused (a file without `320` or `330` lines, as written before they were,
is read).
Every error is a `TrfError` naming the line and the reason; nothing partial is returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from .kinds import league_rules
from .league import LeagueRules, board_colours
from .state import InvalidInput
from .tiebreaks.teams import parse_team
from .trf import Line, PlayerLine, RoundEntry, TrfDocument, TrfError, parse, write

# A board's result (White-Black, `pairing.engines.league.BOARD_RESULTS`) as written in `XBD` (ASCII),
# and the round codes of White and of Black in their `001` lines (TRF-16 article on player records).
RESULT_WORDS = {"1-0": "1-0", "½-½": "=-=", "0-1": "0-1", "1-0R": "1-0R", "0-1R": "0-1R", "0-0R": "0-0R", "": "*"}
WORD_RESULTS = {word: result for result, word in RESULT_WORDS.items()}
ROUND_CODES = {
    "1-0": ("1", "0"),
    "½-½": ("=", "="),
    "0-1": ("0", "1"),
    "1-0R": ("+", "-"),
    "0-1R": ("-", "+"),
    "0-0R": ("-", "-"),
    "": (" ", " "),
}
POINTS = {"1": 1.0, "=": 0.5, "+": 1.0}
LINEUP_FLAGS = {"-": (False, False), "H": (True, False), "A": (False, True), "HA": (True, True)}
SLUG = re.compile(r"[-a-zA-Z0-9_]+")


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A player: starting rank `number` in the file, name, club (its short name) and FIDE data."""

    number: int
    name: str
    club: str
    rating: int | None = None
    fide_id: str = ""
    federation: str = ""
    title: str = ""
    sex: str = ""


@dataclass(frozen=True, slots=True)
class LeagueTeam:
    """A team: its number (1 the first `013` line), name, club, place among the club's teams, and its
    roster as players' starting ranks, regulars in board order then the listed reserves; its captain's
    starting rank (None: none named); in a cup its lot number (None: not drawn, or no cup)."""

    number: int
    name: str
    club: str
    rank: int
    regulars: tuple[int, ...] = ()
    reserves: tuple[int, ...] = ()
    captain: int | None = None
    lot: int | None = None


@dataclass(frozen=True, slots=True)
class LeagueBoard:
    """A board of a match: the home and the away player's starting ranks (None: left empty) and the
    result as White-Black ("" none yet)."""

    number: int
    home: int | None
    away: int | None
    result: str = ""


@dataclass(frozen=True, slots=True)
class LeagueMatch:
    """A match: round, home and away team numbers, date, whose line-ups are in, and its board rows; in a
    cup the side ("home", "away") that won its decider ("" none)."""

    round: int
    home: int
    away: int
    date: date | None = None
    home_lineup: bool = False
    away_lineup: bool = False
    boards: tuple[LeagueBoard, ...] = ()
    decider: str = ""


@dataclass(frozen=True, slots=True)
class LeagueFile:
    """Everything of a league that a TRF carries."""

    name: str
    slug: str
    rules: LeagueRules = field(default_factory=LeagueRules)
    tiebreaks: tuple[str, ...] = ()
    players: tuple[LeaguePlayer, ...] = ()
    teams: tuple[LeagueTeam, ...] = ()
    matches: tuple[LeagueMatch, ...] = ()


# ---------------------------------------------------------------- writing


def _setting_text(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _round_entries(league: LeagueFile) -> dict[int, dict[int, RoundEntry]]:
    """Each player's games by round, as `001` round entries (colours by `board_colours`)."""
    colours = board_colours(league.rules.boards, league.rules.home_white)
    games: dict[int, dict[int, RoundEntry]] = {}
    for match in league.matches:
        for board in match.boards:
            home_white = colours[board.number - 1] if board.number <= len(colours) else True
            white, black = (board.home, board.away) if home_white else (board.away, board.home)
            codes = ROUND_CODES[board.result]
            for player, other, colour, code in ((white, black, "w", codes[0]), (black, white, "b", codes[1])):
                if player is None:
                    continue
                if match.round in games.setdefault(player, {}):
                    raise InvalidInput(f"player {player} plays two games in round {match.round}")
                if other is None:
                    entry = RoundEntry(0, "-", "+", blank_opponent=False)
                else:
                    entry = RoundEntry(other, colour, code, blank_opponent=False)
                games[player][match.round] = entry
    return games


def _player_line(player: LeaguePlayer, games: dict[int, RoundEntry], rounds: int) -> PlayerLine:
    entries = [games.get(r, RoundEntry()) for r in range(1, rounds + 1)]
    while entries and entries[-1].blank:
        entries.pop()
    points = sum(POINTS.get(e.result, 0.0) for e in entries)
    return PlayerLine(
        number=player.number, sex=player.sex, title=player.title, name=player.name, rating=player.rating,
        federation=player.federation, fide_id=player.fide_id, points=points, rounds=entries,
    )  # fmt: skip


def _members(numbers: tuple[int, ...]) -> str:
    return " ".join(f"{n:>4}" for n in numbers)


def _team_lines(team: LeagueTeam) -> list[str]:
    members = (*team.regulars, *team.reserves)
    lines = [
        f"013 {team.name[:32]:<32}{_members(members)}".rstrip(),
        f"310 {team.number:>3} {team.name[:32]:<32} {'':5} {'':6} {'':6} {'':6} {'':3}  {_members(members)}".rstrip(),
        f"XTM {team.number:>3} {team.club} {team.rank} {len(team.regulars)}",
    ] + ([f"XTC {team.number:>3} {team.captain:>4}"] if team.captain else [])
    return lines + ([f"XCL {team.number:>3} {team.lot:>3}"] if team.lot else [])


def _match_lines(match: LeagueMatch) -> list[str]:
    flags = {v: k for k, v in LINEUP_FLAGS.items()}[(match.home_lineup, match.away_lineup)]
    day = match.date.isoformat() if match.date else "-"
    head = f"{match.round:>3} {match.home:>3} {match.away:>3}"
    lines = [f"XMT {head} {day} {flags}"] + ([f"XCD {head} {match.decider}"] if match.decider else [])
    for b in match.boards:
        lines.append(f"XBD {head} {b.number:>2} {b.home or 0:>4} {b.away or 0:>4} {RESULT_WORDS[b.result]}")
    return lines


def free_teams(league: LeagueFile) -> dict[int, list[int]]:
    """For each round 1..the last with a match: the teams without a match in it (a `320` team bye)."""
    rounds = max((m.round for m in league.matches), default=0)
    playing: dict[int, set[int]] = {r: set() for r in range(1, rounds + 1)}
    for match in league.matches:
        playing[match.round] |= {match.home, match.away}
    return {r: [t.number for t in league.teams if t.number not in playing[r]] for r in playing}


def forfeit_type(match: LeagueMatch) -> str:
    """The `330` type of a match: `+-` the away team forfeited it (its line-up in with nobody on a board),
    `-+` the home team, `--` both; "" when it was not forfeited."""
    home_none = match.home_lineup and not any(b.home for b in match.boards)
    away_none = match.away_lineup and not any(b.away for b in match.boards)
    return {(True, True): "--", (True, False): "-+", (False, True): "+-"}.get((home_none, away_none), "")


def _bye_lines(league: LeagueFile) -> list[str]:
    free = free_teams(league)
    lines = []
    for k in range(max((len(teams) for teams in free.values()), default=0)):
        fields = "".join(f" {teams[k]:>3}" if k < len(teams) else "    " for teams in free.values())
        lines.append(f"320 {0.0:>4.1f} {0.0:>4.1f}{fields}".rstrip())
    return lines


def _forfeit_lines(league: LeagueFile) -> list[str]:
    return [f"330 {kind} {m.round:>3} {m.home:>3} {m.away:>3}" for m in league.matches if (kind := forfeit_type(m))]


def write_league(league: LeagueFile) -> str:
    """The league as TRF text (the layout in the module's docstring). `InvalidInput` if a player has two
    games in one round, which a `001` line cannot hold."""
    games = _round_entries(league)
    rounds = max((m.round for m in league.matches), default=0)
    days = sorted(m.date for m in league.matches if m.date)
    lines = [f"012 {league.name}"]
    if days:
        lines += [f"042 {days[0].isoformat()}", f"052 {days[-1].isoformat()}"]
    lines += [f"062 {len(league.players)}", f"082 {len(league.teams)}", "092 Team league"]
    lines.append(f"XLN {league.slug}")
    lines.append("XLS " + " ".join(f"{k}={_setting_text(v)}" for k, v in league.rules.settings().items()))
    lines.append("XLT " + " ".join(league.tiebreaks))
    for player in league.players:
        lines.append(_player_line(player, games.get(player.number, {}), rounds).text())
        lines.append(f"XPC {player.number:>4} {player.club}")
    for team in league.teams:
        lines += _team_lines(team)
    lines += _bye_lines(league) + _forfeit_lines(league)
    for match in league.matches:
        lines += _match_lines(match)
    doc = TrfDocument(lines=[Line(text.rstrip()) for text in lines])
    return write(doc)


# ---------------------------------------------------------------- reading


class Reader:
    """The parsing state: what the lines read so far have said, and where."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.name = ""
        self.slug = ""
        self.rules = LeagueRules()
        self.tiebreaks: tuple[str, ...] = ()
        self.player_lines: dict[int, PlayerLine] = {}
        self.clubs: dict[int, str] = {}
        self.team_members: list[tuple[str, tuple[int, ...], int]] = []  # name, members, line
        self.team_extra: dict[int, tuple[str, int, int, int]] = {}  # number: club, rank, regulars, line
        self.captains: dict[int, tuple[int, int]] = {}  # team number: player, line
        self.lots: dict[int, tuple[int, int]] = {}  # team number: lot number, line
        self.busy: dict[tuple[int, int], int] = {}  # (round, player): the XBD line of his game
        self.matches: dict[tuple[int, int, int], dict] = {}
        self.byes: list[tuple[int, int, int]] = []  # round, team, the 320 line
        self.forfeits: list[tuple[int, int, int, str, int]] = []  # round, home, away, type, the 330 line

    def fail(self, line_no: int | None, reason: str) -> TrfError:
        return TrfError(self.source, line_no, reason)

    def number(self, text: str, what: str, line_no: int, low: int = 0) -> int:
        if not re.fullmatch(r"-?[0-9]+", text) or int(text) < low:
            raise self.fail(line_no, f"{what} is not a number of at least {low}: {text!r}")
        return int(text)

    def tokens(self, line: Line, count: int) -> list[str]:
        words = line.text[4:].split()
        if len(words) != count:
            raise self.fail(line.line_no, f"{line.code} needs {count} fields, not {len(words)}")
        return words


def _setting_value(text: str) -> object:
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"-?[0-9]+\.[0-9]*", text):
        return float(text)
    return text


def _read_rules(reader: Reader, line: Line) -> None:
    given: dict[str, object] = {}
    for word in line.text[4:].split():
        key, sep, value = word.partition("=")
        if not sep:
            raise reader.fail(line.line_no, f"league setting {word!r} is not name=value")
        given[key] = _setting_value(value)
    try:
        reader.rules = league_rules(given)
    except InvalidInput as error:
        raise reader.fail(line.line_no, str(error)) from None


def _read_tiebreaks(reader: Reader, line: Line) -> None:
    codes = line.text[4:].split()
    for code in codes:
        try:
            parse_team(code)
        except InvalidInput:
            raise reader.fail(line.line_no, f"{code} is no team tie-break") from None
    reader.tiebreaks = tuple(codes)


def _read_team(reader: Reader, line: Line) -> None:
    """A `013` line: name in columns 5-36, starting ranks at 37-40, 42-45, ... (TRF-16)."""
    name = line.text[4:36].strip()
    if not name:
        raise reader.fail(line.line_no, "a team record needs a name in columns 5-36")
    members = []
    rest = line.text[36:]
    for start in range(0, len(rest), 5):
        field_text = rest[start : start + 5]
        if field_text[4:].strip():
            raise reader.fail(line.line_no, f"unexpected text in column {37 + start + 4}: {field_text!r}")
        members.append(
            reader.number(field_text.strip(), f"member in columns {37 + start}-{40 + start}", line.line_no, 1)
        )
    reader.team_members.append((name, tuple(members), line.line_no))


def _read_team_extra(reader: Reader, line: Line) -> None:
    number, club, rank, regulars = reader.tokens(line, 4)
    if not SLUG.fullmatch(club):
        raise reader.fail(line.line_no, f"{club!r} is no club's short name")
    key = reader.number(number, "team number", line.line_no, 1)
    if key in reader.team_extra:
        raise reader.fail(line.line_no, f"team {key} is described twice")
    values = (reader.number(rank, "team rank", line.line_no, 1), reader.number(regulars, "regulars", line.line_no))
    reader.team_extra[key] = (club, *values, line.line_no)


def _read_captain(reader: Reader, line: Line) -> None:
    team, player = (reader.number(x, "team or player", line.line_no, 1) for x in reader.tokens(line, 2))
    if player not in reader.player_lines:
        raise reader.fail(line.line_no, f"no player has starting rank {player}")
    if team in reader.captains:
        raise reader.fail(line.line_no, f"team {team} has two captains")
    reader.captains[team] = (player, line.line_no)


def _read_lot(reader: Reader, line: Line) -> None:
    team, lot = (reader.number(x, "team or lot number", line.line_no, 1) for x in reader.tokens(line, 2))
    if team in reader.lots or lot in {v[0] for v in reader.lots.values()}:
        raise reader.fail(line.line_no, f"team {team} or lot number {lot} is given twice")
    reader.lots[team] = (lot, line.line_no)


def _read_decider(reader: Reader, line: Line) -> None:
    rnd, home, away, side = reader.tokens(line, 4)
    key = tuple(reader.number(x, "round or team", line.line_no, 1) for x in (rnd, home, away))
    if key not in reader.matches:
        raise reader.fail(line.line_no, "a decider of a match without its XMT line before it")
    if side not in ("home", "away"):
        raise reader.fail(line.line_no, f"the decider is won by home or away, not {side!r}")
    reader.matches[key]["decider"] = side


def _read_match(reader: Reader, line: Line) -> None:
    rnd, home, away, day, flags = reader.tokens(line, 5)
    key = tuple(reader.number(x, what, line.line_no, 1) for x, what in ((rnd, "round"), (home, "home"), (away, "away")))
    if key in reader.matches:
        raise reader.fail(line.line_no, "the match is given twice")
    when = None
    if day != "-":
        try:
            when = date.fromisoformat(day)
        except ValueError:
            raise reader.fail(line.line_no, f"{day!r} is no date (YYYY-MM-DD)") from None
    if flags not in LINEUP_FLAGS:
        raise reader.fail(line.line_no, f"line-ups {flags!r} is none of {', '.join(LINEUP_FLAGS)}")
    reader.matches[key] = {"line": line.line_no, "date": when, "flags": LINEUP_FLAGS[flags], "boards": {}}


def _read_board(reader: Reader, line: Line) -> None:
    rnd, home, away, board, home_player, away_player, word = reader.tokens(line, 7)
    key = tuple(reader.number(x, "round or team", line.line_no, 1) for x in (rnd, home, away))
    if key not in reader.matches:
        raise reader.fail(line.line_no, "a board of a match no XMT line gave before")
    number = reader.number(board, "board", line.line_no, 1)
    if number > reader.rules.boards:
        raise reader.fail(line.line_no, f"board {number} of a match of {reader.rules.boards} boards")
    boards = reader.matches[key]["boards"]
    if number in boards:
        raise reader.fail(line.line_no, f"board {number} is given twice")
    players = []
    for text in (home_player, away_player):
        player = reader.number(text, "player", line.line_no)
        if player and player not in reader.player_lines:
            raise reader.fail(line.line_no, f"no player has starting rank {player}")
        players.append(player or None)
        if player and (key[0], player) in reader.busy:
            seen = reader.busy[key[0], player]
            raise reader.fail(line.line_no, f"player {player} already plays in round {key[0]} (line {seen})")
        if player:
            reader.busy[key[0], player] = line.line_no
    if word not in WORD_RESULTS:
        raise reader.fail(line.line_no, f"result {word!r} is none of {', '.join(WORD_RESULTS)}")
    if WORD_RESULTS[word] and None in players:
        raise reader.fail(line.line_no, f"board {number} has a player missing and cannot have a result")
    boards[number] = LeagueBoard(number, players[0], players[1], WORD_RESULTS[word])


def read_team_byes(reader: Reader, line: Line) -> None:
    """A `320` line (TRF-2026): match and board points at columns 5-8 and 10-13, then the team off in
    round r at columns 15+4(r-1) to 17+4(r-1) (blank or 000: none)."""
    text = line.text.ljust(13)
    for start, what in ((4, "match points in columns 5-8"), (9, "board points in columns 10-13")):
        value = text[start : start + 4].strip()
        if value and not re.fullmatch(r"-?[0-9]+(\.[0-9]*)?", value):
            raise reader.fail(line.line_no, f"{what} are not a number: {value!r}")
    rest = text[13:]
    for rnd, start in enumerate(range(0, len(rest), 4), start=1):
        block = rest[start : start + 4]
        if block[:1].strip():
            raise reader.fail(line.line_no, f"unexpected text in column {14 + start}: {block!r}")
        if block.strip():
            team = reader.number(block.strip(), f"team in columns {15 + start}-{17 + start}", line.line_no)
            if team:
                reader.byes.append((rnd, team, line.line_no))


def read_forfeit(reader: Reader, line: Line) -> None:
    """A `330` line (TRF-2026): type `+-`, `-+` or `--` at columns 5-6, round 8-10, the first-named
    (home) team 12-14, the other 16-18."""
    text = line.text.ljust(18)
    kind = text[4:6]
    if kind not in ("+-", "-+", "--") or text[6] != " " or text[18:].strip():
        raise reader.fail(line.line_no, f"a forfeited match is '330 +-|-+|-- rrr hhh aaa', not {line.text!r}")
    rnd, home, away = (
        reader.number(text[a:b].strip(), what, line.line_no, 1)
        for a, b, what in ((7, 10, "round in columns 8-10"), (11, 14, "team in columns 12-14"),
                           (15, 18, "team in columns 16-18"))
    )  # fmt: skip
    reader.forfeits.append((rnd, home, away, kind, line.line_no))


def check_byes_and_forfeits(reader: Reader, league: LeagueFile) -> None:
    """Every `320` entry names a team without a match in that round, every `330` line a match forfeited
    as its boards say (`forfeit_type`); a forfeit or a round off the file does not list is accepted."""
    free = free_teams(league)
    for rnd, team, line_no in reader.byes:
        if team > len(league.teams):
            raise reader.fail(line_no, f"team {team}: not one of the {len(league.teams)} teams")
        if team not in free.get(rnd, [t.number for t in league.teams]):
            raise reader.fail(line_no, f"team {team} is listed without a match in round {rnd}, but plays")
    matches = {(m.round, m.home, m.away): m for m in league.matches}
    for rnd, home, away, kind, line_no in reader.forfeits:
        match = matches.get((rnd, home, away))
        if match is None or forfeit_type(match) != kind:
            raise reader.fail(line_no, f"the match of teams {home} and {away} in round {rnd} was not forfeited {kind}")


def _read_line(reader: Reader, line: Line | PlayerLine) -> None:
    if isinstance(line, PlayerLine):
        reader.player_lines[line.number] = line
        return
    code = line.code
    if code == "012":
        reader.name = line.text[4:].strip()
    elif code == "XLN":
        (reader.slug,) = reader.tokens(line, 1)
        if not SLUG.fullmatch(reader.slug):
            raise reader.fail(line.line_no, f"{reader.slug!r} is no short name")
    elif code == "XPC":
        number, club = reader.tokens(line, 2)
        player = reader.number(number, "player", line.line_no, 1)
        if player not in reader.player_lines:
            raise reader.fail(line.line_no, f"no player has starting rank {player}")
        reader.clubs[player] = club
    else:
        handlers = {"XLS": _read_rules, "XLT": _read_tiebreaks, "013": _read_team, "XTM": _read_team_extra,
                    "XTC": _read_captain, "XCL": _read_lot, "XCD": _read_decider, "320": read_team_byes,
                    "330": read_forfeit,
                    "XMT": _read_match, "XBD": _read_board}  # fmt: skip
        if code in handlers:
            handlers[code](reader, line)


def _teams(reader: Reader) -> tuple[LeagueTeam, ...]:
    teams = []
    for number, (name, members, line_no) in enumerate(reader.team_members, start=1):
        if number not in reader.team_extra:
            raise reader.fail(line_no, f"team {number} ({name}) has no XTM line")
        club, rank, regulars, _ = reader.team_extra[number]
        for member in members:
            if member not in reader.player_lines:
                raise reader.fail(line_no, f"no player has starting rank {member}")
        if regulars > len(members):
            raise reader.fail(reader.team_extra[number][3], f"{regulars} regulars of {len(members)} members")
        if len(set(members)) != len(members):
            raise reader.fail(line_no, f"a player is twice on the roster of {name}")
        if any(t.name == name or (t.club, t.rank) == (club, rank) for t in teams):
            raise reader.fail(line_no, f"two teams called {name}, or two teams {rank} of {club}")
        captain = reader.captains.get(number, (None, 0))[0]
        lot = reader.lots.get(number, (None, 0))[0]
        teams.append(LeagueTeam(number, name, club, rank, members[:regulars], members[regulars:], captain, lot))
    for number, extra in [*reader.team_extra.items(), *reader.captains.items(), *reader.lots.items()]:
        if number > len(teams):
            raise reader.fail(extra[-1], f"team {number} has no 013 line")
    return tuple(teams)


def _matches(reader: Reader, n_teams: int) -> tuple[LeagueMatch, ...]:
    out = []
    for (rnd, home, away), data in reader.matches.items():
        if max(home, away) > n_teams or home == away:
            raise reader.fail(data["line"], f"teams {home} and {away}: not two of the {n_teams} teams")
        boards = tuple(data["boards"][n] for n in sorted(data["boards"]))
        out.append(LeagueMatch(rnd, home, away, data["date"], *data["flags"], boards, data.get("decider", "")))
    return tuple(out)


def parse_league(text: str, source: str = "<string>") -> LeagueFile:
    """Read a league written by `write_league`; `TrfError` names the first bad line and why."""
    doc = parse(text, source)
    reader = Reader(source)
    for line in doc.lines:
        _read_line(reader, line)
    if not reader.name or not reader.slug:
        raise reader.fail(None, "a league needs its name (012) and its short name (XLN)")
    if len(reader.name) > 120 or len(reader.slug) > 50:
        raise reader.fail(None, "a league's name has at most 120 characters, its short name at most 50")
    players = []
    for number, line in reader.player_lines.items():
        if number not in reader.clubs:
            raise reader.fail(line.line_no, f"player {number} has no club (XPC line)")
        players.append(LeaguePlayer(number, line.name, reader.clubs[number], line.rating, line.fide_id,
                                    line.federation, line.title, line.sex))  # fmt: skip
    teams = _teams(reader)
    league = LeagueFile(reader.name, reader.slug, reader.rules, reader.tiebreaks, tuple(players), teams,
                        _matches(reader, len(teams)))  # fmt: skip
    check_byes_and_forfeits(reader, league)
    try:
        games = _round_entries(league)
    except InvalidInput as error:
        raise reader.fail(None, str(error)) from None
    rounds = max((m.round for m in league.matches), default=0)
    for player in league.players:
        expected = _player_line(player, games.get(player.number, {}), rounds)
        found = reader.player_lines[player.number]
        if [e.text() for e in expected.rounds] != [e.text() for e in found.rounds]:
            raise reader.fail(found.line_no, f"the games of player {player.number} disagree with the boards")
    return league
