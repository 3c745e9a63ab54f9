"""CSV exports neutralise formula-like cells: a spreadsheet shows them as text and runs nothing."""

from __future__ import annotations

import csv
import io
import os

import pytest
from django.urls import reverse

from tests.ratings.test_web_rating_report import four, play_all, ranked_outcome  # noqa: F401 (fixture)

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the Django test plugin", allow_module_level=True)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "value, written",
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+31 6 1234", "'+31 6 1234"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("de Vries", "de Vries"),
        ("", ""),
        (-10, -10),  # numbers are numbers
        (None, None),
    ],
)
def test_safe_cell(value, written):
    from clubs.validation import safe_cell

    assert safe_cell(value) == written


def test_rating_report_csv_writes_formula_like_names_as_text(td_client, club, four):  # noqa: F811
    from clubs.models import Member

    hostile = {"A": "=cmd|' /C calc'!A0", "B": "+1+1", "C": "@SUM(1)", "D": "-HYPERLINK(1)"}
    for first, last in hostile.items():
        Member.objects.filter(club=club, first_name=first).update(first_name=last, last_name="")
    url = reverse("rating_report", args=[club.slug, four.slug]) + "?format=csv"
    rows = list(csv.reader(io.StringIO(td_client.get(url).content.decode())))
    names = {row[1] for row in rows[1:]}
    assert names == {"'" + name for name in hostile.values()}
    assert sorted(row[-1] for row in rows[1:]) == ["-10", "-15", "15", "5"]  # numbers stay numbers
