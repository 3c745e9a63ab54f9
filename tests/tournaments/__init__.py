"""The tournaments app: its pages, services, adapter to the engines, exports and translations."""
