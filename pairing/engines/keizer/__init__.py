"""The Keizer competition as the club of seed 003 plays it (system id `keizer`).

- `scoring`: values, Keizer points, Systeem Aalsmeer, re-valuation, standings
  (seed 003 §1.2-§1.6).
- `pair`: the pairing, colours and the reserve (§1.7-§1.9 as seeds README
  item 4 fills them).
- `start`: the start ranking and strength groups (§1.10), and the TPR.
- `settings`: every setting, its default and its article; the named presets
  (`PRESETS`, `apply_preset`) (docs/keizer.md).
- `standings_text(state)`: the standings as plain text, for the command line.

Input convention:
- Start numbers (`Player.id`) follow the start ranking: number 1 is first
  on it (build it with `start.start_ranking`).
- Each player's history holds one `RoundRecord` per round played: a game
  (`Kind.GAME`, score 1/0.5/0), a forfeit (`Kind.FORFEIT`: the no-show of
  §3.5 with score 0, his opponent with score 1), the reserve
  (`Kind.PAIRING_BYE`), absence with notice (`Kind.ABSENT_NOTICE`: notice
  recorded before the round was paired), absence without notice
  (`Kind.ABSENT`), a club-match game on club night (`Kind.CLUB_MATCH`,
  score = its result). A missing record counts as absence without notice.
- For the round to pair, every player who is not withdrawn and not named in
  `state.requested_byes` is present (§3.5: those there and those who said
  they come later). An absent player is named there with `Kind.ABSENT_NOTICE`,
  `Kind.ABSENT` or `Kind.CLUB_MATCH`; he comes back among the pairing's byes
  with that kind and 0 game points (his Keizer points follow from the kind
  once the round is recorded). The reserve comes back as a `Kind.PAIRING_BYE`
  bye with 0 game points; its Keizer points are the bye fraction.
"""

from __future__ import annotations

from ..registry import PairingSystem
from ..state import Kind
from .pair import pair_round
from .scoring import StandingRow, Standings, ranking_after, standings, standings_text
from .settings import CHOICES, DEFAULTS, PRESET_LABELS, PRESETS, SYSTEM_ID, KeizerSettings, apply_preset, validate
from .start import StartEntry, keizer_tpr, start_ranking, strength_groups

SYSTEM = PairingSystem(
    id=SYSTEM_ID,
    name="Keizer",
    pair=pair_round,
    forbidden_pairs=True,
    defaults=DEFAULTS,
    validate=validate,
    choices=CHOICES,
    own_standings=True,
    season_start=True,
    gladiator=False,
    absences=(Kind.ABSENT_NOTICE, Kind.ABSENT, Kind.CLUB_MATCH),
    presets=PRESET_LABELS,
    apply_preset=apply_preset,
)

__all__ = [
    "DEFAULTS",
    "PRESETS",
    "PRESET_LABELS",
    "SYSTEM",
    "KeizerSettings",
    "StandingRow",
    "Standings",
    "StartEntry",
    "keizer_tpr",
    "apply_preset",
    "pair_round",
    "ranking_after",
    "standings",
    "standings_text",
    "start_ranking",
    "strength_groups",
]
