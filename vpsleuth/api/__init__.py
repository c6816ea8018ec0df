"""The JSON API at /api/v1."""


def init_app(app) -> None:
    """Register the API blueprint."""
