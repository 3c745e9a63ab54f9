"""Club pages: the club list, a club's page (and its language), its members (add one), the CSV import of
members."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from audit.history import render_history
from audit.models import AuditEntry

from . import csv_import, services
from .access import directed_club
from .csv_import import save as save_members
from .forms import ClubLanguageForm, ClubSearchForm, ConfirmForm, CsvUploadForm, MemberForm
from .models import Club
from .names import sorted_by_name

HOME_PAGE_SIZE = 50  # clubs a page of the home page lists


def home(request):
    """The clubs, by name, a page at a time; `q` keeps those whose name or city contains it."""
    form = ClubSearchForm(request.GET)
    clubs = Club.objects.only("name", "slug", "city")
    query = form.cleaned_data["q"] if form.is_valid() else ""
    if query:
        clubs = clubs.filter(Q(name__icontains=query) | Q(city__icontains=query))
    page = Paginator(clubs.order_by("name", "id"), HOME_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "clubs/home.html", {"page": page, "form": form, "query": query})


def club(request, club):
    club = get_object_or_404(Club, slug=club)
    competitions = club.competitions.select_related("season")
    is_director = club.is_director(request.user)
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "competitions": competitions,
            "is_director": is_director,
            "language_form": ClubLanguageForm(instance=club) if is_director else None,
        },
    )


@login_required
@require_POST
def club_language(request, club):
    """The club's language for visitors who chose none, printouts and members' mail (the club's TDs only)."""
    club = directed_club(request, club)
    form = ClubLanguageForm(request.POST, instance=Club.objects.get(pk=club.pk))
    if form.is_valid():
        services.set_club_language(club, form.cleaned_data["language"], request.user)
        messages.success(request, _("Saved."))
    else:
        messages.error(request, _("Choose one of the site's languages."))
    return redirect(club.get_absolute_url())


@login_required
def members(request, club):
    club = directed_club(request, club)
    form = MemberForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        member = services.add_member(club, form.save(commit=False), request.user, MemberForm.Meta.fields)
        messages.success(request, _("%(name)s added.") % {"name": member.full_name})
        return redirect("members", club.slug)
    return render(
        request, "clubs/members.html", {"club": club, "members": sorted_by_name(club.members.all()), "form": form}
    )


@login_required
def import_members(request, club):
    """Upload -> preview with per-row errors -> confirm; nothing is saved before the confirmation."""
    club = directed_club(request, club)
    form = CsvUploadForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        preview = csv_import.parse(form.cleaned_data["text"], club)
        confirmed = ConfirmForm(request.POST)
        if confirmed.is_valid() and confirmed.cleaned_data["confirm"] and preview.ok:
            count = save_members(club, preview, request.user)
            messages.success(request, _("%(count)s members imported.") % {"count": count})
            return redirect("members", club.slug)
    return render(
        request,
        "clubs/import.html",
        {"club": club, "form": form, "preview": preview, "text": form.cleaned_data.get("text", "") if preview else ""},
    )


@login_required
def club_history(request, club):
    """Everything written in the club, its competitions included (the club's TDs only)."""
    club = directed_club(request, club)
    entries = AuditEntry.objects.filter(club_id=club.pk)
    return render_history(request, entries, {"club": club, "title": _("History of %(club)s") % {"club": club.name}})
