"""Forms of the TD's competition pages: a new competition, the system's settings, an absence, a TRF file."""

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs import validation
from clubs.models import Member, Season, current_season
from clubs.names import sorted_by_name
from pairing.engines import registry
from pairing.engines.state import InvalidInput

from . import setting_labels
from .access import slug_taken
from .models import Bye, Competition, ForbiddenPair, system_choices
from .notes import render_note

RESERVED_SLUGS = {"members", "manage", "new", "import-trf", "admin", "login", "logout", "i18n", "calendar", "leagues"}


class CompetitionForm(validation.ModelLimitsMixin, forms.ModelForm):
    system = forms.ChoiceField(label=_("pairing system"), choices=system_choices)
    players = forms.ModelMultipleChoiceField(
        label=_("players"), queryset=Member.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Competition
        fields = ["name", "slug", "season", "system", "rounds", "time_control", "gladiator", "previous"]
        # in words first, the rule behind it in brackets (printed small)
        help_texts = {"previous": _("Keizer: last season's competition orders the start ranking (seed 003 §1.10)")}

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["season"].queryset = Season.objects.filter(club=club)
        self.fields["players"].queryset = club.members.filter(is_guest=False)
        self.fields["players"].choices = [  # "de Boer" under B (clubs.names)
            (member.pk, str(member)) for member in sorted_by_name(self.fields["players"].queryset)
        ]
        if not self.is_bound and self.instance.pk is None:
            self.initial.setdefault("season", current_season(club))
        self.fields["season"].label = _("Season")
        self.fields["previous"].queryset = Competition.objects.filter(club=club, system="keizer")
        self.fields["rounds"].help_text = _("Round robins take theirs from the number of players.")
        self.fields["time_control"].required = False  # standard unless chosen

    def clean_time_control(self):
        return self.cleaned_data.get("time_control") or Competition.TimeControl.STANDARD

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("“%(slug)s” is reserved; choose another short name.") % {"slug": slug})
        if Competition.objects.filter(club=self.club, slug=slug).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("The club already has a competition with this short name."))
        return slug

    def clean(self):
        data = super().clean()

        system = data.get("system")
        if system and not registry.get(system).scheduled and not data.get("rounds"):
            self.add_error("rounds", _("Give the number of rounds."))
        return data


class PairForm(forms.Form):
    """Pair the next round: `round` is the number the page offered to pair (a double click pairs once)."""

    round = forms.IntegerField(min_value=1, max_value=99999, required=False)

    def expected(self) -> int | None:
        """The round the page offered, None when not posted or not a round number."""
        return self.cleaned_data.get("round") if self.is_valid() else None


class ClubMatchForm(forms.Form):
    """A club-match game's result as typed (1, = or 0; seed 003 §1.3), read by `services.set_club_match_result`."""

    points = forms.CharField(required=False, max_length=5, strip=False)
    shown = forms.DecimalField(required=False, max_digits=3, decimal_places=1, widget=forms.HiddenInput)  # the page's


class GroupSizeForm(forms.Form):
    """The number of players per rating group (seed 004 §65)."""

    size = forms.IntegerField(
        min_value=1,
        max_value=9999,
        error_messages={
            "invalid": _("Give the number of players per group."),
            "required": _("Give the number of players per group."),
        },
    )
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)  # `adapter.GROUP_ACTIONS`


class PublishForm(forms.Form):
    """Publish a round: `based_on` is what the page showed of its boards (`pairing.services.boards_seen`)."""

    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class ExchangeForm(forms.Form):
    """Two players who trade places in a round, by start number; `based_on` as for `PublishForm`."""

    a = forms.IntegerField(min_value=1)
    b = forms.IntegerField(min_value=1)
    override = forms.BooleanField(required=False)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class SwapForm(forms.Form):
    """A board's colours swapped; `based_on` as for `PublishForm`."""

    override = forms.BooleanField(required=False)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class UndoForm(forms.Form):
    """Undo the last round: the round the page offered to undo and what it showed of its boards."""

    round = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class ActionForm(forms.Form):
    """Which of a page's forms was posted: its hidden `action` ("" when none or not one a page sends)."""

    action = forms.SlugField(required=False, max_length=20)

    @classmethod
    def of(cls, request) -> str:
        form = cls(request.POST)
        return form.cleaned_data["action"] if form.is_valid() else ""


