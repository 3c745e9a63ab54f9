"""The TD's competition pages: create, manage, settings, entries, withdrawals, absences, undo, history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from audit.history import RESULT_ACTIONS, prepare, render_history
from audit.models import AuditEntry
from clubs.access import directed_club
from clubs.forms import GuestForm
from clubs.names import sorted_by_name
from pairing import services
from pairing.services import next_round_number

from ..access import directed_competition
from ..flash import flash_errors
from ..forms import (
    AbsenceForm,
    CompetitionForm,
    EntriesForm,
    ForbiddenPairForm,
    PresetForm,
    SeenForm,
    SystemSettingsForm,
    UndoForm,
)
from ..models import Bye, Competition, ForbiddenPair, Participant, Round
from ..state import absentees_withdraw, deemed_withdrawn


@login_required
def new_competition(request, club):
    club = directed_club(request, club)
    form = CompetitionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        competition = form.save(commit=False)
        competition.club = club
        try:
            services.create_competition(competition, list(form.cleaned_data["players"]), request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Competition created."))
            return redirect("manage", club.slug, competition.slug)
    return render(request, "tournaments/new.html", {"club": club, "form": form})


@login_required
def manage(request, club, competition):
    competition = directed_competition(request, club, competition)
    context = _manage_context(competition)
    # Only the whole page lists them: it reads the competition's state, which the absence partial needs not.
    context["deemed_withdrawn"] = deemed_withdrawn(competition, context["next_number"])
    return render(request, "tournaments/manage.html", context)


def _manage_context(competition: Competition) -> dict:
    participants = list(competition.participants.select_related("member"))
    last = competition.round_set.last_paired()
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
        "rounds": competition.round_set.paired(),
        "last_round": last,
        "last_boards_seen": services.boards_seen(last) if last else 0,
        "entries_seen": services.seen(competition, services.ENTRY_ACTIONS),
        "settings_seen": services.seen(competition, services.SETTINGS_ACTIONS),
        "next_number": number if (not planned or number <= planned) else None,
        "absences": absences,
        "absence_choices": AbsenceForm.choices_for(competition.engine),
        "members": sorted_by_name(competition.club.members.exclude(id__in=entered)),
        "guest_form": GuestForm(),
        "actions": prepare(AuditEntry.objects.filter(competition_id=competition.pk).order_by("-at", "-id")[:20]),
        "forbidden_count": ForbiddenPair.objects.filter(competition=competition).count(),
    }


@login_required
def system_settings(request, club, competition):
    """The pairing system's settings; a Keizer competition may start from a named preset (seed 003 §2.1)."""
    competition = directed_competition(request, club, competition)
    engine = competition.engine
    presets = engine.presets
    data = request.POST if request.method == "POST" else None
    preset = PresetForm(data, presets=presets) if presets and data is not None else None
    if preset is not None and preset.is_valid() and preset.cleaned_data["preset"]:
        data = data.copy()  # the preset's values, as though the TD had typed them
        for name, value in engine.apply_preset(preset.cleaned_data["preset"]).items():
            data[f"setting_{name}"] = "on" if value is True else ("" if value is False else value)
    initial = {"based_on": services.seen(competition, services.SETTINGS_ACTIONS)}
    form = SystemSettingsForm(data, competition=competition, initial=initial)
    if data is not None and form.is_valid():
        try:
            services.save_settings(
                competition,
                form.cleaned_data["settings"],
                request.user,
                override=bool(form.cleaned_data.get("override")),
                preset=preset.cleaned_data["preset"] if preset is not None and preset.is_valid() else "",
                gladiator={
                    name: form.cleaned_data[name]
                    for name in ("gladiator_ordinary_games", "gladiator_replays")
                    if name in form.cleaned_data
                },
                based_on=form.cleaned_data["based_on"],
            )
        except services.StaleAction as error:  # the page shows the settings as they are now
            flash_errors(request, error)
            return redirect("system_settings", club, competition.slug)
        messages.success(request, _("Settings saved."))
        return redirect("manage", club, competition.slug)
    context = {"competition": competition, "form": form, "presets": presets}
    return render(request, "tournaments/settings.html", context | _forbidden_context(competition))


def _forbidden_context(competition: Competition, form: ForbiddenPairForm | None = None) -> dict:
    seen = services.seen(competition, services.FORBIDDEN_ACTIONS)
    return {
        "forbidden_pairs": ForbiddenPair.objects.filter(competition=competition).select_related(
            "first__member", "second__member"
        ),
        "forbidden_form": form or ForbiddenPairForm(competition=competition, initial={"based_on": seen}),
        "forbidden_seen": seen,
        "forbidden_honoured": competition.engine.forbidden_pairs,
    }


