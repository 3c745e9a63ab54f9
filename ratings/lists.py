"""Readers for the federations' rating lists: FIDE (XML and fixed-width TXT), KNSB and DSU (CSV).

Every reader is a generator over the file: it yields one `ListEntry` per player and holds one line
(or one XML chunk) at a time, so a list of any size is read in bounded memory. A malformed line raises
`ListError` with its line number (messages are translated; no database is used); the caller
(`ratings.imports`) reads the whole list before saving anything, so a bad line means nothing is saved.

Formats:
- FIDE TXT (players_list_foa.txt, standard_rating_list.txt): fixed columns, located from the header
  line ("ID Number  Name  Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";
  in the single lists the rating column is named after the month, e.g. "MAR24"). The standard rating
  is used; B-day is a year of birth (0000: unknown).
- FIDE XML (players_list_xml_foa.xml): <playerslist><player><fideid/><name/><country/><sex/><title/>
  ...<rating/>...<birthday/><flag/></player>...; read with expat in chunks, DOCTYPEs refused.
- KNSB and DSU: CSV (";", "," or tab), one header line naming the columns; the names are matched with
  the aliases in `CSV_COLUMNS` (Dutch, Danish and English spellings), case and punctuation ignored.
Files may be zip archives holding one list (`open_list`).
"""

from __future__ import annotations

import csv
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import BinaryIO
from xml.parsers import expat

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import validation
from clubs.models import Member

PROGRESS_EVERY = 50_000  # lines between two progress calls
# column names for messages, translated only when a message is made (not once per line)
THE_RATING = gettext_lazy("the rating")
THE_YEAR = gettext_lazy("the year of birth")
THE_NAME = gettext_lazy("the name")
THE_GAMES = gettext_lazy("the number of games")
THE_K = gettext_lazy("the K factor")

Progress = Callable[[int], None]


