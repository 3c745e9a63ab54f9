"""The season's pages: the club's and a competition's calendar, the feeds, the TD's planning and present
list, and a member's own page with the sign-off answers."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from audit.log import record, values
from clubs.access import directed_club
from clubs.languages import own_language
from clubs.models import Club, Member, Season
from pairing.services import StaleAction
from teams.models import Team
from teams.printing import team_matches
from teams.table import coming_matches
from tournaments.access import directed_competition
from tournaments.flash import flash_errors
from tournaments.forms import AbsenceForm, ActionForm
from tournaments.models import Competition, Game, Participant, Round

from . import agenda, feeds, planning, rules, signoff
from .forms import (
    AnswerForm,
    AnswersForm,
    MySettingsForm,
    NightForm,
    NightsForm,
    PlanRoundsForm,
    PresenceForm,
    RemoveNightForm,
    SeasonForm,
    SignOffRulesForm,
)
from .models import ClubNight, MemberCalendar, SignOffRules


def _base_url(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


# Public ---------------------------------------------------------------------------------------


def club_calendar(request, club):
    club = get_object_or_404(Club, slug=club)
    rows = agenda.club_nights(club)
    feed = request.build_absolute_uri(reverse("club_feed", args=[club.slug]))
    return render(
        request,
        "season/calendar.html",
        {
            "club": club,
            "rows": rows,
            "feed": feed,
            "webcal": "webcal://" + feed.split("://", 1)[1],
            "is_director": club.is_director(request.user),
            "today": timezone.localdate(),
            "matches": agenda.club_league_matches(club),
        },
    )


def club_feed(request, club):
    club = get_object_or_404(Club, slug=club)
    events = agenda.events(agenda.club_nights(club), _base_url(request))
    events += agenda.league_events(agenda.club_league_matches(club), _base_url(request))
    return _ics(feeds.calendar(club.name, events), club.slug)


def team_feed(request, club, league, team):
    """A team's matches in a league as an iCalendar feed, for anyone."""
    team = get_object_or_404(
        Team.objects.select_related("league"), pk=team, league__slug=league, league__club__slug=club
    )
    matches = team_matches(team)
    events = agenda.league_events(matches, _base_url(request))
    return _ics(feeds.calendar(f"{team.league.name}: {team.name}", events), f"{team.league.slug}-{team.pk}")


def competition_calendar(request, club, competition):
    competition = get_object_or_404(Competition.objects.select_related("club"), club__slug=club, slug=competition)
    rows = agenda.competition_nights(competition)
    feed = request.build_absolute_uri(reverse("club_feed", args=[competition.club.slug]))
    return render(
        request,
        "season/calendar.html",
        {
            "club": competition.club,
            "competition": competition,
            "rows": rows,
            "feed": feed,
            "webcal": "webcal://" + feed.split("://", 1)[1],
            "today": timezone.localdate(),
            "is_director": competition.club.is_director(request.user),
        },
    )


def member_feed(request, token):
    """The member's private feed: anyone with the token reads it, so the token is long and can be renewed."""
    calendar = MemberCalendar.objects.select_related("member__club").filter(token=token).first()
    if calendar is None:
        raise Http404
    member = calendar.member
    events = agenda.events(agenda.member_nights(member), _base_url(request), uid_suffix=f"-m{member.pk}")
    return _ics(feeds.calendar(f"{member.club.name}: {member.full_name}", events), "clubavond")


# The TD's -------------------------------------------------------------------------------------


