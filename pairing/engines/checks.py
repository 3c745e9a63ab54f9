"""The absolute rules a round's pairing must respect in a Swiss system.

FIDE C.04.1 (basic rules for every Swiss system) and, for the FIDE Dutch system, its absolute criteria
C1-C3 (C.04.3 2017 / 2026, shared reference dutch2017.md §5 and §9):

- completeness: nobody paired twice, no absentee or withdrawn player paired, at most one
  pairing-allocated bye, every player to pair has a board or a bye (C.04.1.c);
- C1 rematch: two players do not meet twice over the board; a forfeited game is no meeting (C.04.1.b,
  C.04.2); a pair the TD forbids for the round (`TournamentState.forbidden`, TRF 260/XXP) counts as met;
- C2 bye: no pairing-allocated bye for a player who already had one or (2017) won by forfeit, or
  (2026, C.04.1 art. 4) already scored a win's points in one round without playing (full-point bye);
- C3 colour (Dutch): nobody's colour difference beyond +/-2 and nobody the same colour three games
  in a row (C.04.1.f/g), except in the last round when a topscorer (A.7) is on the board.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .notes import Note, note_text, render
from .state import Board, Bye, Colour, Kind, Pairing, Player, TournamentState

EDITIONS = ("2017", "2026")

# The rules (criteria) and what broke them.
_UNKNOWN = note_text("checks.unknown", "unknown player")
_NOT_IN = note_text("checks.not_in", "%(player)s is not in the tournament")
_TWICE = note_text("checks.twice", "paired twice")
_APPEARS = note_text("checks.appears", "%(player)s appears %(count)s times")
_ABSENT = note_text("checks.absent", "absent paired")
_ABSENT_OR_WITHDRAWN = note_text("checks.absent_or_withdrawn", "%(player)s is absent or withdrawn")
_UNPAIRED = note_text("checks.unpaired", "unpaired")
_NO_BOARD = note_text("checks.no_board", "%(player)s has neither a board nor a bye")
_C2 = note_text("checks.c2", "C2 bye")
_MORE_BYES = note_text("checks.more_byes", "more than one pairing-allocated bye (%(players)s)")
_C1 = note_text("checks.c1", "C1 rematch")
_MET = note_text("checks.met", "%(white)s and %(black)s met in round %(round)s")
_FORBIDDEN = note_text("checks.forbidden", "%(white)s and %(black)s are a forbidden pair in this round")
_C3 = note_text("checks.c3", "C3 colour")
_GETS = note_text("checks.gets", "%(player)s gets %(breach)s")
_WHITE_THRICE = note_text("checks.white_thrice", "white three times in a row")
_BLACK_THRICE = note_text("checks.black_thrice", "black three times in a row")
_DIFFERENCE = note_text("checks.difference", "colour difference %(difference)s")
_HAD_BYE = note_text("checks.had_bye", "%(player)s had the pairing-allocated bye in round %(round)s")
_FORFEIT_WIN = note_text("checks.forfeit_win", "%(player)s won by forfeit in round %(round)s")
_FULL_BYE = note_text("checks.full_bye", "%(player)s had a full-point bye in round %(round)s")
_ON_BOARD = note_text("checks.on_board", "board %(white)s-%(black)s: %(criterion)s %(explanation)s")
_VIOLATION = note_text("checks.violation", "%(criterion)s %(explanation)s")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: the criterion ("C1 rematch"), the board (white, black; black 0 for a bye)."""

    criterion: Note
    explanation: Note
    board: tuple[int, int] | None = None

    def note(self) -> Note:
        if self.board:
            white, black = self.board
            return _ON_BOARD(white=white, black=black, criterion=self.criterion, explanation=self.explanation)
        return _VIOLATION(criterion=self.criterion, explanation=self.explanation)

    def __str__(self) -> str:
        return render(self.note())


def is_topscorer(state: TournamentState, player: Player) -> bool:
    """Dutch A.7: more than 50 % of the maximum score, when pairing the final round only."""
    if state.round_to_pair != state.total_rounds:
        return False
    return player.score(state.rounds_played) > state.rounds_played * 1.0 / 2


def _had_win_without_playing(player: Player, edition: str, unplayed_wins: bool = True) -> Note | None:
    """The round (1-based) that makes `player` ineligible for the pairing-allocated bye, as a note.

    `unplayed_wins` False: only a previous pairing-allocated bye counts (Monrad, seeds README item 13;
    Dansk Schweizer §4.9.3 rule 2.1, nobody meets X twice).
    """
    for rnd, record in enumerate(player.history, 1):
        if record.kind is Kind.PAIRING_BYE:
            return _HAD_BYE(player=player.id, round=rnd)
        if not unplayed_wins:
            continue
        if record.kind is Kind.FORFEIT and (record.score or 0.0) > 0:
            return _FORFEIT_WIN(player=player.id, round=rnd)
        if edition == "2026" and record.kind is Kind.FULL_BYE:
            return _FULL_BYE(player=player.id, round=rnd)
    return None


def _colour_breach(colours: list[Colour]) -> list[Note]:
    """C.04.1.f/g on the played colours after this round: why they break the rule (none: empty)."""
    found = []
    if len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3]:
        found.append(_WHITE_THRICE() if colours[-1] is Colour.WHITE else _BLACK_THRICE())
    difference = colours.count(Colour.WHITE) - colours.count(Colour.BLACK)
    if abs(difference) > 2:
        found.append(_DIFFERENCE(difference=f"{difference:+d}"))
    return found


