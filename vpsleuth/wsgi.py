"""The WSGI entry for production servers: ``gunicorn 'vpsleuth.wsgi:app'``."""

from . import create_app

app = create_app()
