"""A knockout cup in the web app (seed 004 §4.9.7): the TD's cup page, the public bracket and its PDF."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from pairing.services import cups
from tests.conftest import make_competition, make_members
from tournaments import knockout
from tournaments.models import Bye, Competition, Game, Round

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def url(name, competition, *args):
    return reverse(name, args=[competition.club.slug, competition.slug, *args])


def stronger_wins(game: Game, stage_index: int) -> str:
    """The lower start number (the higher rating) wins."""
    return "1" if game.white.start_number < game.black.start_number else "0"


def play_out(client, competition, number, policy, htmx=False) -> list[str]:
    """Enter results for every game still to play and add the next games until each match is decided.

    `policy(game, index)` gives the key typed for a game, `index` being its place in its match.
    Returns the messages of the cup page as the TD saw them.
    """
    rnd = Round.objects.get(competition=competition, number=number)
    for _pass in range(20):
        pending = list(rnd.games.filter(result="").select_related("white", "black").order_by("board"))
        if not pending:
            response = client.post(url("cup_next_games", competition, number))
            assert response.status_code == 302
            if not rnd.games.filter(result="").exists():
                return
            continue
        for game in pending:
            index = rnd.games.filter(match=game.match, board__lt=game.board).count()
            key = policy(game, index)
            headers = {"HX-Request": "true"} if htmx else {}
            response = client.post(
                url("cup_result", competition, number, game.board), {f"result-{game.board}": key}, headers=headers
            )
            assert response.status_code == (200 if htmx else 302)
    raise AssertionError("the round never finished")


def match_games(competition, number, match):
    return list(
        Game.objects.filter(round__competition=competition, round__number=number, match=match)
        .select_related("white__member", "black__member")
        .order_by("board")
    )


@pytest.mark.rule("004 4.9.7")
def test_td_runs_a_twelve_player_cup_end_to_end(client, td, club):
    members = make_members(club, 12)  # national ratings 2090, 2080, ...: members[0] is seed 1
    assert client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"}).status_code == 302
    response = client.post(
        reverse("new_competition", args=[club.slug]),
        {"name": "Club cup", "slug": "cup", "system": "knockout", "rounds": "4", "players": [m.id for m in members]},
    )
    assert response.status_code == 302, response.content
    competition = Competition.objects.get(slug="cup")
    manage = client.get(url("manage", competition)).content.decode()
    assert url("cup", competition) in manage
    assert client.post(url("cup_format", competition), {"games": 2, "rapid_games": 2, "blitz_games": 2}).status_code
    competition.refresh_from_db()
    assert competition.settings == {"games": 2, "rapid_games": 2, "blitz_games": 2}

    # Round 1 (round of 16): 12 players in a bracket of 16, so seeds 1-4 have byes and 8 players meet.
    client.post(url("cup_pair", competition))
    rnd1 = Round.objects.get(competition=competition, number=1)
    assert rnd1.status == Round.Status.DRAFT
    byes = set(Bye.objects.filter(round=rnd1).values_list("participant__member__last_name", flat=True))
    assert byes == {f"Surname{i:03d}" for i in range(1, 5)}
    games = list(rnd1.games.select_related("white", "black"))
    assert len(games) == 4 and all(g.stage == "classical" for g in games)
    assert {g.match for g in games} | {1, 2, 3, 4, 5, 6, 7, 8} == set(range(1, 9))
    playing = {p for g in games for p in (g.white.start_number, g.black.start_number)}
    assert playing == set(range(5, 13))
    # A draft round is the TD's alone.
    client.logout()
    assert "Surname005" not in client.get(url("cup", competition)).content.decode()
    client.force_login(td)
    page = client.get(url("cup", competition)).content.decode()
    assert 'id="publish-button"' in page and "Seed 1: Player001 Surname001" in page
    client.post(url("cup_publish", competition, 1))
    assert 'id="pair-button"' not in client.get(url("cup", competition)).content.decode()  # round 1 is in play

    # Match of the first board: level after the normal and rapid games, won in the blitz games.
    tie_match = games[0].match
    blitz_winner = min(games[0].white.start_number, games[0].black.start_number)

    def round1(game, index):
        if game.match != tie_match:
            return stronger_wins(game, index)
        if game.stage in ("classical", "rapid"):
            return "="
        if index == 4:  # blitz game 1: the stronger player wins it, blitz game 2 is drawn
            return stronger_wins(game, index)
        return "="

    play_out(client, competition, 1, round1, htmx=True)
    assert "Pair round 2 (Quarter-final)" in client.get(url("cup", competition)).content.decode()
    tie_games = match_games(competition, 1, tie_match)
    assert [g.stage for g in tie_games] == ["classical", "classical", "rapid", "rapid", "blitz", "blitz"]
    assert [g.result for g in tie_games] == ["½-½", "½-½", "½-½", "½-½", *[g.result for g in tie_games[4:]]]
    # Within a stage the players alternate colours (§4.9.7: colours by lot before each stage).
    for first, second in zip(tie_games[::2], tie_games[1::2], strict=True):
        assert (first.white_id, first.black_id) == (second.black_id, second.white_id)
    cup = knockout.Cup.load(competition)
    assert cup.problems == []
    statuses = {m.number: m.status.text() for m in cup.matches(1)}
    assert statuses[tie_match].endswith("won the blitz tie-break 1½-½")
    assert cup.by_start[blitz_winner].name in statuses[tie_match]
    others = [m for m in cup.matches(1) if not m.match.is_bye and m.number != tie_match]
    assert all(m.status.text().endswith("won the match 2-0") for m in others)
    assert all(len(m.games) == 2 for m in others)
    winners_1 = {m.match.winner for m in cup.matches(1)}
    assert winners_1 == {1, 2, 3, 4, 5, 6, 7, 8}

    # Round 2, the quarter-finals: the top four seeds meet the winners of round 1.
    client.post(url("cup_pair", competition))
    client.post(url("cup_publish", competition, 2))
    cup = knockout.Cup.load(competition)
    quarter = cup.matches(2)
    first_round = cup.matches(1)
    for m in quarter:  # the winners of matches 2i-1 and 2i of round 1 meet in match i
        i = m.number
        assert m.match.players == (first_round[2 * i - 2].match.winner, first_round[2 * i - 1].match.winner)
        assert sorted(p > 4 for p in m.match.players) == [False, True]
    armageddon_match = next(m.number for m in quarter if 1 not in m.match.players)

    def round2(game, index):
        return "=" if game.match == armageddon_match else stronger_wins(game, index)

    play_out(client, competition, 2, round2)
    games = match_games(competition, 2, armageddon_match)
    assert [g.stage for g in games] == ["classical"] * 2 + ["rapid"] * 2 + ["blitz"] * 2 + ["armageddon"]
    final_game = games[-1]
    cup = knockout.Cup.load(competition)
    view = next(m for m in cup.matches(2) if m.number == armageddon_match)
    # A draw in the final game wins the match for black.
    assert view.match.winner == final_game.black.start_number
    assert view.status.text() == f"{final_game.black.name} advances: drew the final game with black"

    # Semi-finals and final: the stronger player wins 2-0; seed 1 wins the cup.
    for number in (3, 4):
        client.post(url("cup_pair", competition))
        client.post(url("cup_publish", competition, number))
        play_out(client, competition, number, stronger_wins)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert list(competition.round_set.values_list("status", flat=True)) == ["finished"] * 4
    assert knockout.Cup.load(competition).champion().member == members[0]
    assert competition.rounds == 4

    # The public bracket, under the standings and the pairings addresses, and its PDF.
    client.logout()
    for name in ("standings", "pairings_latest", "bracket"):
        page = client.get(url(name, competition)).content.decode()
        assert "Winner: Player001 Surname001" in page
        for round_title in ("Round of 16", "Quarter-final", "Semi-final", "Final"):
            assert round_title in page
        assert "won the blitz tie-break 1½-½" in page and "drew the final game with black" in page
    text = pdf_text(client.get(url("bracket", competition) + "?format=pdf"))
    for member in members:
        assert member.full_name in text
    assert "Final" in text and "Winner: Player001 Surname001" in text


@pytest.fixture
def cup(club, td):
    competition = make_competition(club, td, make_members(club, 12), system="knockout", rounds=4, slug="cup")
    return competition


@pytest.mark.rule("004 4.9.7")
def test_only_the_td_runs_the_cup(client, club, td, viewer, cup):
    actions = [
        url("cup_pair", cup),
        url("cup_format", cup),
        url("cup_publish", cup, 1),
        url("cup_next_games", cup, 1),
        url("cup_result", cup, 1, 1),
    ]
    for response in [client.get(url("cup", cup))] + [client.post(address) for address in actions]:
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(viewer)
    assert client.get(url("cup", cup)).status_code == 403
    for address in actions:
        assert client.post(address).status_code == 403
    assert not cup.round_set.exists()
    assert client.get(url("bracket", cup)).status_code == 200


@pytest.mark.rule("004 4.9.7")
def test_a_level_match_blocks_the_next_round_until_its_tie_break_is_played(td_client, td, cup):
    from pairing.services import records as services

    cups.pair_round(cup, td)
    services.publish(cup.round_set.get(number=1), td)
    rnd = cup.round_set.get(number=1)
    for game in rnd.games.all():
        cups.set_game_result(game, "1-0", td)
    cups.add_next_games(rnd, td)
    for game in rnd.games.filter(result=""):
        cups.set_game_result(game, "1-0", td)  # 1-1 after two games: every match is level
    response = td_client.post(url("cup_pair", cup), follow=True)
    assert "is not decided yet: add its next game" in response.content.decode()
    assert not cup.round_set.filter(number=2).exists()
    added = cups.add_next_games(rnd, td)
    assert len(added) == 4 and {g.stage for g in added} == {"rapid"}
    # A double forfeit decides nothing: refused.
    response = td_client.post(url("cup_result", cup, 1, added[0].board), {f"result-{added[0].board}": "--"})
    assert Game.objects.get(pk=added[0].pk).result == ""


@pytest.mark.rule("004 4.9.7")
def test_a_correction_that_would_strand_later_games_is_refused(td_client, td, cup):
    from pairing.services import records as services

    cups.pair_round(cup, td)
    rnd = cup.round_set.get(number=1)
    services.publish(rnd, td)
    first = rnd.games.get(match=rnd.games.order_by("board").first().match)
    cups.set_game_result(first, "½-½", td)
    (second,) = cups.add_next_games(rnd, td, first.match)
    cups.set_game_result(second, "½-½", td)
    (rapid,) = cups.add_next_games(rnd, td, first.match)
    cups.set_game_result(rapid, "1-0", td)
    # Making the normal games 1½-½ would decide the match before the rapid game that has a result.
    response = td_client.post(url("cup_result", cup, 1, second.board), {f"result-{second.board}": "1"}, follow=True)
    assert "superfluous" in response.content.decode()
    assert Game.objects.get(pk=second.pk).result == "½-½"
    # With the rapid game's result cleared, the same correction decides the match and removes that game.
    cups.set_game_result(rapid, "", td)
    cups.set_game_result(second, "1-0", td)
    assert not Game.objects.filter(pk=rapid.pk).exists()
    view = next(m for m in knockout.Cup.load(cup).matches(1) if m.number == first.match)
    assert view.decided and view.status.text().endswith("won the match 1½-½")


@pytest.mark.rule("004 4.9.7")
def test_no_late_entries_and_the_format_is_fixed_once_paired(td_client, td, club, cup):
    from django.core.exceptions import ValidationError

    from clubs.models import Member
    from pairing.services import records as services

    cups.pair_round(cup, td)
    late = Member.objects.create(club=club, first_name="Late", last_name="Comer", national_rating=2500)
    with pytest.raises(ValidationError, match="draw of the cup is made"):
        services.add_participant(cup, late, td)
    assert len(knockout.Cup.load(cup).bracket.seeds) == 12
    td_client.post(url("cup_format", cup), {"games": 4, "rapid_games": 2, "blitz_games": 2})
    cup.refresh_from_db()
    assert cup.settings["games"] == 2


@pytest.mark.rule("004 4.9.7")
def test_pair_from_the_manage_page_uses_the_bracket(td_client, td, cup):
    """The general "pair" button pairs a knockout round by its bracket as well."""
    response = td_client.post(reverse("pair", args=[cup.club.slug, cup.slug]))
    assert response.status_code == 302
    rnd = cup.round_set.get(number=1)
    assert rnd.games.count() == 4 and not rnd.games.filter(match__isnull=True).exists()
    assert td_client.get(url("manage_round", cup, 1))["Location"] == url("cup", cup)


@pytest.mark.rule("004 4.9.7")
def test_a_player_who_withdraws_mid_match_loses_it_by_walkover(td_client, td, cup):
    from pairing.services import records as services

    rnd = cups.pair_round(cup, td)
    services.publish(rnd, td)
    first = rnd.games.select_related("white", "black").order_by("board").first()
    cups.set_game_result(first, "1-0", td)
    (second,) = cups.add_next_games(rnd, td, first.match)
    services.withdraw(first.white, td)  # leads 1-0, then leaves before the second game
    for _game_number in (1, 2):  # the other matches: the stronger player wins 2-0
        for game in rnd.games.filter(result="").exclude(pk=second.pk).select_related("white", "black"):
            cups.set_game_result(game, "1-0" if game.white.start_number < game.black.start_number else "0-1", td)
        cups.add_next_games(rnd, td)
    view = next(m for m in knockout.Cup.load(cup).matches(1) if m.number == first.match)
    assert view.match.winner == first.black.start_number
    assert view.status.text() == f"{first.black.name} advances: {first.white.name} withdrew (walkover)"
    td_client.post(url("cup_pair", cup))
    assert cup.round_set.filter(number=2, paired_at__isnull=False).exists()
    assert not Game.objects.filter(pk=second.pk).exists()
    quarter = knockout.Cup.load(cup).matches(2)
    assert any(first.black.start_number in m.match.players for m in quarter)
    assert all(first.white.start_number not in m.match.players for m in quarter)


@pytest.mark.rule("004 4.9.7")
def test_the_demo_club_has_a_cup_in_progress(client):
    from django.core.management import call_command

    call_command("demo", stdout=io.StringIO())
    cup = Competition.objects.get(club__slug="de-pion", slug="beker")
    loaded = knockout.Cup.load(cup)
    assert len(loaded.entrants()) == 12 and loaded.problems == []
    first = loaded.matches(1)
    assert all(m.decided for m in first) and sum(m.match.is_bye for m in first) == 4
    assert any(m.match.decided_in is not None and m.match.decided_in.value != "classical" for m in first)
    quarter = loaded.matches(2)
    assert len(quarter) == 4 and not any(m.decided for m in quarter) and any(m.games for m in quarter)
    page = client.get(reverse("standings", args=["de-pion", "beker"])).content.decode()
    assert "Quarter-final" in page and "tie-break" in page


@pytest.mark.rule("004 4.9.7")
def test_a_player_who_withdraws_before_the_draw_is_not_in_it(td, cup):
    from pairing.services import records as services

    services.withdraw(cup.participants.get(start_number=12), td)
    rnd = cups.pair_round(cup, td)
    loaded = knockout.Cup.load(cup)
    assert len(loaded.bracket.seeds) == 11 and 12 not in loaded.bracket.seeds
    assert rnd.byes.count() == 5 and rnd.games.count() == 3  # 11 players in 16 places: seeds 1-5 have byes
