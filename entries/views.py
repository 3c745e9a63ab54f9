"""The entry pages: the public form and entry list, the player's own link, the TD's inbox and check-in.

Thin views: every write goes through `entries.services`. A form that is closed, a player who does not
fit the TD's settings, a double entry or a flood from one address or for one e-mail address is refused
with a message saying so, and nothing is saved.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import throttle
from accounts.client_ip import client_ip
from clubs.models import Member
from pairing.services import next_round_number
from ratings.lists import name_key
from season import signoff
from tournaments.access import club_competition, directed_competition
from tournaments.flash import flash_errors
from tournaments.forms import ActionForm
from tournaments.models import TITLE_ORDER, Competition

from . import lookup, services
from .forms import CheckInForm, DecisionForm, EntryForm, EntrySettingsForm, LookupForm, PlayerEntryForm, RefuseForm
from .models import Entry

LOOKUP_LIMIT = 60  # look-ups an hour from one address: enough to correct a typo, too few to read the lists


def _throttled(request, scope: str, values: dict[str, str], limits: dict[str, int]) -> bool:
    return not throttle.allow(scope, values, limits, settings.ENTRY_WINDOW_SECONDS)


# The public pages --------------------------------------------------------------------------------


def _looked_up(request, competition: Competition, rules):
    """The form filled in from the rating lists (the look-up button, or a player picked among those whose
    name begins as typed); the data as typed otherwise. Returns (form, found, candidates)."""
    typed = EntryForm(request.POST, rules=rules)
    data = {name: typed[name].value() for name in typed.fields}  # as typed, through the form's fields
    if _throttled(request, "entry-lookup", {"client": client_ip(request)}, {"client": LOOKUP_LIMIT}):
        messages.error(request, _("Too many look-ups from your address: fill in the form yourself."))
        return EntryForm(rules=rules, initial=data), None, []
    query = LookupForm(data)
    found, candidates = None, []
    pick = LookupForm.picked(request)
    if pick is not None:
        found = lookup.picked(pick)
    elif query.is_valid():
        found = lookup.find(competition.club, **query.cleaned_data)
        if found is None and (query.cleaned_data["first_name"] or query.cleaned_data["last_name"]):
            candidates = lookup.candidates(query.cleaned_data["first_name"], query.cleaned_data["last_name"])
    if found is None and not candidates:
        messages.info(request, _("You are not in the rating lists: fill in the form yourself."))
    elif found is not None:
        # A national id is filled in only when it was typed: a name never reveals a member's club number.
        shown = ("first_name", "last_name", "federation", "fide_id") + (
            ("national_id",) if found.how == "national-id" else ()
        )
        for field in shown:
            data[field] = getattr(found, field)
    return EntryForm(rules=rules, initial=data), found, candidates


def entry_form(request, club, competition):
    """The competition's entry form: anyone may enter while the TD keeps it open (no account needed)."""
    competition = club_competition(club, competition)
    rules = services.settings_of(competition)
    form, found, candidates = EntryForm(rules=rules), None, []
    if request.method == "POST" and rules.is_open():
        if LookupForm.asked(request):
            form, found, candidates = _looked_up(request, competition, rules)
        else:
            form = EntryForm(request.POST, rules=rules, instance=Entry(competition=competition))
            if form.is_valid():
                return _submitted(request, competition, form)
    return _form_page(request, competition, form, 200 if not form.errors else 400, found, candidates)


def _form_page(request, competition: Competition, form: EntryForm, status: int, found=None, candidates=()):
    rules = services.settings_of(competition)
    context = {"competition": competition, "club": competition.club, "rules": rules, "form": form, "found": found,
               "candidates": candidates, "open": rules.is_open(),
               "taken": services.places_taken(competition)}  # fmt: skip
    return render(request, "entries/form.html", context, status=status)


def _submitted(request, competition: Competition, form: EntryForm):
    entry = form.instance
    asked = {"client": client_ip(request), "email": form.cleaned_data["email"]}
    if _throttled(request, "entry", asked, settings.ENTRY_LIMITS):
        form.add_error(None, _("Too many entries from your address or for your e-mail: try again in an hour."))
        return _form_page(request, competition, form, 429)
    entry.language = translation.get_language() or settings.LANGUAGE_CODE
    try:
        services.submit(entry)
    except ValidationError as error:
        form.add_error(None, error)
        return _form_page(request, competition, form, 400)
    if entry.status == Entry.Status.WAITING:
        messages.warning(request, _("The field is full: you are on the waiting list."))
    else:
        messages.success(request, _("Your entry has been received; the tournament director will confirm it."))
    return redirect("my_entry", entry.token)


