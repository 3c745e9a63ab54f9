"""Colour preferences, colour allocation, floats and bye eligibility of the FIDE Swiss systems.

Shared by the Swiss systems (FIDE Dutch 2017 and 2026, KNSB, Dubov). Everything that changed between
rule editions takes an `Edition` so that one system can ask for the 2017 reading and another for the
2026 one. Article numbers: C.04.1 (basic rules), C.04.2 (general handling rules), C.04.3 (Dutch)
section A (definitions) and E / 5.2 (colour allocation) of the 2017 / 2026 texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .state import Colour, Kind, Player, RoundRecord


class Edition(StrEnum):
    """Rule edition of the FIDE Swiss rules."""

    FIDE_2017 = "2017"  # C.04.1-C.04.3 applied from 1 July 2017
    FIDE_2026 = "2026"  # C.04.1-C.04.3 in force since 1 February 2026


class Float(StrEnum):
    DOWN = "down"
    UP = "up"


@dataclass(frozen=True, slots=True)
class ColourState:
    """A player's colour position from played games only (C.04.2 2017 / 2026 art. 3.4).

    `difference` is whites minus blacks (C.04.3 A.6, CD). `repeated` is the colour of the two
    latest played games when they are equal, else None. `preference` is the colour the player
    wants (None: no game played yet). `absolute`: |CD| > 1 or two equal colours in a row;
    `strong`: |CD| = 1 and not absolute; otherwise the preference is mild (CD = 0, alternate).
    """

    colours: tuple[Colour, ...]
    difference: int
    repeated: Colour | None
    preference: Colour | None

    @property
    def imbalance(self) -> int:
        return abs(self.difference)

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated is not None

    @property
    def strong(self) -> bool:
        return not self.absolute and self.imbalance == 1

    @property
    def mild(self) -> bool:
        return self.preference is not None and not self.absolute and not self.strong


def colour_state(player: Player) -> ColourState:
    """C.04.3 A.6 (2017) / 1.7 (2026): the colour preference of `player` from its played games.

    Priority when several signs point different ways: |CD| > 1 decides, then two equal colours in a
    row (absolute), then CD = +-1 (strong), then alternation from the last game (mild).
    """
    colours = tuple(player.colours())
    whites = sum(1 for c in colours if c is Colour.WHITE)
    difference = whites - (len(colours) - whites)
    repeated = colours[-1] if len(colours) >= 2 and colours[-1] is colours[-2] else None
    lower = Colour.BLACK if difference > 0 else Colour.WHITE
    if abs(difference) > 1:
        preference: Colour | None = lower
    elif repeated is not None:
        preference = repeated.opposite
    elif difference:
        preference = lower
    elif colours:
        preference = colours[-1].opposite
    else:
        preference = None
    return ColourState(colours, difference, repeated, preference)


def preferences_compatible(a: Colour | None, b: Colour | None) -> bool:
    """Both preferences can be granted together (C.04.3 E.1 / 5.2.1)."""
    return a is None or b is None or a is not b


def _first_difference(a: ColourState, b: ColourState) -> tuple[Colour | None, Colour | None]:
    """The colours of the two players in the latest round (counted back over each one's played
    games, unplayed rounds moved to the front: C.04.2 2017 / 2026 art. 3.4) where they differed."""
    i, j = len(a.colours) - 1, len(b.colours) - 1
    while i >= 0 and j >= 0 and a.colours[i] is b.colours[j]:
        i -= 1
        j -= 1
    return (a.colours[i] if i >= 0 else None, b.colours[j] if j >= 0 else None)


def neutral_colour(a: ColourState, b: ColourState) -> Colour | None:
    """The colour for the player with state `a` against `b` by C.04.3 E.1-E.3 (2026 5.2.1-5.2.3),
    or None when those articles do not decide (E.4/E.5 then rank the players)."""
    if preferences_compatible(a.preference, b.preference):
        if a.preference is not None:
            return a.preference
        return b.preference.opposite if b.preference is not None else None
    # E.2: the stronger preference; both absolute: the wider colour difference.
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return a.preference
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        assert b.preference is not None
        return b.preference.opposite
    if a.strong and not b.strong:
        return a.preference
    if b.strong and not a.strong:
        assert b.preference is not None
        return b.preference.opposite
    # E.3: alternate from the latest round in which they had different colours.
    mine, theirs = _first_difference(a, b)
    if mine is not None and theirs is not None:
        return theirs
    return None


def allocate(higher: ColourState, lower: ColourState, higher_number: int, initial: Colour) -> Colour:
    """The colour of the higher-ranked player of a pair (C.04.3 E.1-E.5 / 2026 5.2.1-5.2.5).

    `higher_number` is the higher player's pairing number: with no preference to grant (E.5) an odd
    number receives the initial colour drawn for round 1, an even number the other one.
    """
    colour = neutral_colour(higher, lower)
    if colour is not None:
        return colour
    if higher.preference is not None:  # E.4: the higher-ranked player's preference
        return higher.preference
    return initial if higher_number % 2 == 1 else initial.opposite


def unplayed_points_win(record: RoundRecord, win: float = 1.0) -> bool:
    """A round scored as a win without playing: pairing bye, full-point bye or forfeit win."""
    return not record.played and (record.score or 0.0) >= win


def bye_eligible(player: Player, edition: Edition, win: float = 1.0) -> bool:
    """C2 (C.04.1 d / 2026 art. 4): may `player` receive the pairing-allocated bye?

    2017: not after a pairing-allocated bye or a forfeit win. 2026: not after any round in which
    the player scored a win's points without playing (this adds requested full-point byes).
    """
    for record in player.history:
        if record.kind is Kind.PAIRING_BYE:
            return False
        if record.kind is Kind.FORFEIT and (record.score or 0.0) >= win:
            return False
        if edition is Edition.FIDE_2026 and unplayed_points_win(record, win):
            return False
    return True


def float_in_round(player: Player, index: int, score_of: dict[int, list[float]], edition: Edition) -> Float | None:
    """The float `player` received in round `index` (0-based), C.04.3 A.4 / 2026 1.4.

    `score_of[id][k]` is a player's score after k rounds. A game between different scores gives the
    higher player a downfloat and the lower an upfloat. A round without a game: 2017 always a
    downfloat; 2026 a downfloat only when it scored more than a loss (pairing bye, half- or
    full-point bye, forfeit win), never an upfloat.
    """
    record = player.history[index]
    if not record.played:
        if edition is Edition.FIDE_2017 or (record.score or 0.0) > 0.0:
            return Float.DOWN
        return None
    if record.opponent is None or record.opponent not in score_of:
        return None
    mine = score_of[player.id][index]
    theirs = score_of[record.opponent][index]
    if mine > theirs:
        return Float.DOWN
    if mine < theirs:
        return Float.UP
    return None
