"""Competitions, their participants, rounds, games, byes, and the audit trail.

Scores are never stored: they follow from games and byes (one source of truth),
computed in `tournaments.standings` from the engine state built here.
"""

from __future__ import annotations

import random
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member, Season
from pairing.engines import kinds, registry
from pairing.engines.roundrobin import rounds_per_cycle
from pairing.engines.state import InvalidInput

from .notes import render_note

SYSTEM_NAMES = {
    "roundrobin": _("Round robin"),
    "double-roundrobin": _("Double round robin"),
    "dutch": _("Swiss, FIDE Dutch system (current)"),
    "dutch-1998": _("Swiss, FIDE Dutch system 1998 (KNSB)"),
    "knsb-rating": _("Swiss on rating (KNSB)"),
    "knsb-wp": _("Swiss on Buchholz (KNSB)"),
    "dansk": _("Dansk Schweizer"),
    "monrad": _("Monrad"),
    "dubov-1997": _("Dubov system (1997)"),
    "knockout": _("Knockout"),
    "olympiad": _("Olympiad team tournament"),
    "keizer": _("Keizer"),
}

# The kinds of competition (`pairing.engines.kinds`) as the pages name them.
KIND_NAMES = {
    kinds.INDIVIDUAL: _("Individual competition"),
    kinds.TEAM_LEAGUE: _("Team league"),
}

# Seed 000 A2: equal ratings are ordered by title, then alphabetically.
TITLE_ORDER = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", ""]
VERSION_FIELDS = ("version", "changed_at", "shape_version")


def system_choices() -> list[tuple[str, str]]:
    return [(sid, SYSTEM_NAMES.get(sid, sid)) for sid in registry.system_ids()]


