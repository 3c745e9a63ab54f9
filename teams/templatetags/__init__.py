"""The team leagues' template tags, for pages of lower apps (the club page)."""
