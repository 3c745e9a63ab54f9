"""The job worker's management command."""
