"""A team league played through in a real browser, as its people do it (docs/team-leagues.md): six teams
of two clubs, eight boards, a single round robin of 5 rounds and 15 matches.

The organiser's TD creates the league, adds the teams with their captains, enters the rosters and makes
the schedule. For every match each captain, logged in on his own 390 px phone, enters his own team's
line-up; the home captain enters the boards' results; both captains confirm ("Captains": both confirmed,
the result is locked). In one match the home captain enters a board the wrong way round, the away captain
disputes it with a reason and the organiser's TD settles it. The results are chosen below, and the
league table (match points, then board points: `primary` MP) and every player's score are worked out by
hand from them; the public league page and its PDFs (the table, a round's results, a match card, read
with poppler's pdftotext) must show exactly those. Along the way: no error in any browser console, no page
wider than the phone, and the Dutch club's captains read their pages in Dutch, the Danish club's in
Danish, with no English left on the match card.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from clubs.models import Club, Member
from teams.models import Match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
BOARDS = 8
PASSWORD = "captain-pass-7"
ROOT = Path(__file__).resolve().parents[2]

# The two clubs' members: per team, position 0-7 are the regulars (board order), 8 the listed reserve.
FIRST = {
    "nl": ["Jan", "Kees", "Anouk", "Bram", "Femke", "Joost", "Sanne", "Thijs", "Lotte"],
    "da": ["Søren", "Mette", "Jens", "Ida", "Niels", "Freja", "Mads", "Signe", "Rasmus"],
}
LAST = {
    "nl": ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "van Dijk"],
    "da": ["Jørgensen", "Sørensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Møller"],
}
# The teams in the order the TD adds them, which are their numbers in the schedule (1-6).
TEAMS = [
    ("nl", 1, "SV Testclub 1"), ("da", 1, "Skakklubben Rivalen 1"), ("nl", 2, "SV Testclub 2"),
    ("da", 2, "Skakklubben Rivalen 2"), ("nl", 3, "SV Testclub 3"), ("da", 3, "Skakklubben Rivalen 3"),
]  # fmt: skip

# The board points of the lower-numbered team of each pair, out of 8.
PAIR_SCORE = {
    (1, 2): 5, (1, 3): 4, (1, 4): 3, (1, 5): 6.5, (1, 6): 5.5,
    (2, 3): 4.5, (2, 4): 4, (2, 5): 5, (2, 6): 2.5,
    (3, 4): 5, (3, 5): 4, (3, 6): 6,
    (4, 5): 5.5, (4, 6): 4.5,
    (5, 6): 3.5,
}  # fmt: skip
# Worked out by hand from PAIR_SCORE (a won match 2, drawn 1, lost 0):
#   1: W 5, D 4, L 3, W 6½, W 5½        7 MP, 24 BP
#   2: L 3, W 4½, D 4, W 5, L 2½        5 MP, 19 BP
#   3: D 4, L 3½, W 5, D 4, W 6         6 MP, 22½ BP
#   4: W 5, D 4, L 3, W 5½, W 4½        7 MP, 22 BP
#   5: L 1½, L 3, D 4, L 2½, L 3½       1 MP, 14½ BP
#   6: L 2½, W 5½, L 2, L 3½, W 4½      4 MP, 18 BP
# Teams 1 and 4 are level on match points: board points put 1 first, though 4 won their match.
EXPECTED_TABLE = [
    ["1", "SV Testclub 1", "5", "3", "1", "1", "7", "24"],
    ["2", "Skakklubben Rivalen 2", "5", "3", "1", "1", "7", "22"],
    ["3", "SV Testclub 2", "5", "2", "2", "1", "6", "22½"],
    ["4", "Skakklubben Rivalen 1", "5", "2", "1", "2", "5", "19"],
    ["5", "Skakklubben Rivalen 3", "5", "2", "0", "3", "4", "18"],
    ["6", "SV Testclub 3", "5", "0", "1", "4", "1", "14½"],
]
DISPUTED = (1, 4)  # the match whose result is disputed and settled
RESERVE_MATCH = (2, 6)  # team 6 puts its reserve on board 8


def name(language: str, rank: int, position: int) -> tuple[str, str]:
    """The first and last name of the player at `position` of the club's team `rank`."""
    return FIRST[language][position], LAST[language][(position + 3 * (rank - 1)) % 9]


