"""Publishing and undoing are guarded: their buttons carry what the page showed of the boards; when they changed
since (another TD undid the round and paired it again, exchanged two players), nothing is published and
the message says what changed, by whom and when. Round pages and the cup alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairing import services as adapter
from tests.conftest import make_competition, make_members
from tests.guard import messages_of
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def shown_basis(page: str) -> str:
    """The value the page's publish form carries."""
    return re.search(r'name="based_on" value="(\d+)"', page).group(1)


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="swiss")


def round_page(client, competition, number=1) -> str:
    args = [competition.club.slug, competition.slug, number]
    return client.get(reverse("manage_round", args=args)).content.decode()


def publish(client, competition, basis, number=1, name="publish_round"):
    args = [competition.club.slug, competition.slug, number]
    return client.post(reverse(name, args=args), {"based_on": basis}, follow=True)


def test_a_publish_based_on_the_boards_shown_publishes(td_client, td, swiss):
    adapter.pair_next_round(swiss, td)
    response = publish(td_client, swiss, shown_basis(round_page(td_client, swiss)))
    assert swiss.round_set.get(number=1).status == Round.Status.PUBLISHED
    assert "Round 1 is published." in messages_of(response)


def test_a_round_undone_and_paired_again_meanwhile_is_not_published(td_client, td, swiss, other_td):
    jan, jan_client = other_td
    adapter.pair_next_round(swiss, td)
    basis = shown_basis(round_page(td_client, swiss))  # the TD looks at round 1's boards
    adapter.undo_last_round(swiss, jan)  # meanwhile Jan undoes it and pairs it again
    adapter.pair_next_round(swiss, jan)
    response = publish(td_client, swiss, basis)
    assert swiss.round_set.get(number=1).status == Round.Status.DRAFT
    message = messages_of(response)
    assert "Round 1 changed after your page was shown (round paired, by Jan Tweede at " in message
    assert "nothing was published" in message
    # The page now shows the new boards and a publish based on them goes through.
    publish(td_client, swiss, shown_basis(response.content.decode()))
    assert swiss.round_set.get(number=1).status == Round.Status.PUBLISHED


def test_an_exchange_meanwhile_stops_the_publish_and_names_it(td_client, td, swiss, other_td, settings):
    jan, _client = other_td
    rnd = adapter.pair_next_round(swiss, td)
    basis = shown_basis(round_page(td_client, swiss))
    one, two = rnd.games.get(board=1), rnd.games.get(board=2)
    adapter.exchange_players(rnd, one.white, two.white, jan, override=True)
    td_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    message = messages_of(publish(td_client, swiss, basis))
    assert rnd.__class__.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    assert "Jan Tweede" in message and "spelers verwisseld" in message


def test_a_round_undone_meanwhile_is_not_published(td_client, td, swiss, other_td):
    jan, _client = other_td
    adapter.pair_next_round(swiss, td)
    basis = shown_basis(round_page(td_client, swiss))
    adapter.undo_last_round(swiss, jan)
    message = messages_of(publish(td_client, swiss, basis))
    assert "(round undone, by Jan Tweede at " in message
    assert not swiss.round_set.get(number=1).is_paired


def test_a_cup_publish_is_guarded_too(td_client, td, club, other_td):
    jan, _client = other_td
    cup = make_competition(club, td, make_members(club, 8, base=1500), system="knockout", slug="cup")
    rnd = adapter.pair_next_round(cup, td)
    page = td_client.get(reverse("cup", args=[club.slug, cup.slug])).content.decode()
    basis = shown_basis(page)
    adapter.swap_colours(rnd, rnd.games.get(board=1), jan)
    message = messages_of(publish(td_client, cup, basis, name="cup_publish"))
    assert "(colours swapped, by Jan Tweede at " in message
    assert cup.round_set.get(number=1).status == Round.Status.DRAFT
    publish(td_client, cup, shown_basis(td_client.get(reverse("cup", args=[club.slug, cup.slug])).content.decode()),
            name="cup_publish")  # fmt: skip
    assert cup.round_set.get(number=1).status == Round.Status.PUBLISHED


def test_a_basis_that_is_not_a_number_is_refused_with_a_message(td_client, td, swiss):
    adapter.pair_next_round(swiss, td)
    message = messages_of(publish(td_client, swiss, "yesterday"))
    assert "reload the page" in message and swiss.round_set.get(number=1).status == Round.Status.DRAFT


# ---------------------------------------------------------------------------------------- undo


