"""The upload form of a rating list."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs import validation
from clubs.widgets import PickerMixin

from .models import RatingSystem


class RatingListForm(PickerMixin, forms.Form):
    source = forms.ChoiceField(label=_("List"), choices=RatingSystem.choices)
    file = forms.FileField(
        label=_("File"),
        help_text=_("FIDE: the TXT or XML download (zipped or not); KNSB and DSU: CSV with a header line."),
    )
    list_date = forms.DateField(label=_("Date of the list"), initial=timezone.localdate)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        validation.check_upload_size(upload, "rating-list")
        return upload


class TimeControlForm(forms.Form):
    """The time control the FIDE report rates by (checked by `adapter.set_time_control`); `based_on` is what
    the report page showed of it (`adapter.seen`, `TIME_CONTROL_ACTIONS`)."""

    time_control = forms.CharField(max_length=20, required=False)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class MatchesForm(forms.Form):
    """The name matches the TD confirms on a read list: `member-<id>`, the chosen line of the list ("none":
    none of them), one field for each member the list proposes (`members`)."""

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        for member in members:
            self.fields[f"member-{member}"] = forms.CharField(required=False, max_length=30)

    def lines(self) -> list[int]:
        """The chosen lines (anything else than a whole number chooses none)."""
        return [int(value) for value in self.cleaned_data.values() if validation.is_whole_number(value)]
