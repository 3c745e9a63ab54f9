"""`competition_kinds`: the kinds of competition a club can start (`pairing.engines.kinds`), each linked to
the page that creates one, for the "new competition" pages of every kind."""

from __future__ import annotations

from django import template
from django.urls import reverse

from pairing.engines import kinds

from ..models import KIND_NAMES

register = template.Library()


@register.inclusion_tag("tournaments/_kinds.html")
def competition_kinds(club, current: str) -> dict:
    """The kinds in the registry's order: name, the address of the page creating one for `club`, and
    whether it is the page shown (`current`, a kind's id)."""
    return {
        "kinds": [
            {"id": kind.id, "name": KIND_NAMES.get(kind.id, kind.name), "url": reverse(kind.page, args=[club.slug]),
             "current": kind.id == current}
            for kind in kinds.kinds()
        ]
    }  # fmt: skip
