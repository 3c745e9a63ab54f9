"""A competition's public data kept between versions (`tournaments.live`): after every result entered through
the one writer, the kept data with the new results put in equals the data read afresh (games, whole state,
the rounds' fingerprints), read with one query, whether a page made the state before (the standings) or
not (the pairings); anything but a result reads it afresh. And the large tables
written row by row from what each row shows (`tables._Written`) give the text written afresh."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.ratings.test_player_row import random_trf

pytestmark = pytest.mark.django_db

RESULTS = ["1-0", "0-1", "½-½", "1-0R", "0-1R", "0-0R", ""]


def _fresh(competition):
    from tournaments.models import Competition
    from tournaments.state import CompetitionData

    competition = Competition.objects.select_related("club").get(pk=competition.pk)
    return competition, CompetitionData.load(competition, public=True)


def _same(kept, fresh) -> None:
    from tournaments import standings

    assert [(g.pk, g.result) for g in kept.games] == [(g.pk, g.result) for g in fresh.games]
    assert kept.state() == fresh.state()
    last = max(r.number for r in fresh.rounds)
    mine, theirs = standings.round_fingerprints(kept, kept.state()), standings.round_fingerprints(fresh, fresh.state())
    assert [mine(n) for n in range(1, last)] == [theirs(n) for n in range(1, last)]


@pytest.mark.parametrize("seed", range(5))
def test_the_kept_data_with_each_result_put_in_equals_the_data_read_afresh(club, td, seed):
    from pairing.services.records import set_result
    from pairing.services.trf import import_trf
    from tournaments import live
    from tournaments.models import Game

    competition = import_trf(club, random_trf(seed), name=f"Kept {seed}", slug=f"kept-{seed}", system="dutch")
    rng = random.Random(seed)
    first = live.public_data(_fresh(competition)[0])
    games = list(Game.objects.filter(round__competition=competition).select_related("round"))
    for step in range(8):
        changed = rng.sample(games, rng.choice([1, 1, 2, 3]))  # one result, or several between two readings
        for game in changed:
            game.refresh_from_db(fields=["result"])
            set_result(game, rng.choice([r for r in RESULTS if r != game.result]), td, override=True)
        competition, fresh = _fresh(competition)
        with CaptureQueriesContext(connection) as queries:
            kept = live.public_data(competition)
        assert len(queries) == 1, (step, [q["sql"] for q in queries])  # the games marked since
        assert kept is not first and kept.competition is competition
        _same(kept, fresh)
        first = kept
        assert live.public_data(competition) is kept  # the same version: the same data


def test_anything_but_a_result_reads_the_competition_afresh(club, td):
    from pairing.services import records as services
    from pairing.services.trf import import_trf
    from tournaments import live

    competition = import_trf(club, random_trf(3), name="Kept", slug="kept", system="dutch")
    live.public_data(_fresh(competition)[0])
    services.withdraw(competition.participants.get(start_number=2), td)
    competition, fresh = _fresh(competition)
    with CaptureQueriesContext(connection) as queries:
        kept = live.public_data(competition)
    assert len(queries) > 1  # read afresh: rounds, participants, games, byes
    _same(kept, fresh)


def test_a_record_that_is_not_the_games_reads_the_competition_afresh(club, td):
    """A bye recorded beside a game of the same round wins in the state (`CompetitionData.state`): the kept
    record is not the game's, so the result is not put in by hand."""
    from pairing.services.records import set_result
    from pairing.services.trf import import_trf
    from tournaments import live
    from tournaments.models import Bye, Game

    competition = import_trf(club, random_trf(4), name="Kept", slug="kept", system="dutch")
    game = Game.objects.filter(round__competition=competition).select_related("round").first()
    Bye.objects.create(round=game.round, participant=game.white, kind=Bye.Kind.HALF_BYE)
    live.public_data(_fresh(competition)[0]).state()  # the standings page makes the state
    set_result(game, "0-1" if game.result == "1-0" else "1-0", td, override=True)
    competition, fresh = _fresh(competition)
    with CaptureQueriesContext(connection) as queries:
        kept = live.public_data(competition)
    assert len(queries) > 1
    _same(kept, fresh)


def test_the_tables_written_row_by_row_equal_the_tables_written_afresh(club, td, rf):
    """The standings and a round's boards after a few results: the rows met again are taken as written, and
    the tables equal the ones a process that kept nothing writes, in each language."""
    from django.utils import translation

    from pairing.services.records import set_result
    from pairing.services.trf import import_trf
    from tournaments import live, standings
    from tournaments.models import Game
    from tournaments.templatetags import tables
    from tournaments.views.common import _round_context

    competition = import_trf(club, random_trf(5), name="Kept", slug="kept", system="dutch")
    rng = random.Random(5)
    games = list(Game.objects.filter(round__competition=competition).select_related("round"))

    def written(data):
        _names, rows = standings.standings(data, whole=data.state(), explain=False)
        rnd = data.rounds[-1]
        boards = _round_context(data, rnd)["games"]
        return (
            tables.standings_rows({}, rows, "/c/", {1}, "explain"),
            tables.standings_rows({"pdf": True}, rows, "/c/", set(), "explain"),
            tables.board_rows({}, boards, "/c/"),
        )

    for step in range(6):
        game = rng.choice(games)
        game.refresh_from_db(fields=["result"])
        set_result(game, rng.choice([r for r in RESULTS if r != game.result]), td, override=True)
        for language in ("nl", "da", "en"):
            with translation.override(language):
                data = live.public_data(_fresh(competition)[0])
                kept = written(data)
                tables._written = tables._Written()  # a process that kept nothing
                assert kept == written(data), (step, language)
                # The kept games, which other requests read, are left as they were: the page has its copies.
                assert not any(hasattr(game, "white_score") for game in data.games)