@login_required
@require_POST
def add_forbidden_pair(request, club, competition):
    """Two participants who must not meet; refused for a system that cannot honour it (round robin,
    knockout), which the settings page says."""
    competition = directed_competition(request, club, competition)
    form = ForbiddenPairForm(request.POST, competition=competition)
    if form.is_valid():
        try:
            based_on = form.cleaned_data["based_on"]
            pair = services.forbid_pair(competition, form.save(commit=False), request.user, based_on=based_on)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(pair)s will not be paired against each other.") % {"pair": pair})
            return redirect("system_settings", club, competition.slug)
    initial = {"based_on": services.seen(competition, services.SETTINGS_ACTIONS)}
    settings_form = SystemSettingsForm(competition=competition, initial=initial)
    context = {"competition": competition, "form": settings_form, "presets": competition.engine.presets}
    return render(request, "tournaments/settings.html", context | _forbidden_context(competition, form), status=400)


@login_required
@require_POST
def delete_forbidden_pair(request, club, competition, pk):
    competition = directed_competition(request, club, competition)
    pair = ForbiddenPair.objects.filter(competition=competition, pk=pk).first()
    lifted = AuditEntry.objects.filter(competition_id=competition.pk, action="allow-pair", object_id=str(pk))
    if pair is None and not lifted.exists():  # no pair of this competition, now or before
        raise Http404
    form = SeenForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form is out of date; reload the page."))
        services.allow_pair(competition, pair, request.user, based_on=form.cleaned_data["based_on"])
        messages.success(request, _("%(pair)s may be paired against each other again.") % {"pair": pair})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("system_settings", club, competition.slug)


@login_required
@require_POST
def add_participants(request, club, competition):
    competition = directed_competition(request, club, competition)
    form = EntriesForm(request.POST, competition=competition)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors.get("member") or _("The form is out of date; reload the page."))
        services.add_participants(competition, list(form.cleaned_data["member"]), request.user,
                                 based_on=form.cleaned_data["based_on"])  # fmt: skip
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def add_guest(request, club, competition):
    competition = directed_competition(request, club, competition)
    form = GuestForm(request.POST)
    seen = SeenForm(request.POST)
    if not form.is_valid() or not seen.is_valid():
        for field_errors in (form.errors | seen.errors).values():
            for error in field_errors:
                messages.error(request, error)
        return redirect("manage", club, competition.slug)
    try:
        services.add_guest(competition, form.save(commit=False), request.user, based_on=seen.cleaned_data["based_on"])
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def withdraw(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    participant = get_object_or_404(Participant, competition=competition, start_number=number)
    form = SeenForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form is out of date; reload the page."))
        services.withdraw(participant, request.user, based_on=form.cleaned_data["based_on"])
        messages.success(request, _("%(name)s has withdrawn.") % {"name": participant.name})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def set_absence(request, club, competition, number):
    competition = directed_competition(request, club, competition)
    participant = get_object_or_404(Participant, competition=competition, start_number=number)
    form = AbsenceForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(list(form.errors.get("kind", [])) + list(form.errors.get("shown", [])))
        if form.cleaned_data["kind"] not in dict(AbsenceForm.choices_for(competition.engine)):
            raise ValidationError(_("This system does not know that kind of absence."))
        kind = form.cleaned_data["kind"] or None
        number = services.set_absence(competition, participant, kind, request.user, shown=form.cleaned_data["shown"])
        if form.cleaned_data["kind"] == Bye.Kind.ABSENT and absentees_withdraw(competition):
            text = _("%(name)s is absent without notice in round %(round)s and so deemed to have withdrawn: not paired "
                     "in later rounds.")  # fmt: skip
            messages.warning(request, text % {"name": participant.name, "round": number})
    except ValidationError as error:
        flash_errors(request, error)
    if request.htmx:
        context = _manage_context(competition) | {"p": participant}
        return render(request, "tournaments/manage.html#absence", context)
    return redirect("manage", club, competition.slug)


@login_required
@require_POST
def undo_round(request, club, competition):
    competition = directed_competition(request, club, competition)
    form = UndoForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form did not say which round it showed; reload the page."))
        posted = form.cleaned_data
        number = services.undo_last_round(competition, request.user, posted["round"], posted["based_on"])
        messages.success(request, _("Round %(n)s is no longer paired.") % {"n": number})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage", club, competition.slug)


@login_required
def competition_history(request, club, competition):
    """The competition's audit log: every write, who and when, before and after (TDs only)."""
    competition = directed_competition(request, club, competition)
    entries = AuditEntry.objects.filter(competition_id=competition.pk)
    title = _("History of %(competition)s") % {"competition": competition.name}
    return render_history(request, entries, {"club": competition.club, "competition": competition, "title": title})


def results_history(request, club, competition):
    """Every result entered or changed, with who and when, from the audit log (TDs only)."""
    competition = directed_competition(request, club, competition)
    entries = AuditEntry.objects.filter(competition_id=competition.pk, action__in=RESULT_ACTIONS)
    changes = prepare(entries.order_by("-at", "-id"))
    return render(request, "tournaments/history.html", {"competition": competition, "changes": changes})
