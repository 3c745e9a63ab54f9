"""The competitions app's configuration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from audit.history import describe_codes

        from . import signals  # noqa: F401 (the receivers that raise a competition's version)
        from .models import SYSTEM_NAMES, Bye, Competition, PrizeTable, Round, Stage

        # The codes the audit log stores, named in the reader's language when it is read.
        describe_codes("status", Round.Status.choices)
        describe_codes("kind", Bye.Kind.choices)
        describe_codes("stage", Stage.choices)
        describe_codes("sharing", [choice for choice in PrizeTable.Sharing.choices if choice[0]])
        describe_codes("unrated_opponents", Competition.UnratedOpponents.choices)
        describe_codes("system", SYSTEM_NAMES.items())