class SeenForm(forms.Form):
    """An action on a competition's settings, tie-breaks or entries: `based_on` is what the page showed of
    them (`pairing.services.seen`)."""

    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class PresetForm(forms.Form):
    """A named preset to start a competition's settings from (seed 003 §2.1): one of the system's presets."""

    preset = forms.ChoiceField(required=False)

    def __init__(self, *args, presets: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", "")] + list(presets.items())


class MembersField(forms.ModelMultipleChoiceField):
    """Members by id; an id no database key can be is refused as any unknown one (not sent to the database)."""

    def _check_values(self, value):
        for pk in value:
            if validation.key_number(str(pk)) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk}
                )
        return super()._check_values(value)


class EntriesForm(SeenForm):
    """Members of the competition's club to enter, by id."""

    member = MembersField(queryset=Member.objects.none(), error_messages={"required": _("Choose the members to add.")})

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = competition.club.members.all()


class ResultField(forms.CharField):
    """A result as typed; text no result can be (a null character, a page of text) is refused as one."""

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)
        self.validators = []

    def clean(self, value):
        text = super().clean(value)
        if "\x00" in text or len(text) > 20:
            raise forms.ValidationError(
                _("“%(text)s” is not a result."), params={"text": text.replace("\x00", "")[:20]}
            )
        return text