def undo_form(page: str) -> dict:
    """What the manage page's undo button posts."""
    form = page[page.index('id="undo-form"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'name="(round|based_on)"\s+value="(\d+)"', form))


def undo(client, competition, data):
    return client.post(reverse("undo_round", args=[competition.club.slug, competition.slug]), data, follow=True)


def manage_page(client, competition) -> str:
    return client.get(reverse("manage", args=[competition.club.slug, competition.slug])).content.decode()


def test_a_double_click_on_undo_undoes_one_round(td_client, td, swiss):
    adapter.pair_next_round(swiss, td)
    data = undo_form(manage_page(td_client, swiss))
    assert data == {"round": "1", "based_on": shown_basis(round_page(td_client, swiss))}
    assert "Round 1 is no longer paired." in messages_of(undo(td_client, swiss, data))
    adapter.pair_next_round(swiss, td)  # paired again at once: the second click must not remove it
    message = messages_of(undo(td_client, swiss, data))
    assert "Round 1 changed after your page was shown (round paired, by director at " in message
    assert "nothing was undone" in message and swiss.round_set.get(number=1).is_paired


def test_an_undo_after_another_td_paired_the_next_round_is_refused(td_client, td, swiss, other_td):
    jan, _client = other_td
    rnd = adapter.pair_next_round(swiss, td)
    adapter.publish(rnd, td)
    for game in rnd.games.all():
        adapter.set_result(game, "1-0", td)
    data = undo_form(manage_page(td_client, swiss))
    assert data["round"] == "1"
    adapter.pair_next_round(swiss, jan)  # Jan pairs round 2 meanwhile
    message = messages_of(undo(td_client, swiss, data))
    assert "Round 1 is no longer the last paired round (round paired, by Jan Tweede at " in message
    assert swiss.round_set.get(number=2).is_paired


def test_an_undo_without_the_pages_basis_still_undoes_the_last_round(td_client, td, swiss):
    adapter.pair_next_round(swiss, td)
    assert "Round 1 is no longer paired." in messages_of(undo(td_client, swiss, {}))
    assert not swiss.round_set.paired().exists()


# ---------------------------------------------------------------------------------------- finish


def test_a_round_closed_meanwhile_is_not_closed_twice(td_client, td, swiss, other_td):
    from audit.models import AuditEntry

    jan, jan_client = other_td
    rnd = adapter.pair_next_round(swiss, td)
    adapter.publish(rnd, td)
    for game in rnd.games.all():
        adapter.set_result(game, "1-0", td)
    url = reverse("finish_round", args=[swiss.club.slug, swiss.slug, 1])
    assert "Round 1 is finished." in messages_of(jan_client.post(url, follow=True))
    message = messages_of(td_client.post(url, follow=True))  # the TD's page still showed the button
    assert "Round 1 was closed meanwhile, by Jan Tweede at " in message
    assert AuditEntry.objects.filter(competition_id=swiss.pk, action="finish").count() == 1
    assert swiss.round_set.get(number=1).status == Round.Status.FINISHED


# ---------------------------------------------------------------------------------------- exchange, colours


def test_an_exchange_on_boards_that_changed_meanwhile_is_refused(td_client, td, swiss, other_td):
    jan, _client = other_td
    rnd = adapter.pair_next_round(swiss, td)
    page = round_page(td_client, swiss)
    basis = shown_basis(page)
    assert page.count(f'name="based_on" value="{basis}"') == 1 + 1 + rnd.games.count()  # publish, exchange, swaps
    adapter.swap_colours(rnd, rnd.games.get(board=2), jan)
    before = sorted(rnd.games.values_list("white_id", "black_id"))
    url = reverse("exchange", args=[swiss.club.slug, swiss.slug, 1])
    message = messages_of(td_client.post(url, {"a": 1, "b": 2, "based_on": basis}, follow=True))
    assert "Round 1 changed after your page was shown (colours swapped, by Jan Tweede at " in message
    assert "nothing was changed" in message and sorted(rnd.games.values_list("white_id", "black_id")) == before
    basis = shown_basis(round_page(td_client, swiss))
    message = messages_of(td_client.post(url, {"a": 1, "b": 2, "based_on": basis}, follow=True))
    assert "exchanged places" in message and sorted(rnd.games.values_list("white_id", "black_id")) != before


def test_a_colour_swap_on_boards_that_changed_meanwhile_is_refused(td_client, td, swiss, other_td):
    jan, _client = other_td
    rnd = adapter.pair_next_round(swiss, td)
    basis = shown_basis(round_page(td_client, swiss))
    one, two = rnd.games.get(board=1), rnd.games.get(board=2)
    adapter.exchange_players(rnd, one.white, two.white, jan, override=True)
    board = rnd.games.get(board=3)
    url = reverse("swap_colours", args=[swiss.club.slug, swiss.slug, 1, 3])
    message = messages_of(td_client.post(url, {"based_on": basis}, follow=True))
    assert "(players exchanged, by Jan Tweede at " in message
    assert rnd.games.get(board=3).white_id == board.white_id


def test_an_exchange_form_without_two_players_names_the_problem(td_client, td, swiss):
    adapter.pair_next_round(swiss, td)
    url = reverse("exchange", args=[swiss.club.slug, swiss.slug, 1])
    assert "Choose two players." in messages_of(td_client.post(url, {"a": "one"}, follow=True))
