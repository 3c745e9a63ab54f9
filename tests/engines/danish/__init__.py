"""The Danish Chess Union systems (seed 004 §4.9.1-4.9.6): Monrad, Dansk Schweizer and Dubov (1997)."""
