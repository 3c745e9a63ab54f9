"""The pure core: pairing systems, tie-breaks, prizes and file formats over plain data, no Django and
no I/O (the engine contract: a `state.TournamentState` in, a `state.Pairing` with its notes out).
"""
