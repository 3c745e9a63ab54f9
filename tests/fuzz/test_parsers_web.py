"""Property tests of the web app's text parsers: the member CSV import, every rating-list reader (FIDE
TXT, XML and zip, KNSB and DSU CSV), the prize table, tie-break lists and typed results. Any input either
parses or raises the parser's own error; what parses fits the model's limits (clubs.validation)."""

from __future__ import annotations

import contextlib
import io
import os
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the Django test plugin", allow_module_level=True)

from django.core.exceptions import ValidationError  # noqa: E402

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = st.sampled_from(["²", "١", "１", "\x00", "\t", "\r", "-", "+", "nan", "9" * 12, '"', ";", ",", "=1+1"])
CELL = st.one_of(st.text(max_size=10), st.integers(-10, 99999).map(str), TRICKY)


def rows(header: list[str], delimiter: str):
    """CSV text: the header, then rows of cells that are anything (mostly plausible), ragged or not."""
    row = st.lists(CELL, min_size=0, max_size=len(header) + 1).map(delimiter.join)
    return st.lists(row, max_size=6).map(lambda lines: "\n".join([delimiter.join(header), *lines]))


MEMBER_HEADER = ["first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating", "national_rating"]


@FUZZ
@given(st.one_of(rows(MEMBER_HEADER, ";"), rows(MEMBER_HEADER, ","), st.text(max_size=200)))
def test_member_csv_parses_to_a_preview_whose_rows_fit_the_member(text):
    from clubs import csv_import, validation

    preview = csv_import.parse(text)  # never raises: problems are in the preview
    if preview.ok:
        for row in preview.rows:
            assert validation.instance_problems(csv_import._member(row.values)) == []


def _read(source: str, data: bytes):
    from clubs import validation
    from clubs.models import Member
    from ratings.lists import ListError, read_list

    try:
        entries = list(read_list(source, io.BytesIO(data)))
    except ListError:
        return
    id_field = "fide_id" if source == "fide" else "national_id"
    for entry in entries:  # what is read can be stored
        validation.check_value(Member, id_field, entry.player_id)
        if entry.rating is not None:
            validation.check_value(Member, "fide_rating", entry.rating)
        assert "\x00" not in entry.name


FIDE_HEADER = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"  # noqa: E501


@st.composite
def fide_txt(draw) -> bytes:
    lines = [FIDE_HEADER]
    for _ in range(draw(st.integers(0, 4))):
        fields = [(draw(CELL), 15), (draw(CELL), 61), (draw(CELL), 4), ("", 18), ("", 15), ("", 4), (draw(CELL), 6)]
        line = "".join(value[:width].ljust(width) for value, width in fields) + " " * 37 + draw(CELL)[:4]
        lines.append(line)
    return "\n".join(lines).encode(draw(st.sampled_from(["utf-8", "latin-1"])), errors="replace")


@st.composite
def fide_xml(draw) -> bytes:
    players = "".join(
        f"<player><fideid>{draw(CELL)}</fideid><name>{draw(CELL)}</name><rating>{draw(CELL)}</rating>"
        f"<birthday>{draw(CELL)}</birthday></player>"
        for _ in range(draw(st.integers(0, 3)))
    )
    return f"<?xml version='1.0'?><playerslist>{players}</playerslist>".encode()


KNSB_HEADER = ["Relatienummer", "Naam", "Rating", "Geboortedatum"]
DSU_HEADER = ["Medlemsnummer", "Fornavn", "Efternavn", "Rating", "Fødselsår"]


def zipped(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("list.txt", data)
    return buffer.getvalue()


@FUZZ
@given(st.one_of(fide_txt(), fide_xml(), st.binary(max_size=200)))
def test_fide_list_reads_or_raises_list_error(data):
    _read("fide", data)


@FUZZ
@given(st.one_of(fide_txt(), fide_xml()).map(zipped) | st.binary(max_size=100).map(lambda b: b"PK\x03\x04" + b))
def test_zipped_fide_list_reads_or_raises_list_error(data):
    _read("fide", data)


@FUZZ
@given(st.one_of(rows(KNSB_HEADER, ";"), rows(KNSB_HEADER, ","), st.text(max_size=200)))
def test_knsb_list_reads_or_raises_list_error(text):
    _read("knsb", text.encode("utf-8", errors="replace"))


@FUZZ
@given(st.one_of(rows(DSU_HEADER, ","), rows(DSU_HEADER, "\t"), st.text(max_size=200)))
def test_dsu_list_reads_or_raises_list_error(text):
    _read("dsu", text.encode("utf-8", errors="replace"))


@FUZZ
@given(st.text(max_size=60) | st.lists(CELL, max_size=5).map(", ".join))
def test_prize_items_parse_or_raise_validation_error(text):
    from tournaments.prizes import parse_prize_items

    with contextlib.suppress(ValidationError):
        parse_prize_items(text)


GROUP_LINES = st.lists(st.lists(CELL, min_size=1, max_size=5).map("; ".join), max_size=3).map("\n".join)


@FUZZ
@given(st.text(max_size=80) | GROUP_LINES)
def test_prize_groups_parse_or_raise_validation_error(text):
    from tournaments.prizes import parse_groups

    with contextlib.suppress(ValidationError):
        parse_groups(text)


@FUZZ
@given(st.text(max_size=40) | st.lists(st.sampled_from(["BH", "BH/C1", "SB", "KS/L-1", "PTS", "²", "X"])).map(",".join))
def test_tiebreak_lists_parse_or_raise_validation_error(text):
    from tournaments.prizes import parse_codes

    with contextlib.suppress(ValidationError):
        parse_codes(text)


@FUZZ
@given(st.text(max_size=8) | st.sampled_from(["1", "0", "=", "+", "-", "--", "½", "1-0", " 1 "]))
def test_typed_results_parse_or_raise_validation_error(text):
    from pairing.services.records import parse_result

    with contextlib.suppress(ValidationError):
        parse_result(text)
