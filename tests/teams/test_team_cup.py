"""A team cup through its writes (`pairing.services.team_cups`, the matches by `pairing.services.leagues`)
and its pages: five teams of two boards seeded by rating, the byes, a match decided by the board count, one
by the TD's lot, the bracket round by round to the final; each action one audit entry."""

from __future__ import annotations

import subprocess

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import Club
from pairing.services import leagues as ls
from pairing.services import team_cups as cups
from teams.models import League, Match
from teams.table import cup_decision, read_cup
from tests.conftest import make_members

pytestmark = pytest.mark.django_db

CUP = {"boards": 2, "format": "cup", "cup_tie": "boards", "cup_decider": "lot"}


@pytest.fixture
def cup(club, td):
    """A cup of five teams of two boards, A strongest to E weakest by rating (each of its own club)."""
    league = ls.create_league(club, td, name="Beker 2026", slug="beker", settings=CUP)
    players = {}
    for i, name in enumerate("ABCDE"):
        other = club if name == "A" else Club.objects.create(name=f"Club {name}", slug=f"club-{name.lower()}")
        team = ls.add_team(league, td, club=other, name=f"Team {name}")
        members = make_members(other, 2, base=2300 - 100 * i) if name != "A" else make_members(club, 2, base=2300)
        ls.set_roster(team, td, members)
        players[team.pk] = members
    return League.objects.get(pk=league.pk), players


def _play(match: Match, td, players, results: tuple[str, str]) -> None:
    """Both line-ups, then the boards' results as White-Black (the home team has White on board 1)."""
    ls.set_lineup(match, match.home, td, players[match.home_id])
    ls.set_lineup(match, match.away, td, players[match.away_id])
    ls.set_board_results(match, td, {1: results[0], 2: results[1]})


def _names(league, rnd):
    return sorted((m.home.name, m.away.name) for m in league.matches.filter(round=rnd))


def test_a_cup_is_drawn_round_by_round_to_its_final(cup, td):
    league, players = cup
    with pytest.raises(ValidationError, match="is a cup"):
        ls.make_schedule(league, td)
    assert read_cup(league) is None
    assert cups.draw_round(league, td, method="rating", seed="s1") == 1
    entry = AuditEntry.objects.get(action="league-cup-draw")
    assert entry.params["method"] == "rating" and entry.params["seed"] == "s1" and entry.params["round"] == 1
    assert list(entry.params["ratings"]) == ["Team A", "Team B", "Team C", "Team D", "Team E"]
    # five teams, bracket of eight: seeds A, B, C have byes; D meets E
    first = league.matches.get()
    assert {first.home.name, first.away.name} == {"Team D", "Team E"}
    state = read_cup(league)
    assert sorted(t.winner.name for t in state.rounds[0].ties if t.tie.bye) == ["Team A", "Team B", "Team C"]
    assert state.next_round is None and state.pending == [first]
    with pytest.raises(ValidationError, match="no winner yet"):
        cups.draw_round(league, td)
    # 1-1: home won board 1 (White), away won board 2 (White): the board count strikes board 2, home goes on
    _play(first, td, players, ("1-0", "1-0"))
    decision = cup_decision(Match.objects.get(pk=first.pk))
    assert (decision.winner, decision.how, decision.struck) == ("home", "boards", 1)
    with pytest.raises(ValidationError, match="needs no decider"):
        cups.set_decider(first, td, "away")
    assert cups.draw_round(league, td) == 2
    with pytest.raises(ValidationError, match="result of .* is fixed"):
        ls.set_board_results(first, td, {1: "0-1"})
    # round 2: the semi-finals; the seeds 1 and 2 are in different halves
    semis = list(league.matches.filter(round=2))
    assert {first.home.name} <= {t.name for m in semis for t in (m.home, m.away)}
    assert not any({m.home.name, m.away.name} == {"Team A", "Team B"} for m in semis)
    level, clear = semis
    _play(level, td, players, ("½-½", "½-½"))
    assert cup_decision(Match.objects.get(pk=level.pk)).needs_decider
    _play(clear, td, players, ("1-0", "0-1"))  # home wins both boards
    with pytest.raises(ValidationError, match="no winner yet"):
        cups.draw_round(league, td)
    cups.set_decider(level, td, "away")
    decider = AuditEntry.objects.get(action="league-cup-decider")
    assert decider.params["team"] == level.away.name and decider.params["decider"] == "lot"
    assert cups.draw_round(league, td) == 1
    final = league.matches.get(round=3)
    assert {final.home.name, final.away.name} == {level.away.name, clear.home.name}
    _play(final, td, players, ("0-1", "1-0"))  # away wins both boards
    state = read_cup(League.objects.get(pk=league.pk))
    assert state.champion == final.away and state.next_round is None
    with pytest.raises(ValidationError, match="Every round"):
        cups.draw_round(league, td)
    assert AuditEntry.objects.filter(action="league-cup-draw").count() == 3


