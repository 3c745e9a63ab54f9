"""Members listed as a Dutch club lists them: "de Boer" under B; the current season by default."""

from datetime import date
from types import SimpleNamespace

import pytest

from clubs.models import Season, current_season
from clubs.names import sort_key, sorted_by_name, split_particles


@pytest.mark.parametrize(
    ("last_name", "split"),
    [("de Boer", ("de", "Boer")), ("van der Berg", ("van der", "Berg")), ("Van Dijk", ("Van", "Dijk")),
     ("in 't Veld", ("in 't", "Veld")), ("Jansen", ("", "Jansen")), ("van", ("", "van")), ("", ("", ""))],
)  # fmt: skip
def test_particles_are_split_off_the_surname(last_name, split):
    assert split_particles(last_name) == split


def test_members_sort_by_the_name_after_the_particles():
    people = [SimpleNamespace(first_name=f, last_name=last) for f, last in [
        ("Piet", "de Boer"), ("Anna", "Bakker"), ("Jan", "van der Berg"), ("Kees", "Claassen"), ("Ben", "Boer"),
        ("Émile", "Aarts"), ("Eva", "aarts"),
    ]]  # fmt: skip
    order = [f"{p.first_name} {p.last_name}" for p in sorted_by_name(people)]
    assert order == [
        "Émile Aarts", "Eva aarts", "Anna Bakker", "Jan van der Berg", "Ben Boer", "Piet de Boer", "Kees Claassen",
    ]  # fmt: skip


def test_particles_decide_only_between_names_otherwise_alike():
    assert sort_key("Boer", "Piet") < sort_key("de Boer", "Piet") < sort_key("van Boer", "Piet")
    assert sort_key("de Boer", "Anna") < sort_key("Boer", "Piet")


@pytest.mark.django_db
def test_the_current_season_is_the_one_running_today(club):
    old = Season.objects.create(club=club, name="2025-2026", start=date(2025, 9, 1), end=date(2026, 6, 30))
    new = Season.objects.create(club=club, name="2026-2027", start=date(2026, 9, 1), end=date(2027, 6, 30))
    Season.objects.create(club=club, name="2027-2028", start=date(2027, 9, 1), end=date(2028, 6, 30))
    assert current_season(club, date(2026, 11, 28)) == new
    assert current_season(club, date(2026, 1, 5)) == old
    assert current_season(club, date(2026, 7, 15)) == old  # the summer between: the latest begun
    assert current_season(club, date(2020, 1, 1)).name == "2027-2028"  # none begun: the newest


@pytest.mark.django_db
def test_a_new_competition_has_the_current_season_and_sorted_players(td_client, club, members):
    from django.urls import reverse

    from clubs.models import Member

    today = date.today()
    season = Season.objects.create(
        club=club, name="this", start=date(today.year - 1, 1, 1), end=date(today.year + 1, 1, 1)
    )
    Member.objects.create(club=club, first_name="Piet", last_name="de Boer")
    Member.objects.create(club=club, first_name="Anna", last_name="Aarts")
    response = td_client.get(reverse("new_competition", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="nl")
    form = response.context["form"]
    assert form["season"].value() == season.pk
    assert form.fields["season"].label == "Seizoen"
    names = [label for _pk, label in form.fields["players"].choices]
    assert names.index("Anna Aarts") < names.index("Piet de Boer") < names.index("Player001 Surname001")
