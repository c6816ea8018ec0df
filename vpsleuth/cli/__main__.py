"""``python -m vpsleuth.cli``: the ``vpsleuth`` command without its console script."""

from . import main

main()
