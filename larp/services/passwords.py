"""How passwords are hashed: werkzeug's scrypt (issue 19), one method for every hash the app makes."""

from __future__ import annotations

from werkzeug.security import generate_password_hash

#: werkzeug's method: ``"scrypt"`` is scrypt at werkzeug's default cost (n=2**15, r=8, p=1; tens of
#: milliseconds a hash), which every served app uses. A check reads the cost from the stored hash.
#: The test suite sets a cheaper cost of the same algorithm for the apps it runs in its own process
#: (tests/web/conftest.py), as a thousand logins at full cost would take minutes of CI's time.
METHOD = "scrypt"

_DUMMIES: dict[str, str] = {}


def hash_password(password: str) -> str:
    """The hash of ``password`` to store, made with :data:`METHOD` and a random salt."""
    return generate_password_hash(password, method=METHOD)


def dummy_hash() -> str:
    """The hash of a password nobody has, made with :data:`METHOD` once per process: checked when a
    name has no account (or no password yet), so that a made-up name costs what a real one costs."""
    if METHOD not in _DUMMIES:
        _DUMMIES[METHOD] = generate_password_hash("not a password anyone has", method=METHOD)
    return _DUMMIES[METHOD]


dummy_hash()  # made at import, as the first made-up name must not take longer than the others
