"""Service errors through the catalogue: every refusal in English, German and Spanish."""

from __future__ import annotations

import ast
import string
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vpsleuth.i18n import N_, catalogue
from vpsleuth.orders import parse_turn
from vpsleuth.services.errors import (
    Invalid,
    RoundClosed,
    ServiceError,
    Term,
    TurnRefused,
    WrongState,
    deadline_in,
)

ROOT = Path(__file__).resolve().parents[2] / "vpsleuth"


def _is_n(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "N_" and isinstance(node.args[0], ast.Constant))


def raised_messages() -> dict[str, str]:
    """Every message id a ``raise`` hands to an error (or the parser records for a bad
    line), with where."""
    found = {}
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {t.id: node.value.args[0].value for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and _is_n(node.value)
                 for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "error"):
                found.update((a.args[0].value, f"{path.name}:{node.lineno}")
                             for a in node.args if _is_n(a))
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and node.exc.args):
                continue
            for arg in node.exc.args:  # BadInput(field, message): the message comes second
                if _is_n(arg):
                    found[arg.args[0].value] = f"{path.name}:{node.lineno}"
                elif isinstance(arg, ast.Name) and arg.id in named:
                    found[named[arg.id]] = f"{path.name}:{node.lineno}"
    return found


MESSAGES = raised_messages()


def places(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_refusals_people_read():
    for message in ("{player} has been withdrawn from '{game}'",
                    "'{game}' is paused by the game master; send your turn again when it resumes",
                    "this sign-in link has expired; request a new one",
                    "you have asked to join this game already", "this field is required",
                    "'{word}' is not a location; tips go to A-G or X (nobody)"):
        assert message in MESSAGES


def test_no_error_is_raised_with_a_hand_written_german_text_any_more():
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                assert "de" not in {k.arg for k in node.exc.keywords}, f"{path}:{node.lineno}"


@pytest.mark.parametrize("lang", ["de", "es"])
def test_every_raised_message_is_translated_with_the_same_places(lang):
    for message, where in MESSAGES.items():
        said = catalogue(lang).gettext(message)
        assert said != message, f"{lang}: {where}: {message!r} is not translated"
        assert places(said) == places(message), f"{lang}: {where}: {said!r}"


def test_a_withdrawn_player_reads_it_in_each_language():
    error = WrongState(N_("{player} has been withdrawn from '{game}'"), player="x24", game="GD")
    assert error.message == str(error) == "x24 has been withdrawn from 'GD'"
    assert error.text("en") == error.message
    assert error.text("de") == "x24 spielt in „GD“ nicht mehr mit"
    assert error.text("es") == "x24 ha sido retirado de «GD»"
    assert error.code == "wrong_state"


def test_a_paused_game_refuses_in_each_language():
    error = RoundClosed(N_("'{game}' is paused by the game master; send your turn again when "
                           "it resumes"), game="GD")
    assert "paused" in error.text("en")
    assert error.text("de").startswith("„GD“ ist von der Spielleitung unterbrochen")
    assert error.text("es").startswith("«GD» está en pausa")


def test_a_late_turn_names_the_deadline_written_for_each_language():
    moment = datetime(2026, 12, 6, 19, 0, tzinfo=UTC)
    error = RoundClosed(N_("the deadline of round {round} passed at {deadline}; the round is "
                           "being resolved and round {next} will open with the report"),
                        round=3, deadline=deadline_in(moment, "Europe/Berlin"), next=4)
    assert error.message.startswith("the deadline of round 3 passed at Sun 6 Dec 2026, 20:00")
    assert error.text("de").startswith(
        "Der Abgabetermin von Runde 3 ist am So. 6. Dez. 2026, 20:00")
    spanish = error.text("es")
    assert spanish.startswith("el plazo de la ronda 3 terminó el ") and "ronda 4" in spanish
    assert "20:00" in spanish and "Sun" not in spanish and "Dec" not in spanish


def test_a_term_parameter_is_translated_too():
    error = Invalid(N_("{what} must be one line of text, without line breaks or control "
                       "characters"), what=Term(N_("a player's name")))
    assert error.message.startswith("a player's name must be one line")
    assert error.text("de").startswith("Der Name eines Spielers muss eine Zeile Text sein")
    assert error.text("es").startswith("el nombre de un jugador debe ser una sola línea")


def test_a_message_without_parameters_keeps_its_braces():
    assert ServiceError("use {curly} braces").text("de") == "use {curly} braces"


def test_a_refused_turn_lists_its_lines_in_the_readers_language():
    error = TurnRefused(parse_turn("TIP H RD1\nQUITA").errors)
    assert error.message.startswith("your turn was not applied; please fix these lines:\n"
                                    "line 1: 'H' is not a location")
    german, spanish = error.text("de"), error.text("es")
    assert german.startswith("dein Zug wurde nicht übernommen")
    assert "Zeile 1: 'H' ist kein Ort" in german and "Zeile 2: kein Stein zum Streichen" in german
    assert spanish.startswith("tu turno no se ha aplicado")
    assert "Línea 2: falta la gema que quitar (escribe: QUITA" in spanish