def ranking(entry: Entry) -> tuple:
    """Seed 000 A2: rating, then title, then name (an entry list is ordered as start numbers will be)."""
    title = entry.title if entry.title in TITLE_ORDER else ""
    return (-entry.rating, TITLE_ORDER.index(title), entry.last_name.lower(), entry.first_name.lower())


@require_GET
def entry_list(request, club, competition):
    """The public entry list: sorted by rating, with the places left; birth years and e-mails never shown."""
    competition = club_competition(club, competition)
    rules = services.settings_of(competition)
    shown = competition.entries.filter(status__in=[Entry.Status.ACCEPTED, Entry.Status.PENDING])
    rows = sorted(shown, key=ranking)
    waiting = competition.entries.filter(status=Entry.Status.WAITING).count()
    left = max(rules.max_players - len(rows), 0) if rules.max_players else None
    context = {"competition": competition, "club": competition.club, "rows": rows, "waiting": waiting,
               "left": left, "rules": rules, "open": rules.is_open()}  # fmt: skip
    return render(request, "entries/list.html", context)


def my_entry(request, token):
    """The player's own link (from his mails): his entry, the payment link, taking a place offered from the
    waiting list, withdrawing or a bye."""
    entry = get_object_or_404(Entry.objects.select_related("competition__club", "participant"), token=token)
    coming = None
    if entry.status == Entry.Status.ACCEPTED and entry.participant is not None:
        coming = signoff.coming_round(entry.participant)
    if request.method == "POST":
        form = PlayerEntryForm(request.POST)
        data = form.cleaned_data if form.is_valid() else {}
        try:
            if data.get("action") == "withdraw" and data["confirm"]:
                services.withdraw(entry)
                messages.success(request, _("You have withdrawn from the competition."))
            elif data.get("action") == "take-place":
                services.confirm_offer(entry)
                messages.success(request, _("The place is yours; the tournament director will confirm your entry."))
            elif data.get("action") == "answer" and coming is not None and coming.open:
                signoff.answer(entry.participant, coming.number, data["answer"], None)
                messages.success(request, _("Your answer for round %(n)s is recorded.") % {"n": coming.number})
            else:
                messages.error(request, _("Nothing was changed: tick the box to confirm, or choose an answer."))
        except ValidationError as error:
            flash_errors(request, error)
        except KeyError:
            messages.error(request, _("Choose one of the listed answers."))
        return redirect("my_entry", entry.token)
    rules = services.settings_of(entry.competition)
    context = {"entry": entry, "competition": entry.competition, "club": entry.competition.club, "rules": rules,
               "coming": coming}  # fmt: skip
    return render(request, "entries/mine.html", context)


# The TD's pages ----------------------------------------------------------------------------------


def _candidates(entry: Entry, members: list[Member]) -> list[Member]:
    """Members and earlier guests the entry may be the same player as: same id, or same name."""
    key = name_key(entry.first_name, entry.last_name)
    found = []
    for member in members:
        same_id = (entry.fide_id and member.fide_id.lstrip("0") == entry.fide_id.lstrip("0")) or (
            entry.national_id and member.national_id.lstrip("0") == entry.national_id.lstrip("0")
        )
        if same_id or name_key(member.first_name, member.last_name) == key:
            found.append(member)
    return found[:5]