def pair_boards(first: int, second: int) -> list[float]:
    """The points of team `first` on boards 1-8 against team `second`: its wins, then a draw if the score
    has a half, then losses, turned round by (first + second) boards."""
    score = PAIR_SCORE[(first, second)]
    wins, half = int(score), score != int(score)
    points = [1.0] * wins + [0.5] * half + [0.0] * (BOARDS - wins - half)
    turn = (first + second) % BOARDS
    return points[turn:] + points[:turn]


def home_points(home: int, away: int) -> list[float]:
    """The home team's points board by board."""
    if home < away:
        return pair_boards(home, away)
    return [1.0 - p for p in pair_boards(away, home)]


def result(points: float, home_white: bool) -> str:
    """The board's result as White-Black, from the home team's points."""
    white = points if home_white else 1.0 - points
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[white]


def shown(value: float) -> str:
    """Points as the pages show them: 2½, ½, 3."""
    whole, half = int(value), value != int(value)
    return f"{whole or '' if half else whole}{'½' if half else ''}"


def test_hand_computed_table_matches_the_chosen_scores():
    """The chosen board scores and the hand-worked table agree (the browser test below relies on both)."""
    for (first, second), score in PAIR_SCORE.items():
        assert sum(pair_boards(first, second)) == score
        assert [shown(1 - p) for p in pair_boards(first, second)] == [shown(p) for p in home_points(second, first)]
    for number, row in enumerate(EXPECTED_TABLE):
        team = next(n for n, t in enumerate(TEAMS, start=1) if t[2] == row[1])
        scores = [PAIR_SCORE[(team, o)] if team < o else 8 - PAIR_SCORE[(o, team)] for o in range(1, 7) if o != team]
        won, drawn = sum(s > 4 for s in scores), sum(s == 4 for s in scores)
        assert row == [str(number + 1), row[1], "5", str(won), str(drawn), str(5 - won - drawn),
                       str(2 * won + drawn), shown(sum(scores))]  # fmt: skip
    assert shown(0) == "0" and shown(0.5) == "½" and shown(22.5) == "22½"


def test_the_english_check_finds_english_left():
    """The check of the translated match card below finds an English text of the card, a part of one
    around a placeholder, and lets pass the Dutch words that are English too ("team")."""
    dutch = "Opstelling: SV Testclub 1\nBevestigd door de teamleider van het thuisteam: ja"
    assert english_in(dutch, CARD, "nl") == []
    assert english_in(dutch + "\nSave the results", CARD, "nl") == ["Save the results"]
    left = english_in("De uitslag wordt betwist (home team); the organiser's TD settles it", CARD, "nl")
    assert {"home team", "the organiser's TD settles it"} <= set(left)


# ---------------------------------------------------------------- the browser


def phone(browser, locale: str):
    """A new phone (its own browser context) whose console errors are kept in `page.errors`."""
    context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


# What sticks out of the phone's screen: the first elements whose right edge is past it.
WIDE = """width => [...document.querySelectorAll('body *')].filter(n => n.getBoundingClientRect().right > width)
    .slice(0, 6).map(n => n.tagName + '.' + n.className + ': ' + n.textContent.trim().slice(0, 40))"""


def looks_right(page, what: str = "") -> None:
    """No console error so far, nothing wider than the phone."""
    assert page.errors == [], (what or page.url, page.errors)
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        wide = page.evaluate(WIDE, PHONE["width"])
        raise AssertionError(f"{what or page.url}: {width} px wide, by {wide}")


def log_in(page, base: str, username: str, password: str, language: str | None = None) -> None:
    """Log in; with `language`, first choose it with the switcher at the top."""
    page.goto(base + reverse("login"))
    if language:
        with page.expect_navigation():
            page.select_option("header select[name=language]", language)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("main button.primary")
    looks_right(page, f"logged in {username}")