class Competition(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("being prepared")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competitions")
    season = models.ForeignKey(Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="competitions")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"))
    system = models.CharField(_("pairing system"), max_length=30)
    settings = models.JSONField(_("system settings"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)

    class UnratedOpponents(models.TextChoices):
        """C.07 art. 10: how the rating-based tie-breaks treat unrated opponents."""

        DROP = "drop", _("not used while unrated players take part (C.07 art. 10 default)")
        LEAVE_OUT = "leave-out", _("games against unrated opponents do not count")
        RATING = "rating", _("unrated opponents count at the rating given")

    unrated_opponents = models.CharField(
        _("unrated opponents in ARO, TPR, PTP, APRO, APPO"),
        max_length=10,
        choices=UnratedOpponents.choices,
        default=UnratedOpponents.DROP,
    )
    unrated_rating = models.PositiveSmallIntegerField(
        _("rating of unrated opponents"), null=True, blank=True, help_text=_("for “count at the rating given”")
    )

    class TimeControl(models.TextChoices):
        """Which FIDE rating the games count for (B.02 and its rapid and blitz chapter)."""

        STANDARD = "standard", _("standard")
        RAPID = "rapid", _("rapid")
        BLITZ = "blitz", _("blitz")

    time_control = models.CharField(
        _("time control"),
        max_length=10,
        choices=TimeControl.choices,
        default=TimeControl.STANDARD,
        help_text=_("the FIDE rating report rates the games as standard, rapid or blitz games"),
    )
    late_entry_points = models.DecimalField(
        _("points for rounds missed by a late entry"), max_digits=3, decimal_places=1, default=Decimal("0")
    )
    seed = models.PositiveIntegerField(_("lot seed"), default=0, help_text=_("drives every lot drawn"))
    previous = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_seasons",
        verbose_name=_("start ranking from"),
        help_text=_("Keizer: last season's competition orders the start ranking (seed 003 §1.10)"),
    )
    gladiator_ordinary_games = models.PositiveSmallIntegerField(
        _("Gladiator: ordinary games per encounter"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text=_("seed 004 §4.9.8: the model may have more ordinary games per round"),
    )
    gladiator_replays = models.PositiveSmallIntegerField(
        _("Gladiator: replays at reduced time"),
        default=1,
        validators=[MaxValueValidator(10)],
        help_text=_("games at reduced time after a drawn ordinary result, before blitz"),
    )
    gladiator = models.BooleanField(
        _("Gladiator model"),
        default=False,
        help_text=_(
            "every pairing is an encounter with a winner: a drawn game is replayed with colours reversed "
            "and less time, then blitz until someone wins (seed 004 §4.9.8)"
        ),
    )
    created = models.DateTimeField(auto_now_add=True)
    # Raised (with `changed_at`) in the same transaction as every change to the competition's data
    # (tournaments.versioning): the public pages' cache keys and ETags are made from it.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    changed_at = models.DateTimeField(default=timezone.now, editable=False)
    # Raised with `version` by every change but a result's: while it stands, the versions in between differ
    # by games' results alone, each game marked with the version of its last result (`Game.result_version`),
    # and a page may put them in what it read before (tournaments.live).
    shape_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="competition_slug_per_club")]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Settings are validated on every save (the system's own rules)."""
        self.clean()
        if not self.seed:
            self.seed = random.SystemRandom().randint(1, 2**31 - 1)
        if not self._state.adding and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            # Only tournaments.versioning.bump writes the version: a stale copy never sets it back.
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields if not f.primary_key and f.name not in VERSION_FIELDS
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("standings", args=[self.club.slug, self.slug])

    def clean(self) -> None:
        if self.system not in registry.system_ids():
            raise ValidationError({"system": _("Unknown pairing system %(id)s.") % {"id": self.system}})
        if self.gladiator and not self.engine.gladiator:
            raise ValidationError({"gladiator": _("The Gladiator model is for round robins and Swiss systems.")})
        try:
            self.settings = self.engine.settings(self.settings)
        except InvalidInput as error:
            raise ValidationError({"settings": render_note(error.note)}) from error

    @property
    def system_name(self) -> str:
        name = str(SYSTEM_NAMES.get(self.system, self.system))
        return _("%(system)s, Gladiator model") % {"system": name} if self.gladiator else name

    @property
    def gladiator_format(self) -> dict[str, int]:
        """The Gladiator variation as `pairing.engines.gladiator.play_encounter` takes it (§4.9.8)."""
        return {"ordinary_games": self.gladiator_ordinary_games, "reduced_games": self.gladiator_replays}

    @property
    def kind(self) -> kinds.CompetitionKind:
        """The competition's kind (`pairing.engines.kinds`): the one its pairing system belongs to."""
        return kinds.kind_of_system(self.system)

    @property
    def engine(self) -> registry.PairingSystem:
        return registry.get(self.system)

    def planned_rounds(self) -> int:
        """Rounds in the competition: fixed by the schedule for round robins."""
        if self.engine.scheduled:
            return rounds_per_cycle(self.participants.count()) * self.engine.cycles
        return self.rounds or 0


class Participant(models.Model):
    """A member in a competition, with a start number and a rating snapshot."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="participants")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="participations")
    start_number = models.PositiveSmallIntegerField(_("start number"))
    rating = models.PositiveIntegerField(_("rating"), default=0)
    title = models.CharField(_("title"), max_length=3, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True, help_text=_("takes no part in later rounds")
    )
    lost_evenings = models.PositiveSmallIntegerField(
        _("lost evenings"), default=0, help_text=_("bar duty, team captain on a match night: counts for the reserve")
    )

    class Meta:
        ordering = ["start_number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "member"], name="member_once_per_competition"),
            models.UniqueConstraint(fields=["competition", "start_number"], name="start_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number}. {self.member.full_name}"

    @property
    def name(self) -> str:
        return self.member.full_name

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


class ForbiddenPair(models.Model):
    """Two participants who must not meet (family members, a parent and a child), in every round or in
    rounds `first_round`..`last_round`. The Swiss, Danish and Keizer systems treat the pair as having met
    in those rounds (`TournamentState.forbidden`); round-robin tables and knockout draws cannot."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    first_round = models.PositiveSmallIntegerField(
        _("from round"), null=True, blank=True, help_text=_("empty: from the first round")
    )
    last_round = models.PositiveSmallIntegerField(
        _("to round"), null=True, blank=True, help_text=_("empty: to the last round")
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["first__start_number", "second__start_number", "first_round"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(first=models.F("second")), name="forbidden_pair_two_players"),
            models.CheckConstraint(
                condition=models.Q(first_round__isnull=True)
                | models.Q(last_round__isnull=True)
                | models.Q(first_round__lte=models.F("last_round")),
                name="forbidden_pair_round_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first.name} - {self.second.name}"


class RoundQuerySet(models.QuerySet):
    """The words for a competition's rounds: `competition.round_set.paired()`, `.next_number()`, ..."""

    def paired(self) -> RoundQuerySet:
        """Rounds with a pairing (a round row may exist before, holding the absences asked for it)."""
        return self.filter(paired_at__isnull=False)

    def published(self) -> RoundQuerySet:
        """Paired rounds the public sees: published or finished."""
        return self.paired().exclude(status=Round.Status.DRAFT)

    def in_play(self) -> RoundQuerySet:
        """Published rounds not yet finished: results are being entered."""
        return self.filter(status=Round.Status.PUBLISHED)

    def last_paired(self) -> Round | None:
        return self.paired().order_by("-number").first()

    def last_number(self) -> int:
        """The number of the last paired round, 0 before round 1 is paired."""
        return self.paired().aggregate(n=models.Max("number"))["n"] or 0

    def next_number(self) -> int:
        """The number of the round to pair next."""
        return self.last_number() + 1


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        FINISHED = "finished", _("finished")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    explanation = models.JSONField(_("explanation"), default=list, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["competition", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.competition} – {_('round')} {self.number}"

    @property
    def is_paired(self) -> bool:
        return self.paired_at is not None

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


class Result(models.TextChoices):
    """A game's result; forfeits are marked R (reglementair), as on Dutch score sheets."""

    PENDING = "", _("in play")
    WHITE_WINS = "1-0", "1-0"
    DRAW = "½-½", "½-½"
    BLACK_WINS = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "1-0R", _("1-0 forfeit")
    BLACK_FORFEIT_WIN = "0-1R", _("0-1 forfeit")
    DOUBLE_FORFEIT = "0-0R", _("0-0 forfeit")


RESULT_POINTS: dict[str, tuple[Decimal, Decimal]] = {
    "": (Decimal(0), Decimal(0)),
    "1-0": (Decimal(1), Decimal(0)),
    "½-½": (Decimal("0.5"), Decimal("0.5")),
    "0-1": (Decimal(0), Decimal(1)),
    "1-0R": (Decimal(1), Decimal(0)),
    "0-1R": (Decimal(0), Decimal(1)),
    "0-0R": (Decimal(0), Decimal(0)),
}


class Stage(models.TextChoices):
    """A knockout game's time control: the match's normal games, then the tie-breaks (seed 004 §4.9.7)."""

    CLASSICAL = "classical", _("normal")
    RAPID = "rapid", _("rapid")
    BLITZ = "blitz", _("blitz")
    ARMAGEDDON = "armageddon", _("final game")


class GameQuerySet(models.QuerySet):
    """The words for games: `round.games.unfinished()`, `.finished()`, `.over_the_board()`."""

    def unfinished(self) -> GameQuerySet:
        """Games without a result yet."""
        return self.filter(result=Result.PENDING)

    def finished(self) -> GameQuerySet:
        return self.exclude(result=Result.PENDING)

    def over_the_board(self) -> GameQuerySet:
        """Games not decided by a forfeit (played, or still to play)."""
        return self.exclude(result__endswith="R")


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="games_as_black")
    result = models.CharField(_("result"), max_length=4, choices=Result.choices, blank=True, default="")
    # Knockout: the match within the round this game belongs to, and its stage (pairing/engines/knockout.py).
    match = models.PositiveSmallIntegerField(_("match"), null=True, blank=True)
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.CLASSICAL)
    # The competition's version that entered this result (`pairing.services.records.set_result`): the results
    # entered since a version are the games marked above it (tournaments.live).
    result_version = models.PositiveBigIntegerField(default=0, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round__number", "board"]
        indexes = [models.Index(fields=["round", "result_version"], name="game_results_since")]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="board_unique_per_round"),
            models.CheckConstraint(condition=~models.Q(white=models.F("black")), name="no_self_pairing"),
        ]

    def __str__(self) -> str:
        return f"{self.white.name} – {self.black.name} {self.result}"

    @property
    def is_forfeit(self) -> bool:
        return self.result.endswith("R")

    @property
    def white_points(self) -> Decimal:
        return RESULT_POINTS[self.result][0]

    @property
    def black_points(self) -> Decimal:
        return RESULT_POINTS[self.result][1]


