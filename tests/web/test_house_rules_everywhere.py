"""Every page and mail that states a rule states the game's own house rules.

Game "Tourmaline" plays 8 rounds, +2 for a right tip and -1 for a wrong one,
bonus 5, 3, 1 from round 3, rounds that close early (the next round a whole
interval after the close) and the deduction aid: nothing of it is the
standard game. Ada reads English, Bert German, Carmen Spanish. Rounds 1 and 2
are resolved; in round 3 (a bonus round) each is reminded and sends a turn.
Every mail goes through a real SMTP server, every page through HTTP, and each
must say this game's values in its reader's language and never the standard
game's (+1, -2, 12 rounds, bonus 3, 2, 1 from round 5).
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from smtp_sink import mailing_to
from sqlalchemy import select

from vpsleuth.extensions import db
from vpsleuth.mail import outbox
from vpsleuth.models import Game
from vpsleuth.rules import Ruleset
from vpsleuth.rules.schedule import weekly
from vpsleuth.services import games, reminders, resolution, turns

RULES = Ruleset(rounds=8, first_bonus_round=3, bonuses=(5, 3, 1), points_right=2,
                points_wrong=-1, early_resolution=True)
PLAYERS = {"en": ("Ada", "ada@example.org"), "de": ("Bert", "bert@example.org"),
           "es": ("Carmen", "carmen@example.org")}

# What each language says of Tourmaline's rules.
THIS_GAME = {
    "en": {
        "scoring": "A right tip earns 2 points; a wrong one costs 1 point.",
        "bonus": "From round 3 on, the players with the most right tips in a round earn "
                 "5, 3 and 1 bonus points by rank.",
        "bonus_round": "This is a bonus round: the players with the most right tips earn "
                       "5, 3 and 1 bonus points by rank.",
        "rounds": "The game lasts at most 8 rounds.",
        "round": "Round 3 of 8.",
        "round_end": "A round closes as soon as every player has sent a turn, at the latest "
                     "at its deadline. The next round then gets a whole interval from that "
                     "moment.",
        "aid": "The deduction aid is on:",
        "tip_values": "Right +2, wrong −1.",
        "from_round": "from round 3",
        "early": "Once everyone has sent a turn, the round closes at once.",
    },
    "de": {
        "scoring": "Ein richtiger Tipp bringt 2 Punkte, ein falscher kostet 1 Punkt.",
        "bonus": "Ab Runde 3 bekommen die Spieler mit den meisten richtigen Tipps einer "
                 "Runde nach Platz 5, 3 und 1 Bonuspunkte.",
        "bonus_round": "Dies ist eine Bonusrunde: Die Spieler mit den meisten richtigen "
                       "Tipps bekommen nach Platz 5, 3 und 1 Bonuspunkte.",
        "rounds": "Das Spiel dauert höchstens 8 Runden.",
        "round": "Runde 3 von 8.",
        "round_end": "Eine Runde endet, sobald alle Spieler einen Zug geschickt haben, "
                     "spätestens zu ihrem Abgabetermin. Die nächste Runde bekommt dann "
                     "einen ganzen Abstand ab diesem Zeitpunkt.",
        "aid": "Die Deduktionshilfe ist an:",
        "tip_values": "Richtig +2, falsch −1.",
        "from_round": "ab Runde 3",
        "early": "Sobald alle einen Zug geschickt haben, endet die Runde sofort.",
    },
    "es": {
        "scoring": "Cada apuesta acertada suma 2 puntos y cada fallo resta 1 punto.",
        "bonus": "A partir de la ronda 3, quienes más apuestas aciertan en una ronda ganan, "
                 "según su puesto, 5, 3 y 1 puntos extra.",
        "bonus_round": "Esta ronda da puntos extra: quienes más apuestas aciertan ganan, "
                       "según su puesto, 5, 3 y 1 puntos extra.",
        "rounds": "La partida dura como mucho 8 rondas.",
        "round": "Ronda 3 de 8.",
        "round_end": "Una ronda se cierra en cuanto todos los jugadores han enviado su turno, "
                     "como muy tarde al vencer su plazo. La ronda siguiente tiene entonces un "
                     "intervalo entero a partir de ese momento.",
        "aid": "La ayuda deductiva está activada:",
        "tip_values": "Acierto +2, fallo −1.",
        "from_round": "desde la ronda 3",
        "early": None,  # checked in English and German by test_early_resolution_mails
    },
}
# What each language would say of the standard game: none of it may appear.
STANDARD = {
    "en": ["A right tip earns 1 point; a wrong one costs 2 points.", "3, 2 and 1",
           "From round 5 on", "Round 3 of 12", "Right +1, wrong −2", "at most 12 rounds"],
    "de": ["Ein richtiger Tipp bringt 1 Punkt, ein falscher kostet 2 Punkte.", "3, 2 und 1",
           "Ab Runde 5", "Runde 3 von 12", "Richtig +1, falsch −2", "höchstens 12 Runden"],
    "es": ["Cada apuesta acertada suma 1 punto y cada fallo resta 2 puntos.", "3, 2 y 1",
           "A partir de la ronda 5", "Ronda 3 de 12", "Acierto +1, fallo −2",
           "como mucho 12 rondas"],
}
CHANGED = {"en": "changed", "de": "geändert", "es": "cambiada"}
AND = {"en": "and", "de": "und", "es": "y"}
# Each mail and what of THIS_GAME it states.
MAILS = {
    "invitation": ("rounds", "scoring", "bonus", "round_end", "aid"),
    "round_opened": ("round", "scoring", "bonus_round"),
    "reminder": ("round", "scoring", "bonus_round", "early"),
    "confirmation": ("round", "scoring", "bonus_round", "early"),
    "report": ("scoring", "bonus"),
}


@pytest.fixture
def app(app, sink):
    """The usual app (one database, emptied), built again to send its mail to the sink."""
    with mailing_to(app, sink) as mailing:
        yield mailing


def later(days: float) -> str:
    """A local first deadline some days from the real now (pages use the real clock)."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%d %H:%M")