class ResultsForm(forms.Form):
    """Results typed on a round page: `result-N` for board N and `based-N`, the result the page showed
    there (not posted: not known); `override` for a finished round. Only the boards posted are entered."""

    override = forms.BooleanField(required=False)

    def __init__(self, *args, boards: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.boards = boards
        for board in boards:
            self.fields[f"result-{board}"] = ResultField()
            self.fields[f"based-{board}"] = ResultField()

    def entered(self) -> list[tuple[int, str, str | None]]:
        """(board, typed result, result shown) for every board whose result was posted and is readable."""
        posted = [board for board in self.boards if f"result-{board}" in self.data]
        posted = [
            board for board in posted if f"result-{board}" not in self.errors and f"based-{board}" not in self.errors
        ]
        data = self.cleaned_data
        shown = {board: data[f"based-{board}"] if f"based-{board}" in self.data else None for board in posted}
        return [(board, data[f"result-{board}"], shown[board]) for board in posted]

    def board_errors(self) -> list[tuple[int, str]]:
        """(board, problem) for every board whose posted text is no result."""
        return [(int(name.split("-")[1]), error) for name, errors in self.errors.items() if "-" in name
                for error in errors]  # fmt: skip


class CupFormatForm(SeenForm):
    """A cup's match format (seed 004 §4.9.7): normal games per match, then rapid and blitz tie-break games."""

    games = forms.IntegerField(min_value=1, max_value=99)
    rapid_games = forms.IntegerField(min_value=0, max_value=99)
    blitz_games = forms.IntegerField(min_value=0, max_value=99)


class TeamSettingsForm(SeenForm):
    """The number of teams and of cycles of an olympiad team tournament."""

    teams = forms.IntegerField(min_value=2, max_value=999)
    cycles = forms.IntegerField(min_value=1, max_value=99)


class NextGamesForm(forms.Form):
    """The next games of a knockout round (of one match when `match` is given); `based_on` as for
    `PublishForm`."""

    match = forms.IntegerField(min_value=1, max_value=99999, required=False)
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class AbsenceForm(forms.Form):
    """Presence for the next round. Keizer knows club-match games, the Swiss systems requested byes.
    `shown` is the presence the page showed ("present" for none; not posted: not known)."""

    kind = forms.ChoiceField(
        label=_("this round"),
        required=False,
        choices=[("", _("present"))] + [(k, label) for k, label in Bye.Kind.choices if k != Bye.Kind.PAIRING_BYE],
    )
    shown = forms.CharField(required=False, empty_value=None, max_length=20, widget=forms.HiddenInput)

    def clean_shown(self) -> str | None:
        shown = self.cleaned_data["shown"]
        return "" if shown == "present" else shown

    @staticmethod
    def choices_for(engine: registry.PairingSystem) -> list[tuple[str, str]]:
        """What a player of this system may ask for a round: the engine's byes and absences."""
        kinds = [Bye.Kind(kind.value) for kind in engine.absences]
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
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This short name is taken; choose another."))
        if taken := slug_taken(self.club, slug):
            raise forms.ValidationError(taken)
        return slug

    def clean_file(self):
        validation.check_upload_size(self.cleaned_data["file"], "trf")
        raw = self.cleaned_data["file"].read()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")


class SystemSettingsForm(SeenForm):
    """The pairing system's own settings, one field per setting, typed by its default (validated by the engine)."""

    override = forms.BooleanField(
        label=_("Override: change the settings of a competition already under way (recorded)"), required=False
    )

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.competition = competition
        current = competition.engine.settings(competition.settings)
        for name, default in competition.engine.defaults.items():
            label = setting_labels.label(name)
            if name in competition.engine.choices:
                words = competition.engine.choices[name]
                field = forms.ChoiceField(label=label, choices=[(w, setting_labels.choice(name, w)) for w in words])
            elif isinstance(default, bool):
                field = forms.BooleanField(label=label, required=False)
            elif isinstance(default, int):
                field = forms.IntegerField(label=label)
            elif isinstance(default, float):
                field = forms.FloatField(label=label)
            else:
                field = forms.CharField(label=label, required=False)
            field.initial = current.get(name, default)
            shown = default
            if isinstance(default, bool):
                shown = _("yes") if default else _("no")
            elif name in competition.engine.choices:
                shown = setting_labels.choice(name, default)
            field.help_text = _("default: %(value)s") % {"value": shown}
            self.fields[f"setting_{name}"] = field
        if competition.gladiator:  # the variations of seed 004 §4.9.8, the competition's own
            for name in ("gladiator_ordinary_games", "gladiator_replays"):
                model_field = Competition._meta.get_field(name)
                self.fields[name] = model_field.formfield(initial=getattr(competition, name))
            self.fields["gladiator_ordinary_games"].help_text = _(
                "The model may have more than one ordinary game per encounter (seed 004 §4.9.8)."
            )
        if not self.started:
            del self.fields["override"]

    @property
    def has_settings(self) -> bool:
        """Whether there is anything to set (the override alone is not)."""
        return any(name not in ("override", "based_on") for name in self.fields)

    @property
    def started(self) -> bool:
        return self.competition.round_set.paired().exists()

    def clean(self):
        data = super().clean()
        if self.started and not data.get("override"):
            raise forms.ValidationError(_("Round 1 is paired: changing the settings needs the override."))
        settings = {name.removeprefix("setting_"): value for name, value in data.items() if name.startswith("setting_")}
        try:
            data["settings"] = self.competition.engine.settings(settings)
        except InvalidInput as error:
            raise forms.ValidationError(render_note(error.note)) from error
        return data


class ForbiddenPairForm(forms.ModelForm):
    """Two participants of the competition who must not meet, in every round or in a range of rounds."""

    class Meta:
        model = ForbiddenPair
        fields = ["first", "second", "first_round", "last_round"]
        labels = {"first": _("Player"), "second": _("must not meet")}

    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)  # `pairing.services.seen`

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.competition = competition
        players = competition.participants.select_related("member")
        for name in ("first", "second"):
            self.fields[name].queryset = players
        planned = competition.planned_rounds()
        for name in ("first_round", "last_round"):
            self.fields[name].widget.attrs["min"] = 1
            if planned:
                self.fields[name].widget.attrs["max"] = planned

    def clean(self):
        data = super().clean()
        first, second = data.get("first"), data.get("second")
        if first and second and first == second:
            raise forms.ValidationError(_("Choose two different players."))
        low, high = data.get("first_round"), data.get("last_round")
        if low is not None and low < 1 or high is not None and high < 1:
            raise forms.ValidationError(_("Rounds are numbered from 1."))
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(_("The first round comes after the last round."))
        planned = self.instance.competition.planned_rounds()
        if planned and max(low or 0, high or 0) > planned:
            raise forms.ValidationError(_("This competition has %(n)s rounds.") % {"n": planned})
        if first and second:
            same = ForbiddenPair.objects.filter(
                competition=self.instance.competition, first_round=low, last_round=high
            ).filter(models.Q(first=first, second=second) | models.Q(first=second, second=first))
            if same.exists():
                raise forms.ValidationError(_("This pair is already forbidden for these rounds."))
        return data
