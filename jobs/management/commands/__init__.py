"""The job worker's management command (`manage.py worker`)."""
