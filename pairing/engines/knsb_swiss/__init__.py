"""The score-group procedure of the KNSB Swiss systems (seed 000 C1-C15, seed 002 C1-C14, seed 001's
waiting room), shared by `dutch1998`, `knsb_rating` and `knsb_wp`.

Both texts pair score groups from the top. In each group they try candidates in a fixed order
(D2 exchanges, then D1 transpositions of S2; in a heterogeneous group D3 floater subsets) and take
the first one meeting the criteria in force; when none does, a criterion is relaxed (the "levels":
seed 000 C9-C12, seed 002 C10) and the same order is walked again; after that the number of pairs
is lowered (seed 000 C15, seed 002 C14).

The package walks those orders exactly but never blindly:
- a transposition is built position by position (its lexicographic order) and a prefix is cut as
  soon as the rest of the group can no longer be completed: an exact bipartite matching test
  (`transpositions.Completion`), so the first acceptable transposition is never skipped;
- a level is skipped at once when no pairing of the group at all meets it (a maximum matching of
  the whole group, `pairable.level_possible`), which is exact for the absolute criteria and a
  necessary condition for the colour count x;
- going back (seed 000 C13/C14, seed 002 C12/C13, seed 001 C2/C9) follows the texts: each group's
  procedure yields its candidates in order (`Bracket`), so the group above can be paired again
  from the start or go on where it was (`rounds`); a group going on takes only candidates after
  which all players below can be paired under B1/B2 (`pairable.Lookahead`; the lowest group is
  tried with each, and the test only skips candidates with which it must fail), and whole levels
  are skipped when no candidate at all can pass (`groups`).

The modules follow the texts' articles:
- `players`: A, the players, their order, colour preferences and counts; `Rules`, what differs
  between seed 000 and seed 002 (cited where used);
- `criteria`: B, the criteria, and `Level`, the criteria in force;
- `pairable`: whether players can be paired at all under them (exact matchings);
- `context`: what one group's procedure knows of the round (C1, going back);
- `transpositions`: D1 and D2;
- `groups`: C4-C8 for homogeneous and heterogeneous groups;
- `rounds`: the score groups of a round from the top, going back (C12-C14);
- `finish`: E colours, F order of publication, the bye.
- `absence`: F8 (001: F10), a player absent without notice is deemed to have withdrawn;
- `system`: one round of a text, from the state to the pairing.
"""

from .context import Candidate, Context, Mode, next_group_can_pair, pair_ok, sizes_possible
from .criteria import Level, absolute_ok, conflict, level_signature, strong_conflict
from .finish import check_state, colour_article, finish
from .groups import heterogeneous, homogeneous
from .pairable import Lookahead
from .players import MILD, RULES_000, RULES_002, Entrant, Rules, count_x, count_x1_z1, entrants, record_points
from .rounds import Bracket, Outcome, pair_round
from .system import pair_text

__all__ = [
    "MILD",
    "RULES_000",
    "RULES_002",
    "Bracket",
    "Candidate",
    "Context",
    "Entrant",
    "Level",
    "Lookahead",
    "Mode",
    "Outcome",
    "Rules",
    "absolute_ok",
    "check_state",
    "colour_article",
    "conflict",
    "count_x",
    "count_x1_z1",
    "entrants",
    "finish",
    "heterogeneous",
    "homogeneous",
    "level_signature",
    "next_group_can_pair",
    "pair_ok",
    "pair_round",
    "pair_text",
    "record_points",
    "sizes_possible",
    "strong_conflict",
]
