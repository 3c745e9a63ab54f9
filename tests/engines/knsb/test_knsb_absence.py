"""Absent without notice in the KNSB Swiss systems: deemed to have withdrawn (seed 000 F8, 001 F10,
002 F8), against absent with notice, which F5 answers with a "reglementaire 0" and no more."""

from __future__ import annotations

import pytest

from pairing.engines import registry
from pairing.engines.knsb_swiss.absence import SETTING, absent_without_notice
from pairing.engines.notes import english
from pairing.engines.state import Colour, InvalidInput, Kind, RoundRecord, TournamentState

from .knsb_helpers import tournament

# The article of each system's text, and the system.
ARTICLES = [
    pytest.param("dutch-1998", "000 F8", marks=pytest.mark.rule("000 F8")),
    pytest.param("knsb-wp", "001 F10", marks=pytest.mark.rule("001 F10")),
    pytest.param("knsb-rating", "002 F8", marks=pytest.mark.rule("002 F8")),
]


def eight_players(seven: Kind, eight: Kind, **kwargs) -> TournamentState:
    """Round 1: 1-5 1-0, 6-2 ½, 3-7 1-0, 8-4 0-1. Round 2: 4-1 ½, 2-3 1-0, 5-6 0-1; player 7 and
    player 8 are not paired, with the kinds given. Round 3 of 5 is to be paired."""
    rounds = [
        [(1, 5, 1.0), (6, 2, 0.5), (3, 7, 1.0), (8, 4, 0.0)],
        [(4, 1, 0.5), (2, 3, 1.0), (5, 6, 0.0)],
    ]
    state = tournament(8, rounds, 5, **kwargs)
    state.player(7).history.append(RoundRecord(seven, None, None, 0.0))
    state.player(8).history.append(RoundRecord(eight, None, None, 0.0))
    return state


def paired(pairing) -> set[int]:
    return {pid for board in pairing.boards for pid in (board.white, board.black)} | {
        bye.player for bye in pairing.byes if bye.kind is Kind.PAIRING_BYE
    }


@pytest.mark.parametrize(("system", "article"), ARTICLES)
def test_absent_without_notice_is_no_longer_paired_with_notice_is(system: str, article: str) -> None:
    """ "Spelers die zonder de wedstrijdleider te informeren een ronde afwezig zijn, worden geacht zich
    teruggetrokken te hebben" (F8; 001: F10), and withdrawn players "worden niet meer ingedeeld" (F5).
    Player 7 sent notice for round 2 (F5: a reglementaire 0) and is paired in round 3; player 8 did
    not and is not: seven players, so six play and one has the bye."""
    pairing = registry.pair(eight_players(Kind.ABSENT_NOTICE, Kind.ABSENT), system)
    assert paired(pairing) == {1, 2, 3, 4, 5, 6, 7}
    assert len(pairing.boards) == 3 and [b.kind for b in pairing.byes] == [Kind.PAIRING_BYE]
    first = english(pairing.explanation)[0]
    assert first == (
        f"8 was absent in round 2 without informing the arbiter and is deemed to have withdrawn ({article}): "
        "no longer paired."
    )


def play(state: TournamentState, pairing) -> None:
    """Record `pairing` as the next round: every game drawn, the bye a point, the rest not paired."""
    records = {}
    for board in pairing.boards:
        records[board.white] = RoundRecord(Kind.GAME, board.black, Colour.WHITE, 0.5)
        records[board.black] = RoundRecord(Kind.GAME, board.white, Colour.BLACK, 0.5)
    for bye in pairing.byes:
        records[bye.player] = RoundRecord(bye.kind, None, None, 1.0 if bye.kind is Kind.PAIRING_BYE else 0.0)
    for player in state.players:
        player.history.append(records.get(player.id, RoundRecord(Kind.ABSENT, None, None, 0.0)))
    state.round_to_pair += 1


@pytest.mark.parametrize(("system", "article"), ARTICLES)
def test_the_withdrawal_lasts_for_every_later_round(system: str, article: str) -> None:
    """Deemed withdrawn is withdrawn (F5: "worden niet meer ingedeeld"): in round 4 player 8 is still
    left out, and the note names the round he first missed without notice (round 2)."""
    state = eight_players(Kind.ABSENT_NOTICE, Kind.ABSENT)
    play(state, registry.pair(state, system))
    assert state.player(8).history[2].kind is Kind.ABSENT
    fourth = registry.pair(state, system)
    assert paired(fourth) == {1, 2, 3, 4, 5, 6, 7}
    assert english(fourth.explanation)[0].startswith(
        f"8 was absent in round 2 without informing the arbiter and is deemed to have withdrawn ({article})"
    )


@pytest.mark.parametrize(("system", "article"), ARTICLES)
def test_a_club_may_keep_absentees_in_the_pairing(system: str, article: str) -> None:
    """The setting `absent_without_notice_withdraws` off (a club's own regulations): player 8 is
    paired again after his absence without notice, and no note says otherwise."""
    state = eight_players(Kind.ABSENT_NOTICE, Kind.ABSENT, settings={SETTING: False})
    pairing = registry.pair(state, system)
    assert paired(pairing) == set(range(1, 9)) and not pairing.byes
    assert not any("deemed to have withdrawn" in line for line in english(pairing.explanation))


@pytest.mark.parametrize(("system", "article"), ARTICLES)
def test_the_setting_is_checked(system: str, article: str) -> None:
    state = eight_players(Kind.ABSENT_NOTICE, Kind.ABSENT, settings={SETTING: "no"})
    with pytest.raises(InvalidInput, match=SETTING):
        registry.pair(state, system)


def test_who_is_deemed_withdrawn() -> None:
    """Only a round of the history counts (the round being paired is not one yet), only an absence
    without notice, and a player withdrawn already is not withdrawn twice."""
    state = eight_players(Kind.ABSENT_NOTICE, Kind.ABSENT)
    assert absent_without_notice(state) == {8: 2}
    state.player(8).withdrawn = True
    assert absent_without_notice(state) == {}
    state = eight_players(Kind.HALF_BYE, Kind.ABSENT_NOTICE, requested_byes={6: Kind.ABSENT})
    assert absent_without_notice(state) == {}