@login_required
def plan_season(request, club):
    """Seasons and their nights: a new season, several nights at once."""
    club = directed_club(request, club)
    seasons = list(club.seasons.all())
    season = next((s for s in seasons if str(s.pk) == request.GET.get("season")), seasons[0] if seasons else None)
    # its own prefix: the nights form has a start too (a time), and ids on a page are unique
    action = ActionForm.of(request) if request.method == "POST" else ""
    seen = {"based_on": planning.plan_seen(club)}
    season_form = SeasonForm(request.POST if action == "season" else None, prefix="season", initial=seen)
    nights_form = NightsForm(
        request.POST if action == "nights" else None, initial=seen | {"season": season and season.pk}
    )
    if action == "season" and season_form.is_valid():
        try:
            with transaction.atomic():
                planning.check_plan(club, season_form.cleaned_data["based_on"])
                season = season_form.save(commit=False)
                season.club = club
                season.save()
                record(request.user, "season-added", season, None, values(season, "name", "start", "end"))
        except ValidationError as error:  # another TD planned meanwhile: the page shows it
            flash_errors(request, error)
            return redirect("plan_season", club.slug)
        messages.success(request, _("Season %(name)s added.") % {"name": season.name})
        return redirect(reverse("plan_season", args=[club.slug]) + f"?season={season.pk}")
    if action == "nights":
        if not nights_form.is_valid() and "season" in nights_form.errors:
            raise Http404
        if nights_form.is_valid():
            data = nights_form.cleaned_data
            season = get_object_or_404(Season, club=club, pk=data["season"])
            try:
                dates = planning.weekly_dates(data["first"], data["last"], data["weekday"], data["skip"])
                added = planning.add_nights(season, dates, data["start"], data["kind"], data["note"], request.user,
                                            based_on=data["based_on"])  # fmt: skip
            except StaleAction as error:  # another TD planned meanwhile: the page shows it
                flash_errors(request, error)
                return redirect(reverse("plan_season", args=[club.slug]) + f"?season={season.pk}")
            except ValidationError as error:
                nights_form.add_error(None, error)
            else:
                messages.success(request, _("%(n)s club nights added.") % {"n": len(added)})
                return redirect(reverse("plan_season", args=[club.slug]) + f"?season={season.pk}")
    rows = []
    if season:
        rows = [r for r in agenda.club_nights(club) if r.night.season_id == season.pk]
    return render(
        request,
        "season/plan.html",
        {
            "club": club,
            "seasons": seasons,
            "season": season,
            "rows": rows,
            "season_form": season_form,
            "nights_form": nights_form,
            "competitions": club.competitions.all(),
        },
    )


@login_required
def edit_night(request, club, pk):
    """Move a night (its rounds go with it) or change its kind and note."""
    club = directed_club(request, club)
    night = get_object_or_404(ClubNight.objects.select_related("season"), season__club=club, pk=pk)
    action = ActionForm.of(request) if request.method == "POST" else ""
    if action == "delete":
        return _remove_night(request, club, night)
    seen = {"based_on": planning.night_seen(night)}
    form = NightForm(request.POST or None, instance=ClubNight.objects.get(pk=night.pk), initial=seen)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["kind"] != ClubNight.Kind.HOLIDAY or not night.planned_rounds.exists():
            try:
                with transaction.atomic():
                    planning.check_night(night, data["based_on"])
                    planning.move_night(night, data["date"], data["start"], request.user)
                    before = values(night, "end", "kind", "note")
                    ClubNight.objects.filter(pk=night.pk).update(end=data["end"], kind=data["kind"], note=data["note"])
                    record(request.user, "night-changed", night, before,
                           {"end": data["end"], "kind": data["kind"], "note": data["note"]})  # fmt: skip
            except StaleAction as error:  # another TD changed the night meanwhile: the page shows it
                flash_errors(request, error)
                return redirect("edit_night", club.slug, night.pk)
            except ValidationError as error:
                form.add_error("date", error)
            else:
                messages.success(request, _("Club night saved."))
                return redirect(reverse("plan_season", args=[club.slug]) + f"?season={night.season_id}")
        else:
            form.add_error("kind", _("Rounds are planned on this night: plan them on another night first."))
    rounds = night.planned_rounds.select_related("competition")
    context = {"club": club, "night": night, "form": form, "rounds": rounds} | seen
    return render(request, "season/night.html", context)


def _remove_night(request, club: Club, night: ClubNight):
    form = RemoveNightForm(request.POST)
    if night.planned_rounds.exists():
        messages.error(request, _("Rounds are planned on this night: plan them on another night first."))
        return redirect("edit_night", club.slug, night.pk)
    try:
        if not form.is_valid():
            raise ValidationError(_("The form is out of date; reload the page."))
        with transaction.atomic():
            planning.check_night(night, form.cleaned_data["based_on"])
            record(request.user, "night-removed", night, values(night, "date", "start", "kind", "note"), None)
            night.delete()
    except ValidationError as error:
        flash_errors(request, error)
        return redirect("edit_night", club.slug, night.pk)
    messages.success(request, _("Club night removed."))
    return redirect(reverse("plan_season", args=[club.slug]) + f"?season={night.season_id}")


