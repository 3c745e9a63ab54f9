"""The error pages: 403 (a refused form too), 404 and 500 in the visitor's language, with the site's header
and a way back.

403 and 404 name the club of the address when it exists (a link back to it); the 500 page reads
nothing from the database, which may be the very thing that failed: no user, no club, only the
language of the request and the way home.
"""

from __future__ import annotations

import logging

from django.http import HttpResponseServerError
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils.html import escape
from django.utils.translation import gettext as _

from clubs.models import Club

logger = logging.getLogger(__name__)


def _club_of(request) -> Club | None:
    """The club the address names (its first part), if there is one."""
    try:
        slug = resolve(request.path_info).kwargs.get("club")
    except Resolver404:
        slug = request.path_info.strip("/").split("/", 1)[0]
    return Club.objects.filter(slug=slug).first() if isinstance(slug, str) and slug else None


def permission_denied(request, exception=None):
    """403: this user may not open this page; links to the club, his own page and the list of clubs."""
    return render(request, "403.html", {"club": _club_of(request)}, status=403)


def csrf_failure(request, reason=""):
    """403 for a form whose security token is missing or stale (a page left open too long, cookies off): the
    403 page with what to do instead of Django's bare English one (CSRF_FAILURE_VIEW)."""
    context = {"club": _club_of(request), "csrf_failed": True}
    return render(request, "403.html", context, status=403)


def page_not_found(request, exception=None):
    """404: nothing at this address; links to the club of the address if it exists, and the list of clubs."""
    return render(request, "404.html", {"club": _club_of(request)}, status=404)


def server_error(request):
    """500: rendered without the context processors (they would ask the database for the user); should the
    page itself fail (a missing static file, say), a bare page in the same words."""
    context = {"request": request, "csrf_token": get_token(request), "server_error": True}
    try:
        return HttpResponseServerError(loader.get_template("500.html").render(context))
    except Exception:
        logger.exception("The 500 page could not be rendered")
        title, home = escape(_("Something went wrong")), escape(_("All clubs"))
        return HttpResponseServerError(f'<!doctype html><title>{title}</title><h1>{title}</h1><a href="/">{home}</a>')
