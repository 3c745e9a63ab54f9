"""Forms of the season calendar: a season, its club nights, one night and sign-off rules."""

from __future__ import annotations

from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Season
from clubs.widgets import PickerMixin

from .models import ClubNight, SignOffRules

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class SeasonForm(PickerMixin, forms.ModelForm):
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

    class Meta:
        model = ClubNight
        fields = ["date", "start", "end", "kind", "note"]


class SignOffRulesForm(forms.ModelForm):
    class Meta:
        model = SignOffRules
        fields = ["open", "deadline_hours", "half_byes", "no_byes_last_rounds"]
        # in words first, the rule behind it in brackets (printed small)
        help_texts = {"half_byes": _("Swiss systems: 0 allows none; the tournament's regulations decide (seed 001 F9)")}
