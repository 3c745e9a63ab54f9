"""Events that are not Swiss: round robin, knockout, Gladiator, olympiad teams, rating groups, prizes, withdrawal."""
