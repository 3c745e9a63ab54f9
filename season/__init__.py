"""The club's season: club nights, rounds planned on them, calendar feeds, members signing off."""
