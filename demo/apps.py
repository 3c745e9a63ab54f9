"""The demo club's app: the highest layer, it fills every other app with example data."""

from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "demo"
