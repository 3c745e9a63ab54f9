"""The large lists printed as lines of text (tournaments.templatetags.print_lines): one line per row in a
fixed-width font, the columns padded, the header line repeated on every page, the key kept; from
PDF_LINES_MIN_PLAYERS players on, smaller competitions printed as tables, as before."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.conftest import make_competition, play_round
from tournaments.templatetags import print_lines
from tournaments.templatetags.print_lines import BOX, Column, font_size, lines
from tournaments.views import public


def pdf_text(pdf: bytes, tmp_path, *options: str) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    source = tmp_path / "read.pdf"
    source.write_bytes(pdf)
    command = ["pdftotext", "-layout", *options, str(source), "-"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def rows_of(html: str) -> list[str]:
    return re.findall(r"<div>(.*?)</div>", html)


def test_columns_are_padded_to_their_widest_value_two_spaces_apart():
    columns = [Column("#", right=True), Column("Name"), Column("Points", right=True)]
    html = lines(columns, [["1", "Carlsen, Magnus", "2½"], ["12", "So, Wesley", "10"]])
    head = re.search(r'<div class="columns"[^>]*>(.*?)</div>', html).group(1)
    assert head == " #  Name" + " " * 11 + "  Points"  # "Carlsen, Magnus": 15 characters
    assert rows_of(html) == [" 1  Carlsen, Magnus      2½", "12  So, Wesley           10"]


def test_a_long_name_is_cut_with_an_ellipsis_and_text_is_escaped():
    columns = [Column("Name", widest=8), Column("R", right=True)]
    html = lines(columns, [["<b>Verylongname", "1"], ["A & B", "2"]])
    assert rows_of(html) == ["&lt;b&gt;Very…  1", "A &amp; B     2"]


def test_a_pending_result_is_an_empty_box_as_wide_as_its_column():
    html = lines([Column("Result"), Column("Black")], [[BOX, "X"], ["1-0", "Y"]])
    assert rows_of(html) == ['<span class="box">      </span>  X', "1-0     Y"]


def test_the_font_fits_the_widest_line_to_the_page():
    # 538 pt across; a character 0.602 em wide: 100 characters at 8.9 pt (8 at most), 150 at 5.9 pt.
    assert font_size(100) == 8.0
    assert font_size(150) == 5.9
    assert font_size(300) == 4.5  # the smallest
    html = lines([Column("x" * 150)], [])
    assert html.count('style="font-size: 5.9pt"') == 2  # the header line and the list


def test_the_header_line_is_on_every_page_and_every_row_once(tmp_path):
    from weasyprint import CSS, HTML

    rows = [[str(n), f"Player{n:04}, Open", f"{1000 + n}"] for n in range(1, 301)]
    body = lines([Column("#", right=True), Column("Name"), Column("Rating", right=True)], rows)
    css = CSS(filename=finders.find("css/print-lines.css"))
    document = HTML(string=f"<html><body><h1>Open</h1>{body}</body></html>").render(stylesheets=[css])
    assert len(document.pages) >= 3
    text = pdf_text(document.write_pdf(), tmp_path)
    pages = text.split("\f")[: len(document.pages)]
    for page in pages:
        assert re.match(r"\s*#\s+Name\s+Rating\n", page.lstrip("\n")), page[:80]
    found = re.findall(r"Player(\d{4}), Open\s+(\d+)", text)
    assert [int(n) for n, _rating in found] == list(range(1, 301))
    assert all(int(rating) == 1000 + int(n) for n, rating in found)
    count = len(pages)
    assert re.search(rf"\b1 ?/ ?{count}\s*$", pages[0]) and re.search(rf"\b{count} ?/ ?{count}\s*$", pages[-1])


@pytest.fixture
def finished(club, td, members, settings):
    settings.PDF_JOB_MIN_PLAYERS = 1000  # printed in the request
    competition = make_competition(club, td, members[:6])
    play_round(competition, td, {1: "½-½", 2: "0-1"})
    return competition


@pytest.mark.django_db
def test_the_standings_and_crosstable_print_as_lines_from_the_setting_on(client, finished, settings, tmp_path):
    settings.PDF_LINES_MIN_PLAYERS = 6
    where = [finished.club.slug, finished.slug]
    standings = client.get(reverse("standings", args=where) + "?format=pdf")
    text = pdf_text(standings.content, tmp_path)
    assert re.search(r"#\s+Name\s+Rating\s+Points", text)
    names = list(finished.participants.values_list("member__last_name", flat=True))
    for name in names:
        assert len(re.findall(rf"^\s*\d+(-\d+)?\s+\S+ {name}\s+20\d0\s.*$", text, re.M)) == 1
    assert re.search(r"1-2\s+Player00\d Surname00\d\s+20\d0\s+1\s", text)  # rank, name, rating, points
    assert "Key: SB Sonneborn-Berger" in text
    crosstable = pdf_text(client.get(reverse("crosstable", args=where) + "?format=pdf").content, tmp_path)
    assert re.search(r"#\s+Name\s+1\s+Points", crosstable)
    assert re.search(r"\d+b½", crosstable) and re.search(r"\d+w½", crosstable)  # board 1 drawn
    assert "won with white against no. 12" in crosstable


@pytest.mark.django_db
def test_a_pairing_list_in_play_has_a_box_for_each_result(client, finished, td, settings, tmp_path, monkeypatch):
    from pairing import services as adapter

    settings.PDF_LINES_MIN_PLAYERS = 6
    rnd = adapter.pair_next_round(finished, td)
    adapter.publish(rnd, td)
    drawn = []
    real = print_lines.lines

    def spy(columns, rows, label=""):
        drawn.append(rows)
        return real(columns, rows, label)

    monkeypatch.setattr(print_lines, "lines", spy)
    address = reverse("pairings", args=[finished.club.slug, finished.slug, rnd.number]) + "?format=pdf"
    text = pdf_text(client.get(address).content, tmp_path)
    assert re.search(r"Board\s+White\s+Rating\s+Pts\s+Result\s+Black\s+Rating\s+Pts", text)
    assert [row[4] for row in drawn[0]] == [BOX] * 3  # three boards, none played yet
    assert "points before this round" in text


@pytest.mark.django_db
def test_a_smaller_competition_prints_tables_as_before(client, finished, settings, monkeypatch):
    settings.PDF_LINES_MIN_PLAYERS = 7
    templates = []
    real = public.render_pdf

    def spy(request, template, *args, **kwargs):
        templates.append(template)
        return real(request, template, *args, **kwargs)

    monkeypatch.setattr(public, "render_pdf", spy)
    client.get(reverse("standings", args=[finished.club.slug, finished.slug]) + "?format=pdf")
    settings.PDF_LINES_MIN_PLAYERS = 6
    client.get(reverse("crosstable", args=[finished.club.slug, finished.slug]) + "?format=pdf")
    assert templates == ["tournaments/standings.html", "tournaments/print/crosstable.html"]
