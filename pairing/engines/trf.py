"""FIDE Tournament Report File (TRF16 with the TRF26 headers and the JaVaFo/bbpPairings extensions).

Three layers (conventions in docs/trf.md):

- `parse(text) -> TrfDocument` and `write(doc) -> str`: a lossless document. Player lines (`001`)
  are split into every field; every other line (headers, `XXR`, `XXC`, `240`, comments, vendor lines)
  is kept verbatim in its place.
- `state_from_document(doc, k)` / `read_state(text)`: the `TournamentState` to pair round k, with rounds
  1..k-1 as history and the non-pairing entries of round k (`0000 - H/Z/F`, `240`, `XXZ`) as requested
  byes, and the forbidden pairs of `260` (TRF26, with a round range) and `XXP` (JaVaFo, all rounds).
  The document is checked first (symmetric pairings, known opponents, the points column).
- `document_from_state(state, pairing)`: export a competition, optionally extending a document.

Every error is a `TrfError` naming the source, the line and the reason; nothing partial is returned.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from .state import (
    BYE_POINTS,
    Bye,
    Colour,
    ForbiddenPair,
    InvalidInput,
    Kind,
    Pairing,
    Player,
    RoundRecord,
    TournamentState,
)

ROUND0 = 91  # 0-based column of round 1's opponent field (TRF16: columns 92-95)
BLOCK = 10  # width of one round block: "  OOOO c r"

PLAYED_CODES = {"1": "win", "W": "win", "=": "draw", "D": "draw", "0": "loss", "L": "loss"}
FORFEIT_CODES = {"+": "win", "-": "loss"}
# Round codes without an opponent (opponent 0000 or blank).
BYE_KINDS: dict[str, Kind] = {
    "U": Kind.PAIRING_BYE,
    "+": Kind.PAIRING_BYE,  # bbpPairings reads "0000 - +" as the pairing-allocated bye
    "F": Kind.FULL_BYE,
    "H": Kind.HALF_BYE,
    "Z": Kind.ABSENT_NOTICE,
    "=": Kind.HALF_BYE,  # "0000 - =": a half point without opponent, as bbpPairings reads it
    "-": Kind.ABSENT,
    " ": Kind.ABSENT,
}
KIND_CODES: dict[Kind, str] = {
    Kind.PAIRING_BYE: "U",
    Kind.FULL_BYE: "F",
    Kind.HALF_BYE: "H",
    Kind.ABSENT_NOTICE: "Z",
    Kind.ABSENT: "-",
    Kind.CLUB_MATCH: "Z",  # TRF has no code for it; the JSON state keeps it
}
REQUESTABLE = {Kind.FULL_BYE, Kind.HALF_BYE, Kind.ABSENT_NOTICE, Kind.ABSENT}


class TrfError(InvalidInput):
    """A malformed TRF: `source`, 1-based `line` (None for the whole file) and `reason`."""

    def __init__(self, source: str, line: int | None, reason: str) -> None:
        self.source = source
        self.line = line
        self.reason = reason
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {reason}")


# --------------------------------------------------------------------------- document


@dataclass(slots=True)
class RoundEntry:
    """One round of a player line: `OOOO c r` (opponent, colour, result code as written)."""

    opponent: int = 0  # 0: no opponent (0000 or blank)
    colour: str = " "  # "w", "b", "-" or " "
    result: str = " "  # the code as written (case kept); " " for blank
    blank_opponent: bool = True  # the opponent field was blank rather than 0000

    @property
    def code(self) -> str:
        return self.result.upper()

    @property
    def blank(self) -> bool:
        return self.opponent == 0 and self.blank_opponent and self.colour == " " and self.result == " "

    @property
    def is_pairing(self) -> bool:
        """The entry results from that round's pairing: an opponent, or the pairing-allocated bye."""
        return self.opponent != 0 or self.code in ("U", "+")

    def text(self) -> str:
        opponent = f"{self.opponent:>4}" if self.opponent else "    " if self.blank_opponent else "0000"
        return f"{opponent} {self.colour} {self.result}"


