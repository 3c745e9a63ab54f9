"""The ratings app's management commands (`import_rating_list`)."""
