"""Importing members from CSV: preview with per-row errors, nothing saved until the TD confirms."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Member

pytestmark = pytest.mark.django_db

GOOD = (
    "first_name;last_name;sex;birth_date;title;fide_rating;national_rating;federation\n"
    "Anna;de Vries;w;1990-04-01;WFM;2010;2035;ned\n"
    "Bram;Jansen;m;;;;1650;NED\n"
)
BAD = "first_name,last_name,birth_date,national_rating\nAnna,de Vries,01-04-1990,2035\n,Jansen,,16x\n"


def upload(client, club, text):
    return client.post(
        reverse("import_members", args=[club.slug]), {"file": SimpleUploadedFile("m.csv", text.encode())}
    )


def test_preview_then_confirm_creates_the_members(td_client, club):
    preview = upload(td_client, club, GOOD)
    assert preview.status_code == 200 and preview.context["preview"].ok
    assert Member.objects.count() == 0  # nothing saved by the preview
    confirm = td_client.post(reverse("import_members", args=[club.slug]), {"text": GOOD, "confirm": "1"})
    assert confirm.status_code == 302
    anna = Member.objects.get(last_name="de Vries")
    assert (anna.title, anna.fide_rating, anna.national_rating, anna.federation) == ("WFM", 2010, 2035, "NED")
    assert str(anna.birth_date) == "1990-04-01" and anna.sex == "w"
    assert Member.objects.count() == 2


def test_errors_are_named_per_row_and_nothing_is_saved(td_client, club):
    response = upload(td_client, club, BAD)
    rows = response.context["preview"].rows
    assert [r.line for r in rows] == [2, 3]
    assert any("birth_date" in e for e in rows[0].errors)
    assert any("first_name" in e for e in rows[1].errors)
    assert any("national_rating" in e for e in rows[1].errors)
    # Even a forced confirmation saves nothing while errors remain.
    td_client.post(reverse("import_members", args=[club.slug]), {"text": BAD, "confirm": "1"})
    assert Member.objects.count() == 0


def test_missing_columns_are_a_file_error(td_client, club):
    response = upload(td_client, club, "name,rating\nAnna,2000\n")
    assert "missing column" in response.context["preview"].errors[0]
