"""Read a competition from the database into the engines' plain state.

Three queries, whatever the number of players: participants (with members),
games, byes. Standings, crosstables, player cards, TRF export and pairing all
start from this one state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Q
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from clubs.models import Member
from pairing.engines import state as engine
from pairing.engines.knsb_swiss import absence
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

from .encounters import encounters as gladiator_encounters
from .encounters import round_records
from .models import RESULT_POINTS, Bye, Competition, ForbiddenPair, Game, Participant, Round

BYE_KINDS = {
    Bye.Kind.PAIRING_BYE: Kind.PAIRING_BYE,
    Bye.Kind.FULL_BYE: Kind.FULL_BYE,
    Bye.Kind.HALF_BYE: Kind.HALF_BYE,
    Bye.Kind.ABSENT_NOTICE: Kind.ABSENT_NOTICE,
    Bye.Kind.ABSENT: Kind.ABSENT,
    Bye.Kind.CLUB_MATCH: Kind.CLUB_MATCH,
}
ENGINE_TO_BYE = {engine: model for model, engine in BYE_KINDS.items()}


@dataclass
class CompetitionData:
    """Everything one page needs, loaded once."""

    competition: Competition
    participants: list[Participant]
    rounds: list[Round]
    games: list[Game]
    byes: list[Bye]
    # One player's data only (his start number): his games and byes, himself and the players he met.
    only: int | None = None
    # Data kept between versions (tournaments.live) keeps what was made of it while it stays valid: "state",
    # the whole state (`state()`); "fingerprints", round number -> `standings.round_fingerprints` text of
    # rounds 1..number. None: data read for one request, nothing kept.
    kept: dict | None = field(default=None, compare=False, repr=False)

    @classmethod
    def load(cls, competition: Competition, public: bool = False, only: int | None = None) -> CompetitionData:
        """The competition's rounds (`public`: those published), participants, games and byes. With `only`
        (a start number), what that player's card needs: his games and byes, himself and his opponents;
        its state has his history as the whole competition's has (the others' histories are not whole)."""
        rounds = list(competition.round_set.all())
        if public:
            rounds = [r for r in rounds if r.is_public]
        return cls._of_rounds(competition, rounds, only)

    def whole(self) -> CompetitionData:
        """The whole competition over the same rounds: this data, or for one player's (`only`) everyone's,
        read without reading the rounds again."""
        return self if self.only is None else self._of_rounds(self.competition, self.rounds, None)

    @classmethod
    def _of_rounds(cls, competition: Competition, rounds: list[Round], only: int | None) -> CompetitionData:
        participants = competition.participants.select_related("member").order_by("start_number")
        games = Game.objects.filter(round__in=rounds).order_by("round__number", "board")
        byes = Bye.objects.filter(round__in=rounds)
        if only is not None:
            games = games.filter(Q(white__start_number=only) | Q(black__start_number=only))
            byes = byes.filter(participant__start_number=only)
        games, byes = quick_list(games), quick_list(byes)
        if only is not None:
            met = {g.white_id for g in games} | {g.black_id for g in games}
            participants = participants.filter(Q(start_number=only) | Q(id__in=met))
        participants = quick_participants(participants)
        by_id = {r.pk: r for r in rounds}
        # Each game and bye shares its round's one copy, put in the relation's cache as `item.round = ...`
        # does after its checks (thousands of games: the checks cost more than the rest of the loading).
        for model, items in ((Game, games), (Bye, byes)):
            relation = model._meta.get_field("round")
            for item in items:
                relation.set_cached_value(item, by_id[item.round_id])
        return cls(competition, participants, rounds, games, byes, only)

    @property
    def by_id(self) -> dict[int, Participant]:
        return {p.id: p for p in self.participants}

    def state(self, upto_round: int | None = None, round_to_pair: int | None = None) -> TournamentState:
        """The engine state with the history of rounds 1..upto_round (all loaded when None)."""
        whole = upto_round is None and round_to_pair is None
        if whole and self.kept is not None and "state" in self.kept:
            return self.kept["state"]
        last = max((r.number for r in self.rounds), default=0) if upto_round is None else upto_round
        start_of = {p.id: p.start_number for p in self.participants}
        history: dict[int, list[RoundRecord | None]] = {p.id: [None] * last for p in self.participants}
        encounters = {}
        if self.competition.gladiator:  # a board's games are one encounter (seed 004 §4.9.8)
            encounters = gladiator_encounters(self.games, start_of, **self.competition.gladiator_format)
        for game in self.games:
            n = game.round.number
            if n > last or (n, game.match) in encounters:
                continue
            for pid, record in game_records(game, start_of):
                history[pid][n - 1] = record
        if encounters:
            id_of = {p.start_number: p.id for p in self.participants}
            for (n, _match), encounter in encounters.items():
                if n <= last:
                    for number, record in round_records(encounter).items():
                        history[id_of[number]][n - 1] = record
        for bye in self.byes:
            n = bye.round.number
            if n <= last:
                history[bye.participant_id][n - 1] = RoundRecord(kind=BYE_KINDS[bye.kind], score=float(bye.points))
        players = []
        for p in self.participants:
            records = [r or RoundRecord(kind=Kind.ABSENT, score=0.0) for r in history[p.id]]
            players.append(
                Player(
                    id=p.start_number,
                    name=p.member.full_name,
                    rating=p.rating,
                    title=p.title,
                    federation=p.member.federation,
                    fide_id=p.member.fide_id,
                    national_rating=p.member.national_rating or 0,
                    history=records,
                    withdrawn=p.withdrawn_after is not None and p.withdrawn_after < (round_to_pair or last + 1),
                    extra={"lost_evenings": p.lost_evenings} if p.lost_evenings else {},
                )
            )
        competition = self.competition
        state = TournamentState(
            players=players,
            total_rounds=competition.planned_rounds(),
            round_to_pair=round_to_pair or last + 1,
            settings=dict(competition.settings),
            seed=competition.seed,
            name=competition.name,
        )
        if whole and self.kept is not None:
            self.kept["state"] = state
        return state

    def scores(self, upto_round: int) -> dict[int, float]:
        """Participant (id) -> points from rounds 1..`upto_round`, as `self.state(upto_round=...)` gives
        them (`Player.score`: a game's points, a bye's, none for a game in play), without making the state;
        a Gladiator competition's encounters (seed 004 §4.9.8) through the state."""
        if self.competition.gladiator:
            state = self.state(upto_round=upto_round)
            return {p.id: state.player(p.start_number).score() for p in self.participants}
        rounds: dict[int, list[float]] = {p.id: [0.0] * upto_round for p in self.participants}
        for game in self.games:
            n = game.round.number
            if n <= upto_round and game.result:
                rounds[game.white_id][n - 1] = float(game.white_points)
                rounds[game.black_id][n - 1] = float(game.black_points)
        for bye in self.byes:  # a bye after a game of the same round, as in `state`
            if bye.round.number <= upto_round:
                rounds[bye.participant_id][bye.round.number - 1] = float(bye.points)
        return {pid: sum(points) for pid, points in rounds.items()}

    def earlier(self, state: TournamentState, upto_round: int) -> TournamentState:
        """`self.state(upto_round=upto_round)`, cut from `state` (`self.state()`, all loaded rounds) without
        reading the games again: the first `upto_round` records of each history, withdrawals as of then."""
        left = {p.start_number: p.withdrawn_after for p in self.participants}
        players = [
            replace(
                player,
                history=player.history[:upto_round],
                withdrawn=left[player.id] is not None and left[player.id] < upto_round + 1,
            )
            for player in state.players
        ]
        return replace(state, players=players, round_to_pair=upto_round + 1)