class Bye(models.Model):
    """A round without an opponent: the pairing's bye, a requested bye or an absence."""

    class Kind(models.TextChoices):
        PAIRING_BYE = "pairing-bye", _("bye")
        FULL_BYE = "full-bye", _("full-point bye")
        HALF_BYE = "half-bye", _("half-point bye")
        ABSENT_NOTICE = "absent-notice", _("absent with notice")
        ABSENT = "absent", _("absent without notice")
        CLUB_MATCH = "club-match", _("club match")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="byes")
    kind = models.CharField(_("kind"), max_length=14, choices=Kind.choices)
    points = models.DecimalField(_("points"), max_digits=3, decimal_places=1, default=Decimal("0"))

    class Meta:
        ordering = ["round__number", "participant__start_number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "participant"], name="one_bye_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.participant.name}: {self.get_kind_display()}"


class PrizeTable(models.Model):
    """A competition's prizes: cash or honour prizes per place, prize groups, and its regulation for ties.

    `main`: one [amount, label] per place. `groups`: {"name", "kind", "low", "high", "prizes"} as
    `pairing.engines.prizes.GroupRule` reads them. `sharing` empty: the system's regulation
    (`pairing.engines.prizes.default_sharing`, seeds README item 16).
    """

    class Sharing(models.TextChoices):
        DEFAULT = "", _("the system's regulation")
        POINTS = "points", _("cash shared on equal points")
        TIEBREAK = "tiebreak", _("the tie-breaks decide")
        HORT = "hort", _("half shared, half by the tie-breaks (Hort)")

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="prize_table")
    sharing = models.CharField(_("equal points"), max_length=10, choices=Sharing.choices, blank=True, default="")
    one_prize_each = models.BooleanField(_("one prize per player"), default=True)
    currency = models.CharField(_("currency"), max_length=5, blank=True, default="€")
    age_on = models.DateField(
        _("ages on"),
        null=True,
        blank=True,
        help_text=_("the date ages are counted on; empty: the day round 1 was paired"),
    )
    main = models.JSONField(_("prizes"), default=list, blank=True)
    groups = models.JSONField(_("prize groups"), default=list, blank=True)

    class Meta:
        verbose_name = _("prize table")
        verbose_name_plural = _("prize tables")

    def __str__(self) -> str:
        return f"{self.competition}: {_('prizes')}"


