"""The TD's competition pages: create, manage, settings, entries, withdrawals, absences, undo, history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.access import directed_club
from clubs.forms import GuestForm
from clubs.models import Member
from clubs.validation import key_number

from .. import services
from ..flash import flash_errors
from ..forms import AbsenceForm, CompetitionForm
from ..models import Bye, Competition, Participant, Round, TDAction
from .common import _competition, _directed_competition


@login_required
def new_competition(request, club):
    club = directed_club(request, club)
    form = CompetitionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                competition = form.save(commit=False)
                competition.club = club
                competition.save()
                services.add_participants(competition, list(form.cleaned_data["players"]), request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Competition created."))
            return redirect("manage", club.slug, competition.slug)
    return render(request, "tournaments/new.html", {"club": club, "form": form})


@login_required
def manage(request, club, competition):
    competition = _directed_competition(request, club, competition)
    return render(request, "tournaments/manage.html", _manage_context(competition))


def _manage_context(competition: Competition) -> dict:
    from pairing.services import next_round_number

    participants = list(competition.participants.select_related("member"))
    number = next_round_number(competition)
    planned = competition.planned_rounds()
    upcoming = None
    if not planned or number <= planned:
        upcoming = Round.objects.filter(competition=competition, number=number).first()
    absences = {}
    if upcoming:
        absences = {b.participant_id: b.kind for b in upcoming.byes.all()}
    entered = {p.member_id for p in participants}
    return {
        "competition": competition,
        "club": competition.club,
        "participants": participants,
        "rounds": competition.round_set.filter(paired_at__isnull=False),
        "next_number": number if (not planned or number <= planned) else None,
        "absences": absences,
        "absence_choices": AbsenceForm.choices_for(competition.system),
        "members": competition.club.members.exclude(id__in=entered),
        "guest_form": GuestForm(),
        "actions": competition.td_actions.select_related("user")[:20],
    }


@login_required
def system_settings(request, club, competition):
    """The pairing system's settings; a Keizer competition may start from a named preset (seed 003 §2.1)."""
    from ..forms import SystemSettingsForm

    competition = _directed_competition(request, club, competition)
    presets = {}
    if competition.system == "keizer":
        from pairing.engines import keizer

        presets = keizer.PRESET_LABELS
        if request.method == "POST" and request.POST.get("preset") in presets:
            data = request.POST.copy()
            for name, value in keizer.apply_preset(request.POST["preset"]).items():
                data[f"setting_{name}"] = "on" if value is True else ("" if value is False else value)
            request.POST = data
    form = SystemSettingsForm(request.POST or None, competition=competition)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            competition.settings = form.cleaned_data["settings"]
            competition.save()
            TDAction.objects.create(
                competition=competition,
                user=request.user,
                action="settings" + ("-override" if form.cleaned_data.get("override") else ""),
                detail=request.POST.get("preset", ""),
            )
        messages.success(request, _("Settings saved."))
        return redirect("manage", club, competition.slug)
    return render(request, "tournaments/settings.html", {"competition": competition, "form": form, "presets": presets})


@login_required
@require_POST
def add_participants(request, club, competition):
    competition = _directed_competition(request, club, competition)
    ids = [number for value in request.POST.getlist("member") if (number := key_number(value)) is not None]
    if not ids:
        messages.error(request, _("Choose the members to add."))
        return redirect("manage", club, competition.slug)
    try:
        members = list(Member.objects.filter(club=competition.club, id__in=ids))
        services.add_participants(competition, members, request.user)
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def add_guest(request, club, competition):
    competition = _directed_competition(request, club, competition)
    form = GuestForm(request.POST)
    if not form.is_valid():
        for field_errors in form.errors.values():
            for error in field_errors:
                messages.error(request, error)
        return redirect("manage", club, competition.slug)
    try:
        with transaction.atomic():
            guest = form.save(commit=False)
            guest.club = competition.club
            guest.is_guest = True
            guest.save()
            services.add_participant(competition, guest, request.user)
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def withdraw(request, club, competition, number):
    competition = _directed_competition(request, club, competition)
    participant = get_object_or_404(Participant, competition=competition, start_number=number)
    services.withdraw(participant, request.user)
    messages.success(request, _("%(name)s has withdrawn.") % {"name": participant.name})
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def set_absence(request, club, competition, number):
    competition = _directed_competition(request, club, competition)
    participant = get_object_or_404(Participant, competition=competition, start_number=number)
    form = AbsenceForm(request.POST)
    from pairing.services import next_round_number

    try:
        if not form.is_valid():
            raise ValidationError([error for errors in form.errors.values() for error in errors])
        if form.cleaned_data["kind"] not in dict(AbsenceForm.choices_for(competition.system)):
            raise ValidationError(_("This system does not know that kind of absence."))
        services.set_absence(
            competition, next_round_number(competition), participant, form.cleaned_data["kind"] or None, request.user
        )
    except ValidationError as error:
        flash_errors(request, error)
    if request.htmx:
        context = _manage_context(competition) | {"p": participant}
        return render(request, "tournaments/manage.html#absence", context)
    return redirect("manage", club, competition.slug)


@login_required
def notice(request, club, competition):
    """A member sends (or takes back) notice of absence for the next round, until it is paired (seed 003 §3.3)."""
    from pairing.services import next_round_number

    competition = _competition(club, competition)
    member = getattr(request.user, "member", None)
    participant = competition.participants.filter(member=member).first() if member else None
    if participant is None:
        raise PermissionDenied
    number = next_round_number(competition)
    if request.method == "POST":
        kind = Bye.Kind.ABSENT_NOTICE if request.POST.get("absent") == "1" else None
        try:
            services.set_absence(competition, number, participant, kind, request.user)
            messages.success(
                request,
                _("Your notice of absence for round %(n)s is recorded.") % {"n": number}
                if kind
                else _("You are down as present for round %(n)s.") % {"n": number},
            )
        except ValidationError as error:
            flash_errors(request, error)
        return redirect("notice", club, competition.slug)
    absent = Bye.objects.filter(round__competition=competition, round__number=number, participant=participant).first()
    return render(
        request,
        "tournaments/notice.html",
        {"competition": competition, "participant": participant, "number": number, "absence": absent},
    )


@login_required
@require_POST
def undo_round(request, club, competition):
    competition = _directed_competition(request, club, competition)
    try:
        number = services.undo_last_round(competition, request.user)
        messages.success(request, _("Round %(n)s is no longer paired.") % {"n": number})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


def results_history(request, club, competition):
    """Every result change, with who and when (TDs only)."""
    competition = _directed_competition(request, club, competition)
    from ..models import ResultChange

    changes = ResultChange.objects.filter(game__round__competition=competition).select_related(
        "game__round", "game__white__member", "game__black__member", "changed_by"
    )
    return render(request, "tournaments/history.html", {"competition": competition, "changes": changes})
