"""Clubs, their members and seasons, and who may direct them: the lowest app, below jobs and competitions."""