@dataclass(slots=True)
class PlayerLine:
    """A `001` record with every field (TRF16 columns in the comments)."""

    number: int  # 5-8
    sex: str = ""  # 10
    title: str = ""  # 11-13
    name: str = ""  # 15-47
    rating: int | None = None  # 49-52
    federation: str = ""  # 54-56
    fide_id: str = ""  # 58-68
    birth: str = ""  # 70-79
    points: float | None = None  # 81-84
    rank: int | None = None  # 86-89
    rounds: list[RoundEntry] = field(default_factory=list)
    line_no: int = 0

    def entry(self, rnd: int) -> RoundEntry:
        """Round `rnd` (1-based); a blank entry past the end of the line."""
        return self.rounds[rnd - 1] if 1 <= rnd <= len(self.rounds) else RoundEntry()

    def text(self) -> str:
        rating = "" if self.rating is None else str(self.rating)
        points = "" if self.points is None else f"{self.points:4.1f}"
        rank = "" if self.rank is None else str(self.rank)
        head = (
            f"001 {self.number:>4} {self.sex[:1]:1}{self.title[:3]:>3} {self.name[:33]:<33} {rating:>4} "
            f"{self.federation[:3]:<3} {self.fide_id[:11]:>11} {self.birth[:10]:<10} {points:>4} {rank:>4}"
        )
        return (head + "".join("  " + e.text() for e in self.rounds)).rstrip()


@dataclass(slots=True)
class Line:
    """Any other line, kept verbatim; `code` is its first three characters."""

    text: str
    line_no: int = 0

    @property
    def code(self) -> str:
        return self.text[:3]


@dataclass(slots=True)
class TrfDocument:
    lines: list[Line | PlayerLine] = field(default_factory=list)
    newline: str = "\n"
    source: str = "<string>"

    @property
    def players(self) -> list[PlayerLine]:
        return [line for line in self.lines if isinstance(line, PlayerLine)]

    def other(self, *codes: str) -> list[Line]:
        return [line for line in self.lines if isinstance(line, Line) and line.code in codes]

    @property
    def rounds_recorded(self) -> int:
        """The last round with any non-blank entry."""
        last = 0
        for p in self.players:
            for r, e in enumerate(p.rounds, 1):
                if not e.blank:
                    last = max(last, r)
        return last

    @property
    def last_paired_round(self) -> int:
        """The last round in which anyone has an opponent or the pairing-allocated bye (0: none)."""
        last = 0
        for p in self.players:
            for r, e in enumerate(p.rounds, 1):
                if e.is_pairing:
                    last = max(last, r)
        return last

    def header_value(self, code: str) -> str | None:
        found = self.other(code)
        return found[-1].text[4:].strip() if found else None


_DIGITS = re.compile(r"[0-9]+")


def _is_number(text: str) -> bool:
    """ASCII digits only (`str.isdigit` also takes "²", which `int` refuses)."""
    return bool(_DIGITS.fullmatch(text))


def _int_field(raw: str, what: str, source: str, line_no: int, column: int) -> int | None:
    text = raw.strip()
    if not text:
        return None
    if not _is_number(text):
        raise TrfError(source, line_no, f"{what} in columns {column}-{column + len(raw) - 1} is not a number: {text!r}")
    return int(text)


