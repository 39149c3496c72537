"""The rules core: pure functions over plain data.

Nothing here imports Flask or peewee, reads the clock or calls the ``random``
module: callers pass a clock value and a random source, so every ruling can be
replayed. Modules are named as the rulebooks name the rule families
(``challenge``, ``health``, ``damage``, ...). Every ruling carries its
explanation as :class:`larp.rules.explain.Step` objects citing their source.
"""
