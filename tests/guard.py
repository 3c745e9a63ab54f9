"""What the guard tests share, with the fixture `other_td` (tests/conftest.py: a second TD of the club on
a client of his own): the messages a page shows, the basis a form on a page carries, getting and posting
a competition's page, and the message of a refused action (what changed, by whom and when)."""

from __future__ import annotations

import re

from django.urls import reverse


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def basis(html: str, name: str = "based_on", after: str = "") -> str:
    """The value of the hidden field `name` on a page (the first after the text `after`, when given)."""
    if after:
        html = html[html.index(after) :]
    return re.search(rf'name="{name}"\s+(?:id="[^"]*"\s+)?value="([^"]*)"', html).group(1)


def page(client, name, competition, *args) -> str:
    return client.get(reverse(name, args=[competition.club.slug, competition.slug, *args])).content.decode()


def post(client, name, competition, data, *args):
    url = reverse(name, args=[competition.club.slug, competition.slug, *args])
    return client.post(url, data, follow=True)


def stale_message(message: str, what: str, who: str = "Jan Tweede") -> None:
    """The message of an action refused because its page was older than another TD's change."""
    assert f"This changed after your page was shown ({what}, by {who} at " in message
    assert "nothing was saved" in message
