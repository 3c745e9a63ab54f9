"""The ratings app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from . import signals  # noqa: F401 (the receiver that renews the player pages' rating charts)