@pytest.fixture
def tourmaline(app, sink):
    """The game in round 3, every mail of rounds 1-3 delivered to the sink."""
    game = games.create_game("Tourmaline", weekly(later(3), "Europe/Berlin"), RULES,
                             after_early="fresh", deduction_aid=True)
    for lang, (name, email) in PLAYERS.items():
        games.add_player(game, name, email, language=lang)
    games.start_game(game, seed=3)
    for number in (1, 2):
        for player in game.players:
            turns.submit_turn(player, "TIP A RD1 BP2", channel="web")
        resolution.resolve_round(game, actor="gm", number=number)
    round_3 = game.open_round
    assert round_3.number == 3
    reminders.send_reminders(now=round_3.deadline - timedelta(hours=3))
    for player in game.players:
        turns.submit_turn(player, "QUESTION E blue opal\nTIP A RD1", channel="web")
    db.session.commit()
    while outbox.send_due(now=round_3.deadline):
        pass
    return db.session.scalars(select(Game).where(Game.name == "Tourmaline")).one()


def parts(message) -> tuple[str, str]:
    """A mail's text and its HTML with the tags taken out, as a reader sees them."""
    text = message.get_body(("plain",)).get_content()
    markup = message.get_body(("html",)).get_content()
    seen = html.unescape(re.sub(r"<[^>]+>", "", markup))
    return " ".join(text.split()), " ".join(seen.split())


def kind_of(message) -> str:
    return re.search(r"\.(\w+)@", message["Message-ID"]).group(1)


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_every_mail_states_the_games_own_rules_and_never_the_standard_ones(
        tourmaline, sink, lang):
    said, never = THIS_GAME[lang], STANDARD[lang]
    _, email = PLAYERS[lang]
    received: dict[str, list] = {}
    for message in sink.to(email):
        received.setdefault(kind_of(message), []).append(message)
    assert set(MAILS) <= set(received), sorted(received)
    for kind, states in MAILS.items():
        message = received[kind][-1]  # of round 3, the bonus round (reports: of round 2)
        for body in parts(message):
            for key in states:
                if said[key] is not None:
                    assert said[key] in body, (kind, key, body)
            for standard in never:
                assert standard not in body, (kind, standard)


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_every_page_states_the_games_own_rules_and_never_the_standard_ones(
        tourmaline, signed_in, lang):
    said, never = THIS_GAME[lang], STANDARD[lang]
    client = signed_in(PLAYERS[lang][1])
    base = f"/games/{tourmaline.id}"

    def page(path: str) -> str:
        response = client.get(path)
        assert response.status_code == 200, path
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(
            as_text=True))).split())

    turn = page(f"{base}/turn")
    assert said["tip_values"] in turn
    overview = page(base)
    assert re.search(r"\+2\b.{0,20}[-−]1\b", overview) and "5, 3, 1" in overview
    assert said["from_round"] in overview
    sheet = client.get(f"{base}/sheet").get_data(as_text=True)
    assert 'id="aid-legend"' in sheet
    for text in (turn, overview):
        for standard in never:
            assert standard not in text
        assert not re.search(r"(^|\s)[-−]2\b", text)
    # The game's rules: this game's value beside the standard one, row by row.
    table = client.get(f"{base}/rules").get_data(as_text=True)
    rows = dict(re.findall(r'<tr id="rule-(\w+)"[^>]*>(.*?)</tr>', table, re.S))

    def cells(key: str) -> tuple[str, str]:
        game, standard = re.findall(r"<td[^>]*>(.*?)</td>", rows[key], re.S)
        return (" ".join(html.unescape(re.sub(r"<[^>]+>", " ", game)).split()),
                " ".join(html.unescape(standard).split()))

    assert cells("rounds") == (f"8 {CHANGED[lang]}", "12")
    assert cells("points_right") == (f"+2 {CHANGED[lang]}", "+1")
    assert cells("points_wrong") == (f"−1 {CHANGED[lang]}", "−2")
    assert cells("bonus") == (f"5, 3 {AND[lang]} 1, {said['from_round']} {CHANGED[lang]}",
                              f"3, 2 {AND[lang]} 1, {said['from_round'][:-1]}5")
    assert cells("aid")[0].endswith(CHANGED[lang])
    assert cells("deadlines")[0] == cells("deadlines")[1]  # weekly, as the standard game