def test_one_draw_one_bump_and_the_guard(cup, td):
    league, _ = cup
    version = League.objects.get(pk=league.pk).version
    seen = ls.league_seen(league)
    cups.draw_round(league, td, method="lot", based_on=seen)
    assert League.objects.get(pk=league.pk).version == version + 1
    assert sorted(League.objects.get(pk=league.pk).teams.values_list("number", flat=True))[-1] <= 8
    with pytest.raises(ValidationError):
        cups.draw_round(league, td, based_on=seen)  # the page showed the league before the draw


def test_a_round_robin_has_no_draw_and_no_decider(club, td):
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    with pytest.raises(ValidationError, match="round robin"):
        cups.draw_round(league, td)


# ---------------------------------------------------------------- pages

NEW = {
    "name": "Beker", "slug": "beker", "format": "cup", "cup_tie": "boards", "cup_decider": "blitz", "boards": "2",
    "cycles": "1", "match_win": "2", "match_draw": "1", "match_loss": "0", "primary": "MP", "home_white": "odd",
    "play_up": "1", "max_reserves": "0", "tiebreaks": "EDE",
}  # fmt: skip


def test_td_creates_a_cup_draws_it_and_enters_a_blitz_decider(td_client, club, td, client):
    assert td_client.post(reverse("league_new", args=[club.slug]), NEW).status_code == 302
    league = League.objects.get(slug="beker")
    assert league.rules.cup and league.rules.cup_decider == "blitz"
    players = {}
    for name in ("A", "B", "C"):
        other = Club.objects.create(name=f"Club {name}", slug=f"club-{name.lower()}")
        team = ls.add_team(league, td, club=other, name=f"Team {name}")
        players[team.pk] = make_members(other, 2)
        ls.set_roster(team, td, players[team.pk])
    manage = td_client.get(reverse("league_manage", args=[club.slug, "beker"]))
    assert b'id="cup-draw"' in manage.content and b"Draw round 1" in manage.content
    seen = ls.league_seen(league)
    draw = reverse("league_cup_draw", args=[club.slug, "beker"])
    response = td_client.post(draw, {"method": "order", "date": "2026-10-03", "based_on": seen})
    assert response.status_code == 302 and response["Location"] == reverse("league", args=[club.slug, "beker"])
    assert [str(m) for m in get_messages(response.wsgi_request)][-1] == "Round drawn."
    match = league.matches.get()
    assert str(match.date) == "2026-10-03"
    # three teams: seed 1 (Team A, the first added) has the bye
    assert "Team A" not in (match.home.name, match.away.name)
    response = td_client.post(draw, {"based_on": ls.league_seen(league)})
    assert response.status_code == 400 and "no winner yet" in response.content.decode()
    _play(match, td, players, ("½-½", "½-½"))
    card = reverse("league_match", args=[club.slug, "beker", match.pk])
    page = td_client.get(card).content.decode()
    assert 'id="decider"' in page and "a blitz decider is played" in page
    response = td_client.post(card, {"action": "decider", "decider-side": "home",
                                     "decider-based_on": ls.match_seen(match)})  # fmt: skip
    assert response.status_code == 302
    page = td_client.get(card).content.decode()
    assert f"{match.home.name} goes through by winning the blitz decider" in page
    public = client.get(reverse("league", args=[club.slug, "beker"])).content.decode()
    assert 'id="cup-bracket"' in public and 'id="league-table"' not in public
    assert "Team A has a bye." in public and "<h3>Semi-finals</h3>" in public and "<h3>Final</h3>" in public
    assert f"<strong>{match.home.name}</strong>" in public
    # on a phone every column shows (a public pairing table hides its third) and the score opens the match
    bracket = public[public.index('id="cup-bracket"') : public.index("</table>", public.index('id="cup-bracket"'))]
    assert 'class="boards public"' not in bracket
    assert reverse("league_match_page", args=[club.slug, "beker", match.pk]) in bracket
    # the cup's printed table is its bracket: rounds, the bye, the winner and how he went through
    printed = client.get(reverse("league_table_pdf", args=[club.slug, "beker"]), HTTP_ACCEPT_LANGUAGE="nl")
    assert printed["Content-Type"] == "application/pdf"
    read = subprocess.run(["pdftotext", "-layout", "-", "-"], input=printed.content, capture_output=True)
    text = read.stdout.decode()
    assert "Halve finales" in text and "Finale" in text and "Team A is vrijgeloot." in text
    assert match.home.name in text and match.away.name in text and "snelschaak" in text.lower()
    response = td_client.post(draw, {"based_on": ls.league_seen(league)})
    assert response.status_code == 302
    final = league.matches.get(round=2)
    assert {final.home.name, final.away.name} == {"Team A", match.home.name}


