"""Create a demo club with 30 members and competitions in every stage, and a neighbour club whose teams
play the demo club's in a team league.

python manage.py demo            # once; does nothing when the demo club exists
python manage.py demo --reset    # remove both clubs with all their data and start again
"""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club, ClubRole, Member, Season
from pairing import services
from pairing.services import leagues
from pairing.services.clubs import remove_club
from tournaments.models import Bye, Competition, Result

DEMO_SLUG = "de-pion"
NEIGHBOUR_SLUG = "het-paard"
TD_USERNAME = "td"
TD_PASSWORD = "clubavond"
LEAGUE_SLUG = "regio"
# The captains' logins (password TD_PASSWORD): the first team's of each club, e.g. `pion1`, `paard1`.
CAPTAINS = {DEMO_SLUG: "pion", NEIGHBOUR_SLUG: "paard"}

FIRST = ["Anna", "Bram", "Carla", "Daan", "Eva", "Floor", "Gert", "Hanna", "Ivo", "Jasmijn", "Kees", "Lotte",
         "Maarten", "Noor", "Olaf", "Pien", "Quinten", "Roos", "Sander", "Tess", "Ulrich", "Vera", "Wouter",
         "Xandra", "Youssef", "Zoë", "Mette", "Søren", "Freja", "Niels"]  # fmt: skip
LAST = ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos",
        "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "de Wit", "Dijkstra", "Smits",
        "de Graaf", "van der Meer", "van den Berg", "Kok", "Jacobs", "de Haan", "Vermeulen", "Nielsen",
        "Jensen", "Hansen", "Pedersen"]  # fmt: skip
NEIGHBOUR_FIRST = ["Arjen", "Bente", "Coen", "Dewi", "Erik", "Fenna", "Guus", "Hilde", "Isa", "Joost", "Karin",
                   "Luuk", "Marit", "Nout", "Okke", "Petra", "Rik", "Sanne", "Thijs", "Ilse", "Vincent", "Wendy",
                   "Yara", "Zeger"]  # fmt: skip
NEIGHBOUR_LAST = ["Aarts", "van Beek", "Claassen", "Dam", "Evers", "Franken", "Goossens", "Hermans", "Huisman",
                  "Jonker", "Koster", "Lammers", "Maas", "Nijland", "Oosterhuis", "Post", "Roelofs", "Schouten",
                  "Timmer", "Uijttewaal", "Veenstra", "Willems", "Zijlstra", "Boersma"]  # fmt: skip
WOMEN = {"Anna", "Carla", "Eva", "Floor", "Hanna", "Jasmijn", "Lotte", "Noor", "Pien", "Roos", "Tess", "Vera",
         "Xandra", "Zoë", "Mette", "Freja", "Bente", "Dewi", "Fenna", "Hilde", "Isa", "Karin", "Marit", "Petra",
         "Sanne", "Ilse", "Wendy", "Yara"}  # fmt: skip


def play(rng: random.Random, white: int, black: int) -> str:
    """A plausible result from the rating gap (the demo's only use of chance)."""
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.25
    roll = rng.random()
    if roll < expected * (1 - draw):
        return Result.WHITE_WINS
    if roll < expected * (1 - draw) + draw:
        return Result.DRAW
    return Result.BLACK_WINS