def printed_pdf_storage():
    """Where the printed PDFs are kept: the `pdfs` storage of settings.STORAGES (a folder, or any shared
    storage when the web servers and the workers run on several machines)."""
    from django.core.files.storage import storages

    return storages["pdfs"]


class PrintedPdf(models.Model):
    """A large PDF (standings, crosstable, a round's pairing list) made by a worker for one version of its
    competition, in one language, for one audience (the public, or the TD who sees drafts), and kept until
    newer versions replace it (`tournaments.printed`)."""

    class Kind(models.TextChoices):
        STANDINGS = "standings", _("standings")
        CROSSTABLE = "crosstable", _("crosstable")
        PAIRINGS = "pairings", _("pairing list")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="printed_pdfs")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round_number = models.PositiveIntegerField(default=0)  # the pairing list's round; 0: the latest one
    audience = models.CharField(max_length=10, default="public")  # "public" or "director"
    language = models.CharField(max_length=10)
    version = models.PositiveBigIntegerField()
    file = models.FileField(upload_to="pdfs/%Y/%m/", storage=printed_pdf_storage, max_length=300)
    size = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "kind", "round_number", "audience", "language", "version"],
                name="printed_pdf_unique",
            )
        ]
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"{self.competition_id} {self.kind} {self.round_number} {self.language} v{self.version}"
