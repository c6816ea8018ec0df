"""The web pages: players' and game master's blueprints."""


def init_app(app) -> None:
    """Register the web blueprints."""
