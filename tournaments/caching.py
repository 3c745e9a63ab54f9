"""The public pages of a competition, cached per competition version, with ETags and 304 answers.

`public_page` wraps a public view `(request, club, competition, **kwargs)`:

1. the competition's version is read from its stamp in the process's memory, or from the database
   when the stamp is not there (`tournaments.versioning`); the ETag and Last-Modified come from it,
   so an unchanged page costs a lookup in memory and a `304 Not Modified`;
2. otherwise the page is taken from Django's cache (memory, or Redis with `REDIS_URL`) under a key
   made of the view, its arguments, the version, the language, the host, whether htmx asked for the
   partial, and who looks (anonymous visitors share one copy; a logged-in user has his own, since the
   header and, for a TD, the drafts differ; a TD's copies are his while he directs the club);
3. or rendered, stored and answered.

While results come in, every one raises the version, and a page of a 3000-player field takes a second or
more to render: each web process would render each version of it. So a competition's public pages are
rendered at most once per `settings.PAGE_RENDER_SECONDS` (1) by all web processes together: the process
that renders takes the competition's marker in the shared cache (`cache.add`, which only one process wins,
expiring after that time); while the marker is held, a request for a version not yet rendered is answered
with the newest copy of the page rendered before, its `Age` header saying how old that copy is, and its
ETag that of the older version (so the browser asks again). A page never rendered before is rendered at
once, and so is a tournament director's (his own change shows at once). Of each page (the same address,
language, visitor, ...) the cache keeps the PAGE_COPIES (3) newest versions; older copies are deleted as
a new one is stored. With Redis the marker is shared by every web process (README, "Deploying", bounds
Redis's memory); without it, by the threads of one process.

A page with a form carries a CSRF token that belongs to one browser: the cached copy holds a
placeholder (`csrf_placeholder`, a context processor) that each answer replaces with the visitor's
own token. Requests with other query parameters, with messages waiting, or not GET/HEAD pass
through uncached.
"""

from __future__ import annotations

import hashlib
import math
import time
from functools import wraps

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe

from clubs.access import directs

from .models import Competition
from .versioning import remember_stamp, stamp_key

CSRF_PLACEHOLDER = "csrf-token-of-the-visitor-00000000000000000000000000000000000"
# Headers of the view's answer kept with the cached copy.
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")
PAGE_COPIES = 3  # the newest versions of a page kept in the cache
clock = time.time  # the time of a page's rendering (the tests replace it)


def csrf_placeholder(request) -> dict:
    """Context processor, after Django's csrf: a page rendered for the cache gets the placeholder."""
    return {"csrf_token": CSRF_PLACEHOLDER} if getattr(request, "rendering_for_cache", False) else {}


def read_stamp(key: str, rows, kind: str = "") -> tuple[int, int, float]:
    """The stamp kept under `key` (primary key, version, time of change): from the process's memory, else read
    from the first of `rows` (a queryset of a model with `version` and `changed_at`) and kept, under the
    address `kind` gives its primary key (`versioning.remember_stamp`); 404 for no row."""
    stamp = caches["stamps"].get(key)
    if stamp is None:
        row = rows.values_list("pk", "version", "changed_at").first()
        if row is None:
            raise Http404
        pk, version, changed_at = row
        stamp = (pk, version, changed_at.timestamp())
        if settings.PAGE_STAMP_SECONDS:
            remember_stamp(key, stamp, settings.PAGE_STAMP_SECONDS, kind)
    return stamp


def _stamp(club: str, slug: str) -> tuple[int, int, float]:
    """The competition's primary key, version and time of change: from the process's memory, else from the database."""
    return read_stamp(stamp_key(club, slug), Competition.objects.filter(club__slug=club, slug=slug))


def _viewer(request, club: str) -> str:
    """Whose copy: anonymous visitors share one; a logged-in user has his own, and another while he directs
    the club (a TD's pages show drafts and private data), so a TD removed from the club is never served a
    copy, nor a 304 for one, made while he was its TD."""
    if not request.user.is_authenticated:
        return "public"
    return f"user-{request.user.pk}-{'td' if directs(request.user, club) else 'reader'}"


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def page_key(request, view_name: str, club: str, slug: str, kwargs: dict, params: tuple[str, ...]) -> tuple[str, float]:
    """The page's identity with the competition's version, and the time of its last change."""
    key, changed, _page, _pk = page_keys(request, view_name, club, slug, kwargs, params)
    return key, changed


def page_keys(request, view_name: str, club: str, slug: str, kwargs: dict, params: tuple[str, ...]):
    """`page_key`'s key and time, the page's identity whatever the version (its copies are kept under it;
    None for a tournament director's page, which is never throttled), and the competition's primary key."""
    pk, version, changed = _stamp(club, slug)
    viewer = _viewer(request, club)
    parts = [
        view_name,
        str(pk),
        translation.get_language() or "",
        request.scheme,
        request.get_host(),
        "htmx" if getattr(request, "htmx", False) else "page",
        viewer,
        repr(sorted(kwargs.items())),
        repr([(name, request.GET.get(name)) for name in params]),
    ]
    key = _digest([*parts[:2], str(version), repr(changed), *parts[2:]])
    return key, changed, None if viewer.endswith("-td") else _digest(parts), pk