class ListError(ValueError):
    """A malformed rating list: `line` is the 1-based line number of the problem."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(_("line %(line)s: %(message)s") % {"line": line, "message": message})
        self.line = line
        self.message = message


@dataclass(frozen=True)
class ListEntry:
    """One player of a rating list."""

    line: int
    player_id: str
    name: str  # as printed, usually "Surname, First names"
    rating: int | None  # None: no (active) rating in this list
    birth_year: int | None = None
    birth_date: date | None = None
    federation: str = ""
    title: str = ""
    games: int | None = None  # FIDE: the rated games of the list's period (SGm, Gms, <games>)
    k: int | None = None  # FIDE: the K factor published with the rating (SK, K, <k>)


# ---------------------------------------------------------------------------------------------------
# Names


def name_words(*parts: str) -> list[str]:
    """The words of a name in their order, without accents, case and punctuation ("Bech, Søren" gives
    ["bech", "soren"])."""
    text = unicodedata.normalize("NFKD", " ".join(parts))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = text.replace("ø", "o").replace("æ", "ae").replace("å", "a").replace("ß", "ss").replace("ł", "l")
    return re.findall(r"[a-z0-9]+", text)


def name_key(*parts: str) -> tuple[str, ...]:
    """A name for matching: the words, without accents, case and punctuation, in sorted order.

    "van der Berg, Jan" and "Jan" + "van der Berg" give the same key.
    """
    return tuple(sorted(name_words(*parts)))


# ---------------------------------------------------------------------------------------------------
# Lines


MAX_LINE_BYTES = 100_000  # no rating list has lines anywhere near this long


def decoded_lines(stream: BinaryIO) -> Iterator[str]:
    """The lines of a byte stream, each decoded as UTF-8, else Latin-1 (older FIDE files), without EOL."""
    number = 0
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise ListError(number, _("the line is longer than %(max)s bytes") % {"max": MAX_LINE_BYTES})
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        yield text.rstrip("\r\n").lstrip("\ufeff")


def open_list(stream: BinaryIO) -> BinaryIO:
    """The list inside a zip archive (its largest file), or the stream itself."""
    start = stream.read(4)
    stream.seek(0)
    if start != b"PK\x03\x04":
        return stream
    try:
        archive = zipfile.ZipFile(stream)
        files = [info for info in archive.infolist() if not info.is_dir()]
        if not files:
            raise ListError(1, _("the zip archive holds no file"))
        member = max(files, key=lambda info: info.file_size)
        limit = validation.upload_limit("rating-list")
        if member.file_size > limit:
            raise ListError(1, _("the file in the zip archive is larger than %(max)s MB") % {"max": limit // 1_000_000})
        return archive.open(member)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, OSError) as error:
        raise ListError(1, _("not a readable zip archive (%(error)s)") % {"error": error}) from None


def _int(value: str, line: int, column) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not validation.is_whole_number(value):
        raise ListError(
            line, _("%(column)s must be a whole number, not “%(value)s”") % {"column": column, "value": value}
        )
    try:
        validation.check_value(Member, "fide_rating", int(value))
    except validation.InputError as error:
        raise ListError(line, error.message) from None
    return int(value)


def _year(value: str, line: int) -> int | None:
    year = _int(value, line, THE_YEAR)
    return year or None  # 0000: unknown


# ---------------------------------------------------------------------------------------------------
# FIDE TXT

_MONTH_COLUMN = re.compile(r"^[A-Z]{3}\d{2}$")


def _txt_columns(header: str) -> dict[str, tuple[int, int]]:
    """Column name -> (start, end) from the header line; the last column runs to the end of the line."""
    header = header.replace("ID Number", "ID_Number")
    starts = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    columns = {}
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else 10_000
        columns[name] = (start, end)
    return columns


def read_fide_txt(lines: Iterable[str], progress: Progress | None = None) -> Iterator[ListEntry]:
    """The players of a FIDE fixed-width list (standard rating)."""
    it = iter(lines)
    header = next(it, "")
    columns = _txt_columns(header)
    rating_name = "SRtng" if "SRtng" in columns else next((c for c in columns if _MONTH_COLUMN.match(c)), None)
    missing = [c for c in ("ID_Number", "Name") if c not in columns]
    if missing or rating_name is None:
        raise ListError(1, _("not a FIDE rating list header (ID Number, Name, SRtng or a month column expected)"))
    id_at, name_at, rating_at = columns["ID_Number"], columns["Name"], columns[rating_name]
    fed_at, title_at = columns.get("Fed"), columns.get("Tit")
    games_at = columns.get("SGm") or columns.get("Gms")
    k_at = columns.get("SK") or columns.get("K")
    birth_at = columns.get("B-day") or columns.get("Bday")
    for number, line in enumerate(it, start=2):
        if progress and number % PROGRESS_EVERY == 0:
            progress(number)
        if not line.strip():
            continue
        player_id = line[id_at[0] : id_at[1]].strip()
        if not validation.is_whole_number(player_id):
            raise ListError(number, _("the FIDE id must be a number, not “%(value)s”") % {"value": player_id})
        name = line[name_at[0] : name_at[1]].strip()
        if not name:
            raise ListError(number, _("the name is missing"))
        yield ListEntry(
            line=number,
            player_id=player_id,
            name=name,
            rating=_int(line[rating_at[0] : rating_at[1]], number, THE_RATING),
            birth_year=_year(line[birth_at[0] : birth_at[1]], number) if birth_at else None,
            federation=line[fed_at[0] : fed_at[1]].strip() if fed_at else "",
            title=line[title_at[0] : title_at[1]].strip() if title_at else "",
            games=_int(line[games_at[0] : games_at[1]], number, THE_GAMES) if games_at else None,
            k=_int(line[k_at[0] : k_at[1]], number, THE_K) if k_at else None,
        )


# ---------------------------------------------------------------------------------------------------
# FIDE XML


def read_fide_xml(stream: BinaryIO, progress: Progress | None = None, chunk: int = 1 << 16) -> Iterator[ListEntry]:
    """The players of a FIDE XML list, parsed in chunks (expat); DOCTYPE declarations are refused."""
    parser = expat.ParserCreate()
    ready: list[ListEntry] = []
    player: dict[str, str] | None = None
    player_line = 0
    field: str | None = None
    text: list[str] = []
    field_lines: dict[str, int] = {}  # the line of each field of the current player, for messages

    def refuse_doctype(*_args) -> None:
        raise ListError(parser.CurrentLineNumber, _("a DOCTYPE declaration is not allowed"))

    def start(name: str, _attrs) -> None:
        nonlocal player, player_line, field
        if name == "player":
            player, player_line = {}, parser.CurrentLineNumber
        elif player is not None:
            field = name
            field_lines[name] = parser.CurrentLineNumber
            text.clear()

    def end(name: str) -> None:
        nonlocal player, field
        if name == "player" and player is not None:
            ready.append(_xml_entry(player, player_line, field_lines))
            field_lines.clear()
            player = None
        elif player is not None and name == field:
            player[name] = "".join(text).strip()
            field = None

    def characters(data: str) -> None:
        if field is not None:
            text.append(data)

    parser.StartDoctypeDeclHandler = refuse_doctype
    parser.EntityDeclHandler = refuse_doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    reported = 0
    try:
        while block := stream.read(chunk):
            parser.Parse(block, False)
            yield from ready
            ready.clear()
            if progress and parser.CurrentLineNumber - reported >= PROGRESS_EVERY:
                reported = parser.CurrentLineNumber
                progress(reported)
        parser.Parse(b"", True)
    except expat.ExpatError as error:
        message = _("not well-formed XML (%(error)s)") % {"error": expat.ErrorString(error.code)}
        raise ListError(error.lineno, message) from None
    yield from ready


def _xml_entry(player: dict[str, str], line: int, lines: dict[str, int]) -> ListEntry:
    player_id = player.get("fideid", "")
    if not validation.is_whole_number(player_id):
        raise ListError(
            lines.get("fideid", line), _("the FIDE id must be a number, not “%(value)s”") % {"value": player_id}
        )
    name = player.get("name", "")
    if not name:
        raise ListError(line, _("the name is missing"))
    return ListEntry(
        line=line,
        player_id=player_id,
        name=name,
        rating=_int(player.get("rating", ""), lines.get("rating", line), THE_RATING),
        birth_year=_year(player.get("birthday", ""), lines.get("birthday", line)),
        federation=player.get("country", ""),
        title=player.get("title", ""),
        games=_int(player.get("games", ""), lines.get("games", line), THE_GAMES),
        k=_int(player.get("k", ""), lines.get("k", line), THE_K),
    )


def read_fide(stream: BinaryIO, progress: Progress | None = None) -> Iterator[ListEntry]:
    """A FIDE list in either format: XML when it starts with "<" (after a BOM or blanks), else TXT."""
    head = stream.read(64)
    stream.seek(0)
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return read_fide_xml(stream, progress)
    return read_fide_txt(decoded_lines(stream), progress)


# ---------------------------------------------------------------------------------------------------
# KNSB and DSU (CSV)

CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "id": (
        "relatienummer", "relatienr", "knsbnummer", "knsbnr", "knsbid", "bondsnummer", "lidnummer",
        "medlemsnummer", "medlemsnr", "dsunummer", "dsunr", "dsuid", "nationalid", "id", "nr",
    ),
    "name": ("naam", "navn", "name", "spiller", "speler"),
    "first_name": ("voornaam", "fornavn", "firstname"),
    "last_name": ("achternaam", "efternavn", "lastname", "surname"),
    "infix": ("tussenvoegsel", "tussenv"),
    "rating": ("rating", "knsbrating", "dsurating", "ratingtal", "rtng", "nieuwerating", "nyrating"),
    "birth": (
        "geboortedatum", "geboren", "fodselsdato", "fdselsdato", "birthdate", "dateofbirth",
        "geboortejaar", "fodselsar", "fdselsr", "birthyear", "born",
    ),
    "federation": ("fed", "federatie", "federation", "land"),
    "title": ("titel", "title", "tit"),
}  # fmt: skip


def _column_key(header: str) -> str:
    text = unicodedata.normalize("NFKD", header.lower().replace("ø", "o").replace("å", "a"))
    return re.sub(r"[^a-z0-9]", "", "".join(c for c in text if not unicodedata.combining(c)))


_DATE_FORMATS = ("%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y", "%d/%m/%Y")


def _birth(value: str, line: int) -> tuple[int | None, date | None]:
    value = value.strip()
    if not value:
        return None, None
    if validation.is_whole_number(value) and len(value) == 4:
        return (int(value) or None), None
    for fmt in _DATE_FORMATS:
        try:
            day = datetime.strptime(value, fmt).date()
        except ValueError:
            continue
        return day.year, day
    message = _("the birth date must be a date (YYYY-MM-DD or DD-MM-YYYY) or a year, not “%(value)s”")
    raise ListError(line, message % {"value": value})


def read_csv_list(lines: Iterable[str], progress: Progress | None = None) -> Iterator[ListEntry]:
    """The players of a national list in CSV with a header line (see `CSV_COLUMNS`)."""
    it = iter(lines)
    header_line = next(it, "")
    delimiter = max(";,\t", key=header_line.count)
    try:
        header = next(csv.reader([header_line], delimiter=delimiter), [])
    except csv.Error as error:
        raise ListError(1, str(error)) from None
    where: dict[str, int] = {}
    for index, title in enumerate(header):
        key = _column_key(title)
        for column, aliases in CSV_COLUMNS.items():
            if key in aliases and column not in where:
                where[column] = index
    has_name = "name" in where or "last_name" in where
    if "id" not in where or "rating" not in where or not has_name:
        raise ListError(1, _("the header must name the id, the name and the rating columns"))
    width = len(header)
    yield from _csv_entries(csv.reader(it, delimiter=delimiter), where, width, progress)


def _csv_rows(reader) -> Iterator[tuple[int, list[str]]]:
    """The rows with their line numbers; a csv error (a field over csv's limit) as a ListError."""
    number = 1
    while True:
        try:
            row = next(reader, None)
        except csv.Error as error:
            raise ListError(number + 1, str(error)) from None
        if row is None:
            return
        number += 1
        yield number, row


def _csv_entries(reader, where: dict[str, int], width: int, progress: Progress | None) -> Iterator[ListEntry]:
    for number, row in _csv_rows(reader):
        if progress and number % PROGRESS_EVERY == 0:
            progress(number)
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != width:
            raise ListError(number, _("%(count)s columns instead of %(width)s") % {"count": len(row), "width": width})

        def cell(column: str, row: list[str] = row) -> str:
            return row[where[column]].strip() if column in where else ""

        player_id = cell("id")
        if not validation.is_whole_number(player_id):
            raise ListError(number, _("the id must be a number, not “%(value)s”") % {"value": player_id})
        if "name" in where:
            name = cell("name")
        else:
            last = " ".join(part for part in (cell("infix"), cell("last_name")) if part)
            name = f"{last}, {cell('first_name')}".strip(", ")
        if not name:
            raise ListError(number, _("the name is missing"))
        year, day = _birth(cell("birth"), number)
        yield ListEntry(
            line=number,
            player_id=player_id,
            name=name,
            rating=_int(cell("rating"), number, THE_RATING),
            birth_year=year,
            birth_date=day,
            federation=cell("federation"),
            title=cell("title"),
        )


def read_list(source: str, stream: BinaryIO, progress: Progress | None = None) -> Iterator[ListEntry]:
    """The entries of a list of `source` ("fide", "knsb" or "dsu"); a zip archive is opened first.
    Every entry is checked against the member's limits (`checked`)."""
    stream = open_list(stream)
    if source == "fide":
        return checked(read_fide(stream, progress), "fide_id")
    if source in ("knsb", "dsu"):
        return checked(read_csv_list(decoded_lines(stream), progress), "national_id")
    raise ValueError(f"unknown rating list {source!r}")


def checked(entries: Iterable[ListEntry], id_field: str) -> Iterator[ListEntry]:
    """The entries, each checked (clubs.validation) against what a member can store: the id's length,
    the name's (no longer than a member's first and last name, no NUL character)."""
    name_max = Member._meta.get_field("first_name").max_length + Member._meta.get_field("last_name").max_length + 1
    for entry in entries:
        try:
            validation.check_value(Member, id_field, entry.player_id)
        except validation.InputError as error:
            raise ListError(entry.line, error.message) from None
        if problem := validation.text_problem(entry.name, name_max):
            raise ListError(entry.line, f"{THE_NAME} {problem}")
        yield entry