@login_required
def plan_rounds(request, club, competition):
    """The competition's rounds on the season's nights; 'fill' suggests one round a night from a date."""
    competition = directed_competition(request, club, competition)
    nights = list(ClubNight.objects.filter(season__club=competition.club).select_related("season"))
    if competition.season_id:
        nights = [n for n in nights if n.season_id == competition.season_id]
    count = competition.planned_rounds() or competition.rounds or 0
    current = planning.round_nights(competition)
    by_pk = {str(n.pk): n for n in nights}
    if request.method == "POST":
        form = PlanRoundsForm(request.POST, count=count, nights=nights)
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
            return redirect("plan_rounds", competition.club.slug, competition.slug)
        data = form.cleaned_data
        if data["action"] == "fill":
            start = data["from"]
            usable = [n for n in nights if n.date >= start and n.pk not in {x.pk for x in current.values()}]
            free = [n for n in range(1, count + 1) if n not in current]
            plan = dict(zip(free, [n for n in usable if n.holds_rounds], strict=False))
        else:
            plan = {number: by_pk.get(data[f"round-{number}"]) for number in range(1, count + 1)}
        try:
            planning.plan_rounds(competition, plan, request.user, data["based_on"])
        except ValidationError as error:
            flash_errors(request, error)
        else:
            messages.success(request, _("Rounds planned."))
        return redirect("plan_rounds", competition.club.slug, competition.slug)
    rows = [(number, current.get(number)) for number in range(1, count + 1)]
    return render(
        request,
        "season/plan_rounds.html",
        {"competition": competition, "club": competition.club, "rows": rows, "nights": nights,
         "based_on": planning.rounds_seen(competition)},
    )  # fmt: skip


@login_required
def present_list(request, club, competition):
    """The coming round's presence: the members' answers (who, when) and the TD's decision."""
    competition = directed_competition(request, club, competition)
    number = signoff.next_round_number(competition)
    rules_obj = SignOffRules.of(competition)
    action = ActionForm.of(request) if request.method == "POST" else ""
    seen = {"based_on": signoff.rules_seen(competition)}
    rules_form = SignOffRulesForm(request.POST if action == "rules" else None, instance=rules_obj, initial=seen)
    if not rules.allows_half_byes(competition.engine):  # requested byes are a Swiss regulation only
        del rules_form.fields["half_byes"], rules_form.fields["no_byes_last_rounds"]
    if action == "rules":
        if rules_form.is_valid():
            try:
                signoff.save_rules(rules_form.save(commit=False), request.user, rules_form.cleaned_data["based_on"])
            except ValidationError as error:  # another TD saved them meanwhile: the page shows theirs
                flash_errors(request, error)
            else:
                messages.success(request, _("Sign-off rules saved."))
            return redirect("present_list", competition.club.slug, competition.slug)
    elif request.method == "POST":
        _td_decides(request, competition)
        return redirect("present_list", competition.club.slug, competition.slug)
    planned = competition.planned_rounds()
    paired = Round.objects.filter(competition=competition, number=number, paired_at__isnull=False).exists()
    rows = signoff.present_list(competition, number)
    night = planning.round_nights(competition).get(number)
    return render(
        request,
        "season/present.html",
        {
            "competition": competition,
            "club": competition.club,
            "number": number,
            "rows": rows,
            "night": night,
            "done": bool(planned and number > planned),
            "scheduled": not rules.signs_off(competition.engine),
            "paired": paired,
            "rules_form": rules_form,
            "choices": AbsenceForm.choices_for(competition.engine),
            "present_count": sum(1 for r in rows if not r.presence),
            "answered": sum(1 for r in rows if r.answers),
        },
    )


def _td_decides(request, competition: Competition) -> None:
    form = PresenceForm(request.POST)
    if not form.is_valid():
        if "participant" in form.errors:
            raise Http404
        messages.error(request, _("Choose one of the listed kinds."))
        return
    participant = get_object_or_404(Participant, competition=competition, pk=form.cleaned_data["participant"])
    try:
        signoff.td_decides(participant, form.cleaned_data["kind"] or None, request.user, form.cleaned_data["shown"])
    except ValidationError as error:
        flash_errors(request, error)


# A member's own page --------------------------------------------------------------------------


def _member(request) -> Member | None:
    return Member.objects.select_related("club").filter(user=request.user).first()


