"""Competition pages: public (pairings, standings, crosstable, player card, PDFs) and the TD's.

Thin views: look up with permission, call a service or the standings module, render.
htmx requests get the page's partial, plain requests the whole page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.access import directed_club
from clubs.forms import GuestForm
from clubs.models import Member
from ratings.graphs import rating_chart

from . import graphs, services, standings
from .caching import public_page
from .flash import flash_errors
from .forms import AbsenceForm, CompetitionForm
from .knockout_views import render_bracket, render_team_standings
from .models import Bye, Competition, Participant, Round, TDAction
from .pdf import qr_code, render_pdf
from .state import CompetitionData


def _competition(club_slug: str, slug: str) -> Competition:
    return get_object_or_404(Competition.objects.select_related("club", "season"), club__slug=club_slug, slug=slug)


def _directed_competition(request, club_slug: str, slug: str) -> Competition:
    directed_club(request, club_slug)
    return _competition(club_slug, slug)


def _page(request, template: str, context: dict, partial: str | None = None):
    if partial and request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context)


# Public pages ---------------------------------------------------------------------------------


@public_page
def pairings(request, club, competition, number=None):
    competition = _competition(club, competition)
    if competition.system == "knockout":
        return render_bracket(request, competition)
    is_director = competition.club.is_director(request.user)
    data = CompetitionData.load(competition, public=not is_director)
    rounds = [r for r in data.rounds if r.is_paired]
    if not rounds and number is None:
        return render(request, "tournaments/pairings.html", {"competition": competition, "rounds": []})
    rnd = rounds[-1] if number is None else next((r for r in rounds if r.number == number), None)
    if rnd is None:
        raise Http404
    # The round in play (or the last one, until the competition ends) reloads itself while results come in.
    live = competition.status != Competition.Status.FINISHED and rnd.number == rounds[-1].number
    context = _round_context(data, rnd) | {"is_director": is_director, "live": live}
    if request.GET.get("format") == "pdf":
        public_url = request.build_absolute_uri(reverse("pairings", args=[club, competition.slug, rnd.number]))
        context["qr_code"], context["public_url"] = qr_code(public_url), public_url
        return render_pdf(request, "tournaments/pairings.html", context, f"{competition.slug}-round-{rnd.number}.pdf")
    return _page(request, "tournaments/pairings.html", context, "boards")


def _round_context(data: CompetitionData, rnd: Round) -> dict:
    state = data.state(upto_round=rnd.number - 1)
    by_id = data.by_id
    scores = {p.id: state.player(p.start_number).score() for p in data.participants}
    games = [g for g in data.games if g.round_id == rnd.id]
    for g in games:
        g.white, g.black = by_id[g.white_id], by_id[g.black_id]
        g.white_score, g.black_score = scores[g.white_id], scores[g.black_id]
    byes = [b for b in data.byes if b.round_id == rnd.id]
    for b in byes:
        b.participant = by_id[b.participant_id]
    return {
        "competition": data.competition,
        "rounds": [r for r in data.rounds if r.is_paired],
        "round": rnd,
        "games": games,
        "byes": byes,
    }


LIVE_PANELS = {"round": 20, "standings": 12}  # seconds each panel of the live board stays up


@public_page(params=("panel",))
def live_board(request, club, competition):
    """The playing hall's screen: the round in play with its results, then the standings, in turn (no login).

    The page polls its panel every few seconds (a 304 while nothing changed, `tournaments.caching`)
    and switches panels by itself (htmx triggers; no script of its own)."""
    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    rounds = [r for r in data.rounds if r.is_paired]
    has_standings = competition.system not in ("knockout", "olympiad") and bool(rounds)
    panel = request.GET.get("panel", "round")
    if panel not in LIVE_PANELS or (panel == "standings" and not has_standings) or not rounds:
        panel = "round" if rounds else "standings"
    context = {"competition": competition, "panel": panel, "rounds": rounds, "has_rounds": bool(rounds)}
    if has_standings:
        context["next_panel"] = "standings" if panel == "round" else "round"
        context["switch_after"] = LIVE_PANELS[panel]
    if panel == "round":
        context |= _round_context(data, rounds[-1])
    elif competition.system == "keizer":
        _table, rows = standings.keizer_standings(data)
        context["standings"] = [(row.line.rank, row.participant, row.line.total) for row in rows]
        context["keizer"] = True
    elif rounds:
        _names, rows = standings.standings(data)
        context["standings"] = [(row.rank, row.participant, row.points) for row in rows]
    if request.htmx:
        return render(request, "tournaments/live.html#board", context)
    return render(request, "tournaments/live.html", context)


@public_page
def standings_page(request, club, competition):
    competition = _competition(club, competition)
    if competition.system == "knockout":
        return render_bracket(request, competition)
    if competition.system == "olympiad":
        return render_team_standings(request, competition)
    data = CompetitionData.load(competition, public=True)
    if competition.system == "keizer":
        return keizer_standings_page(request, competition, data)
    names, rows = standings.standings(data)
    context = {"competition": competition, "tiebreak_names": names, "rows": rows, "rounds": data.rounds}
    context["progression"] = graphs.standings_chart(data)
    if competition.system == "dubov-1997":  # seed 004 §4.9.6 section 9: the ARO list goes with the standings
        from pairing.engines.dubov import aro_list

        finished = [r.number for r in data.rounds if r.status == Round.Status.FINISHED]
        context["aro_rows"] = aro_list(data.state(upto_round=max(finished, default=0)))
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/standings.html", context, "table")


def keizer_standings_page(request, competition, data):
    """Seed 003 §1.5: Pos, Wrde, Naam, Keizer, Prt, Pnt, Kl, Grp, HRtg, BRtg, Rtgver, TPR."""
    table, rows = standings.keizer_standings(data)
    context = {"competition": competition, "table": table, "rows": rows, "rounds": data.rounds}
    context["progression"] = graphs.standings_chart(data)
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/keizer_standings.html", context, f"{competition.slug}-standings.pdf")
    return _page(request, "tournaments/keizer_standings.html", context, "table")


@public_page
def crosstable_page(request, club, competition):
    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    context = {
        "competition": competition,
        "table": standings.crosstable(data),
        "round_numbers": [r.number for r in data.rounds if r.is_paired],
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/crosstable.html", context, f"{competition.slug}-crosstable.pdf")
    return _page(request, "tournaments/crosstable.html", context, "table")


@public_page
def player_card(request, club, competition, number):
    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    participant = next((p for p in data.participants if p.start_number == number), None)
    if participant is None:
        raise Http404
    state = data.state()
    player = state.player(number)
    by_start = {p.start_number: p for p in data.participants}
    lines, running = [], 0.0
    for rnd, record in zip(data.rounds, player.history, strict=False):
        running += record.score or 0.0
        lines.append(
            {
                "round": rnd.number,
                "opponent": by_start.get(record.opponent) if record.opponent else None,
                "record": record,
                "running": running,
            }
        )
    keizer_line = None
    if competition.system == "keizer":
        _table, rows = standings.keizer_standings(data)
        keizer_line = next(row.line for row in rows if row.participant == participant)
    return render(
        request,
        "tournaments/player.html",
        {
            "competition": competition,
            "participant": participant,
            "lines": lines,
            "keizer": keizer_line,
            "show_private": competition.club.is_director(request.user),
            "score_chart": graphs.score_chart(participant, lines),
            "rating_chart": rating_chart(participant.member),
        },
    )


# The TD's pages -------------------------------------------------------------------------------


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
    from .forms import SystemSettingsForm

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
    ids = request.POST.getlist("member")
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
    if not form.is_valid():
        raise ValidationError(form.errors)
    from pairing.services import next_round_number

    try:
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
@require_POST
def club_match_result(request, club, competition, number, start_number):
    """The result of a club-match game played on club night (Keizer, seed 003 §1.3)."""
    competition = _directed_competition(request, club, competition)
    bye = get_object_or_404(
        Bye, round__competition=competition, round__number=number, participant__start_number=start_number,
        kind=Bye.Kind.CLUB_MATCH,
    )  # fmt: skip
    try:
        services.set_club_match_result(bye, request.POST.get("points", ""), request.user)
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)


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
def manage_round(request, club, competition, number):
    competition = _directed_competition(request, club, competition)
    if competition.system == "knockout":
        return redirect("cup", club, competition.slug)
    data = CompetitionData.load(competition)
    rnd = next((r for r in data.rounds if r.number == number and r.is_paired), None)
    if rnd is None:
        raise Http404
    context = _round_context(data, rnd) | {"participants": data.participants}
    if competition.gladiator:  # each board an encounter with its games (seed 004 §4.9.8)
        from .gladiator import round_view

        context["encounters"] = round_view(data, context["games"])
    return render(request, "tournaments/manage_round.html", context)


@login_required
@require_POST
def enter_result(request, club, competition, number, board):
    """One board's result, saved as typed (htmx), or every board of the form at once (no JavaScript)."""
    competition = _directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    override = request.POST.get("override") == "1"
    games = rnd.games.select_related("white__member", "black__member")
    targets = games.filter(board=board) if board else games
    errors = []
    for game in targets:
        key = f"result-{game.board}"
        if key not in request.POST:
            continue
        try:
            result = services.parse_result(request.POST[key])
            if competition.gladiator:  # the encounter decides which results it can take
                from .gladiator import set_game_result

                set_game_result(game, result, request.user, override=override)
            else:
                services.set_result(game, result, request.user, override=override)
        except ValidationError as error:
            errors += [f"{_('Board')} {game.board}: {m}" for m in error.messages]
    if request.htmx and board and competition.gladiator and not errors:
        return HttpResponse(headers={"HX-Refresh": "true"})  # the encounter's games and status change
    if request.htmx and board:
        game = games.get(board=board)
        data = CompetitionData.load(competition)
        context = _round_context(data, rnd) | {"errors": errors}
        context["game"] = next(g for g in context["games"] if g.board == board)
        return render(request, "tournaments/manage_round.html#result-row", context)
    for message in errors:
        messages.error(request, message)
    if not errors:
        messages.success(request, _("Results saved."))
    return redirect("manage_round", club, competition.slug, number)


