"""Team leagues: clubs' teams meeting in a round robin of matches (models, writes, the league table)."""
