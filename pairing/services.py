"""The pairing actions under their former address: they live in the one adapter, `tournaments.adapter`."""

from tournaments.adapter import (  # noqa: F401
    PlannedRound,
    check_board,
    next_round_number,
    pair_next_round,
    plan_next_round,
    save_pairing,
    save_planned_round,
)
