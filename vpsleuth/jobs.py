"""Scheduled jobs, declared as data; each only calls services."""


def init_app(app) -> None:
    """Register the scheduler's CLI commands."""
