"""The pairing app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    name = "pairing"
    verbose_name = _("Pairing")

    def ready(self) -> None:
        from audit.history import describe_codes

        from .services.rounds import RULE_NAMES

        # The rules a hand-made board may break, as the audit log names an override of them.
        describe_codes("override", RULE_NAMES.items())
