"""Every numbered article of the five seeds, of C.04.3 (Dutch system), of C.07 (tie-breaks), and the
articles of B.02 (FIDE rating regulations) the FIDE rating report applies.

An article is named `"<document> <number>"`, as a test names it in `@pytest.mark.rule(...)`: `"000 C7"`,
`"002 A7"`, `"003 1.6"`, `"004 26"` (a §), `"004 4.9.9.5"` (a numbered section), `"C.04.3 C5"`,
`"C.07 16.3"`, `"B.02 8.3.3"` (`"B.02 RB"`: the rapid and blitz chapter's differences). Sub-items
(C10e, A1 a) belong to their article. An article that states no rule the software can check (a
committee, a fee, a smoking ban) is "not applicable", with the reason.

The seeds are the five club regulations (a list of their defects settles those). C.04.3: sections A-E of
the 2017 text, criteria C5-C21 of the 2026 edition. C.07: FIDE's tie-break regulations. B.02: effective
1 March 2024, amended 1 October 2025, with its rapid and blitz chapter.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Article:
    id: str  # "000 C7"
    title: str
    not_applicable: str = ""  # the reason, when the article states nothing the software checks

    @property
    def document(self) -> str:
        return self.id.split(" ", 1)[0]


DOCUMENTS = {
    "000": "Seed 000: KNSB Reglement Zwitsers op rating (1996)",
    "001": "Seed 001: KNSB Reglement Zwitsers op weerstandspunten (1996)",
    "002": "Seed 002: KNSB Reglement Zwitsers op rating, later edition",
    "003": "Seed 003: internal competition rules (Keizer), 2007-2008",
    "004": "Seed 004: DSU handbook, section 4",
    "C.04.3": "FIDE C.04.3, Dutch system",
    "C.07": "FIDE C.07, tie-break regulations",
    "B.02": "FIDE B.02, rating regulations (the articles the FIDE rating report applies)",
}

ORGANISATION = "organisation of the federation or the event; nothing the software computes or checks"
CONDUCT = "conduct at the board and appeals; the arbiter's business, not the software's"
ADVICE = "advice to organisers or arbiters, no rule of its own"

_ROWS: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- seed 000
    ("000 A1", "Rating", "advice to check ratings and to estimate a missing one; the TD enters them"),
    ("000 A2", "Rangorde", ""),
    ("000 A3", "Puntengroep", ""),
    ("000 A4", "Floats", ""),
    ("000 A5", "Bye", ""),
    ("000 A6", "Subgroepen", ""),
    ("000 A7", "Kleursaldo en kleurvoorkeur", ""),
    ("000 A8", "Definitie van x", ""),
    ("000 A9", "Verschuiving en verwisseling", ""),
    ("000 B1", "Twee spelers hoogstens eenmaal tegen elkaar", ""),
    ("000 B2", "Kleursaldo niet > +2 of < -2", ""),
    ("000 B3", "Scoreverschil zo klein mogelijk", ""),
    ("000 B4", "Zoveel mogelijk spelers hun kleurvoorkeur", ""),
    ("000 B5", "Geen gelijke float als in de vorige ronde", ""),
    ("000 B6", "Geen gelijke float als in de voorvorige ronde", ""),
    *((f"000 C{n}", f"Indelingsprocedure C{n}", "") for n in range(1, 16)),
    ("000 D1", "Verschuivingen", ""),
    ("000 D2", "Verwisselingen", ""),
    ("000 E1", "Honoreer beider kleurvoorkeur", ""),
    ("000 E2", "Honoreer de sterkste kleurvoorkeur", ""),
    ("000 E3", "Alterneer", ""),
    ("000 E4", "Voorkeur van de hoger geklasseerde", ""),
    ("000 F1", "Sorteren van de paringen", ""),
    ("000 F2", "Reglementair besliste partijen", ""),
    ("000 F3", "Kleurhistorie met gaten", ""),
    ("000 F4", "Eerste ronde", ""),
    ("000 F5", "Terugtrekken", ""),
    ("000 F6", "Gepubliceerde indeling niet meer gewijzigd", ""),
    ("000 F7", "Correcties werken alleen op nog te maken indelingen", ""),
    ("000 F8", "Zonder bericht afwezig", ""),
    ("000 F9", "Afgebroken partijen", ""),
    ("000 F10", "Eindklassering", ""),
    # ---------------------------------------------------------------- seed 001
    ("001 A1", "Weerstandspunten, Sonneborn-Berger, voorbeeld, reglementaire uitslagen", ""),
    ("001 A2", "Puntengroep", ""),
    ("001 A3", "Wachtkamer", ""),
    ("001 A4", "Klassering", ""),
    ("001 A5", "Kleursaldo en kleurvoorkeur", ""),
    ("001 B1", "Twee spelers hoogstens eenmaal tegen elkaar", ""),
    ("001 B2", "Kleursaldo niet > +2 of < -2", ""),
    ("001 B3", "Scoreverschil zo klein mogelijk", ""),
    ("001 B4", "Zoveel mogelijk spelers hun kleurvoorkeur", ""),
    *((f"001 C{n}", f"Indelingsprocedure C{n}", "") for n in range(1, 10)),
    ("001 D", "De eerste ronde", ""),
    ("001 E1", "Honoreer beider kleurvoorkeur", ""),
    ("001 E2", "Honoreer de sterkste kleurvoorkeur", ""),
    ("001 E3", "Alterneer", ""),
    ("001 E4", "Voorkeur van de hoger geklasseerde", ""),
    ("001 F1", "Oneven aantal: reglementair punt", ""),
    ("001 F2", "Sorteren van de paringen", ""),
    ("001 F3", "Reglementair besliste partijen", ""),
    ("001 F4", "Kleurhistorie met gaten", ""),
    ("001 F5", "Terugtrekken", ""),
    ("001 F6", "Gepubliceerde indeling niet meer gewijzigd", ""),
    ("001 F7", "Correcties werken alleen op nog te maken indelingen", ""),
    ("001 F8", "Controlesommen", ""),
    ("001 F9", "Vrijwillige byes", ""),
    ("001 F10", "Zonder bericht afwezig", ""),
    ("001 F11", "Afgebroken partijen", ""),
    ("001 F12", "Eindklassering", ""),
    # ---------------------------------------------------------------- seed 002
    ("002 A1", "Rating", "advice to check ratings and to estimate a missing one; the TD enters them"),
    ("002 A2", "Rangorde", ""),
    ("002 A3", "Puntengroep", ""),
    ("002 A4", "Floats", ""),
    ("002 A5", "Bye", ""),
    ("002 A6", "Subgroepen, P0, M0", ""),
    ("002 A7", "Kleursaldo en kleurvoorkeur", ""),
    ("002 A8", "X1, Z1", ""),
    ("002 A9", "Verschuiving en verwisseling", ""),
    ("002 A10", "Topscorers en openknippen", ""),
    ("002 A11", "Kwaliteit van de indeling, X en P", ""),
    ("002 B1", "Niet tweemaal tegen elkaar; bye-punt geeft downfloat", ""),
    ("002 B2", "Kleursaldo niet > +2 of < -2", ""),
    ("002 B3", "Scoreverschil zo klein mogelijk", ""),
    ("002 B4", "Zoveel mogelijk spelers hun kleurvoorkeur", ""),
    ("002 B5", "Geen gelijke float in twee opeenvolgende ronden", ""),
    ("002 B6", "Geen gelijke float als twee ronden geleden", ""),
    ("002 C1", "Niet in te delen speler", ""),
    ("002 C2", "Bepaling van P0, P1, M0, M1, X1, Z1", ""),
    ("002 C3", "Eisen voor P, B2, A7d, X, Z, B5/B6", ""),
    ("002 C4", "Indeling van de subgroepen", ""),
    ("002 C5", "Rangschik S1 en S2", ""),
    ("002 C6", "Probeer de indeling", ""),
    ("002 C7", "Verschuiving", ""),
    ("002 C8", "Verwisseling", ""),
    ("002 C9", "Terug naar de heterogene puntengroep", ""),
    ("002 C10", "Verlagen van de eisen", ""),
    ("002 C11", "verwijderd", 'deleted in this edition ("C11 verwijderd")'),
    ("002 C12", "Openknippen van de vorige puntengroep", ""),
    ("002 C13", "Laagste puntengroep", ""),
    ("002 C14", "Verlagen van P1, X1, Z1, M1", ""),
    ("002 D1", "Verschuivingen", ""),
    ("002 D2", "Verwisselingen", ""),
    ("002 D3", "Verwisseling van doorgeschoven spelers", ""),
    ("002 E1", "Honoreer beider kleurvoorkeur", ""),
    ("002 E2", "Honoreer de sterkste kleurvoorkeur", ""),
    ("002 E3", "Alterneer", ""),
    ("002 E4", "Voorkeur van de hoger geklasseerde", ""),
    ("002 E5", "Eerste ronde", ""),
    ("002 F1", "Sorteren van de paringen", ""),
    ("002 F2", "Reglementair besliste partijen", ""),
    ("002 F3", "Kleurhistorie met gaten", ""),
    ("002 F4", "Eerste ronde", ""),
    ("002 F5", "Terugtrekken", ""),
    ("002 F6", "Gepubliceerde indeling niet meer gewijzigd", ""),
    ("002 F7", "Correcties werken alleen op nog te maken indelingen", ""),
    ("002 F8", "Zonder bericht afwezig", ""),
    ("002 F9", "Afgebroken partijen", ""),
    # ---------------------------------------------------------------- seed 003
    ("003 1.1", "Algemeen", ""),
    ("003 1.2", "Berekening ranglijst", ""),
    ("003 1.3", "Bondswedstrijden", ""),
    ("003 1.4", "Systeem Aalsmeer", ""),
    ("003 1.5", "Betekenis ranglijst kolommen", ""),
    ("003 1.6", "Herwaardering", ""),
    ("003 1.7", "Indeling van de partijen", ""),
    ("003 1.8", "Kleurverdeling", ""),
    ("003 1.9", "Aanwijzing reserve", ""),
    ("003 1.10", "Beginranglijst", ""),
    ("003 2.1", "Competitie instellingen", ""),
    ("003 2.2", "Wijzigingen van de competitie instellingen", ""),
    ("003 3.1", "Bedenktijd", "the time control is played at the board; nothing the software computes"),
    ("003 3.2", "Aanvangstijdstip", "the starting time of the evening; nothing the software computes"),
    ("003 3.3", "Afmelden", ""),
    ("003 3.4", "Aanmelden", ""),
    ("003 3.5", "No show", ""),
    # ---------------------------------------------------------------- seed 004
    *(
        (f"004 {n}", title, ORGANISATION)
        for n, title in (
            ("1", "Udvalg og komiteer"),
            ("2", "Spilleudvalget"),
            ("3", "Ratingkomitéen"),
            ("4", "Ratingkartoteksføreren"),
            ("5", "Turneringsarrangører"),
            ("6", "Skakdommere"),
            ("7", "Turneringskomiteer"),
        )
    ),
    ("004 11", "Almindelige regler (for sent fremmøde taber partiet)", ""),
    ("004 12", "Betænkningstid", "time controls are kept by the clocks at the board"),
    ("004 13", "Supplerende regler for hurtigafslutning", CONDUCT),
    ("004 14", "Udeblivelse", CONDUCT),
    ("004 15", "Aflevering af resultat", "who reports a result to whom; the software records results"),
    ("004 16", "Ikke fuldførelse af turnering", ""),
    ("004 17", "Indanke af dommers afgørelser", CONDUCT),
    ("004 18", "Indanke af TK's afgørelser", CONDUCT),
    ("004 19", "Registrering af advarsler og karantæner", CONDUCT),
    ("004 21", "Afgift", ORGANISATION),
    ("004 22", "Spillelokaler uden tobaksrygning", ORGANISATION),
    ("004 23", "Spillerbetegnelser", ""),
    ("004 24", "Præmiefordeling", ""),
    ("004 25", "Offentliggørelse af partier", ORGANISATION),
    ("004 26", "Kandidatresultater", ""),
    ("004 27", "Eftertilmeldingsgebyr", ORGANISATION),
    *(
        (f"004 {n}", title, ORGANISATION)
        for n, title in (
            ("31", "DM: Turneringsarrangører"),
            ("32", "DM: Indbydelse"),
            ("33", "DM: Anmeldelse"),
            ("34", "DM: Klasseopdeling"),
            ("35", "DM: Spilletid"),
            ("36", "DM: Landsholdsklassen"),
            ("37", "DM: Kandidatklassen"),
            ("38", "DM: Veteranklassen"),
            ("39", "DM: Øvrige grupper"),
            ("40", "DM: Turneringssystem"),
            ("61", "Koordinerede turneringer: Indbydelse"),
            ("62", "Koordinerede turneringer: Anmeldelse"),
            ("63", "Koordinerede turneringer: Spillere"),
            ("64", "Koordinerede turneringer: Turneringsarrangør"),
        )
    ),
    ("004 65", "Koordinerede turneringer: Turneringssystem (ratinggrupper)", ""),
    ("004 4.5.1", "Ratingsystemet: indledning", "an introduction, no rule of its own"),
    ("004 4.5.2", "Beregning af ratingtallet", ""),
    ("004 4.5.2.1", "Den forventede score", ""),
    ("004 4.5.2.2", "Bonus", ""),
    ("004 4.5.2.3", "Udviklingskoefficienten K", ""),
    ("004 4.5.2.4", "Korrektion ved passage af en koefficientgrænse", ""),
    ("004 4.5.2.5", "Korrektion ved turneringssejr", ""),
    ("004 4.5.2.6", "Bundgrænse", ""),
    ("004 4.5.3", "Ratingberettigede turneringer", ""),
    ("004 4.5.3.1", "Danske turneringer", "the rating committee lists the rated events; the TD asks for the report"),
    ("004 4.5.3.2", "Internationale turneringer", "rated by the rating committee from foreign reports"),
    ("004 4.5.4", "Øvrige beregningsregler", ""),
    ("004 4.5.4.1", "Tidsmæssig beregningsrækkefølge", ""),
    ("004 4.5.4.2", "Ratingberettigede partier", ""),
    ("004 4.5.4.3", "Ansvar for indberetning", ORGANISATION),
    ("004 4.5.5", "Ratingsystemets afgrænsning", ""),
    ("004 4.5.5.1", "Danske spillere", ""),
    ("004 4.5.5.2", "Udenlandske spillere", ""),
    ("004 4.5.6", "Koordinering med den internationale ratingliste", ""),
    ("004 4.5.6.1", "Udregning af ratingdifference", ""),
    ("004 4.5.6.2", "Justering af ratingtal", ""),
    ("004 4.5.7", "Tabeller til ratingberegning", ""),
    ("004 4.6", "Kamp- og dommerlicens", ORGANISATION),
    ("004 4.6.1", "Erhvervelse af licens", ORGANISATION),
    ("004 4.6.1.1", "Særlig uddannelse", ORGANISATION),
    ("004 4.6.1.2", "Særlig tildeling", ORGANISATION),
    ("004 4.6.2", "Fortabelse af licens", ORGANISATION),
    ("004 4.6.3", "Administration", ORGANISATION),
    ("004 4.6.4", "Registrering", ORGANISATION),
    ("004 4.7.1", "Opnåelse af ELO-rating", ""),
    ("004 4.7.2", "Krav til ELO-ratede turneringer", ""),
    ("004 4.7.3", "ELO rating af danske turneringer", "the federation reports events to FIDE"),
    ("004 4.7.4", "Krav til titelturneringer", ""),
    ("004 4.8", "Vejledning for turneringsarrangører", ADVICE),
    ("004 4.9.1", "Monrads turneringssystem", ""),
    ("004 4.9.2", "Gode råd ved brug af Monrads turneringssystem", ""),
    ("004 4.9.3", "Dansk Schweizer", ""),
    ("004 4.9.4", "Vejledning for dommere ved Dansk Schweizer (eksempler)", ""),
    ("004 4.9.5", "FIDE Schweizer (1998)", ""),
    ("004 4.9.6", "DUBOV schweizer", ""),
    ("004 4.9.7", "DSU's Knock Out system", ""),
    ("004 4.9.8", "Gladiatorskak modellen", ""),
    ("004 4.9.9.1", "Lynturneringer", "describes blitz events (time control at the board), no pairing rule"),
    ("004 4.9.9.2", "Hurtigskakturneringer", "describes rapid events and gives organisers advice"),
    ("004 4.9.9.3", "Klubturnering", "describes club championships, no rule of its own"),
    ("004 4.9.9.4", "Handicapturnering", "handicap time controls are set on the clocks"),
    ("004 4.9.9.5", "Olympiadeturnering", ""),
    ("004 4.9.10.1", "Sonneborn-Berger", ""),
    ("004 4.9.10.2", "Almindelig korrektion", ""),
    ("004 4.9.10.3", "Middelkorrektion", ""),
    ("004 4.9.11", "Alle-mod-alle rundeskemaer", ""),
    # ---------------------------------------------------------------- C.04.3 (Dutch)
    ("C.04.3 A1", "Rating and pairing numbers", ""),
    ("C.04.3 A2", "Order", ""),
    ("C.04.3 A3", "Scoregroups and pairing brackets", ""),
    ("C.04.3 A4", "Floaters and floats", ""),
    ("C.04.3 A5", "Byes", ""),
    ("C.04.3 A6", "Colour differences and colour preferences", ""),
    ("C.04.3 A7", "Topscorers", ""),
    ("C.04.3 A8", "Pairing score difference", ""),
    ("C.04.3 A9", "Round-pairing outlook (PPB, CLB)", ""),
    *((f"C.04.3 B{n}", f"Pairing process B.{n}", "") for n in range(1, 9)),
    ("C.04.3 C1", "No rematch", ""),
    ("C.04.3 C2", "Pairing-allocated bye eligibility", ""),
    ("C.04.3 C3", "Absolute colour preferences of non-topscorers", ""),
    ("C.04.3 C4", "Completion (penultimate pairing bracket)", ""),
    *((f"C.04.3 C{n}", f"Quality criterion C{n}", "") for n in range(5, 22)),
    ("C.04.3 D1", "Transpositions", ""),
    ("C.04.3 D2", "Exchanges", ""),
    ("C.04.3 D3", "MDP exchanges", ""),
    *((f"C.04.3 E{n}", f"Colour allocation E.{n}", "") for n in range(1, 6)),
    # ---------------------------------------------------------------- C.07 (tie-breaks)
    ("C.07 1", "Ties shared or broken", "the organiser's choice, written in the regulations"),
    ("C.07 2", "Play-offs or tie-breaks", "the organiser's choice, written in the regulations"),
    ("C.07 3", "Play-offs", "played at the board; the schedule is the organiser's"),
    ("C.07 4", "Tie-breaks: an ordered list, then lots", ""),
    ("C.07 5", "Team and individual events: the primary and the secondary score", ""),
    ("C.07 6", "Direct encounter", ""),
    ("C.07 7.1", "WIN", ""),
    ("C.07 7.2", "WON", ""),
    ("C.07 7.3", "BPG", ""),
    ("C.07 7.4", "BWG", ""),
    ("C.07 7.5", "PS", ""),
    ("C.07 7.6", "REP / GE", ""),
    ("C.07 7.7", "STD (2026)", ""),
    ("C.07 8.1", "BH", ""),
    ("C.07 8.2", "AOB", ""),
    ("C.07 8.3", "FB", ""),
    ("C.07 9.1", "SB", ""),
    ("C.07 9.2", "KS", ""),
    ("C.07 10.1", "ARO (and art. 10 on unrated participants)", ""),
    ("C.07 10.2", "TPR", ""),
    ("C.07 10.3", "PTP", ""),
    ("C.07 10.4", "APRO", ""),
    ("C.07 10.5", "APPO", ""),
    ("C.07 10.6", "RTNG", ""),
    ("C.07 11", "Team tie-breaks: match points and game points", ""),
    ("C.07 12", "Board count, top- and bottom-board results", ""),
    ("C.07 13", "Combined and special team tie-breaks", ""),
    ("C.07 14", "Modifiers: cut, median", ""),
    ("C.07 15", "Rating-based tie-breaks over games played", ""),
    ("C.07 16.1", "Requested byes and voluntary unplayed rounds", ""),
    ("C.07 16.2", "Categories of unplayed rounds", ""),
    ("C.07 16.3", "Unplayed rounds as someone's opponent", ""),
    ("C.07 16.4", "Own unplayed rounds: the dummy opponent", ""),
    ("C.07 16.5", "Cut with voluntary unplayed rounds", ""),
    # ---------------------------------------------------------------- C.07 team tie-breaks (art. 13)
    ("C.07 13.1", "MPvGP: the secondary score", ""),
    ("C.07 13.2", "Extended Sonneborn-Berger: EMMSB, EMGSB, EGMSB, EGGSB", ""),
    ("C.07 13.3", "Extended direct encounter and its board stages", ""),
    ("C.07 13.4", "SSSC: score and schedule strength combination", ""),
    # ---------------------------------------------------------------- B.02 (FIDE rating regulations)
    ("B.02 7.1.4", "An unrated player's results pooled (26 months; a zero score in the first event disregarded)", ""),
    ("B.02 7.2.1", "Rating floor: a rating below 1400 drops off the list", ""),
    ("B.02 8.1.1", "Table 8.1.1: fractional score p to rating difference dp", ""),
    ("B.02 8.1.2", "Table 8.1.2: rating difference D to scoring probability PD", ""),
    ("B.02 8.2", "Initial rating: two hypothetical 1800 opponents drawn, 5 games, at most 2200", ""),
    ("B.02 8.3", "Rating change of a rated player, per rating period (month)", ""),
    ("B.02 8.3.1", "400-point rule (real difference for 2650+ in standard play from 1 October 2025)", ""),
    ("B.02 8.3.3", "K factor: new player, junior, 2400 reached, the 700 cap", ""),
    ("B.02 RB", "Rapid and blitz: plain 400-point rule; no rating 600+ apart when one is above 2600", ""),
]

ARTICLES: dict[str, Article] = {row[0]: Article(*row) for row in _ROWS}

# Sub-items a test may name; they count for their article: "002 C10e" -> "002 C10", "003 1.4" stays.
ALIASES = {"004 4.9.9": "004 4.9.9.5"}


def article_of(name: str) -> str | None:
    """The catalogue article a marker names: itself, or the article its sub-item belongs to."""
    name = " ".join(name.split())
    if name in ARTICLES:
        return name
    if name in ALIASES:
        return ALIASES[name]
    document, _, number = name.partition(" ")
    trimmed = number.rstrip("abcdefghij").rstrip(".")  # C10e -> C10, A7a -> A7
    if f"{document} {trimmed}" in ARTICLES:
        return f"{document} {trimmed}"
    while "." in number:  # 16.4.2 -> 16.4, 4.5.2.2.1 -> 4.5.2.2
        number = number.rsplit(".", 1)[0]
        if f"{document} {number}" in ARTICLES:
            return f"{document} {number}"
    return None