def _rendering_key(pk: int, kind: str = "") -> str:
    return f"rendering:{kind}{pk}"


def _copies_key(page: str) -> str:
    return f"copies:{page}"


def may_render(pk: int, kind: str = "") -> bool:
    """Whether this request may render a page of competition `pk` now: it takes the competition's marker,
    held for PAGE_RENDER_SECONDS by the first to ask (in every web process, with a shared cache). `kind`
    keeps the markers of other rows (a team league's: `teams.caching`) apart from the competitions'."""
    seconds = settings.PAGE_RENDER_SECONDS
    if not seconds:
        return True
    return cache.add(_rendering_key(pk, kind), clock(), timeout=max(1, math.ceil(seconds)))


def newest_copy(page: str):
    """The newest copy of `page` kept: (key, time it was rendered, the version's time of change), or None."""
    copies = cache.get(_copies_key(page)) or []
    return copies[0] if copies else None


def keep_copy(page: str, key: str, changed: float) -> None:
    """Note the copy just stored under `key` as the page's newest; the copies beyond PAGE_COPIES are deleted."""
    copies = [copy for copy in cache.get(_copies_key(page)) or [] if copy[0] != key]
    copies.insert(0, (key, clock(), changed))
    cache.set(_copies_key(page), copies[:PAGE_COPIES], settings.PAGE_CACHE_SECONDS)
    if len(copies) > PAGE_COPIES:
        cache.delete_many([f"page:{old}" for old, _made, _changed in copies[PAGE_COPIES:]])


def _not_modified(request, etag: str, changed: float) -> bool:
    match = request.headers.get("If-None-Match")
    if match is not None:
        return etag in [tag.strip().removeprefix("W/") for tag in match.split(",")] or match.strip() == "*"
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and int(changed) <= since


def _headers(request, response: HttpResponse, etag: str, changed: float) -> HttpResponse:
    response["ETag"] = etag
    if time.time() - changed >= 1:
        # HTTP dates count whole seconds: within the second of a change another change may follow with
        # the same date, so only the ETag tells versions apart until that second is over.
        response["Last-Modified"] = http_date(changed)
    patch_cache_control(response, no_cache=True, **({"private": True} if request.user.is_authenticated else {}))
    patch_vary_headers(response, ("HX-Request",))
    return response


def _answer(request, cached: tuple[bytes, dict]) -> HttpResponse:
    """A cached copy as this visitor's answer (his own CSRF token in its forms)."""
    content, headers = cached
    if CSRF_PLACEHOLDER.encode() in content:
        content = content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
    return HttpResponse(content, headers=headers)


def answer(
    request, key: str, changed: float, render, *, page: str | None = None, pk: int | None = None, kind: str = ""
) -> HttpResponse:
    """The answer to a GET of a cached page whose identity is `key` (its version included) and which last
    changed at `changed`: a `304 Not Modified` when the visitor holds this version, else the cached copy,
    else `render()`'s answer, stored when it is a plain 200 (the CSRF placeholder swapped for the visitor's
    own token). With `page` (the page without its version) and `pk` (its competition) the renders are
    throttled: while another request renders a page of that competition, or did within the interval, the
    newest older copy answers, with its age; `kind` names what `pk` is when it is no competition (`may_render`)."""
    etag = f'"{key}"'
    if _not_modified(request, etag, changed):
        return _headers(request, HttpResponseNotModified(), etag, changed)
    cached = cache.get(f"page:{key}")
    if cached is None and page is not None and (older := newest_copy(page)) and not may_render(pk, kind):
        stale = cache.get(f"page:{older[0]}")
        if stale is not None:
            older_etag = f'"{older[0]}"'
            if _not_modified(request, older_etag, older[2]):
                response = HttpResponseNotModified()
            else:
                response = _answer(request, stale)
            response["Age"] = str(max(0, int(clock() - older[1])))
            return _headers(request, response, older_etag, older[2])
    if cached is None:
        request.rendering_for_cache = True
        try:
            response = render()
        finally:
            request.rendering_for_cache = False
        if response.status_code != 200 or response.streaming:
            return response
        headers = {h: response[h] for h in KEPT_HEADERS if h in response}
        cached = (response.content, headers)
        cache.set(f"page:{key}", cached, settings.PAGE_CACHE_SECONDS)
        if page is not None:
            keep_copy(page, key, changed)
    return _headers(request, _answer(request, cached), etag, changed)


def public_page(view=None, *, params: tuple[str, ...] = ("format",)):
    """Cache a public competition view (see the module's docstring); `params`: the query parameters it reads."""

    def decorate(view):
        name = f"{view.__module__}.{view.__qualname__}"

        @wraps(view)
        def wrapper(request, club, competition, **kwargs):
            if request.method not in ("GET", "HEAD") or set(request.GET) - set(params) or len(get_messages(request)):
                return view(request, club, competition, **kwargs)
            key, changed, page, pk = page_keys(request, name, club, competition, kwargs, params)
            return answer(request, key, changed, lambda: view(request, club, competition, **kwargs), page=page, pk=pk)

        return wrapper

    return decorate(view) if view is not None else decorate
