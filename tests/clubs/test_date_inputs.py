"""Date and time inputs carry ISO values in every language: the browser's pickers take `YYYY-MM-DD` and
`HH:MM` only, and Django would otherwise write `21-01-2027` (Dutch) or `21.01.2027` (Danish)."""

from __future__ import annotations

import re
from datetime import date, time

import pytest
from django import forms
from django.urls import reverse
from django.utils import translation

from clubs.forms import MemberForm
from clubs.models import Member, Season
from clubs.widgets import DateInput, PickerMixin, TimeInput
from ratings.forms import RatingListForm
from season.forms import NightForm, NightsForm, SeasonForm
from season.models import ClubNight
from tournaments.prizes import PrizeTableForm

LANGUAGES = ["en", "nl", "da"]


def value_of(html: str, name: str) -> str:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0)
    assert 'type="' in tag
    return re.search(r'value="([^"]*)"', tag).group(1)


def type_of(html: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0).split('type="')[1].split('"')[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_date_form_writes_iso_dates_and_times(db, language):
    night = ClubNight(date=date(2027, 1, 21), start=time(20, 0), end=time(23, 30))
    forms_and_fields = [
        (SeasonForm(instance=Season(name="x", start=date(2026, 9, 3), end=date(2027, 6, 24))),
         {"start": "2026-09-03", "end": "2027-06-24"}),
        (NightForm(instance=night), {"date": "2027-01-21", "start": "20:00", "end": "23:30"}),
        (NightsForm(initial={"first": date(2026, 11, 28), "last": date(2027, 5, 27)}),
         {"first": "2026-11-28", "last": "2027-05-27", "start": "20:00"}),
        (MemberForm(instance=Member(first_name="A", last_name="B", birth_date=date(1990, 2, 3))),
         {"birth_date": "1990-02-03"}),
        (RatingListForm(initial={"list_date": date(2026, 12, 1)}), {"list_date": "2026-12-01"}),
    ]  # fmt: skip
    with translation.override(language):
        for form, expected in forms_and_fields:
            html = str(form)
            for name, value in expected.items():
                assert value_of(html, name) == value, (type(form).__name__, name, language)
                assert type_of(html, name) == ("date" if "-" in value else "time")


def test_the_prize_table_age_date_is_iso_in_danish(db):
    form = PrizeTableForm(initial={"age_on": date(2027, 1, 1)})
    with translation.override("da"):
        assert value_of(str(form["age_on"]), "age_on") == "2027-01-01"


def test_the_mixin_keeps_a_widgets_own_attributes_and_required():
    class Form(PickerMixin, forms.Form):
        day = forms.DateField(widget=forms.DateInput(attrs={"class": "wide"}))
        at = forms.TimeField(required=False)

    form = Form()
    assert isinstance(form.fields["day"].widget, DateInput) and form.fields["day"].widget.attrs == {"class": "wide"}
    assert isinstance(form.fields["at"].widget, TimeInput)
    html = str(form["day"])
    assert "required" in html and 'class="wide"' in html and 'type="date"' in html
    assert "required" not in str(form["at"])


@pytest.mark.parametrize("language", ["nl", "da"])
def test_the_club_night_form_shows_and_saves_its_date_in_dutch_and_danish(td_client, club, language):
    season = Season.objects.create(club=club, name="2026-2027")
    night = ClubNight.objects.create(season=season, date=date(2027, 1, 21), start=time(20, 0))
    td_client.cookies["django_language"] = language
    url = reverse("edit_night", args=[club.slug, night.pk])
    page = td_client.get(url).content.decode()
    assert f'lang="{language}"' in page
    assert value_of(page, "date") == "2027-01-21" and value_of(page, "start") == "20:00"
    # The browser posts the ISO values back as they stand; the night moves a week.
    response = td_client.post(url, {"date": "2027-01-28", "start": "20:00", "end": "", "kind": "club", "note": ""})
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.date == date(2027, 1, 28) and night.start == time(20, 0)
