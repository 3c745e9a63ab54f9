from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Member, Season

from .models import Bye, Competition, system_choices

RESERVED_SLUGS = {"members", "manage", "new", "import-trf", "admin", "login", "logout", "i18n"}


class CompetitionForm(forms.ModelForm):
    system = forms.ChoiceField(label=_("pairing system"), choices=system_choices)
    players = forms.ModelMultipleChoiceField(
        label=_("players"), queryset=Member.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Competition
        fields = ["name", "slug", "season", "system", "rounds"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["season"].queryset = Season.objects.filter(club=club)
        self.fields["players"].queryset = club.members.filter(is_guest=False)
        self.fields["rounds"].help_text = _("Round robins take theirs from the number of players.")

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("“%(slug)s” is reserved; choose another short name.") % {"slug": slug})
        if Competition.objects.filter(club=self.club, slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("The club already has a competition with this short name."))
        return slug

    def clean(self):
        data = super().clean()
        from pairing.engines import registry

        system = data.get("system")
        if system and not registry.get(system).scheduled and not data.get("rounds"):
            self.add_error("rounds", _("Give the number of rounds."))
        return data


class AbsenceForm(forms.Form):
    """Presence for the next round. Keizer knows club-match games, the Swiss systems requested byes."""

    kind = forms.ChoiceField(
        label=_("this round"),
        required=False,
        choices=[("", _("present"))] + [(k, label) for k, label in Bye.Kind.choices if k != Bye.Kind.PAIRING_BYE],
    )

    @staticmethod
    def choices_for(system: str) -> list[tuple[str, str]]:
        if system == "keizer":
            kinds = [Bye.Kind.ABSENT_NOTICE, Bye.Kind.ABSENT, Bye.Kind.CLUB_MATCH]
        else:
            kinds = [Bye.Kind.HALF_BYE, Bye.Kind.FULL_BYE, Bye.Kind.ABSENT_NOTICE, Bye.Kind.ABSENT]
        return [("", _("present"))] + [(k.value, k.label) for k in kinds]


class TrfImportForm(forms.Form):
    file = forms.FileField(label=_("TRF file"))
    name = forms.CharField(label=_("name"), max_length=120, required=False)
    slug = forms.SlugField(label=_("short name"))
    system = forms.ChoiceField(label=_("pairing system"), choices=system_choices)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS or Competition.objects.filter(club=self.club, slug=slug).exists():
            raise forms.ValidationError(_("This short name is taken; choose another."))
        return slug

    def clean_file(self):
        raw = self.cleaned_data["file"].read()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
