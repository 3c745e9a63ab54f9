"""Online entries for a club's open: players who are not members enter themselves, the TD decides."""