@login_required
@require_POST
def publish_round(request, club, competition, number):
    competition = _directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    try:
        services.publish(rnd, request.user)
        messages.success(request, _("Round %(n)s is published.") % {"n": number})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)


@login_required
@require_POST
def finish_round(request, club, competition, number):
    competition = _directed_competition(request, club, competition)
    rnd = get_object_or_404(Round, competition=competition, number=number)
    try:
        services.finish(rnd, request.user)
        messages.success(request, _("Round %(n)s is finished.") % {"n": number})
    except ValidationError as error:
        flash_errors(request, error)
    return redirect("manage_round", club, competition.slug, number)


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
    from .models import ResultChange

    changes = ResultChange.objects.filter(game__round__competition=competition).select_related(
        "game__round", "game__white__member", "game__black__member", "changed_by"
    )
    return render(request, "tournaments/history.html", {"competition": competition, "changes": changes})


@login_required
def import_trf(request, club):
    """A TRF file as a new competition; a malformed file is refused with its line number, nothing saved.

    A large file is imported by a worker (`tournaments.tasks`): the TD follows the job's page."""
    from django.conf import settings

    from pairing.engines.trf import TrfError

    from .forms import TrfImportForm
    from .trf_io import import_trf as do_import

    club = directed_club(request, club)
    form = TrfImportForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.FILES["file"].size > settings.TRF_INLINE_MAX_BYTES:  # a worker imports it, the page follows
            from jobs.views import follow

            from .tasks import start

            job = start(
                club, data["file"], request.FILES["file"].name, name=data["name"], slug=data["slug"],
                system=data["system"], user=request.user,
            )  # fmt: skip
            return follow(job)
        try:
            competition = do_import(
                club, data["file"], name=data["name"], slug=data["slug"], system=data["system"],
                source=request.FILES["file"].name,
            )  # fmt: skip
        except (TrfError, ValidationError) as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, _("Competition imported."))
            return redirect("manage", club.slug, competition.slug)
    return render(request, "tournaments/import_trf.html", {"club": club, "form": form})


