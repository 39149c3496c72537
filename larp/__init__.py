"""larp: an adjudication tool for Mind's Eye Theatre vampire LARPs.

``larp.rules`` is the pure rules core (no Flask, no peewee); ``larp.services``
applies rulings to stored characters in one transaction each; ``larp.web``
holds the thin Flask views. :func:`create_app` is the application factory.
"""

from typing import Any


def create_app(test_config: dict[str, Any] | None = None, *, create_database: bool = False, start_empty: bool = False,
               database_pool: int = 0, load_demo: bool = True):
    """Build the Flask app (see :func:`larp.app.create_app`).

    Imported lazily so that the rules core can be used without Flask.
    """
    from larp.app import create_app as factory

    return factory(test_config, create_database=create_database, start_empty=start_empty,
                   database_pool=database_pool, load_demo=load_demo)
