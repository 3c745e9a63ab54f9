"""The Keizer system (seed 003): points, pairing, start ranking, presets and whole seasons."""
