"""A club night's day written short the way each language writes it."""

from datetime import date, datetime

import pytest
from django.utils import translation

from tournaments.templatetags.clubavond import day


@pytest.mark.parametrize(
    ("language", "plain", "with_year", "with_time"),
    [
        ("en", "Sat 5 Dec", "Sat 5 Dec 2026", "Sat 5 Dec 20:00"),
        ("nl", "za 5 dec", "za 5 dec 2026", "za 5 dec 20:00"),
        ("da", "lør 5. dec", "lør 5. dec 2026", "lør 5. dec 20:00"),
    ],
)
def test_a_day_in_the_readers_language(language, plain, with_year, with_time):
    with translation.override(language):
        assert day(date(2026, 12, 5)) == plain
        assert day(date(2026, 12, 5), "year") == with_year
        assert day(datetime(2026, 12, 5, 20, 0), "time") == with_time
    assert day(None) == ""