def submit(page, button: str) -> None:
    """Click the form's button; the post is saved (its answer, after the redirect, is the page again)."""
    with page.expect_navigation() as navigation:
        page.click(button)
    errors = page.locator(".errorlist").all_inner_texts()
    assert navigation.value.status == 200 and not errors, (page.url, button, errors)
    looks_right(page, f"{page.url} after {button}")


# The English a match card may show: its template's and base template's texts, its forms' labels, the
# match's and the results' names. Each whose translation differs must not be left on the translated card.
CARD = ["templates/base.html", "templates/teams/match.html", "teams/forms.py", "teams/models.py"]
CARD += ["tournaments/models.py"]
PRINTED_CARD = ["templates/teams/pdf_base.html", "templates/teams/pdf_card.html"]


def card_english(sources: list[str]) -> list[str]:
    texts = set()
    for source in sources:
        text = (ROOT / source).read_text(encoding="utf-8")
        texts |= set(re.findall(r"{% translate \"([^\"]+)\"", text))
        texts |= set(re.findall(r"{% translate '([^']+)'", text))
        blocks = re.findall(r"{% blocktranslate[^%]*%}(.*?){% endblocktranslate %}", text)
        texts |= {re.sub(r"{{ *(\w+) *}}", r"%(\1)s", block) for block in blocks}  # as in the catalogue
        texts |= set(re.findall(r"\b_\(\"([^\"]+)\"\)", text))
    return sorted(texts)


# A page's text as a reader meets it: what it shows, its titles and labels, every choice of its menus.
PAGE_TEXT = """() => [document.body.innerText,
    ...[...document.querySelectorAll('[title],[aria-label],[placeholder]')].map(n =>
        [n.title, n.getAttribute('aria-label'), n.placeholder].filter(Boolean).join(' ')),
    ...[...document.querySelectorAll('option')].map(n => n.textContent)].join('\\n')"""


def english_left(page, language: str) -> list[str]:
    """The English texts of the match card (`CARD`) still on the page."""
    return english_in(page.evaluate(PAGE_TEXT), CARD, language)


def english_in(seen: str, sources: list[str], language: str) -> list[str]:
    """The English texts of `sources` found in `seen`, though their translation into `language` differs."""

    def within(part: str, text: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text) is not None

    english = card_english(sources)
    with translation.override(language):
        translated = {text: translation.gettext(text) for text in english}
    words = "\n".join(translated.values())  # "team" is Dutch too: a text the translations use is no sign
    left = []
    for text in english:
        if translated[text] == text:
            continue  # the same in both languages (a name, "½-½")
        for part in re.split(r"%\([a-z_]+\)s", text):
            part = part.strip(" .:;,()")
            if re.search(r"[A-Za-z]{3}", part) and within(part, seen) and not within(part, words):
                left.append(part)
    return left


