"""Forms of the season calendar: a season, its club nights, one night, the rounds on nights, sign-off rules
and the presence the TD sets; a member's answers and own settings. A TD's form carries `based_on`, what
its page showed (`season.planning`, `season.signoff`)."""

from __future__ import annotations

import re
from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Season
from clubs.widgets import PickerMixin
from tournaments.forms import AbsenceForm

from .models import ClubNight, SignOffRules

ANSWER_FIELD = re.compile(r"answer-(\d{1,18})-(\d{1,4})")
WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


def _based_on() -> forms.IntegerField:
    return forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class SeasonForm(PickerMixin, forms.ModelForm):
    based_on = _based_on()  # `planning.plan_seen`

    class Meta:
        model = Season
        fields = ["name", "start", "end"]

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise forms.ValidationError(_("The season ends before it starts."))
        return data


class NightsForm(PickerMixin, forms.Form):
    """Several nights at once: every chosen weekday between two dates, without the skipped dates."""

    first = forms.DateField(label=_("from"))
    last = forms.DateField(label=_("until"))
    weekday = forms.TypedChoiceField(label=_("every"), choices=WEEKDAYS, coerce=int, initial=3)
    start = forms.TimeField(label=_("start time"), initial="20:00")
    skip = forms.CharField(
        label=_("skip these dates"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("one date a line or separated by commas, as 2026-12-24"),
    )
    kind = forms.ChoiceField(label=_("kind"), choices=ClubNight.Kind.choices, initial=ClubNight.Kind.CLUB_NIGHT)
    note = forms.CharField(label=_("note"), max_length=120, required=False)
    season = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    based_on = _based_on()  # `planning.plan_seen`

    def clean_skip(self) -> set[date]:
        text = self.cleaned_data["skip"].replace(",", "\n")
        dates = set()
        for item in (line.strip() for line in text.splitlines()):
            if not item:
                continue
            try:
                dates.add(date.fromisoformat(item))
            except ValueError:
                raise forms.ValidationError(
                    _("“%(text)s” is not a date; write it as 2026-12-24.") % {"text": item}
                ) from None
        return dates

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("last") and data["last"] < data["first"]:
            raise forms.ValidationError(_("The last date comes before the first."))
        return data


class NightForm(PickerMixin, forms.ModelForm):
    """Move a night (date, start) or change what it is."""

    based_on = _based_on()  # `planning.night_seen`

    class Meta:
        model = ClubNight
        fields = ["date", "start", "end", "kind", "note"]


class SignOffRulesForm(forms.ModelForm):
    based_on = _based_on()  # `signoff.rules_seen`

    class Meta:
        model = SignOffRules
        fields = ["open", "deadline_hours", "half_byes", "no_byes_last_rounds"]
        # in words first, the rule behind it in brackets (printed small)
        help_texts = {"half_byes": _("Swiss systems: 0 allows none; the tournament's regulations decide (seed 001 F9)")}


class RemoveNightForm(forms.Form):
    based_on = _based_on()  # `planning.night_seen`


class PlanRoundsForm(forms.Form):
    """The competition's rounds on the club's nights (`round-N`: a night's key, "" for none), or, with
    `action` "fill", the unplanned rounds one a night from the date `from`."""

    action = forms.ChoiceField(choices=[("", ""), ("fill", "fill")], required=False)
    based_on = _based_on()  # `planning.rounds_seen`

    def __init__(self, *args, count: int, nights: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from"] = forms.DateField(
            required=False, error_messages={"invalid": _("Give the first date as 2026-09-03.")}
        )
        keys = [("", "")] + [(str(night.pk), str(night.pk)) for night in nights]
        for number in range(1, count + 1):
            self.fields[f"round-{number}"] = forms.ChoiceField(
                choices=keys, required=False,
                error_messages={"invalid_choice": _("Round %(n)s: choose one of the club nights.") % {"n": number}},
            )  # fmt: skip

    def clean(self):
        data = super().clean()
        if data.get("action") == "fill" and not data.get("from") and "from" not in self.errors:
            self.add_error("from", _("Give the first date as 2026-09-03."))
        return data


class PresenceForm(AbsenceForm):
    """The presence the TD sets for a player (`participant`) on the present list: a kind and `shown`, the
    presence the page showed, as in `AbsenceForm`."""

    participant = forms.IntegerField(min_value=1, max_value=2**63 - 1)


class AnswerForm(forms.Form):
    """A member's answer for one coming round."""

    round = forms.IntegerField(required=False, min_value=1, max_value=9999)
    answer = forms.CharField(required=False, max_length=20)


class AnswersForm(forms.Form):
    """A member's answers for several coming rounds: a field `answer-<participant>-<round>` for each round
    posted of one of the member's `participants` (the rules then judge the round); `next`, the page to go
    back to."""

    next = forms.CharField(required=False, max_length=2000)

    def __init__(self, *args, participants, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.data:
            found = ANSWER_FIELD.fullmatch(name)
            if found and int(found[1]) in participants:
                self.fields[name] = forms.CharField(required=False, max_length=20)

    def answers(self) -> list[tuple[int, int, str]]:
        """(participant, round, answer) of every answer posted, in the order posted."""
        found = []
        for name, value in self.cleaned_data.items():
            if match := ANSWER_FIELD.fullmatch(name):
                found.append((int(match[1]), int(match[2]), value))
        return found


class MySettingsForm(forms.Form):
    """A member's own settings: mails with the pairings, or (`action` "new-feed") a new calendar address."""

    action = forms.ChoiceField(choices=[("", ""), ("new-feed", "new-feed")], required=False)
    mail_pairings = forms.BooleanField(required=False)