def _parse_player(text: str, source: str, line_no: int) -> PlayerLine:
    padded = text.ljust(max(len(text), ROUND0 - 2))
    number = _int_field(padded[4:8], "pairing number", source, line_no, 5)
    if not number:
        raise TrfError(source, line_no, "missing pairing number in columns 5-8")
    points_raw = padded[80:84].strip()
    points: float | None = None
    if points_raw:
        if not re.fullmatch(r"\d+(\.\d*)?|\.\d+", points_raw):
            raise TrfError(source, line_no, f"points in columns 81-84 are not a number: {points_raw!r}")
        points = float(points_raw)
    player = PlayerLine(
        number=number,
        sex=padded[9].strip(),
        title=padded[10:13].strip(),
        name=padded[14:47].strip(),
        rating=_int_field(padded[48:52], "rating", source, line_no, 49),
        federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(),
        birth=padded[69:79].strip(),
        points=points,
        rank=_int_field(padded[85:89], "rank", source, line_no, 86),
        line_no=line_no,
    )
    rest = padded[89:].rstrip()
    for r, start in enumerate(range(0, len(rest), BLOCK), 1):
        block = rest[start : start + BLOCK].ljust(BLOCK)
        col = 90 + start  # 1-based column of the block's first character
        if block[0:2].strip() or block[6] != " " or block[8] != " ":
            raise TrfError(source, line_no, f"round {r}: unexpected text in columns {col}-{col + 9}: {block!r}")
        opponent_raw, colour, result = block[2:6], block[7].lower(), block[9]
        opponent = _int_field(opponent_raw, f"round {r}: opponent", source, line_no, col + 2) or 0
        if colour not in "wb- ":
            raise TrfError(source, line_no, f"round {r}: unknown colour {block[7]!r} in column {col + 7}")
        code = result.upper()
        if code not in PLAYED_CODES and code not in FORFEIT_CODES and code not in BYE_KINDS:
            raise TrfError(source, line_no, f"round {r}: unknown result code {result!r} in column {col + 9}")
        entry = RoundEntry(opponent, colour, result, blank_opponent=not opponent_raw.strip())
        if opponent and code in ("U", "F", "H", "Z"):
            raise TrfError(source, line_no, f"round {r}: bye code {result!r} with opponent {opponent}")
        if not opponent and code in PLAYED_CODES and code != "=":
            raise TrfError(source, line_no, f"round {r}: result {result!r} without an opponent")
        if not opponent and colour in ("w", "b"):
            raise TrfError(source, line_no, f"round {r}: colour {colour!r} without an opponent")
        if opponent and code in PLAYED_CODES and colour not in "wb":
            raise TrfError(source, line_no, f"round {r}: a played game needs colour w or b")
        player.rounds.append(entry)
    while player.rounds and player.rounds[-1].blank:
        player.rounds.pop()
    return player


def parse(text: str, source: str = "<string>") -> TrfDocument:
    """Split a TRF into a document; column-level errors raise `TrfError`.

    Lines may end in CR, LF or CRLF (trf.md §1); the first ending found is kept for `write`.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    match = re.search(r"\r\n|\r|\n", text)
    doc = TrfDocument(newline=match.group(0) if match else "\n", source=source)
    raw_lines = re.split(r"\r\n|\r|\n", text)
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    seen: dict[int, int] = {}
    for line_no, raw in enumerate(raw_lines, 1):
        if raw.startswith("001"):
            player = _parse_player(raw, source, line_no)
            if player.number in seen:
                raise TrfError(source, line_no, f"pairing number {player.number} already on line {seen[player.number]}")
            seen[player.number] = line_no
            doc.lines.append(player)
        else:
            doc.lines.append(Line(raw, line_no))
    return doc


def write(doc: TrfDocument) -> str:
    """The document as TRF text, player lines in canonical columns, other lines verbatim."""
    lines = [line.text() if isinstance(line, PlayerLine) else line.text for line in doc.lines]
    return "".join(line + doc.newline for line in lines)


def read_file(path: str) -> str:
    """A TRF file's text: UTF-8, falling back to Latin-1 (trf.md §1). `OSError` if unreadable."""
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# --------------------------------------------------------------------------- scoring


