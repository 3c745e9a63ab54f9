"""The public entry form, the TD's entry settings and decisions.

Every typed value is checked as the importers check theirs (`clubs.validation`): lengths, NUL and other
control characters, ids of digits only, a federation of three letters, a plausible year of birth; names
and clubs that a spreadsheet would read as a formula are refused. A hidden field that people leave empty
(and form-filling robots do not) stops robots without any third-party service.
"""

from __future__ import annotations

import re
import unicodedata

from django import forms
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs import validation

from .models import Entry, EntrySettings

FEDERATION = re.compile(r"[A-Z]{3}")
NATIONAL_ID = re.compile(r"[0-9A-Za-z]{1,20}")
# The honeypot's name: a field a person never sees (hidden by the style sheet) nor fills in.
HONEYPOT = "website"


def control_characters(text: str, allow_newlines: bool = False) -> bool:
    """Whether `text` holds a control or format character (NUL, escapes, bidirectional overrides, ...)."""
    allowed = {"\n", "\r", "\t"} if allow_newlines else set()
    return any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") and c not in allowed for c in text)


def clean_name(value: str, label: str, required: bool = True) -> str:
    """A name or a club as typed, its spaces tidied; refused with the field's name when it cannot be stored
    or would be read as a spreadsheet formula in an export."""
    label = capfirst(label)
    if control_characters(value):
        raise forms.ValidationError(_("%(field)s holds a control character.") % {"field": label})
    value = " ".join(value.split())
    if value.startswith(validation.FORMULA_START):
        raise forms.ValidationError(_("%(field)s may not begin with =, +, -, or @.") % {"field": label})
    if value and not any(c.isalpha() for c in value):
        raise forms.ValidationError(_("%(field)s needs at least one letter.") % {"field": label})
    if required and not value:
        raise forms.ValidationError(_("Give your %(field)s.") % {"field": label.lower()})
    return value


