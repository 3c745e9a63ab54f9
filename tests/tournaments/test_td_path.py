"""The TD's whole path through the test client, and who may do what."""

from decimal import Decimal

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.conftest import make_competition
from tournaments.models import Bye, Competition, Game, Round

pytestmark = pytest.mark.django_db


def test_td_runs_a_six_player_round_robin_end_to_end(client, td, club, members):
    assert client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"}).status_code == 302
    ids = [m.id for m in members[:6]]
    response = client.post(
        reverse("new_competition", args=[club.slug]),
        {"name": "Club championship", "slug": "champ", "system": "roundrobin", "rounds": "", "players": ids},
    )
    assert response.status_code == 302, response.content
    competition = Competition.objects.get(slug="champ")
    assert competition.participants.count() == 6
    assert competition.planned_rounds() == 5

    for number in range(1, 6):
        response = client.post(reverse("pair", args=[club.slug, "champ"]))
        assert response.status_code == 302
        rnd = Round.objects.get(competition=competition, number=number)
        assert rnd.games.count() == 3 and rnd.status == Round.Status.DRAFT
        # A draft is invisible to the public: its page says the round is not yet published.
        client.logout()
        page = client.get(reverse("pairings", args=[club.slug, "champ", number]))
        assert page.status_code == 200 and "is not yet published" in page.content.decode()
        assert all(game.white.name not in page.content.decode() for game in rnd.games.all())
        client.force_login(td)
        client.post(reverse("publish_round", args=[club.slug, "champ", number]))
        for game in rnd.games.all():
            key = {0: "1", 1: "=", 2: "0"}[game.board % 3]
            response = client.post(
                reverse("enter_result", args=[club.slug, "champ", number, game.board]), {f"result-{game.board}": key}
            )
            assert response.status_code == 302
        assert not rnd.games.filter(result="").exists()

    standings = client.get(reverse("standings", args=[club.slug, "champ"]))
    assert standings.status_code == 200
    rows = standings.context["rows"]
    assert len(rows) == 6
    # Every game gives out one point: 5 rounds x 3 boards.
    assert sum(row.points for row in rows) == 15
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    assert AuditEntry.objects.filter(competition_id=competition.pk, action="result").count() == 15


def test_htmx_gets_the_partial_and_a_plain_request_the_page(client, td, club, members):
    from tests.conftest import play_round

    competition = make_competition(club, td, members[:4])
    play_round(competition, td)
    url = reverse("standings", args=[club.slug, competition.slug])
    full = client.get(url)
    partial = client.get(url, headers={"HX-Request": "true"})
    assert b"<html" in full.content and b'id="standings"' in full.content
    assert b"<html" not in partial.content and b'id="standings"' in partial.content