@login_required
def export_trf(request, club, competition):
    from django.http import HttpResponse

    from .trf_io import export_trf as do_export

    competition = _directed_competition(request, club, competition)
    response = HttpResponse(do_export(competition), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.trf"'
    return response


# Tie-breaks and prizes ------------------------------------------------------------------------


@public_page
def tiebreak_explanation(request, club, competition, number, index):
    """How one standings value came about: opponents, their scores, cuts, unplayed rounds (htmx: the partial)."""
    from .prizes import tiebreak_name

    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    names, rows = standings.standings(data)
    row = next((r for r in rows if r.participant.start_number == number), None)
    if row is None or not 0 <= index < len(row.explanations) or row.explanations[index] is None:
        raise Http404
    explanation = row.explanations[index]
    by_start = {p.start_number: p for p in data.participants}
    items = [
        {"item": item, "opponent": by_start.get(item.opponent) if item.opponent else None}
        for item in explanation.items
    ]  # fmt: skip
    context = {
        "competition": competition,
        "row": row,
        "code": names[index],
        "name": tiebreak_name(names[index]),
        "explanation": explanation,
        "notes": explanation.notes,
        "items": items,
        "number": number,
    }
    return _page(request, "tournaments/tiebreaks_explain.html", context, "explanation")


@login_required
def tiebreak_settings(request, club, competition):
    """The competition's tie-break list: free until round 1 is paired, then only by a recorded override."""
    from . import prizes

    competition = _directed_competition(request, club, competition)
    current = list(competition.tiebreaks or [])
    initial = {"codes": ", ".join(current or prizes.default_codes(competition.system))}
    form = prizes.TiebreakForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            prizes.set_tiebreaks(competition, form.cleaned_data["codes"], request.user, form.cleaned_data["override"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Tie-breaks saved."))
            return redirect("tiebreak_settings", club, competition.slug)
    context = {
        "competition": competition,
        "form": form,
        "default": prizes.default_codes(competition.system),
        "uses_default": not current,
        "locked": prizes.tiebreaks_locked(competition),
        "catalogue": prizes.catalogue(),
    }
    return render(request, "tournaments/tiebreaks.html", context)


@login_required
def prize_settings(request, club, competition):
    """The prize table: prizes by place, prize groups, and the regulation for equal points."""
    from pairing.engines.prizes import default_sharing

    from .models import PrizeTable
    from .prizes import PrizeTableForm

    competition = _directed_competition(request, club, competition)
    table = PrizeTable.objects.filter(competition=competition).first() or PrizeTable(competition=competition)
    form = PrizeTableForm(request.POST or None, instance=table)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Prize table saved."))
        return redirect("prize_list", club, competition.slug)
    default = dict(PrizeTable.Sharing.choices)[default_sharing(competition.system)]
    return render(request, "tournaments/prizes.html", {"competition": competition, "form": form, "default": default})


@public_page
def prize_list_page(request, club, competition):
    """The prize list: winners by name and prize (no private data), as a page or a PDF."""
    from .prizes import prize_list

    competition = _competition(club, competition)
    data = CompetitionData.load(competition, public=True)
    context = {
        "competition": competition,
        "prizes": prize_list(data),
        "is_director": competition.club.is_director(request.user),
        "list_only": True,
    }
    if request.GET.get("format") == "pdf":
        return render_pdf(request, "tournaments/prizes.html", context, f"{competition.slug}-prizes.pdf")
    return render(request, "tournaments/prizes.html", context)
