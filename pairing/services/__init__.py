"""The one writer of a competition's (and a team league's) rows: every change to its rounds, games, byes,
results, players, absences, forbidden pairs, settings and state is an action here, called by the pages (and
the demo, the workers, the tests' fixtures) and by nothing else (tests/architecture/test_one_writer.py).

Every action runs in `tournaments.versioning.one_action` (one transaction, one version bump), passes the
guard first (`guard.changed`: the competition's row lock, what the TD's page was based on) and leaves its
entry in the audit log (`audit.log.record`). By family: `rounds` (pair, exchange, colours, results, further
games, publish, finish, undo), `players` (entries, withdrawals, absences, forbidden pairs), `settings`
(system settings, time control, formats, tie-breaks, prizes, rating groups), `trf` (TRF import), `leagues`
(a team league's rows: teams, rosters, schedule, line-ups, board results, captains' confirmations), `clubs`
(a club removed with its competitions and leagues), and below
them `cups` and `gladiator` (a match's and an encounter's games) and `records` (the single writes).
"""

from .guard import (
    ENTRY_ACTIONS,
    FORBIDDEN_ACTIONS,
    GROUP_ACTIONS,
    PRIZE_ACTIONS,
    SETTINGS_ACTIONS,
    TIEBREAK_ACTIONS,
    TIME_CONTROL_ACTIONS,
    StaleAction,
    boards_seen,
    check_basis,
    latest_id,
    next_round_number,
    seen,
    state_changed,
)
from .players import add_guest, add_participants, allow_pair, create_competition, forbid_pair, set_absence, withdraw
from .records import ResultConflict, parse_result
from .rounds import (
    RULE_NAMES,
    PlannedRound,
    RuleBreak,
    add_next_games,
    check_board,
    exchange_players,
    finish,
    pair_next_round,
    plan_next_round,
    publish,
    save_pairing,
    save_planned_round,
    set_club_match_result,
    set_result,
    swap_colours,
    undo_last_round,
)
from .settings import save_format, save_prize_table, save_settings, set_tiebreaks, set_time_control, split_into_groups
from .trf import import_trf

__all__ = [
    "ENTRY_ACTIONS", "FORBIDDEN_ACTIONS", "GROUP_ACTIONS", "PRIZE_ACTIONS", "PlannedRound", "RULE_NAMES",
    "ResultConflict", "RuleBreak", "SETTINGS_ACTIONS", "StaleAction", "TIEBREAK_ACTIONS", "TIME_CONTROL_ACTIONS",
    "add_guest", "add_next_games", "add_participants", "allow_pair", "boards_seen", "check_basis", "check_board",
    "create_competition", "exchange_players", "finish", "forbid_pair", "import_trf", "latest_id",
    "next_round_number", "pair_next_round", "parse_result", "plan_next_round", "publish", "save_format",
    "save_pairing", "save_planned_round", "save_prize_table", "save_settings", "seen", "set_absence",
    "set_club_match_result", "set_result", "set_tiebreaks", "set_time_control", "split_into_groups",
    "state_changed", "swap_colours", "undo_last_round", "withdraw",
]  # fmt: skip
