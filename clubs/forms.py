from django import forms
from django.utils.translation import gettext_lazy as _

from . import validation
from .models import Member


class MemberForm(validation.ModelLimitsMixin, forms.ModelForm):
    class Meta:
        model = Member
        fields = [
            "first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating",
            "federation", "national_id", "national_rating",
        ]  # fmt: skip
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"})}


class GuestForm(validation.ModelLimitsMixin, forms.ModelForm):
    """A guest entered on the spot: a name and a rating are enough."""

    class Meta:
        model = Member
        fields = ["first_name", "last_name", "national_rating", "fide_rating", "title"]


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            validation.check_upload_size(upload, "members")
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                data["text"] = raw.decode("latin-1")
        if not data.get("text"):
            raise forms.ValidationError(_("Choose a CSV file."))
        return data