@dataclass(slots=True)
class Scoring:
    """Points per result (JaVaFo XXS codes; bbpPairings BBx; TRF26 162). Defaults 1/½/0, PAB = win."""

    white_win: float = 1.0
    black_win: float = 1.0
    white_draw: float = 0.5
    black_draw: float = 0.5
    white_loss: float = 0.0
    black_loss: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    full_bye: float = 1.0
    half_bye: float = 0.5
    zero_bye: float = 0.0
    pairing_bye: float | None = None  # None: the win's value

    @property
    def pab(self) -> float:
        return self.white_win if self.pairing_bye is None else self.pairing_bye

    def points(self, entry: RoundEntry) -> float | None:
        """Points of one entry; None for a game still in play (opponent, no result)."""
        code = entry.code
        if entry.opponent:
            if code == " ":
                return None
            outcome = PLAYED_CODES.get(code)
            if outcome:
                black = entry.colour == "b"
                return {
                    "win": self.black_win if black else self.white_win,
                    "draw": self.black_draw if black else self.white_draw,
                    "loss": self.black_loss if black else self.white_loss,
                }[outcome]
            return self.forfeit_win if code == "+" else self.forfeit_loss
        kind = BYE_KINDS[code]
        return {
            Kind.PAIRING_BYE: self.pab,
            Kind.FULL_BYE: self.full_bye,
            Kind.HALF_BYE: self.half_bye,
        }.get(kind, self.zero_bye)

    def result_code(self, record: RoundRecord) -> str:
        """The code writing `record` back (the nearest result for its score)."""
        if record.kind is Kind.GAME:
            if record.score is None:
                return " "
            values = {
                "1": self.black_win if record.colour is Colour.BLACK else self.white_win,
                "=": self.black_draw if record.colour is Colour.BLACK else self.white_draw,
                "0": self.black_loss if record.colour is Colour.BLACK else self.white_loss,
            }
            return min(values, key=lambda c: abs(values[c] - (record.score or 0.0)))
        if record.kind is Kind.FORFEIT:
            return "+" if (record.score or 0.0) > self.forfeit_loss else "-"
        return KIND_CODES[record.kind]