def test_the_public_bracket_before_the_draw_and_not_for_a_captain(client, club, td):
    ls.create_league(club, td, name="Beker", slug="beker", settings=CUP)
    page = client.get(reverse("league", args=[club.slug, "beker"])).content.decode()
    assert "The first round is not drawn yet." in page
    assert client.post(reverse("league_cup_draw", args=[club.slug, "beker"]), {}).status_code == 302  # to log in
    assert not Match.objects.exists()


def test_a_cup_travels_as_its_trf_file(td_client, club, cup, td):
    """The TRF file carries a cup's settings (`format=cup`), its teams' lot numbers (`XCL`), its matches and
    the deciders (`XCD`); read back, the copy has the same bracket and the same next round to draw."""
    league, players = cup
    cups.draw_round(league, td, method="rating", seed="s1")
    _play(league.matches.get(), td, players, ("½-½", "½-½"))
    cups.set_decider(league.matches.get(), td, "away")
    text = td_client.get(reverse("league_trf", args=[club.slug, "beker"])).content
    assert b"format=cup" in text and b"XCL" in text and b"away" in text
    page = reverse("league_import", args=[club.slug])
    upload = {"file": SimpleUploadedFile("beker.trf", text), "name": "Beker (kopie)", "slug": "kopie"}
    assert td_client.post(page, upload).status_code == 302
    copy = League.objects.get(slug="kopie")

    def bracket(lg):
        state = read_cup(lg)
        ties = [[(t.upper and t.upper.name, t.lower and t.lower.name, t.winner and t.winner.name) for t in r.ties]
                for r in state.rounds]  # fmt: skip
        return ties, state.next_round

    assert bracket(copy) == bracket(league) and bracket(copy)[1] == 2
    assert bracket(copy)[0][1] != bracket(copy)[0][0]
    # a file whose match is no tie of the bracket is refused
    lines = text.decode().splitlines()
    bad = "\n".join(line for line in lines if not line.startswith("XCL")) + "\n"
    upload = {"file": SimpleUploadedFile("bad.trf", bad.encode()), "name": "Kapot", "slug": "kapot"}
    assert "no lot number" in td_client.post(page, upload).content.decode()
    assert not League.objects.filter(slug="kapot").exists()
