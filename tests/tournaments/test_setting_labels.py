"""The settings page names every system's settings in words, in the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from pairing.engines import registry
from tests.conftest import make_competition, make_members
from tournaments.setting_labels import LABELS, label

pytestmark = pytest.mark.django_db


def test_every_setting_of_every_system_has_a_label():
    settings = {name for system_id in registry.system_ids() for name in registry.get(system_id).defaults}
    assert settings - set(LABELS) == set()
    assert set(LABELS) - settings == set(), "a label for a setting no system has"


@pytest.mark.parametrize("language", ["nl", "da"])
def test_every_label_is_translated(language):
    with translation.override("en"):
        english = {name: str(text) for name, text in LABELS.items()}
    with translation.override(language):
        untranslated = [name for name, text in LABELS.items() if str(text) == english[name]]
    assert untranslated == []


def test_an_unknown_setting_shows_its_name_in_words():
    assert label("some_new_setting") == "some new setting"


@pytest.mark.parametrize(
    ("language", "text", "default_yes"),
    [
        ("en", "Aalsmeer bonus: number of rounds (0: off)", "default: yes"),
        ("nl", "Aalsmeer-bonus: aantal ronden (0: uit)", "standaard: ja"),
        ("da", "Aalsmeer-bonus: antal runder (0: fra)", "standard: ja"),
    ],
)
def test_the_keizer_settings_page_speaks_the_readers_language(club, td, td_client, language, text, default_yes):
    """Labels and defaults in words: `aalsmeer_rounds` by its label, `forfeit_as_bye` (default True) as yes."""
    competition = make_competition(club, td, make_members(club, 4), system="keizer", rounds=30, slug="keizer")
    url = reverse("system_settings", args=[club.slug, competition.slug])
    page = td_client.get(url, headers={"Accept-Language": language}).content.decode()
    assert text in page and default_yes in page
    assert "aalsmeer rounds" not in page and "default: True" not in page