_XXS = {
    "WW": ("white_win",),
    "BW": ("black_win",),
    "WD": ("white_draw",),
    "BD": ("black_draw",),
    "WL": ("white_loss",),
    "BL": ("black_loss",),
    "ZPB": ("zero_bye",),
    "HPB": ("half_bye",),
    "FPB": ("full_bye",),
    "PAB": ("pairing_bye",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss",),
    "W": ("white_win", "black_win", "forfeit_win", "full_bye"),
    "D": ("white_draw", "black_draw", "half_bye"),
}
_BB = {
    "BBW": ("white_win", "black_win", "forfeit_win", "full_bye"),
    "BBD": ("white_draw", "black_draw", "half_bye"),
    "BBL": ("white_loss", "black_loss"),
    "BBZ": ("zero_bye",),
    "BBF": ("forfeit_loss",),
    "BBU": ("pairing_bye",),
}
_162 = {
    "W": ("white_win", "black_win", "forfeit_win", "full_bye"),
    "D": ("white_draw", "black_draw", "half_bye"),
    "L": ("white_loss", "black_loss"),
    "A": ("zero_bye", "forfeit_loss"),
    "Z": ("zero_bye", "forfeit_loss"),
    "P": ("pairing_bye",),
}


def _number(text: str, source: str, line_no: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TrfError(source, line_no, f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise TrfError(source, line_no, f"not a finite number: {text!r}")
    return value


def scoring(doc: TrfDocument) -> Scoring:
    """The scoring system given by `162`, `BBx` and `XXS` lines (later lines override earlier)."""
    result = Scoring()
    for line in doc.lines:
        if not isinstance(line, Line):
            continue
        if line.code == "XXS":
            for token in line.text[3:].split():
                name, _, value = token.partition("=")
                if name.upper() not in _XXS or not value:
                    raise TrfError(doc.source, line.line_no, f"unknown XXS scoring code {token!r}")
                for attr in _XXS[name.upper()]:
                    setattr(result, attr, _number(value, doc.source, line.line_no))
        elif line.code in _BB:
            for attr in _BB[line.code]:
                setattr(result, attr, _number(line.text[4:].strip(), doc.source, line.line_no))
        elif line.code == "162":
            body = line.text[5:]
            for start in range(0, len(body), 9):
                chunk = body[start : start + 5]
                if not chunk.strip():
                    continue
                symbol = chunk[0].upper()
                if symbol == "X":
                    continue  # unknown results: none in a file we pair
                if symbol not in _162:
                    raise TrfError(doc.source, line.line_no, f"unknown scoring symbol {chunk[0]!r} in 162")
                for attr in _162[symbol]:
                    setattr(result, attr, _number(chunk[1:].strip(), doc.source, line.line_no))
    return result


# --------------------------------------------------------------------------- checking


def check_document(doc: TrfDocument) -> None:
    """Refuse a document whose rounds do not agree with each other (trf.md §3, §10).

    Every opponent exists and names the player back, colours are opposite, results complement each
    other (1/0, =/=, W/L, D/D, +/-, -/-), and a non-blank points column equals the results' sum
    (with or without the entries of the round after the last paired one, which JaVaFo counts).
    """
    source = doc.source
    by_number = {p.number: p for p in doc.players}
    if not by_number:
        raise TrfError(source, None, "no player lines (001)")
    complements = {"win": {"loss"}, "loss": {"win"}, "draw": {"draw"}}
    for p in doc.players:
        for r, e in enumerate(p.rounds, 1):
            if e.opponent == p.number:
                raise TrfError(source, p.line_no, f"round {r}: player {p.number} paired against himself")
            if e.opponent and e.opponent not in by_number:
                raise TrfError(source, p.line_no, f"round {r}: opponent {e.opponent} does not exist")
    for p in doc.players:
        for r, e in enumerate(p.rounds, 1):
            if not e.opponent:
                continue
            o = by_number[e.opponent].entry(r)
            if o.opponent != p.number:
                raise TrfError(
                    source,
                    p.line_no,
                    f"round {r}: {p.number} plays {e.opponent} but {e.opponent}'s entry has "
                    f"{o.opponent or 'no opponent'}",
                )
            if {e.colour, o.colour} <= {"w", "b"} and e.colour == o.colour:
                raise TrfError(source, p.line_no, f"round {r}: {p.number} and {e.opponent} both have colour {e.colour}")
            mine, theirs = e.code, o.code
            if mine in PLAYED_CODES:
                ok = theirs in PLAYED_CODES and PLAYED_CODES[theirs] in complements[PLAYED_CODES[mine]]
            elif mine == "+":
                ok = theirs == "-"
            elif mine == "-":
                ok = theirs in ("+", "-")
            else:
                ok = theirs == " "
            if not ok:
                raise TrfError(
                    source,
                    p.line_no,
                    f"round {r}: result {e.result!r} of {p.number} does not match {o.result!r} of {e.opponent}",
                )
    _check_points(doc)


def _check_points(doc: TrfDocument) -> None:
    score = scoring(doc)
    pending = doc.last_paired_round + 1
    for p in doc.players:
        if p.points is None:
            continue
        before = sum(score.points(e) or 0.0 for e in p.rounds[: pending - 1])
        total = before + sum(score.points(e) or 0.0 for e in p.rounds[pending - 1 :])
        if min(abs(p.points - before), abs(p.points - total)) > 1e-6:
            raise TrfError(doc.source, p.line_no, f"points column says {p.points:g} but the results give {total:g}")


# --------------------------------------------------------------------------- state


def _record(entry: RoundEntry, points: float | None) -> RoundRecord:
    code = entry.code
    colour = {"w": Colour.WHITE, "b": Colour.BLACK}.get(entry.colour)
    if entry.opponent:
        kind = Kind.FORFEIT if code in FORFEIT_CODES else Kind.GAME
        return RoundRecord(kind, entry.opponent, colour, points)
    return RoundRecord(BYE_KINDS[code], score=points)


def _top_colour(doc: TrfDocument) -> Colour | None:
    """Round 1's colour of the top player: `XXC white1|black1`, `152 W|B`, else inferred.

    Inferred from the first round with colours: the colour of the highest-ranked player who took part
    in that round's pairing, reversed for each higher-ranked participant without colour (the
    convention of bbpPairings' README).
    """
    found: Colour | None = None
    for line in doc.other("XXC", "152"):
        tokens = line.text[3:].split()
        if line.code == "XXC":
            if "white1" in tokens:
                found = Colour.WHITE
            elif "black1" in tokens:
                found = Colour.BLACK
        elif tokens and tokens[0].upper() in ("W", "B"):
            found = Colour.WHITE if tokens[0].upper() == "W" else Colour.BLACK
        elif tokens:
            raise TrfError(doc.source, line.line_no, f"152 must be W or B, not {tokens[0]!r}")
    if found:
        return found
    players = sorted(doc.players, key=lambda p: p.number)
    for r in range(1, doc.last_paired_round + 1):
        if not any(p.entry(r).opponent and p.entry(r).colour in "wb" for p in players):
            continue
        skipped = 0
        for p in players:
            e = p.entry(r)
            if not e.is_pairing:
                continue
            if e.colour in ("w", "b"):
                colour = Colour.WHITE if e.colour == "w" else Colour.BLACK
                return colour.opposite if skipped % 2 else colour
            skipped += 1
    return None


def total_rounds_of(doc: TrfDocument) -> int | None:
    """The number of rounds from `XXR` or `142` (the last such line); None without either."""
    found = None
    for line in doc.other("XXR", "142"):
        tokens = line.text[3:].split()
        if not tokens or not _is_number(tokens[0]) or int(tokens[0]) < 1:
            raise TrfError(doc.source, line.line_no, f"{line.code} needs a number of rounds")
        found = int(tokens[0])
    return found


def _ids(tokens: list[str], doc: TrfDocument, line: Line, known: set[int]) -> list[int]:
    ids = []
    for token in tokens:
        if not _is_number(token):
            raise TrfError(doc.source, line.line_no, f"not a pairing number: {token!r}")
        if int(token) not in known:
            raise TrfError(doc.source, line.line_no, f"player {int(token)} does not exist")
        ids.append(int(token))
    return ids


def _requested_byes(doc: TrfDocument, rnd: int) -> dict[int, Kind]:
    """Players not to be paired in round `rnd`: entries that are no pairing, `240` lines, `XXZ`."""
    known = {p.number for p in doc.players}
    byes: dict[int, Kind] = {}
    for p in doc.players:
        e = p.entry(rnd)
        if not e.blank and not e.is_pairing:
            byes[p.number] = BYE_KINDS[e.code]
    for line in doc.other("240"):
        tokens = line.text[3:].split()
        if len(tokens) < 2 or tokens[0].upper() not in ("F", "H", "Z") or not _is_number(tokens[1]):
            raise TrfError(doc.source, line.line_no, "240 needs a type (F, H or Z), a round and players")
        if int(tokens[1]) == rnd:
            for pid in _ids(tokens[2:], doc, line, known):
                byes.setdefault(pid, BYE_KINDS[tokens[0].upper()])
    if rnd == doc.last_paired_round + 1:  # XXZ speaks of the round being paired
        for line in doc.other("XXZ"):
            for pid in _ids(line.text[3:].split(), doc, line, known):
                byes.setdefault(pid, Kind.ABSENT_NOTICE)
    return byes


def _round_field(doc: TrfDocument, line: Line, start: int) -> int | None:
    """A 260 round number in columns start+1..start+3 (blank: open)."""
    raw = line.text[start : start + 3].strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise TrfError(doc.source, line.line_no, f"260: not a round number: {raw!r}")
    return int(raw)


def forbidden_pairs(doc: TrfDocument, total_rounds: int | None = None) -> list[ForbiddenPair]:
    """The pairs that must not meet: `260` (TRF26: first round in columns 5-7, last round 9-11, the players
    from column 13 on; none of them may meet another in those rounds) and `XXP` (JaVaFo: the players on
    the line, every round). A ban given twice (a `260` over every round and the same `XXP`) counts once."""
    known = {p.number for p in doc.players}
    out: list[ForbiddenPair] = []
    seen: set[tuple[frozenset[int], int, int]] = set()
    for line in doc.other("260", "XXP"):
        if line.code == "260":
            first, last = _round_field(doc, line, 4), _round_field(doc, line, 8)
            ids = _ids(line.text[12:].split(), doc, line, known)
        else:
            first = last = None
            ids = _ids(line.text[3:].split(), doc, line, known)
        ban = ForbiddenPair(tuple(ids), first, last)
        problem = ban.problem(known)
        if problem:
            raise TrfError(doc.source, line.line_no, f"{line.code}: {problem}")
        key = (frozenset(ids), first or 1, last or total_rounds or 0)
        if key not in seen:
            seen.add(key)
            out.append(ban)
    return out


def forbidden_lines(state: TournamentState) -> list[Line]:
    """`260` lines for the state's forbidden pairs, and an `XXP` line beside each that holds in every
    round (JaVaFo reads only `XXP`; bbpPairings reads both, and a ban given twice is the same ban)."""
    lines: list[Line] = []
    for ban in state.forbidden:
        first, last = ban.first_round or 1, ban.last_round or state.total_rounds
        lines.append(Line(f"260 {first:>3} {last:>3} " + " ".join(f"{pid:>4}" for pid in ban.players)))
        if first == 1 and last >= state.total_rounds:
            lines.append(Line("XXP " + " ".join(str(pid) for pid in ban.players)))
    return lines


def state_from_document(
    doc: TrfDocument,
    round_to_pair: int,
    total_rounds: int | None = None,
    seed: int | None = None,
) -> TournamentState:
    """The state to pair `round_to_pair`: rounds before it as history, its non-pairings as byes.

    `total_rounds` overrides `XXR`/`142`; without any, the rounds recorded in the document (a complete
    tournament). The round-1 top colour comes from `XXC`/`152`, else from the recorded round 1, else
    a lot drawn with `seed`, else white.
    """
    check_document(doc)
    if round_to_pair < 1:
        raise TrfError(doc.source, None, f"cannot pair round {round_to_pair}")
    total = total_rounds or total_rounds_of(doc) or doc.rounds_recorded
    if total < round_to_pair:
        raise TrfError(doc.source, None, f"round {round_to_pair} is past the last round ({total})")
    score = scoring(doc)
    players = []
    for p in doc.players:
        history = [_record(p.entry(r), score.points(p.entry(r))) for r in range(1, round_to_pair)]
        players.append(
            Player(
                id=p.number,
                name=p.name,
                rating=p.rating or 0,
                title=p.title,
                federation=p.federation,
                fide_id=p.fide_id,
                sex=p.sex,
                birth=p.birth,
                history=history,
            )
        )
    top = _top_colour(doc)
    if top is None:
        top = random.Random(seed).choice([Colour.WHITE, Colour.BLACK]) if seed is not None else Colour.WHITE
    name = doc.header_value("012") or ""
    return TournamentState(
        players=players,
        total_rounds=total,
        round_to_pair=round_to_pair,
        requested_byes=_requested_byes(doc, round_to_pair),
        top_colour_round1=top,
        seed=seed,
        name=name,
        forbidden=forbidden_pairs(doc, total),
        win_points=score.white_win,
        draw_points=score.white_draw,
    )


def read_state(
    text: str, source: str = "<string>", total_rounds: int | None = None, seed: int | None = None
) -> TournamentState:
    """Parse a TRF and give the state to pair its next round (the command line: docs/README.md).

    The round to pair follows the last round in which anyone has an opponent or the pairing-allocated
    bye. The number of rounds must be known (`XXR`, `142` or `total_rounds`).
    """
    doc = parse(text, source)
    if total_rounds is None and total_rounds_of(doc) is None:
        raise TrfError(source, None, "the number of rounds is unknown: add XXR or 142 (or give --rounds)")
    return state_from_document(doc, doc.last_paired_round + 1, total_rounds, seed)


# --------------------------------------------------------------------------- export


def _entry(record: RoundRecord, score: Scoring) -> RoundEntry:
    colour = {Colour.WHITE: "w", Colour.BLACK: "b", None: "-"}[record.colour]
    if record.kind in (Kind.GAME, Kind.FORFEIT) and record.opponent:
        return RoundEntry(record.opponent, colour, score.result_code(record), blank_opponent=False)
    return RoundEntry(0, "-", score.result_code(record), blank_opponent=False)


def document_from_state(
    state: TournamentState, pairing: Pairing | None = None, doc: TrfDocument | None = None
) -> TrfDocument:
    """A document holding `state` (history, requested byes) and, when given, `pairing` for its round.

    The paired games are written without a result (`  12 w  `), byes with their codes. With `doc`,
    its player lines are replaced and every other line is kept but `260` and `XXP`, which are written
    from `state.forbidden`; `XXR` and `XXC` are added when missing.
    """
    score = scoring(doc) if doc else Scoring()
    rnd = state.round_to_pair
    rounds: dict[int, list[RoundEntry]] = {}
    for p in state.players:
        rounds[p.id] = [_entry(rec, score) for rec in p.history[: rnd - 1]]
        while len(rounds[p.id]) < rnd - 1:
            rounds[p.id].append(RoundEntry())
    current: dict[int, RoundEntry] = {
        pid: RoundEntry(0, "-", KIND_CODES[kind], blank_opponent=False) for pid, kind in state.requested_byes.items()
    }
    extra_points: dict[int, float] = {pid: BYE_POINTS.get(kind, 0.0) for pid, kind in state.requested_byes.items()}
    if pairing:
        for board in pairing.boards:
            current[board.white] = RoundEntry(board.black, "w", " ", blank_opponent=False)
            current[board.black] = RoundEntry(board.white, "b", " ", blank_opponent=False)
        for bye in pairing.byes:
            current[bye.player] = RoundEntry(0, "-", KIND_CODES[bye.kind], blank_opponent=False)
            extra_points[bye.player] = _bye_points(bye, score)
    for pid, entry in current.items():
        rounds.setdefault(pid, []).append(entry)
    points = {
        p.id: sum(r.score or 0.0 for r in p.history[: rnd - 1]) + extra_points.get(p.id, 0.0) for p in state.players
    }
    order = sorted(points, key=lambda pid: (-points[pid], pid))
    rank = {pid: i for i, pid in enumerate(order, 1)}
    player_lines = [
        PlayerLine(
            number=p.id,
            sex=p.sex,
            title=p.title,
            name=p.name,
            rating=p.rating or None,
            federation=p.federation,
            fide_id=p.fide_id,
            birth=p.birth,
            points=points[p.id],
            rank=rank[p.id],
            rounds=rounds[p.id],
        )
        for p in state.players
    ]
    if doc is None:
        doc = TrfDocument(lines=[Line(f"012 {state.name}")] if state.name else [])
    kept: list[Line | PlayerLine] = []
    inserted = False
    for line in doc.lines:
        if isinstance(line, PlayerLine):
            if not inserted:
                kept.extend(player_lines)
                inserted = True
        elif line.code not in ("260", "XXP"):
            kept.append(line)
    if not inserted:
        kept.extend(player_lines)
    kept.extend(forbidden_lines(state))
    out = TrfDocument(lines=kept, newline=doc.newline, source=doc.source)
    if not out.other("XXR", "142"):
        out.lines.append(Line(f"XXR {state.total_rounds}"))
    if not any(t in ("white1", "black1") for x in out.other("XXC") for t in x.text.split()) and not out.other("152"):
        out.lines.append(Line("XXC " + ("white1" if state.top_colour_round1 is Colour.WHITE else "black1")))
    return out


def _bye_points(bye: Bye, score: Scoring) -> float:
    if bye.score is not None:
        return bye.score
    if bye.kind is Kind.PAIRING_BYE:
        return score.pab
    return bye.points
