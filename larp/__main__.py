"""``python -m larp`` runs the ``larp`` command line."""

from larp.cli import main

main()
