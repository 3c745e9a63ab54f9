"""Template tags of the season: which of a competition's links a member may follow."""