def game_records(game: Game, start_of: dict[int, int]) -> tuple[tuple[int, RoundRecord], tuple[int, RoundRecord]]:
    """The two players' records of a game (participant id, record): a game over the board, in play (no
    score yet) or finished, or a forfeit; `start_of`: participant id -> start number."""
    pending = game.result == ""
    kind = Kind.GAME if pending or game.result in ("1-0", "½-½", "0-1") else Kind.FORFEIT
    white, black = (None, None) if pending else RESULT_POINTS[game.result]
    return (
        (game.white_id, RoundRecord(kind, start_of[game.black_id], Colour.WHITE, None if pending else float(white))),
        (game.black_id, RoundRecord(kind, start_of[game.white_id], Colour.BLACK, None if pending else float(black))),
    )


def copied(item):
    """A copy of a model instance read for a page: its own fields and relation cache, pointing at the same
    related instances (a game's round and players)."""
    copy = item.__class__.__new__(item.__class__)
    copy.__dict__.update(item.__dict__)
    copy._state = ModelState()
    copy._state.adding, copy._state.db = item._state.adding, item._state.db
    copy._state.fields_cache = dict(item._state.fields_cache)
    return copy


def quick_participants(queryset) -> list[Participant]:
    """`list(queryset.select_related("member"))`, quicker for thousands of participants: the participants and
    their members read as plain instances (`quick_list`, two queries), each member put in its participant's
    relation cache as the join puts it."""
    if any(signal.has_listeners(model) for signal in (pre_init, post_init) for model in (Participant, Member)):
        return list(queryset.select_related("member"))
    own = [f.attname for f in Participant._meta.concrete_fields]
    theirs = [f.attname for f in Member._meta.concrete_fields]
    rows = queryset.select_related(None).values_list(*own, *[f"member__{name}" for name in theirs])
    relation = Participant._meta.get_field("member")
    db, count = queryset.db, len(own)
    out = []
    for row in rows:
        participant, member = _made(Participant, own, row[:count], db), _made(Member, theirs, row[count:], db)
        relation.set_cached_value(participant, member)
        out.append(participant)
    return out