def check_round(
    state: TournamentState,
    pairing: Pairing,
    edition: str = "2026",
    colours: bool = True,
    unplayed_wins: bool = True,
) -> list[Violation]:
    """The violations of the absolute rules by `pairing` for `state.round_to_pair`.

    `edition` ("2017" or "2026") selects the C2 wording; `colours` adds the Dutch colour
    criteria (C3 with C.04.1.f/g); `unplayed_wins` False limits C2 to "no second pairing-allocated
    bye" (the Danish Monrad and Dansk Schweizer systems).
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; one of {', '.join(EDITIONS)}")
    found: list[Violation] = []
    known = {p.id for p in state.players}
    absent = {p.id for p in state.players if p.withdrawn} | set(state.requested_byes)
    appearances = Counter([b.white for b in pairing.boards] + [b.black for b in pairing.boards])
    pabs = [bye for bye in pairing.byes if bye.kind is Kind.PAIRING_BYE]
    appearances.update(bye.player for bye in pabs)

    def where(pid: int) -> tuple[int, int] | None:
        for board in pairing.boards:
            if pid in (board.white, board.black):
                return (board.white, board.black)
        return (pid, 0)

    for pid, count in sorted(appearances.items()):
        if pid not in known:
            found.append(Violation(_UNKNOWN(), _NOT_IN(player=pid), where(pid)))
        elif count > 1:
            found.append(Violation(_TWICE(), _APPEARS(player=pid, count=count), where(pid)))
        elif pid in absent:
            found.append(Violation(_ABSENT(), _ABSENT_OR_WITHDRAWN(player=pid), where(pid)))
    for pid in sorted(known - absent - set(appearances)):
        found.append(Violation(_UNPAIRED(), _NO_BOARD(player=pid)))
    if len(pabs) > 1:
        found.append(Violation(_C2(), _MORE_BYES(players=[b.player for b in pabs])))

    for board in pairing.boards:
        if board.white not in known or board.black not in known or board.white == board.black:
            continue
        white, black = state.player(board.white), state.player(board.black)
        met = [r for r, rec in enumerate(white.history, 1) if rec.played and rec.opponent == black.id]
        if met:
            found.append(Violation(_C1(), _MET(white=white.id, black=black.id, round=met[0]), (white.id, black.id)))
        elif black.id in state.barred(white.id):
            found.append(Violation(_C1(), _FORBIDDEN(white=white.id, black=black.id), (white.id, black.id)))
        if colours and not (is_topscorer(state, white) or is_topscorer(state, black)):
            for player, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
                breach = _colour_breach([*player.colours(), colour])
                if breach:
                    found.append(Violation(_C3(), _GETS(player=player.id, breach=breach), (white.id, black.id)))
    for bye in pabs:
        if bye.player not in known:
            continue
        reason = _had_win_without_playing(state.player(bye.player), edition, unplayed_wins)
        if reason:
            found.append(Violation(_C2(), reason, (bye.player, 0)))
    return found


def boards_of(pairing: Pairing) -> list[Board]:
    """The boards, and each pairing-allocated bye as a board against 0 (the -p output order)."""
    return pairing.boards + [Board(b.player, 0) for b in pairing.byes if b.kind is Kind.PAIRING_BYE]


def rules_for(system_id: str, scheduled: bool = False) -> dict[str, object] | None:
    """The `check_round` options for a system; None where the Swiss basic rules do not apply.

    Scheduled systems (round robins), knock-out and Keizer pair by their own rules; the FIDE Dutch
    system (`dutch`, current edition) adds the colour criteria and the 2026 C2; other Swiss systems
    are checked against C1 and the 2017 wording of C2.
    """
    if scheduled or system_id in ("knockout", "keizer"):
        return None
    if system_id == "dutch":
        return {"edition": "2026", "colours": True}
    if system_id.startswith("dutch"):
        return {"edition": "2017", "colours": True}
    return {"edition": "2017", "colours": False}


def recorded_pairing(state: TournamentState, rnd: int) -> Pairing:
    """Round `rnd` as the players' histories record it: games and forfeits as boards, the
    pairing-allocated byes as byes (requested byes and absences are no part of a pairing)."""
    boards: list[Board] = []
    byes: list[Bye] = []
    for p in state.players:
        if len(p.history) < rnd:
            continue
        record = p.history[rnd - 1]
        if record.paired and record.opponent:
            if record.colour is Colour.WHITE or (record.colour is None and p.id < record.opponent):
                boards.append(Board(p.id, record.opponent))
        elif record.kind is Kind.PAIRING_BYE:
            byes.append(Bye(p.id, Kind.PAIRING_BYE, record.score))
    return Pairing(boards=boards, byes=byes)


def state_before(state: TournamentState, rnd: int) -> TournamentState:
    """The state to pair round `rnd` of a tournament whose history goes further.

    Rounds 1..rnd-1 are history; round `rnd`'s records that are no pairing become requested byes;
    a withdrawn player is withdrawn only from his last pairing on.
    """
    if rnd == state.round_to_pair:
        return state
    players = []
    requested: dict[int, Kind] = {}
    for p in state.players:
        later = p.history[rnd - 1 :]
        if later and not later[0].paired and later[0].kind is not Kind.PAIRING_BYE:
            requested[p.id] = later[0].kind
        active_later = any(r.paired or r.kind is Kind.PAIRING_BYE for r in later)
        players.append(replace(p, history=p.history[: rnd - 1], withdrawn=p.withdrawn and not active_later))
    return replace(state, players=players, round_to_pair=rnd, requested_byes=requested)
