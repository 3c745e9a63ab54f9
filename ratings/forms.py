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
