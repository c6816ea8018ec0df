"""A player's own turn: read the standing turn, send a new one."""

from __future__ import annotations

from flask import current_app

from ..i18n import N_
from ..models import Game, Player, Round
from ..services import costly, standing_turns, turns
from ..services.errors import WrongState
from . import bp, inputs
from .auth import caller, own_player, visible_game
from .games import GAME_ID
from .serialize import turn_json, version_json


def open_round(game: Game) -> Round:
    """The round turns go to now (409 while the game has none)."""
    round_ = game.open_round
    if round_ is None:
        raise WrongState(N_("'{game}' has no open round (state: {state})"), game=game.name,
                         state=game.state)
    return round_


@bp.get(f"/games/{GAME_ID}/turn")
def get_turn(game_id: int):
    """The caller's standing turn for the open round."""
    game = visible_game(game_id)
    player = own_player(game)
    round_ = open_round(game)
    return turn_json(game, round_, player, standing_turns.standing_turn(round_, player))


@bp.route(f"/games/{GAME_ID}/turn", methods=["PUT", "POST"])
def submit_turn(game_id: int):
    """Send a turn (text or structured); all or nothing, like every other channel."""
    game = visible_game(game_id)
    player = own_player(game)
    text, round_number = inputs.turn_body()
    if game.practice:  # the round resolves and the bots choose: a costly request
        with costly.spending("practice_turn", caller().viewer.email,
                             most=current_app.config["COSTLY_PER_MINUTE"]):
            return _submitted(game, player, text, round_number)
    return _submitted(game, player, text, round_number)


def _submitted(game: Game, player: Player, text: str, round_number: int | None) -> dict:
    # The answer is built just before the turn commits, while all it shows is loaded:
    # after the commit, reading it back would cost four more queries.
    answer: list[dict] = []
    turns.submit_turn(player, text, channel="api", entered_by=player.email,
                      round_number=round_number,
                      on_accept=lambda sub: answer.append(submission_json(game, player, sub)))
    return answer[0]


def submission_json(game: Game, player: Player, sub: turns.Submission) -> dict:
    """The accepted version and the turn now standing."""
    return {**turn_json(game, sub.round, player, sub.standing),
            "version": version_json(sub.version)}
