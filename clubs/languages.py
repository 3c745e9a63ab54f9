"""Whose language: a user's own (the one he last chose on the site), a club's for its visitors, printouts
and e-mails to members without one, and the site's `LANGUAGE_CODE` when neither is known.

A page is in the language the visitor chose (the language cookie); a visitor who chose none reads a
club's pages in the club's language if it has one, otherwise in his browser's (Accept-Language). A
club's printouts (every `?format=pdf`) are in the club's language if it has one, whoever prints them: the
list on the wall is for the club's players. An e-mail is written in its recipient's language
(`language_of`), never in the sender's.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import translation

from .models import Club, Profile

CLUB_LANGUAGE_SECONDS = 60


def is_language(code: str | None) -> bool:
    return code in dict(settings.LANGUAGES)


def own_language(user) -> str:
    """The language the user last chose on the site ("" if none)."""
    if user is None or not getattr(user, "pk", None):
        return ""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def language_of(user=None, club: Club | None = None, default: str | None = None) -> str:
    """The language to write to `user` in: his own, else the club's (`club`, or his member's club), else
    `default` or the site's."""
    if user is not None and getattr(user, "pk", None):
        own = own_language(user)
        if own:
            return own
        if club is None:
            member = getattr(user, "member", None)  # no member: RelatedObjectDoesNotExist, an AttributeError
            club = member.club if member is not None else None
    if club is not None and club.language:
        return club.language
    return default if is_language(default) else settings.LANGUAGE_CODE


def remember_language(user, code: str) -> None:
    """Keep `code` as the user's language (his pages after the next login, his e-mails)."""
    if user.is_authenticated and is_language(code):
        Profile.objects.update_or_create(user=user, defaults={"language": code})


def club_language(slug: str) -> str:
    """The club's language for visitors ("" if none, or no such club); kept for a minute in the cache."""
    key = f"club-language:{slug}"
    found = cache.get(key)
    if found is None:
        found = Club.objects.filter(slug=slug).values_list("language", flat=True).first() or ""
        cache.set(key, found, CLUB_LANGUAGE_SECONDS)
    return found


@receiver(post_save, sender=Club)
def _remember_club_language(sender, instance, **kwargs):
    """A club saved: its language is known at once (other processes' copies last at most a minute)."""
    cache.set(f"club-language:{instance.slug}", instance.language, CLUB_LANGUAGE_SECONDS)


@receiver(post_delete, sender=Club)
def _forget_club_language(sender, instance, **kwargs):
    cache.delete(f"club-language:{instance.slug}")


class ClubLanguageMiddleware:
    """After Django's LocaleMiddleware: a club's pages (every address with a `club` argument) in the club's
    language, if it has one, for a visitor who chose no language, and its PDFs for everyone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        slug = view_kwargs.get("club")
        chosen = is_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        if not isinstance(slug, str) or (chosen and request.GET.get("format") != "pdf"):
            return None
        language = club_language(slug)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return None
