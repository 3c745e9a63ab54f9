"""A Gladiator round robin in the web app (seed 004 §4.9.8): encounters, standings, pairing refused."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.conftest import make_members
from tournaments import standings
from tournaments.models import Competition, Game, Round
from tournaments.state import CompetitionData

pytestmark = pytest.mark.django_db

# Each pair of start numbers: the winner and the games the encounter takes (o: ordinary, r: replay, b: blitz).
# By hand: 1 beats 2 (ordinary) and 3 (replay), loses to 4 (replay): 2 points, 1 ordinary win, 1 replay win.
# 4 beats 1 (replay) and 2 (blitz), loses to 3 (blitz): 2 points, 0 ordinary wins, 1 replay win.
# 2 beats 3 (blitz), 3 beats 4 (blitz): 1 point each, no ordinary or replay win; 2 won their encounter.
PLAN = {
    frozenset({1, 4}): (4, "or"),  # decided in the replay
    frozenset({2, 3}): (2, "orbb"),  # drawn, replay drawn, first blitz drawn, second blitz decides
    frozenset({1, 2}): (1, "o"),
    frozenset({3, 4}): (3, "orb"),
    frozenset({1, 3}): (1, "or"),
    frozenset({2, 4}): (4, "orb"),
}
STAGE = {"o": "classical", "r": "rapid", "b": "blitz"}


def url(name, competition, *args):
    return reverse(name, args=[competition.club.slug, competition.slug, *args])


def key_for(game: Game, index: int) -> str:
    """The result typed for the `index`-th game of its encounter: a draw until the planned last game."""
    winner, games = PLAN[frozenset({game.white.start_number, game.black.start_number})]
    assert game.stage == STAGE[games[index]]
    if index < len(games) - 1:
        return "="
    return "1" if game.white.start_number == winner else "0"


def enter_pending(client, competition, number, htmx: bool = False) -> None:
    """Type the planned result of every game without one (htmx: as typed in the box, the page reloads)."""
    rnd = Round.objects.get(competition=competition, number=number)
    headers = {"HX-Request": "true"} if htmx else {}
    for game in rnd.games.filter(result="").select_related("white", "black").order_by("board"):
        index = rnd.games.filter(match=game.match, board__lt=game.board).count()
        response = client.post(
            url("enter_result", competition, number, game.board),
            {f"result-{game.board}": key_for(game, index)},
            headers=headers,
        )
        if htmx:
            assert response.status_code == 200 and response["HX-Refresh"] == "true"
        else:
            assert response.status_code == 302


def add_next_games(client, competition, number) -> int:
    """Press every "add the replay / next blitz game" button of the round page; the number pressed."""
    page = client.get(url("manage_round", competition, number))
    encounters = page.context["encounters"]
    needing = [e for e in encounters if e.action]
    for e in needing:
        assert f'id="next-button-{e.match}"' in page.content.decode()
        response = client.post(url("gladiator_next_game", competition, number, e.match))
        assert response.status_code == 302
    return len(needing)


def play_round(client, competition, number) -> None:
    response = client.post(url("pair", competition))
    assert response.status_code == 302 and response["Location"] == url("manage_round", competition, number)
    client.post(url("publish_round", competition, number))
    for _step in range(6):
        enter_pending(client, competition, number)
        if not add_next_games(client, competition, number):
            return
    raise AssertionError("an encounter was never decided")


def encounter_games(competition, number, match) -> list[Game]:
    return list(
        Game.objects.filter(round__competition=competition, round__number=number, match=match)
        .select_related("white", "black")
        .order_by("board")
    )


@pytest.mark.rule("004 4.9.8")
def test_gladiator_round_robin_through_the_pages(client, td, club):
    members = make_members(club, 4)
    assert client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"}).status_code == 302
    response = client.post(
        reverse("new_competition", args=[club.slug]),
        {"name": "Gladiators", "slug": "glad", "system": "roundrobin", "gladiator": "on",
         "players": [m.id for m in members]},
    )  # fmt: skip
    assert response.status_code == 302, response.content
    competition = Competition.objects.get(slug="glad")
    assert competition.gladiator

    # Round 1: the first games, one encounter per board, numbered like knockout matches.
    client.post(url("pair", competition))
    client.post(url("publish_round", competition, 1))
    first = list(Game.objects.filter(round__competition=competition, round__number=1).select_related("white", "black"))
    assert len(first) == 2 and all(g.match == g.board and g.stage == "classical" for g in first)
    pairs = {frozenset({g.white.start_number, g.black.start_number}) for g in first}
    assert pairs == {frozenset({1, 4}), frozenset({2, 3})}

    enter_pending(client, competition, 1)  # both ordinary games drawn
    page = client.get(url("manage_round", competition, 1))
    assert [e.action for e in page.context["encounters"]] == ["add the replay", "add the replay"]
    # A drawn ordinary game scores nothing yet: the encounter is undecided.
    state = CompetitionData.load(competition).state()
    assert all(p.history[0].score is None for p in state.players)
    response = client.post(url("pair", competition))
    assert Round.objects.filter(competition=competition, number=2, paired_at__isnull=False).count() == 0
    errors = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("not decided yet" in m for m in errors), errors

    assert add_next_games(client, competition, 1) == 2
    for game in first:
        ordinary, replay = encounter_games(competition, 1, game.match)
        assert replay.stage == "rapid"
        assert (replay.white_id, replay.black_id) == (ordinary.black_id, ordinary.white_id)  # colours reversed
    enter_pending(client, competition, 1, htmx=True)  # 4 wins the replay against 1; 2-3 drawn again
    page = client.get(url("manage_round", competition, 1))
    statuses = {e.match: e for e in page.context["encounters"]}
    board_14 = next(g.match for g in first if 1 in {g.white.start_number, g.black.start_number})
    board_23 = next(g.match for g in first if g.match != board_14)
    assert statuses[board_14].decided and not statuses[board_14].action
    assert statuses[board_23].action == "add the next blitz game"

    # Still undecided: pairing round 2 and closing round 1 are refused.
    client.post(url("pair", competition))
    assert not Round.objects.filter(competition=competition, number=2, paired_at__isnull=False).exists()
    response = client.post(url("finish_round", competition, 1))
    assert Round.objects.get(competition=competition, number=1).status == Round.Status.PUBLISHED

    # Blitz until someone wins: a draw, then 2 wins; each blitz game reverses the colours again.
    add_next_games(client, competition, 1)
    enter_pending(client, competition, 1)
    assert add_next_games(client, competition, 1) == 1
    enter_pending(client, competition, 1)
    assert add_next_games(client, competition, 1) == 0
    games = encounter_games(competition, 1, board_23)
    assert [g.stage for g in games] == ["classical", "rapid", "blitz", "blitz"]
    assert [g.result for g in games] == ["½-½", "½-½", "½-½", "1-0" if games[3].white.start_number == 2 else "0-1"]
    for before, after in zip(games, games[1:], strict=False):
        assert (after.white_id, after.black_id) == (before.black_id, before.white_id)

    # A result after the decisive game is refused, and the encounter stays as it was.
    last = games[-1]
    client.post(url("gladiator_next_game", competition, 1, board_23))
    assert len(encounter_games(competition, 1, board_23)) == 4
    response = client.post(url("enter_result", competition, 1, games[1].board), {f"result-{games[1].board}": "1"})
    errors = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("superfluous" in m for m in errors), errors
    assert Game.objects.get(pk=games[1].pk).result == "½-½" and Game.objects.get(pk=last.pk).result == last.result

    # Round 1 as the engines see it: one record per player, the winner 1, the loser 0, first game's colours.
    state = CompetitionData.load(competition).state()
    scores = {p.id: p.history[0].score for p in state.players}
    assert scores == {1: 0.0, 2: 1.0, 3: 0.0, 4: 1.0}
    assert {p.id: p.history[0].opponent for p in state.players} == {1: 4, 4: 1, 2: 3, 3: 2}

    play_round(client, competition, 2)
    play_round(client, competition, 3)
    client.post(url("finish_round", competition, 3))
    assert Round.objects.get(competition=competition, number=3).status == Round.Status.FINISHED

    page = client.get(url("standings", competition))
    assert page.status_code == 200
    assert "Round robin, Gladiator model" in page.content.decode()
    assert page.context["tiebreak_names"] == ["ordinary wins", "wins at reduced time", "direct encounter"]
    table = [(row.rank, row.participant.start_number, row.points, row.tiebreaks) for row in page.context["rows"]]
    assert table == [
        ("1", 1, 2.0, [1.0, 1.0, 0.0]),
        ("2", 4, 2.0, [0.0, 1.0, 0.0]),
        ("3", 2, 1.0, [0.0, 0.0, 1.0]),  # level with 3 on everything but their encounter, which 2 won
        ("4", 3, 1.0, [0.0, 0.0, 0.0]),
    ]
    for name, args in [("crosstable", []), ("player", [2]), ("export_trf", []), ("rating_report", []),
                       ("tiebreak_settings", [])]:  # fmt: skip
        assert client.get(url(name, competition, *args)).status_code == 200, name
    trf = client.get(url("export_trf", competition)).content.decode()
    assert "212 PTS," in trf  # the TRF export ranks by the catalogue codes
    # The public round shows the replay and blitz games under their board numbers.
    boards = client.get(url("pairings", competition, 1)).content.decode()
    assert boards.count(">blitz</small>") == 2 and boards.count(">rapid</small>") == 2
    # The crosstable gives the Gladiator points, one per encounter, against the opponents' places (start
    # numbers 1, 4, 2, 3 are places 1 to 4); the colour letter left out.
    cross = {
        row.participant.start_number: [c.text.replace("w", "").replace("b", "") for c in cells]
        for _place, row, cells in standings.crosstable(CompetitionData.load(competition, public=True))
    }
    assert sorted(cross[2]) == ["10", "20", "41"]  # lost to 1, lost to 4 (in blitz), beat 3 (in blitz)
    assert sorted(cross[1]) == ["20", "31", "41"]


@pytest.mark.rule("004 4.9.8")
@pytest.mark.rule("004 4.5.3")
def test_rating_report_rates_the_ordinary_games_by_their_own_result(td_client, td, club):
    from pairing import services as adapter
    from pairing.services import gladiator as gladiator_writes
    from pairing.services import records as services
    from ratings.models import RatingSystem
    from ratings.reports import build_report
    from tournaments.models import Competition

    members = make_members(club, 2)
    competition = Competition.objects.create(club=club, name="Duel", slug="duel", system="roundrobin", gladiator=True)
    services.add_participants(competition, members, td)
    rnd = adapter.pair_next_round(competition, td)
    services.publish(rnd, td)
    ordinary = rnd.games.get()
    gladiator_writes.set_game_result(ordinary, "½-½", td)
    replay = gladiator_writes.add_next_game(rnd, ordinary.match, td)
    gladiator_writes.set_game_result(replay, "1-0", td)
    data = CompetitionData.load(competition)
    state = data.state()
    assert sorted(p.history[0].score for p in state.players) == [0.0, 1.0]
    report = build_report(data, system=RatingSystem.KNSB)  # national ratings 2090 and 2080
    assert [(row.games, row.score) for row in report.rows] == [(1, 0.5), (1, 0.5)]  # the draw, not the point


@pytest.mark.rule("004 4.9.8")
def test_gladiator_is_refused_for_a_knockout(club):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        Competition.objects.create(club=club, name="Cup", slug="cup", system="knockout", gladiator=True)


@pytest.mark.rule("004 4.9.8")
def test_an_encounter_refuses_results_it_cannot_take(td, club):
    from django.core.exceptions import ValidationError

    from pairing import services as adapter
    from pairing.services import gladiator as gladiator_writes
    from pairing.services import records as services

    competition = Competition.objects.create(club=club, name="Duel", slug="duel", system="roundrobin", gladiator=True)
    services.add_participants(competition, make_members(club, 2), td)
    rnd = adapter.pair_next_round(competition, td)
    services.publish(rnd, td)
    ordinary = rnd.games.get()

    # A correction that decides the encounter removes the replay still to play.
    gladiator_writes.set_game_result(ordinary, "½-½", td)
    replay = gladiator_writes.add_next_game(rnd, ordinary.match, td)
    gladiator_writes.set_game_result(ordinary, "1-0", td)
    assert list(rnd.games.values_list("pk", flat=True)) == [ordinary.pk]
    with pytest.raises(ValidationError):
        gladiator_writes.add_next_game(rnd, ordinary.match, td)  # decided: nothing to add

    gladiator_writes.set_game_result(ordinary, "½-½", td)
    replay = gladiator_writes.add_next_game(rnd, ordinary.match, td)
    with pytest.raises(ValidationError):
        gladiator_writes.set_game_result(replay, "0-0R", td)  # a replay needs a winner or a draw
    gladiator_writes.set_game_result(replay, "½-½", td)
    with pytest.raises(ValidationError):
        gladiator_writes.set_game_result(ordinary, "", td)  # cleared while a later game has a result
    with pytest.raises(ValidationError):
        gladiator_writes.set_game_result(ordinary, "1-0R", td)  # a forfeit first game leaves no room for the replay
    assert Game.objects.get(pk=ordinary.pk).result == "½-½"
    with pytest.raises(ValidationError):
        services.finish(rnd, td)  # level after the replay: a blitz game is needed first
    blitz = gladiator_writes.add_next_game(rnd, ordinary.match, td)
    assert (blitz.stage, blitz.white_id) == ("blitz", ordinary.white_id)  # reversed twice
    gladiator_writes.set_game_result(blitz, "0-1", td)
    services.finish(rnd, td)
    state = CompetitionData.load(competition).state()
    black = ordinary.black.start_number
    assert {p.id: p.history[0].score for p in state.players} == {black: 1.0, 3 - black: 0.0}


@pytest.mark.rule("004 4.9.8")
def test_a_swiss_round_is_paired_on_the_gladiator_points(td, club):
    from pairing import services as adapter
    from pairing.services import gladiator as gladiator_writes
    from pairing.services import records as services

    competition = Competition.objects.create(
        club=club, name="Swiss", slug="swiss", system="dutch", rounds=3, gladiator=True
    )
    services.add_participants(competition, make_members(club, 4), td)
    rnd = adapter.pair_next_round(competition, td)
    services.publish(rnd, td)
    games = {frozenset({g.white.start_number, g.black.start_number}): g for g in rnd.games.all()}
    assert set(games) == {frozenset({1, 3}), frozenset({2, 4})}
    gladiator_writes.set_game_result(
        games[frozenset({2, 4})], "1-0" if games[frozenset({2, 4})].white.start_number == 2 else "0-1", td
    )
    first = games[frozenset({1, 3})]
    gladiator_writes.set_game_result(first, "½-½", td)
    replay = gladiator_writes.add_next_game(rnd, first.match, td)
    gladiator_writes.set_game_result(replay, "1-0" if replay.white.start_number == 3 else "0-1", td)
    # 2 and 3 won their encounters (1 point each), 1 and 4 lost theirs: the winners meet.
    second = adapter.pair_next_round(competition, td)
    pairs = {frozenset({g.white.start_number, g.black.start_number}) for g in second.games.all()}
    assert pairs == {frozenset({2, 3}), frozenset({1, 4})}
    assert all(g.match == g.board for g in second.games.all())