def pdf_text(page, url: str, tmp_path: Path) -> str:
    """The PDF at `url`, downloaded by the phone's browser context, as text: pdftotext's words in reading
    order (a table's cells row by row, a name wrapped in its cell read whole), separated by single spaces."""
    response = page.request.get(url)
    assert response.status == 200, url
    assert response.headers["content-type"].startswith("application/pdf"), url
    body = response.body()
    assert body.startswith(b"%PDF-"), url
    path = tmp_path / "printout.pdf"
    path.write_bytes(body)
    text = subprocess.run(
        [shutil.which("pdftotext") or "pdftotext", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True
    ).stdout.decode()
    return " ".join(text.split())


@pytest.fixture
def two_clubs(club):
    """The Dutch organiser club and the Danish club, each with 27 members (three teams of eight and a
    reserve) and a captain with an account for each of its teams. What the acceptance is not about."""
    club.language = "nl"
    club.save(update_fields=["language"])
    danish = Club.objects.create(name="Skakklubben Rivalen", slug="rivalen", city="Odense", language="da")
    clubs = {"nl": club, "da": danish}
    members, captains = {}, {}
    for language, rank, team in TEAMS:
        for position in range(BOARDS + 1):
            first, last = name(language, rank, position)
            members[(team, position)] = Member.objects.create(
                club=clubs[language], first_name=first, last_name=last, national_rating=2200 - 100 * rank - position
            )
        captain = members[(team, 0)]  # the captain plays on board 1
        username = f"{language}captain{rank}"
        captain.user = get_user_model().objects.create_user(username, password=PASSWORD)
        captain.save(update_fields=["user"])
        captains[team] = (captain, username, language)
    return clubs, members, captains


def test_a_league_season_between_two_clubs_on_phones(browser, live_server, club, td, two_clubs, tmp_path):
    clubs, members, captains = two_clubs
    base = live_server.url
    pages = []
    try:
        # ---- the organiser's TD: the league, its teams with their captains, rosters and schedule
        director = phone(browser, "en-GB")
        pages.append(director)
        log_in(director, base, "director", "secret-pass-1")
        director.goto(base + reverse("club", args=[club.slug]))
        looks_right(director)
        with director.expect_navigation():
            director.click(f"a[href='{reverse('new_competition', args=[club.slug])}']")
        with director.expect_navigation():  # the kinds of competition: a team league
            director.click("#competition-kinds a[data-kind=team-league]")
        looks_right(director, "new league")
        director.fill("input[name=name]", "Regiocompetitie 2026-2027")
        director.fill("input[name=slug]", "regio")
        director.fill("input[name=boards]", str(BOARDS))
        submit(director, "main form button.primary")
        manage = reverse("league_manage", args=[club.slug, "regio"])
        assert director.url.endswith(manage)
        for language, rank, team in TEAMS:
            form = "main form[action$='/manage/']"
            director.select_option(f"{form} select[name=club]", str(clubs[language].pk))
            director.fill(f"{form} input[name=name]", team)
            director.fill(f"{form} input[name=rank]", str(rank))
            director.select_option(f"{form} select[name=captain]", str(captains[team][0].pk))
            submit(director, f"{form} button")
        assert director.locator("#teams > li").count() == 6
        for _language, _rank, team in TEAMS:
            form = "main form[action$='/roster/']"
            director.select_option(f"{form} select[name=team]", label=team)
            regulars = [members[(team, p)].full_name for p in range(BOARDS)]
            director.fill(f"{form} textarea[name=regulars]", "\n".join(regulars))
            director.fill(f"{form} textarea[name=reserves]", members[(team, BOARDS)].full_name)
            submit(director, f"{form} button")
        first = timezone.localdate() + timedelta(days=7)
        director.fill("main form[action$='/schedule/'] input[name=first_date]", first.isoformat())
        director.fill("main form[action$='/schedule/'] input[name=weeks]", "1")
        submit(director, "main form[action$='/schedule/'] button")
        league_url = base + reverse("league", args=[club.slug, "regio"])
        assert director.url == league_url

        # The schedule as the league page shows it: five rounds of three matches, every pair once.
        number = {team: n for n, (_l, _r, team) in enumerate(TEAMS, start=1)}
        schedule = []
        for section in director.locator("main section").all():
            round_number = int(re.search(r"\d+", section.locator("h2").inner_text()).group())
            for row in section.locator("table tbody tr").all():
                cells = row.locator("td").all_inner_texts()
                href = row.locator("a[href$='.pdf']").get_attribute("href")
                pk = int(re.search(r"/match/(\d+)\.pdf$", href).group(1))
                schedule.append((round_number, cells[1].strip(), cells[3].strip(), pk))
        assert [r for r, *_ in schedule] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
        pairs = {tuple(sorted((number[h], number[a]))) for _r, h, a, _pk in schedule}
        assert pairs == set(PAIR_SCORE)

        # ---- the captains, each on his own phone in his own language
        phones = {}
        for team, (_captain, username, language) in captains.items():
            page = phone(browser, "en-GB")
            pages.append(page)
            log_in(page, base, username, PASSWORD, language)
            phones[team] = page

        def open_card(team: str, opponent: str, pk: int) -> None:
            """The captain's card of the match: the first time from his page's list of his team's matches,
            then straight from its address (kept on his phone)."""
            page = phones[team]
            card = base + reverse("league_captain", args=[club.slug, "regio", pk])
            if team in opened:
                page.goto(card)
            else:
                opened.add(team)
                page.goto(base + reverse("my_page"))
                looks_right(page, f"{team}: my page")
                assert page.locator("#team-matches li").count() == 5
                with page.expect_navigation():
                    page.locator("#team-matches li", has_text=opponent).locator("a[href$='/captain/']").click()
            assert page.url == card
            looks_right(page, f"{team}: card of {pk}")

        opened = set()

        def line_up(team: str, side: str, home: str, away: str) -> None:
            """The captain's own team's line-up: his regulars on boards 1-8 (the reserve of team 6 on board
            8 in the match against team 2)."""
            page = phones[team]
            assert page.locator("#lineup-home, #lineup-away").count() == 1  # his own team's form only
            reserve = {number[home], number[away]} == set(RESERVE_MATCH) and number[team] == 6
            for board in range(1, BOARDS + 1):
                position = BOARDS if reserve and board == BOARDS else board - 1
                member = members[(team, position)]
                page.select_option(f"#lineup-{side} select[name={side}-board_{board}]", str(member.pk))
            submit(page, f"#lineup-{side} button")

        played = {}  # match pk: the home team's points per board, as finally settled
        for _round, home, away, pk in schedule:
            points = home_points(number[home], number[away])
            played[pk] = (home, away, points)
            results = [result(p, board % 2 == 1) for board, p in enumerate(points, start=1)]
            disputed = {number[home], number[away]} == set(DISPUTED)
            open_card(away, home, pk)
            line_up(away, "away", home, away)
            open_card(home, away, pk)
            line_up(home, "home", home, away)
            for team in (home, away):
                language = captains[team][2]
                assert phones[team].locator("html").get_attribute("lang") == language
                assert english_left(phones[team], language) == [], (team, phones[team].url)
            # Then the home captain enters the results (in the disputed match one board the wrong way round).
            page = phones[home]
            entered = list(results)
            if disputed:
                wrong = next(b for b, p in enumerate(points) if p == 0.0)
                entered[wrong] = result(1.0, wrong % 2 == 0)
            for board, value in enumerate(entered, start=1):
                page.select_option(f"#results select[name=result_{board}]", value)
            submit(page, "#results button")
            submit(page, "#confirm button")
            other = phones[away]
            other.reload()
            cells = other.locator("main table.boards tr td:nth-child(4)").all_inner_texts()
            assert [c.strip() for c in cells] == entered
            if disputed:
                reason = {"nl": "Bord {} hebben wij gewonnen.", "da": "Bræt {} vandt vi."}[captains[away][2]]
                other.fill("#dispute textarea", reason.format(wrong + 1))
                submit(other, "#dispute button")
                assert other.locator("#disputed").count() == 1
                assert english_left(other, captains[away][2]) == []
                # The organiser's TD settles it on his match card, reached from the league page.
                director.goto(league_url)
                with director.expect_navigation():
                    director.click(f"a[href$='/manage/match/{pk}/']")
                looks_right(director, "the disputed match")
                assert director.locator("#disputed").count() == 1
                assert reason.format(wrong + 1) in director.locator("#dispute-reason").inner_text()
                selects = director.locator("#results select")
                assert selects.count() == BOARDS
                for board, value in enumerate(results):
                    selects.nth(board).select_option(value)
                submit(director, "#results button")
                assert director.locator("#confirmed").count() == 1
                other.reload()
                looks_right(other)
            else:
                submit(other, "#confirm button")
            assert other.locator("#confirmed").count() == 1
            assert other.locator("#results, #confirm, #dispute").count() == 0  # locked
            assert english_left(other, captains[away][2]) == []

        for pk, (home, away, points) in played.items():
            match = Match.objects.get(pk=pk)
            assert match.locked and not match.disputed
            expected = [result(p, board % 2 == 1) for board, p in enumerate(points, start=1)]
            assert [b.result for b in match.boards.order_by("board")] == expected, (home, away)

        # ---- the public league page, for anyone
        visitor = phone(browser, "da-DK")
        pages.append(visitor)
        visitor.goto(league_url)
        looks_right(visitor, "the league page")
        table = []
        for row in visitor.locator("#league-table tbody tr").all():
            cells = [c.strip() for c in row.locator("td").all_inner_texts()]
            cells[1] = cells[1].removesuffix("iCal").strip()
            table.append(cells)
        assert table == EXPECTED_TABLE
        # Each round's scores, shown on the phone (not in a column hidden for small screens).
        for round_number, _home, _away, pk in schedule:
            row = visitor.locator(f"#round-{round_number} tr", has=visitor.locator(f"a[href$='/match/{pk}.pdf']"))
            expect(row.locator("td.result")).to_be_visible()
            score = sum(played[pk][2])
            assert row.locator("td.result").inner_text().strip() == f"{shown(score)}–{shown(8 - score)}"

        # Every player's score: his points on his board in each match his team played.
        expected_scores = {}
        for home, away, points in played.values():
            reserve = {number[home], number[away]} == set(RESERVE_MATCH)
            for board, p in enumerate(points, start=1):
                for team, got in ((home, p), (away, 1.0 - p)):
                    position = BOARDS if reserve and number[team] == 6 and board == BOARDS else board - 1
                    line = expected_scores.setdefault((members[(team, position)].full_name, team), [0.0, 0, []])
                    line[0] += got
                    line[1] += 1
                    line[2].append(board)
        want = {key: [shown(p), str(g), ", ".join(map(str, b))] for key, (p, g, b) in expected_scores.items()}
        rows = [[c.strip() for c in row.locator("td").all_inner_texts()]
                for row in visitor.locator("#board-scores tbody tr").all()]  # fmt: skip
        assert {(r[0], r[1]): r[2:] for r in rows} == want
        assert len(rows) == 6 * BOARDS + 1
        # By hand: board 1 of team 1 won against 2, lost to 3 and 4, drew with 5, lost to 6.
        assert want[("Jan de Vries", "SV Testclub 1")] == ["1½", "5", "1, 1, 1, 1, 1"]
        # The reserve of team 6 won on board 8 against team 2 (2-6 ended 2½-5½); his regular played 4.
        assert want[("Rasmus Andersen", "Skakklubben Rivalen 3")] == ["1", "1", "8"]
        assert want[("Signe Pedersen", "Skakklubben Rivalen 3")][1:] == ["4", "8, 8, 8, 8"]
        points = [float(r[2].replace("½", ".5") if r[2] != "½" else 0.5) for r in rows]
        assert points == sorted(points, reverse=True)

        # ---- the PDFs: the table, the first round's results, the disputed match's card
        text = pdf_text(visitor, base + visitor.locator("a[href$='/table.pdf']").get_attribute("href"), tmp_path)
        for row in EXPECTED_TABLE:
            assert " ".join(row) in text, (row, text)
        link = visitor.locator("main section").first.locator("a[href$='/round/1.pdf']")
        text = pdf_text(visitor, base + link.get_attribute("href"), tmp_path)
        for _round, home, away, pk in schedule[:3]:
            score = sum(played[pk][2])
            assert f"{home} – {away}: {shown(score)}–{shown(8 - score)}" in text, text
        pk = next(pk for _r, h, a, pk in schedule if {number[h], number[a]} == set(DISPUTED))
        home, away, points = played[pk]
        text = pdf_text(visitor, base + reverse("league_match_pdf", args=[club.slug, "regio", pk]), tmp_path)
        assert home in text and away in text
        for board, p in enumerate(points, start=1):
            players = (members[(home, board - 1)].full_name, members[(away, board - 1)].full_name)
            found = rf"{board} {re.escape(players[0])} .*{re.escape(players[1])} .*{re.escape(result(p, board % 2))}"
            assert re.search(found, text), (board, text)
        assert f"{shown(sum(points))}–{shown(8 - sum(points))}" in text
        # The same card printed by the Danish club's captain is in Danish, his language, with no English left.
        danish = phones["Skakklubben Rivalen 2"]
        text = pdf_text(danish, base + reverse("league_match_pdf", args=[club.slug, "regio", pk]), tmp_path)
        assert home in text and away in text and f"{shown(sum(points))}–{shown(8 - sum(points))}" in text
        with translation.override("da"):
            assert translation.gettext("Match card") in text and translation.gettext("Match card") != "Match card"
        assert english_in(text, PRINTED_CARD, "da") == []
        for page in pages:
            assert page.errors == [], page.url
    finally:
        for page in pages:
            page.context.close()
