"""The home page: every club, by name, a page at a time, searchable by name or city, in three languages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubs.views import HOME_PAGE_SIZE

pytestmark = pytest.mark.django_db


def make_clubs(count: int) -> None:
    from clubs.models import Club

    Club.objects.bulk_create(
        Club(name=f"Schaakclub {n:04}", slug=f"club-{n:04}", city="Delft" if n % 10 == 0 else "Leiden")
        for n in range(count)
    )


def listed(page: str) -> list[str]:
    return re.findall(r'<li><a href="/(club-\d{4})/">', page)


def test_the_clubs_come_a_page_at_a_time_in_name_order(client):
    make_clubs(2 * HOME_PAGE_SIZE + 7)
    first = client.get(reverse("home")).content.decode()
    assert listed(first) == [f"club-{n:04}" for n in range(HOME_PAGE_SIZE)]
    assert "Page 1 of 3" in first and "page=2" in first and "Previous" not in first
    last = client.get(reverse("home"), {"page": 3}).content.decode()
    assert listed(last) == [f"club-{n:04}" for n in range(2 * HOME_PAGE_SIZE, 2 * HOME_PAGE_SIZE + 7)]
    assert "Page 3 of 3" in last and "page=2" in last and "Next" not in last
    for odd in ("x", "0", "99", "-1"):  # a page that is not there: the first or the last, never an error
        answer = client.get(reverse("home"), {"page": odd})
        assert answer.status_code == 200 and len(listed(answer.content.decode())) in (HOME_PAGE_SIZE, 7)


def test_the_search_finds_clubs_by_name_or_city_and_keeps_itself_across_pages(client):
    from clubs.models import Club

    make_clubs(2 * HOME_PAGE_SIZE * 10)
    Club.objects.create(name="De Pion", slug="de-pion", city="Utrecht")
    by_city = client.get(reverse("home"), {"q": "delft"}).content.decode()  # every tenth club, any case
    assert listed(by_city) == [f"club-{n:04}" for n in range(0, 10 * HOME_PAGE_SIZE, 10)]
    assert f"{2 * HOME_PAGE_SIZE} clubs match “delft”." in by_city and "q=delft&amp;page=2" in by_city
    second = client.get(reverse("home"), {"q": "delft", "page": 2}).content.decode()
    assert listed(second) == [f"club-{n:04}" for n in range(10 * HOME_PAGE_SIZE, 20 * HOME_PAGE_SIZE, 10)]
    by_name = client.get(reverse("home"), {"q": "pion"}).content.decode()
    assert '<a href="/de-pion/">De Pion</a>' in by_name and "1 club matches “pion”." in by_name
    assert listed(by_name) == []
    none = client.get(reverse("home"), {"q": "Kopenhagen"}).content.decode()
    assert "No club matches the search." in none and "0 clubs match" in none


def test_a_search_with_a_nul_character_is_refused_with_a_message(client):
    make_clubs(3)
    answer = client.get(reverse("home"), {"q": "del\x00ft"})
    assert answer.status_code == 200
    assert "Null characters are not allowed." in answer.content.decode()
    assert len(listed(answer.content.decode())) == 3  # the list as without a search


def test_the_home_page_stays_small_with_a_thousand_clubs(client):
    make_clubs(1000)
    answer = client.get(reverse("home"))
    assert len(answer.content) <= 30 * 1024, len(answer.content)
    assert "Page 1 of 20" in answer.content.decode()


@pytest.mark.parametrize(
    ("language", "search", "page", "found"),
    [
        ("nl", "Clubs zoeken", "Pagina 1 van 3", "clubs gevonden met “delft”"),
        ("da", "Søg klubber", "Side 1 af 3", "klubber passer til “delft”"),
    ],
)
def test_the_home_page_speaks_dutch_and_danish(client, language, search, page, found):
    make_clubs(2 * HOME_PAGE_SIZE + 1)
    headers = {"Accept-Language": language}
    content = client.get(reverse("home"), headers=headers).content.decode()
    assert search in content and page in content
    make_clubs_in_delft = client.get(reverse("home"), {"q": "delft"}, headers=headers).content.decode()
    assert found in make_clubs_in_delft