@login_required
def my_page(request):
    member = _member(request)
    my_language = own_language(request.user) or translation.get_language()
    if member is None:
        return render(request, "season/me.html", {"member": None, "my_language": my_language})
    calendar = MemberCalendar.of(member)
    participations = list(member.participations.select_related("competition__season", "competition__club"))
    public = Round.objects.filter(competition__in=[p.competition for p in participations]).exclude(
        status=Round.Status.DRAFT
    )
    ids = [p.id for p in participations]
    games = sorted(
        Game.objects.filter(Q(white_id__in=ids) | Q(black_id__in=ids), round__in=public).select_related(
            "round__competition", "white__member", "black__member"
        ),
        key=lambda g: (g.round.published_at or g.round.paired_at or timezone.now(), g.round.competition.name),
        reverse=True,
    )
    season = _current_season(participations)
    if season:
        games = [g for g in games if g.round.competition.season_id in (season.pk, None)]
    next_games = [g for g in games if g.round.status == Round.Status.PUBLISHED and not g.result]
    for g in games:
        g.mine_white = g.white_id in ids
    feed = request.build_absolute_uri(reverse("member_feed", args=[calendar.token]))
    answers = signoff.SignOff.objects.filter(participant__in=ids).select_related(
        "participant__competition", "answered_by"
    )[:10]
    nights = [r for r in agenda.member_nights(member) if r.night.date >= timezone.localdate()][:6]
    return render(
        request,
        "season/me.html",
        {
            "member": member,
            "calendar": calendar,
            "feed": feed,
            "webcal": "webcal://" + feed.split("://", 1)[1],
            "coming": signoff.coming_rounds(member),
            "games": games,
            "next_games": next_games,
            "season": season,
            "answers": answers,
            "nights": nights,
            "team_matches": coming_matches(member, timezone.localdate()),
            "has_email": bool(request.user.email),
            "my_language": my_language,
        },
    )


def _current_season(participations) -> Season | None:
    seasons = [p.competition.season for p in participations if p.competition.season]
    return max(seasons, key=lambda s: (s.start or timezone.localdate().replace(year=1), s.pk), default=None)


@login_required
def competition_sign_off(request, club, competition):
    """A member's answer for the coming round of one competition (the same card as on the member's page)."""
    competition = get_object_or_404(Competition.objects.select_related("club"), club__slug=club, slug=competition)
    member = _member(request)
    participant = competition.participants.filter(member=member).first() if member else None
    if participant is None:
        raise PermissionDenied
    if request.method == "POST":
        _answer(request, participant)
        return redirect("notice", competition.club.slug, competition.slug)
    return render(
        request, "season/notice.html",
        {"competition": competition, "participant": participant, "coming": signoff.coming_rounds_of(participant),
         "back": request.path},
    )  # fmt: skip


@login_required
@require_POST
def sign_off(request, participant):
    member = _member(request)
    participant = get_object_or_404(Participant.objects.select_related("competition"), pk=participant, member=member)
    _answer(request, participant)
    return redirect("my_page")


@login_required
@require_POST
def sign_off_rounds(request):
    """A member's answers for several coming rounds at once (`answer-<participant>-<round>` fields); only the
    answers that change something are recorded, each checked by the rules on its own."""
    member = _member(request)
    if member is None:
        raise Http404
    mine = {p.pk: p for p in member.participations.select_related("competition")}
    form = AnswersForm(request.POST, participants=mine)
    saved, refused = [], []
    for pk, number, value in form.answers() if form.is_valid() else []:
        participant = mine[pk]
        coming = next((c for c in signoff.coming_rounds_of(participant) if c.number == number), None)
        if coming is not None and coming.current == value:
            continue  # unchanged
        try:
            signoff.answer(participant, number, value, request.user)
        except ValidationError as error:
            refused.append(f"{participant.competition.name}, {_('round')} {number}: {' '.join(error.messages)}")
        else:
            saved.append(f"{participant.competition.name} {number}")
    for text in refused:
        messages.error(request, text)
    if saved:
        messages.success(request, ngettext("%(n)s answer recorded.", "%(n)s answers recorded.", len(saved))
                         % {"n": len(saved)})  # fmt: skip
    elif not refused:
        messages.info(request, _("Nothing changed."))
    back = form.cleaned_data.get("next", "") if form.is_valid() else ""
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("my_page")


def _answer(request, participant) -> None:
    form = AnswerForm(request.POST)
    data = form.cleaned_data if form.is_valid() else {}
    number = data.get("round") or 0
    try:
        signoff.answer(participant, number, data.get("answer", ""), request.user)
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(
            request,
            _("Your answer for %(competition)s, round %(n)s is recorded.")
            % {"competition": participant.competition.name, "n": number},
        )


@login_required
@require_POST
def my_settings(request):
    member = _member(request)
    if member is None:
        raise Http404
    calendar = MemberCalendar.of(member)
    form = MySettingsForm(request.POST)
    data = form.cleaned_data if form.is_valid() else {"action": "", "mail_pairings": False}
    if data["action"] == "new-feed":
        calendar.token = MemberCalendar._meta.get_field("token").default()
        calendar.save(update_fields=["token"])
        messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    else:
        calendar.mail_pairings = data["mail_pairings"]
        calendar.save(update_fields=["mail_pairings"])
        if calendar.mail_pairings and not request.user.email:
            messages.warning(
                request, _("Your account has no e-mail address: add one under your user name at the top of the page.")
            )
        else:
            messages.success(request, _("Saved."))
    return redirect("my_page")