class Command(BaseCommand):
    help = (
        "Create the demo club (30 members; Keizer, round robins, Swiss tournaments, a cup, a team league with a"
        " neighbour club) and its TD login."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="remove the demo clubs and all their data first")

    def handle(self, *args, reset: bool = False, **options):
        if reset:
            self.remove()
        if not Club.objects.filter(slug=DEMO_SLUG).exists():
            with transaction.atomic():
                self.create()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club ready: http://127.0.0.1:8000/{DEMO_SLUG}/  TD login: {TD_USERNAME} / {TD_PASSWORD}"
            )
        )

    def remove(self) -> None:
        """Both demo clubs with all their data (`remove_club`: the league first, as it protects both), and
        the captains' logins the demo made; the TD's login stays."""
        with transaction.atomic():
            clubs = sorted(Club.objects.filter(slug__in=[DEMO_SLUG, NEIGHBOUR_SLUG]), key=lambda c: c.slug != DEMO_SLUG)
            for club in clubs:
                try:
                    remove_club(club, None)
                except ValidationError as error:
                    raise CommandError(" ".join(error.messages)) from None
            prefixes = tuple(CAPTAINS.values())
            get_user_model().objects.filter(
                username__regex=rf"^({'|'.join(prefixes)})[0-9]+$", is_staff=False, is_superuser=False
            ).delete()

    def create(self) -> None:
        rng = random.Random(2026)
        club = Club.objects.create(name="Schaakvereniging De Pion", slug=DEMO_SLUG, city="Utrecht", federation="NED")
        season = Season.objects.create(club=club, name="2026-2027", start=date(2026, 9, 1), end=date(2027, 6, 30))
        user_model = get_user_model()
        td = user_model.objects.filter(username=TD_USERNAME).first()
        if td is None:
            td = user_model.objects.create_user(
                TD_USERNAME, password=TD_PASSWORD, first_name="Wedstrijd", last_name="Leider"
            )
        ClubRole.objects.create(club=club, user=td, role=ClubRole.Role.DIRECTOR)
        members = []
        for i, (first, last) in enumerate(zip(FIRST, LAST, strict=True)):
            rating = 2250 - i * 38 + rng.randint(-15, 15)
            members.append(
                Member.objects.create(
                    club=club,
                    first_name=first,
                    last_name=last,
                    sex="w" if first in WOMEN else "m",
                    birth_date=date(1950 + (i * 7) % 60, 1 + i % 12, 1 + (i * 3) % 28),
                    title="FM" if i == 0 else ("CM" if i == 2 else ""),
                    national_rating=rating,
                    fide_rating=rating - 20 if i < 20 else None,
                    fide_id=str(1400000 + i * 17) if i < 20 else "",
                    federation="NED" if i < 26 else "DEN",
                )
            )
        self.keizer(td, club, season, members[:26], rng)
        self.round_robin(td, club, season, "Clubkampioenschap 2026", "kampioenschap", members[:8], 7, 3, rng)
        self.round_robin(td, club, season, "Zomertoernooi 2026", "zomer", members[8:14], 5, 5, rng)
        self.swiss(td, club, season, "Open Rapid (FIDE Swiss)", "open-rapid", "dutch", members[4:20], 7, 4, rng)
        self.cup(td, club, season, members[6:18], rng)
        self.olympiad(td, club, season, members[10:26], rng)
        self.danish_swiss(td, club, season, members[14:], rng)
        self.knsb_swiss(td, club, season, members, rng)
        self.league(td, club, season, members, self.neighbour(rng), rng)

    def new_competition(self, td, club, season, players, **fields) -> Competition:
        """A competition created as the TD creates one: through `pairing.services`, with its entries."""
        return services.create_competition(Competition(club=club, season=season, **fields), list(players), td)

    def round_robin(self, td, club, season, name, slug, players, rounds, played, rng) -> Competition:
        """A round robin with `played` rounds finished and, if any remain, the next one published."""
        competition = self.new_competition(td, club, season, players, name=name, slug=slug, system="roundrobin")
        for _number in range(played):
            self.play_round(td, competition, rng)
        if played < rounds:
            rnd = services.pair_next_round(competition, td)
            services.publish(rnd, td)
            for game in list(rnd.games.select_related("white", "black"))[:2]:
                services.set_result(game, play(rng, game.white.rating, game.black.rating), td)
        return competition

    def keizer(self, td, club, season, players, rng) -> Competition:
        """The club's internal competition: a Keizer season with random attendance, round 9 under way."""
        competition = self.new_competition(
            td, club, season, players, name="Interne competitie 2026-2027", slug="interne", system="keizer", rounds=30
        )
        participants = list(competition.participants.all())
        for number in range(1, 10):
            for participant in participants:
                roll = rng.random()
                kind = None
                if roll < 0.12:
                    kind = Bye.Kind.ABSENT_NOTICE
                elif roll < 0.15:
                    kind = Bye.Kind.ABSENT
                elif roll < 0.18:
                    kind = Bye.Kind.CLUB_MATCH
                if kind:
                    services.set_absence(competition, participant, kind, td)  # for round `number`, the next one
            for bye in Bye.objects.filter(
                round__competition=competition, round__number=number, kind=Bye.Kind.CLUB_MATCH
            ):
                services.set_club_match_result(bye, rng.choice(["1", "=", "0"]), td)
            if number < 9:
                self.play_round(td, competition, rng)
            else:
                rnd = services.pair_next_round(competition, td)
                services.publish(rnd, td)
        return competition

    def swiss(self, td, club, season, name, slug, system, players, rounds, played, rng) -> Competition:
        time_control = Competition.TimeControl.RAPID if "rapid" in slug else Competition.TimeControl.STANDARD
        competition = self.new_competition(
            td, club, season, players, name=name, slug=slug, system=system, rounds=rounds, time_control=time_control
        )
        for _number in range(played):
            self.play_round(td, competition, rng)
        rnd = services.pair_next_round(competition, td)
        services.publish(rnd, td)
        return competition

    def play_round(self, td, competition, rng) -> None:
        rnd = services.pair_next_round(competition, td)
        services.publish(rnd, td)
        for game in rnd.games.select_related("white", "black"):
            if not game.result:
                services.set_result(game, play(rng, game.white.rating, game.black.rating), td)
        services.finish(rnd, td)

    def cup(self, td, club, season, players, rng) -> Competition:
        """A 12-player knockout cup (seed 004 §4.9.7): round 1 played, one match through its rapid tie-break,
        and the quarter-finals under way."""
        competition = self.new_competition(
            td, club, season, players, name="Bekercompetitie 2026", slug="beker", system="knockout", rounds=4, seed=2026
        )
        rnd = services.pair_next_round(competition, td)
        services.publish(rnd, td)
        level = min(rnd.games.values_list("match", flat=True))  # drawn normal games: the tie-break decides
        while True:
            for game in rnd.games.unfinished().select_related("white", "black"):
                result = Result.DRAW if game.match == level and game.stage == "classical" else None
                services.set_result(game, result or play(rng, game.white.rating, game.black.rating), td)
            if not services.add_next_games(rnd, td):
                break
        rnd = services.pair_next_round(competition, td)
        services.publish(rnd, td)
        for game in list(rnd.games.select_related("white", "black"))[:2]:
            services.set_result(game, play(rng, game.white.rating, game.black.rating), td)
        services.add_next_games(rnd, td)
        return competition

    def danish_swiss(self, td, club, season, players, rng) -> list[Competition]:
        """The Danish systems (seed 004 §4.9.1, §4.9.3): a Monrad by lot and a Dansk Schweizer by strength."""
        return [
            self.swiss(td, club, season, "Monrad-lyn 2026", "monrad", "monrad", players[:10], 7, 4, rng),
            self.swiss(td, club, season, "Dansk Schweizer 2026", "dansk-schweizer", "dansk", players[3:16], 7, 3, rng),
            self.swiss(td, club, season, "Dubov-turnering 2026", "dubov", "dubov-1997", players[:12], 5, 2, rng),
        ]

    def knsb_swiss(self, td, club, season, players, rng) -> list[Competition]:
        """The KNSB Swiss systems (seeds 000, 001, 002): each a running club tournament."""
        tournaments = [
            ("Snelschaak op rating", "zwitsers-rating", "knsb-rating", players[:16], 7, 4),
            ("Voorjaarszwitsers (WP)", "zwitsers-wp", "knsb-wp", players[6:21], 7, 3),
            ("Zwitsers FIDE 1998", "zwitsers-1998", "dutch-1998", players[10:24], 6, 3),
        ]
        return [self.swiss(td, club, season, *tournament, rng) for tournament in tournaments]

    def olympiad(self, td, club, season, players, rng) -> Competition:
        """An olympiad team tournament (seed 004 §4.9.9.5): four teams of four, two of three rounds played."""
        teams = {"teams": 4, "cycles": 1}
        competition = self.new_competition(
            td,
            club,
            season,
            players,
            name="Teamtoernooi 2026",
            slug="team",
            system="olympiad",
            rounds=3,
            settings=teams,
        )
        for _number in range(2):
            self.play_round(td, competition, rng)
        return competition

    def neighbour(self, rng) -> list[Member]:
        """The neighbour club: 24 members, strongest first, and no competitions of its own."""
        club = Club.objects.create(
            name="Schaakclub Het Paard", slug=NEIGHBOUR_SLUG, city="Amersfoort", federation="NED"
        )
        members = []
        for i, (first, last) in enumerate(zip(NEIGHBOUR_FIRST, NEIGHBOUR_LAST, strict=True)):
            rating = 2180 - i * 36 + rng.randint(-15, 15)
            members.append(
                Member.objects.create(
                    club=club, first_name=first, last_name=last, sex="w" if first in WOMEN else "m",
                    national_rating=rating, fide_rating=rating - 25 if i < 16 else None,
                    fide_id=str(1500000 + i * 13) if i < 16 else "", federation="NED",
                )
            )  # fmt: skip
        return members

    def league(self, td, club, season, ours, theirs, rng) -> None:
        """A team league of the demo club with the neighbour club: three teams each, six boards, a single
        round robin with a Saturday a month; rounds 1 and 2 played and confirmed by both captains (one
        board left empty), and in round 3 the line-ups of one match between the clubs in."""
        league = leagues.create_league(
            club, td, name="Regiocompetitie 2026-2027", slug=LEAGUE_SLUG, settings={"boards": 6}, season=season
        )
        user_model = get_user_model()
        teams = []
        for rank in (1, 2, 3):
            for members, name in ((ours, "De Pion"), (theirs, "Het Paard")):
                regulars = members[(rank - 1) * 6 : rank * 6]
                reserves = members[18:21] if rank == 3 else []
                captain = regulars[1]
                username = f"{CAPTAINS[captain.club.slug]}{rank}"
                captain.user = user_model.objects.filter(username=username).first() or user_model.objects.create_user(
                    username, password=TD_PASSWORD, first_name=captain.first_name, last_name=captain.last_name
                )
                captain.save(update_fields=["user"])
                team = leagues.add_team(
                    league, td, club=captain.club, name=f"{name} {rank}", rank=rank, captain=captain
                )
                leagues.set_roster(team, td, regulars, reserves)
                teams.append(team)
        days = [date(2026, 10, 10), date(2026, 11, 7), date(2026, 12, 12), date(2027, 1, 23), date(2027, 2, 20)]
        # Teams of one club meet in round 1 (Berger round 1: 1-6, 2-5, 3-4), as the KNSB's rules ask.
        by_name = {team.name: team for team in teams}
        order = ["De Pion 1", "Het Paard 1", "De Pion 3", "Het Paard 3", "Het Paard 2", "De Pion 2"]
        leagues.make_schedule(league, td, [by_name[name] for name in order], days)
        matches = league.matches.select_related("home__captain__user", "away__captain__user")
        for match in matches.filter(round__in=(1, 2)):
            self.play_match(td, match, rng, empty_board=match == matches.filter(round=2).first())
        coming = next(m for m in matches.filter(round=3) if m.home.club_id != m.away.club_id)
        for team in (coming.home, coming.away):
            leagues.set_lineup(coming, team, td, [p.member for p in team.players.filter(reserve=False)])

    def play_match(self, td, match, rng, empty_board: bool = False) -> None:
        """Both line-ups (the regulars; with `empty_board` the away team leaves its last board empty), the
        boards' results by the ratings, and both captains' confirmations."""
        lineups = {}
        for team in (match.home, match.away):
            players = [p.member for p in team.players.filter(reserve=False).select_related("member")]
            if empty_board and team == match.away:
                players[-1] = None
            leagues.set_lineup(match, team, td, players)
            lineups[team.pk] = players
        results = {}
        for board, (home, away) in enumerate(zip(lineups[match.home_id], lineups[match.away_id], strict=True), 1):
            if home is None or away is None:
                continue
            white, black = (home, away) if board % 2 else (away, home)  # the home team has White on odd boards
            results[board] = play(rng, white.national_rating, black.national_rating)
        leagues.set_board_results(match, td, results)
        for team in (match.home, match.away):
            leagues.confirm_result(match, team.captain.user)