@login_required
def entry_inbox(request, club, competition):
    """The TD's inbox: the entry settings, pending entries with what the lists say, the waiting list, the rest."""
    competition = directed_competition(request, club, competition)
    rules = services.settings_of(competition)
    action = ActionForm.of(request) if request.method == "POST" else ""
    initial = {"based_on": services.page_seen(competition, ("entry-settings",))}
    form = EntrySettingsForm(request.POST if action == "settings" else None, instance=rules, initial=initial)
    if request.method == "POST":
        if action == "settings" and form.is_valid():
            try:
                services.save_settings(form.save(commit=False), request.user, form.cleaned_data["based_on"])
            except ValidationError as error:  # another TD saved them meanwhile: the page shows theirs
                flash_errors(request, error)
            else:
                messages.success(request, _("Entry settings saved."))
            return redirect("entry_inbox", competition.club.slug, competition.slug)
        if action == "remind":
            sent = services.remind(competition, request.user)
            messages.success(request, _("Reminders sent to %(n)s players.") % {"n": sent})
            return redirect("entry_inbox", competition.club.slug, competition.slug)
    entered = set(competition.participants.values_list("member_id", flat=True))
    members = [m for m in competition.club.members.all() if m.pk not in entered]
    rows, seen = [], services.seen(competition)
    for entry in competition.entries.select_related("member", "decided_by"):
        entry.seen = seen.get(entry.pk, 0)
        found = lookup.find(competition.club, entry.fide_id, entry.national_id, entry.first_name, entry.last_name,
                            entry.birth_year) if entry.active else None  # fmt: skip
        rows.append({"entry": entry, "found": found, "differences": lookup.differences(entry, found),
                     "candidates": _candidates(entry, members) if entry.active else []})  # fmt: skip
    by_status = {status: [r for r in rows if r["entry"].status == status] for status in Entry.Status.values}
    context = {"competition": competition, "club": competition.club, "form": form, "rules": rules,
               "by_status": by_status, "accepted": len(by_status["accepted"]), "refuse_form": RefuseForm(),
               "public_link": request.build_absolute_uri(reverse("entry_form", args=[club, competition.slug])),
               }  # fmt: skip
    return render(request, "entries/inbox.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def entry_decide(request, club, competition, pk):
    """One decision on one entry: accept, merge with a member, refuse with a reason, waiting list, withdraw,
    paid."""
    competition = directed_competition(request, club, competition)
    entry = get_object_or_404(Entry, competition=competition, pk=pk)
    form = DecisionForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError([message for messages_ in form.errors.values() for message in messages_])
        action, based_on = form.cleaned_data["action"], form.cleaned_data["based_on"]
        if action == "accept":
            services.accept(entry, request.user, based_on=based_on)
        elif action == "merge":
            member = get_object_or_404(Member, club=competition.club, pk=form.cleaned_data["member"])
            services.accept(entry, request.user, member=member, based_on=based_on)
        elif action == "refuse":
            services.refuse(entry, request.user, form.cleaned_data["reason"], based_on)
        elif action == "wait":
            services.to_waiting_list(entry, request.user, based_on)
        elif action == "remove":
            services.remove(entry, request.user, based_on)
        else:
            services.set_flag(entry, request.user, "paid", action == "paid", based_on)
    except ValidationError as error:
        flash_errors(request, error)
    else:
        messages.success(request, _("%(name)s: %(status)s.") % {"name": entry.full_name,
                                                                  "status": _entry_state(entry.pk)})  # fmt: skip
    return redirect("entry_inbox", competition.club.slug, competition.slug)


def _entry_state(pk: int) -> str:
    entry = Entry.objects.get(pk=pk)
    return f"{entry.get_status_display()}{', ' + _('paid') if entry.paid else ''}"


@login_required
def check_in(request, club, competition):
    """Check-in on the day: who of the accepted players has arrived; closing it leaves the others out of round
    1's pairing (absent). A search box narrows the list on a phone."""
    competition = directed_competition(request, club, competition)
    if request.method == "POST":
        form = CheckInForm(request.POST)
        data = form.cleaned_data if form.is_valid() else {}
        try:
            if not data:
                raise ValidationError(_("The form is out of date; reload the page."))
            if data["action"] == "close":
                absent, present = services.close_check_in(competition, request.user, data["based_on"])
                messages.success(request, _("%(present)s players arrived; %(absent)s left out of round 1.")
                                 % {"present": present, "absent": absent})  # fmt: skip
            else:
                entry = get_object_or_404(Entry, competition=competition, status=Entry.Status.ACCEPTED,
                                          pk=data["entry"])  # fmt: skip
                services.set_flag(entry, request.user, "arrived", data["arrived"] == "1", data["based_on"])
        except ValidationError as error:
            flash_errors(request, error)
        query = data.get("q", "")
        return redirect(f"{request.path}?{urlencode({'q': query})}" if query else request.path)
    query = request.GET.get("q", "").strip()[:80]
    accepted = competition.entries.filter(status=Entry.Status.ACCEPTED).select_related("participant")
    if query:
        accepted = accepted.filter(Q(first_name__icontains=query) | Q(last_name__icontains=query)
                                   | Q(club_name__icontains=query))  # fmt: skip
    rows = sorted(accepted, key=lambda e: (e.last_name.lower(), e.first_name.lower()))
    seen = services.seen(competition)
    for entry in rows:
        entry.seen = seen.get(entry.pk, 0)
    everyone = competition.entries.filter(status=Entry.Status.ACCEPTED)
    context = {"competition": competition, "club": competition.club, "rows": rows, "query": query,
               "arrived": everyone.filter(arrived=True).count(), "total": everyone.count(),
               "round_one": next_round_number(competition) == 1,
               "seen": services.page_seen(competition, services.CHECK_IN_ACTIONS)}  # fmt: skip
    return render(request, "entries/check_in.html", context)