def _made(model, names: list[str], values, db: str):
    """An instance of `model` as `Model.from_db` makes it, its values put in at once."""
    item = model.__new__(model)
    item.__dict__.update(zip(names, values, strict=True))
    item._state = ModelState()
    item._state.adding, item._state.db = False, db
    return item


def quick_list(queryset) -> list:
    """`list(queryset)`, quicker for thousands of rows: each instance made as `Model.from_db` makes it, its
    values put in at once. `Model.__init__` sets each through its field's descriptor and sends the init
    signals; with a receiver for them the ordinary way is taken."""
    model = queryset.model
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return list(queryset)
    names = [f.attname for f in model._meta.concrete_fields]
    db = queryset.db
    out = []
    for row in queryset.values_list(*names):
        item = model.__new__(model)
        item.__dict__.update(zip(names, row, strict=True))
        item._state = ModelState()
        item._state.adding, item._state.db = False, db
        out.append(item)
    return out


def forbidden_pairs(competition: Competition) -> list[engine.ForbiddenPair]:
    """The pairs the TD forbids in `competition`, as the engines take them (start numbers, round range)."""
    rows = ForbiddenPair.objects.filter(competition=competition).select_related("first", "second")
    return [
        engine.ForbiddenPair((row.first.start_number, row.second.start_number), row.first_round, row.last_round)
        for row in rows
    ]


def absentees_withdraw(competition: Competition) -> bool:
    """Whether the competition's system deems a player absent without notice to have withdrawn (seed
    000 F8, 001 F10, 002 F8), as its settings say (`absent_without_notice_withdraws`)."""
    return bool(competition.engine.settings(competition.settings).get(absence.SETTING, False))


def deemed_withdrawn(competition: Competition, number: int | None) -> dict[int, int]:
    """Participants (by id) not paired in round `number` because they missed an earlier round without
    notice, with that round (the engine's own reading of the rule); empty when the rule is off or no
    round is still to pair (`number` None)."""
    if number is None or number < 2 or not absentees_withdraw(competition):
        return {}
    data = CompetitionData.load(competition)
    by_start = {p.start_number: p.id for p in data.participants}
    absent = absence.absent_without_notice(data.state(upto_round=number - 1, round_to_pair=number))
    return {by_start[start]: rnd for start, rnd in absent.items()}