def test_result_typed_via_htmx_returns_the_row(td_client, td, club, members):
    competition = make_competition(club, td, members[:4])
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    rnd = pair_next_round(competition, td)
    publish(rnd, td)
    url = reverse("enter_result", args=[club.slug, competition.slug, 1, 1])
    response = td_client.post(url, {"result-1": "="}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b'id="board-1"' in response.content and b"<html" not in response.content
    assert Game.objects.get(round=rnd, board=1).result == "½-½"


def test_member_gets_403_and_anonymous_is_sent_to_log_in(client, td, viewer, club, members):
    competition = make_competition(club, td, members[:4])
    urls = [
        reverse("manage", args=[club.slug, competition.slug]),
        reverse("new_competition", args=[club.slug]),
        reverse("members", args=[club.slug]),
    ]
    posts = [reverse("pair", args=[club.slug, competition.slug])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    for url in posts:
        response = client.post(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(viewer)
    for url in urls:
        assert client.get(url).status_code == 403
    for url in posts:
        assert client.post(url).status_code == 403
    assert not Round.objects.filter(competition=competition).exists()


def test_private_data_only_for_tds(client, td, viewer, club, members):
    from tests.conftest import play_round

    member = members[0]
    member.birth_date = "1987-06-05"
    member.save()
    competition = make_competition(club, td, members[:4])
    play_round(competition, td)
    number = competition.participants.get(member=member).start_number
    url = reverse("player", args=[club.slug, competition.slug, number])
    assert b"1987" not in client.get(url).content
    client.force_login(viewer)
    assert b"1987" not in client.get(url).content
    client.force_login(td)
    page = client.get(url).content.decode()
    assert "1987" in page or "June 5, 1987" in page


def test_impossible_result_is_refused_and_nothing_changes(td_client, td, club, members):
    competition = make_competition(club, td, members[:4])
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    rnd = pair_next_round(competition, td)
    publish(rnd, td)
    url = reverse("enter_results", args=[club.slug, competition.slug, 1])
    response = td_client.post(url, {"result-1": "3-0", "result-2": "1"}, follow=True)
    text = response.content.decode()
    assert "“3-0” is not a result" in text
    assert Game.objects.get(round=rnd, board=1).result == ""
    # The valid board of the same form is saved, each board on its own.
    assert Game.objects.get(round=rnd, board=2).result == "1-0"


def test_finished_round_needs_the_override_and_the_change_is_recorded(td_client, td, club, members):
    from tests.conftest import play_round

    competition = make_competition(club, td, members[:4])
    rnd = play_round(competition, td)
    url = reverse("enter_result", args=[club.slug, competition.slug, 1, 1])
    td_client.post(url, {"result-1": "0"})
    assert Game.objects.get(round=rnd, board=1).result == "1-0"
    td_client.post(url, {"result-1": "0", "override": "1"})
    assert Game.objects.get(round=rnd, board=1).result == "0-1"
    game = Game.objects.get(round=rnd, board=1)
    change = AuditEntry.objects.get(object_type="game", object_id=str(game.pk), action="result-override")
    assert (change.before, change.after, change.user_id) == ({"result": "1-0"}, {"result": "0-1"}, td.pk)
    assert AuditEntry.objects.filter(object_id=str(game.pk), action__startswith="result").count() == 2


def test_a_player_paired_twice_is_refused_and_nothing_is_saved(td, club, members):
    from django.core.exceptions import ValidationError

    from pairing.engines.state import Board, Pairing
    from pairing.services import save_pairing

    competition = make_competition(club, td, members[:4])
    rnd = Round.objects.create(competition=competition, number=1)
    pairing = Pairing(boards=[Board(1, 2), Board(3, 1)])
    with pytest.raises(ValidationError, match="paired twice"):
        save_pairing(rnd, pairing, list(competition.participants.select_related("member")), set())
    assert not Game.objects.filter(round=rnd).exists()


def test_exchange_that_makes_a_rematch_needs_the_override(td_client, td, club, members):
    from tests.conftest import play_round

    competition = make_competition(club, td, members[:4])
    first = play_round(competition, td)
    from pairing.services import pair_next_round

    second = pair_next_round(competition, td)
    g1 = first.games.get(board=1)
    # Put round 1's opponents together again by exchanging g1.black with white's round-2 opponent.
    g2 = (
        second.games.get(white=g1.white)
        if second.games.filter(white=g1.white).exists()
        else second.games.get(black=g1.white)
    )
    partner = g2.black if g2.white == g1.white else g2.white
    before = sorted(second.games.values_list("white_id", "black_id"))
    url = reverse("exchange", args=[club.slug, competition.slug, 2])
    data = {"a": partner.start_number, "b": g1.black.start_number}
    response = td_client.post(url, data, follow=True)
    assert "already played each other" in response.content.decode()
    assert sorted(second.games.values_list("white_id", "black_id")) == before
    td_client.post(url, data | {"override": "1"})
    after = {frozenset(p) for p in second.games.values_list("white_id", "black_id")}
    assert frozenset((g1.white_id, g1.black_id)) in after
    entry = AuditEntry.objects.get(action="exchange-players", competition_id=competition.pk)
    assert entry.params["override"] == ["rematch"]


def test_undo_last_unplayed_round(td_client, td, club, members):
    from pairing.services import pair_next_round

    competition = make_competition(club, td, members[:4])
    pair_next_round(competition, td)
    td_client.post(reverse("undo_round", args=[club.slug, competition.slug]))
    assert not Game.objects.filter(round__competition=competition).exists()
    assert AuditEntry.objects.filter(action="undo-round", competition_id=competition.pk).count() == 1


def test_absences_and_requested_byes_before_pairing_a_swiss(td_client, td, club, members):
    pytest.importorskip("pairing.engines.dutch")
    competition = make_competition(club, td, members[:7], system="dutch", rounds=5, slug="swiss")
    url = reverse("set_absence", args=[club.slug, competition.slug, 6])
    td_client.post(url, {"kind": "half-bye"})
    td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    rnd = Round.objects.get(competition=competition, number=1)
    assert rnd.games.count() == 3
    assert not rnd.games.filter(white__start_number=6).exists() and not rnd.games.filter(black__start_number=6).exists()
    bye = Bye.objects.get(round=rnd)
    assert (bye.participant.start_number, bye.kind, bye.points) == (6, "half-bye", Decimal("0.5"))
