"""What every engine shares: state, TRF, JSON state, notes, the matcher, the command line and forbidden pairs."""
