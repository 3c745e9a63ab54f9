"""Forms for a club's members: one member, a guest entered for a competition, a CSV file of members."""

from django import forms
from django.utils.translation import gettext_lazy as _

from . import validation
from .models import Club, Member
from .widgets import PickerMixin


class ClubSearchForm(forms.Form):
    """The home page's search: part of a club's name or city (NUL characters refused, as in every form)."""

    q = forms.CharField(label=_("Search clubs"), max_length=100, required=False, strip=True)


class MemberForm(PickerMixin, validation.ModelLimitsMixin, forms.ModelForm):
    class Meta:
        model = Member
        fields = [
            "first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating",
            "federation", "national_id", "national_rating",
        ]  # fmt: skip

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def _unique_in_club(self, name: str) -> str:
        value = self.cleaned_data[name].strip()
        if value and self.club is not None:
            others = self.club.members.filter(**{name: value}).exclude(pk=self.instance.pk)
            if others.exists():
                raise forms.ValidationError(
                    _("%(field)s %(value)s is already a member's.") % {"field": name, "value": value}
                )
        return value

    def clean_fide_id(self) -> str:
        return self._unique_in_club("fide_id")

    def clean_national_id(self) -> str:
        return self._unique_in_club("national_id")


class GuestForm(validation.ModelLimitsMixin, forms.ModelForm):
    """A guest entered on the spot: a name and a rating are enough."""

    class Meta:
        model = Member
        fields = ["first_name", "last_name", "national_rating", "fide_rating", "title"]


class ConfirmForm(forms.Form):
    """The button that confirms a preview (`confirm`)."""

    confirm = forms.BooleanField(required=False)


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


class ClubLanguageForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["language"]
