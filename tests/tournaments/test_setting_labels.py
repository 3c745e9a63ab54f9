"""The settings page names every system's settings in words, in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from pairing.engines import registry
from tests.conftest import make_competition, make_members
from tournaments.setting_labels import CHOICES, LABELS, label

pytestmark = pytest.mark.django_db


def test_every_setting_of_every_system_has_a_label():
    settings = {name for system_id in registry.system_ids() for name in registry.get(system_id).defaults}
    assert settings - set(LABELS) == set()
    assert set(LABELS) - settings == set(), "a label for a setting no system has"


@pytest.mark.parametrize("language", ["nl", "da"])
def test_every_label_is_translated(language):
    texts = {**LABELS, **CHOICES}
    with translation.override("en"):
        english = {key: str(text) for key, text in texts.items()}
    with translation.override(language):
        untranslated = [key for key, text in texts.items() if str(text) == english[key]]
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


def test_every_word_of_every_choice_has_a_label():
    words = {
        (name, word)
        for system_id in registry.system_ids()
        for name, choices in registry.get(system_id).choices.items()
        for word in choices
    }
    assert words == set(CHOICES)
    for system_id in registry.system_ids():
        system = registry.get(system_id)
        for name, choices in system.choices.items():
            assert system.defaults[name] in choices, (system_id, name)


@pytest.mark.parametrize(
    ("language", "chosen"),
    [("en", "classic: every round valued again"), ("nl", "klassiek:"), ("da", "klassisk:")],
)
def test_a_choice_is_a_list_of_words_in_the_readers_language(club, td, td_client, language, chosen):
    """Keizer's re-valuation (§1.6) is offered as its three modes; the default stands selected; a word
    not on the list is refused by the form and nothing is saved."""
    competition = make_competition(club, td, make_members(club, 4), system="keizer", rounds=30, slug="keizer")
    url = reverse("system_settings", args=[club.slug, competition.slug])
    page = td_client.get(url, headers={"Accept-Language": language}).content.decode()
    select = re.search(r'<select name="setting_revaluation"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]+)</option>', select.group(1))
    assert [value for value, _selected, _text in options] == ["classic", "fixed-point", "frozen"]
    assert [value for value, selected, _text in options if selected] == ["classic"]
    assert options[0][2].startswith(chosen)
    form = td_client.get(url).context["form"]
    shown = {name: field.initial for name, field in form.fields.items()}
    data = {name: value for name, value in shown.items() if value is not False and value is not None}
    before = competition.settings
    response = td_client.post(url, data | {"setting_revaluation": "sideways", "setting_top_value": "70"})
    assert response.status_code == 200 and "sideways" in response.content.decode()
    competition.refresh_from_db()
    assert competition.settings == before and before["top_value"] == 60