class EntryForm(validation.ModelLimitsMixin, forms.ModelForm):
    """What a player types to enter: no account needed."""

    website = forms.CharField(required=False, label=_("Leave this field empty"),
                              widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}))  # fmt: skip

    class Meta:
        model = Entry
        fields = ["fide_id", "national_id", "first_name", "last_name", "email", "club_name", "federation",
                  "birth_year", "sex", "name_only", "note"]  # fmt: skip
        widgets = {
            "note": forms.Textarea(attrs={"rows": 3, "maxlength": 500}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "birth_year": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "fide_id": forms.TextInput(attrs={"inputmode": "numeric"}),
        }

    def __init__(self, *args, rules: EntrySettings | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if rules is None or not rules.ask_sex:
            del self.fields["sex"]

    def clean_website(self) -> str:
        if self.cleaned_data.get(HONEYPOT):
            raise forms.ValidationError(_("Leave this field empty."))
        return ""

    def clean_first_name(self) -> str:
        return clean_name(self.cleaned_data["first_name"], str(_("first name")))

    def clean_last_name(self) -> str:
        return clean_name(self.cleaned_data["last_name"], str(_("last name")))

    def clean_club_name(self) -> str:
        return clean_name(self.cleaned_data.get("club_name", ""), str(_("club")), required=False)

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()

    def clean_federation(self) -> str:
        value = self.cleaned_data.get("federation", "").strip().upper()
        if value and not FEDERATION.fullmatch(value):
            raise forms.ValidationError(_("A federation is three letters, e.g. NED, DEN, GER."))
        return value

    def clean_fide_id(self) -> str:
        value = self.cleaned_data.get("fide_id", "").strip()
        if value and not validation.is_whole_number(value):
            raise forms.ValidationError(_("A FIDE id is a number, e.g. 1503014."))
        return value

    def clean_national_id(self) -> str:
        value = self.cleaned_data.get("national_id", "").strip()
        if value and not NATIONAL_ID.fullmatch(value):
            raise forms.ValidationError(_("A national id holds only digits and letters."))
        return value

    def clean_birth_year(self):
        year = self.cleaned_data.get("birth_year")
        if year is not None and not 1900 <= year <= timezone.now().year:
            raise forms.ValidationError(_("Give a year of birth between 1900 and this year."))
        return year

    def clean_note(self) -> str:
        value = self.cleaned_data.get("note", "")
        if control_characters(value, allow_newlines=True):
            raise forms.ValidationError(_("The note holds a control character."))
        return value.strip()


class LookupForm(forms.Form):
    """An id or a name to look up in the rating lists, before entering."""

    fide_id = forms.CharField(required=False, max_length=11)
    national_id = forms.CharField(required=False, max_length=20)
    first_name = forms.CharField(required=False, max_length=60)
    last_name = forms.CharField(required=False, max_length=80)

    @staticmethod
    def asked(request) -> bool:
        """Whether the look-up button, or "This is me" on one of the candidates, was pressed (rather than
        the one that enters)."""
        button = LookupButtonForm(request.POST)
        return button.is_valid() and (button.cleaned_data["lookup"] or button.cleaned_data["pick"] is not None)

    @staticmethod
    def picked(request) -> int | None:
        """The row of the full lists picked with "This is me" (0: a value that is no row's id, which picks
        nobody); None when no candidate was picked."""
        button = LookupButtonForm(request.POST)
        return button.cleaned_data["pick"] if button.is_valid() else None


class LookupButtonForm(forms.Form):
    lookup = forms.BooleanField(required=False)
    pick = forms.CharField(required=False, max_length=40)

    def clean_pick(self) -> int | None:
        value = self.cleaned_data.get("pick", "").strip()
        if not value:
            return None
        return validation.key_number(value) or 0


class EntrySettingsForm(validation.ModelLimitsMixin, forms.ModelForm):
    fee_link = forms.URLField(
        label=_("payment link"), max_length=300, required=False, assume_scheme="https",
        help_text=_("the organiser's own payment page, shown after entering"),
    )  # fmt: skip
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)  # "entry-settings" seen

    class Meta:
        model = EntrySettings
        fields = ["open", "opens_at", "closes_at", "max_players", "members_only", "min_rating", "max_rating",
                  "min_birth_year", "max_birth_year", "ask_sex", "fee_note", "fee_link", "offer_hours"]  # fmt: skip
        widgets = {
            "opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offer_hours"].required = False  # left empty: the default

    def clean_offer_hours(self) -> int:
        hours = self.cleaned_data.get("offer_hours")
        return EntrySettings._meta.get_field("offer_hours").default if hours is None else hours

    def clean_fee_link(self) -> str:
        link = self.cleaned_data.get("fee_link", "")
        if link and not link.lower().startswith("https://"):
            raise forms.ValidationError(_("A payment link begins with https://."))
        return link

    def clean(self):
        data = super().clean()
        pairs = (("opens_at", "closes_at"), ("min_rating", "max_rating"), ("min_birth_year", "max_birth_year"))
        for low, high in pairs:
            if data.get(low) is not None and data.get(high) is not None and data[low] > data[high]:
                self.add_error(high, _("This is before (or below) the other end of the range."))
        return data


class RefuseForm(forms.Form):
    reason = forms.CharField(label=_("reason"), max_length=200)

    def clean_reason(self) -> str:
        value = self.cleaned_data["reason"]
        if control_characters(value):
            raise forms.ValidationError(_("The reason holds a control character."))
        return value.strip()


class DecisionForm(RefuseForm):
    """One decision of the TD's inbox on one entry ("remove": withdraw it from the competition); `based_on`
    is what the page showed of the entry (`services.seen`), `member` the one a merge accepts the entry as,
    `reason` a refusal's."""

    ACTIONS = ("accept", "merge", "refuse", "wait", "remove", "paid", "unpaid")

    action = forms.ChoiceField(
        choices=[(action, action) for action in ACTIONS],
        error_messages={"required": _("Choose one of the actions on the page."),
                        "invalid_choice": _("Choose one of the actions on the page.")},
    )  # fmt: skip
    reason = forms.CharField(
        required=False, max_length=200,
        error_messages={"max_length": _("Give a reason for refusing (at most 200 characters).")},
    )  # fmt: skip
    member = forms.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if data.get("action") == "refuse" and not data.get("reason") and "reason" not in self.errors:
            self.add_error("reason", _("Give a reason for refusing (at most 200 characters)."))
        return data


class CheckInForm(forms.Form):
    """A check-in post: a player arrived (`entry`, `arrived` "1") or not ("0"), or check-in closed (`action`
    "close"); `based_on` what the page showed (the entry's `services.seen`, or the check-in's)."""

    action = forms.ChoiceField(choices=[("", ""), ("close", "close")], required=False)
    entry = forms.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    arrived = forms.ChoiceField(choices=[("0", "0"), ("1", "1")], required=False)
    q = forms.CharField(required=False, max_length=80)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class PlayerEntryForm(forms.Form):
    """A post of the player's own page: withdraw (ticked `confirm`), take a place offered from the waiting
    list, or answer for the coming round."""

    ACTIONS = ("withdraw", "take-place", "answer")

    action = forms.ChoiceField(choices=[(action, action) for action in ACTIONS], required=False)
    confirm = forms.BooleanField(required=False)
    answer = forms.CharField(required=False, max_length=20)
