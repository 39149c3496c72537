"""Configuration: defaults, the instance folder, the per-installation secret key.

Order of precedence: the defaults below, then ``<instance>/config.py`` (written
on first start with a random ``SECRET_KEY``), then environment variables
(``LARP_DATABASE_URL``, ``LARP_SECURE_COOKIES``, ``LARP_BEHIND_PROXY``), then a test configuration
passed to the app factory.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from larp.db import sqlite_url

DEFAULTS: dict[str, Any] = {
    # Sessions last the length of a long event weekend, so tablets stay logged in.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=4),
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    # Secure cookies only behind HTTPS: on a plain-HTTP event network they would break login.
    "SESSION_COOKIE_SECURE": False,
    # The CSRF token lives as long as the session: a tablet left open an hour must keep working.
    "WTF_CSRF_TIME_LIMIT": None,
    "WTF_CSRF_SSL_STRICT": True,
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
    # The largest Grapevine file imported (web and `larp import-grapevine`): 1,000 characters are about 4.5 MB.
    "GRAPEVINE_MAX_BYTES": 16 * 1024 * 1024,
    # The largest chronicle export `larp import` reads (years of rulings fit in far less).
    "CHRONICLE_MAX_BYTES": 256 * 1024 * 1024,
    "LOGIN_LINK_HOURS": 24,
    # Login lockout: this many wrong passwords for one user name within the window
    # refuses that name (even with the right password) until the window has passed.
    "LOGIN_LOCKOUT_FAILURES": 5,
    "LOGIN_LOCKOUT_MINUTES": 15,
    # The lock costs the guesser: that many wrong passwords from one address within the window are
    # free, then each further try from it waits twice as long as the last (from this many seconds).
    # A browser the account logged in from before is not locked by others' failures (larp/services/lockout.py).
    "LOGIN_ADDRESS_FAILURES": 20,
    "LOGIN_BACKOFF_SECONDS": 1,
    # Behind a reverse proxy (LARP_BEHIND_PROXY=1) trust one hop of X-Forwarded-For/-Proto/-Host.
    "BEHIND_PROXY": False,
    "LOAD_DEMO": True,
    # Webhooks (issue 35, larp/webhooks/): the worker of `larp serve` polls for events every so many
    # seconds (it is woken at once by this process's own), sends with this many threads, claims a
    # delivery for the lease, retries a failure after RETRY doubling up to RETRY_MAX, gives up a day
    # after the event; each socket operation has the timeout. WEBHOOKS_LOCAL_NETWORK false (or
    # LARP_WEBHOOKS_LOCAL_NETWORK=0) refuses every address that is not public, whatever a webhook says:
    # an organisation's server whose organisers must not reach its own network.
    "WEBHOOK_WORKER": True,
    "WEBHOOK_POLL_SECONDS": 2.0,
    "WEBHOOK_THREADS": 4,
    "WEBHOOK_LEASE_SECONDS": 60.0,
    "WEBHOOK_RETRY_SECONDS": 10.0,
    "WEBHOOK_RETRY_MAX_SECONDS": 900.0,
    "WEBHOOK_GIVE_UP_SECONDS": 86400.0,
    "WEBHOOK_TIMEOUT_SECONDS": 5.0,
    "WEBHOOK_MAX_BODY_BYTES": 128 * 1024,
    "WEBHOOK_MAX_ANSWER_BYTES": 64 * 1024,
    "WEBHOOKS_LOCAL_NETWORK": True,
}


def instance_config_file(instance_path: Path) -> Path:
    """``<instance>/config.py``, created with a random ``SECRET_KEY`` if missing.

    The key is per installation and never committed (stack-notes 6.2). Two servers
    starting at once on one instance folder get the same key: the file is written
    whole under another name and linked into place only if no other server did first.
    """
    instance_path.mkdir(parents=True, exist_ok=True)
    path = instance_path / "config.py"
    if not path.exists():
        draft = instance_path / f".config-{os.getpid()}-{secrets.token_hex(4)}.py"
        draft.write_text(
            "# Written by larp on first start. Keep it secret; delete it to log everyone out.\n"
            f"SECRET_KEY = {secrets.token_hex(32)!r}\n",
            encoding="utf-8",
        )
        try:
            draft.chmod(0o600)
        except OSError:  # pragma: no cover - Windows
            pass
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another server wrote it a moment ago: use that one
        except OSError:  # pragma: no cover - a filesystem without hard links
            if not path.exists():
                os.replace(draft, path)
        finally:
            draft.unlink(missing_ok=True)
    return path


def environment_overrides(instance_path: Path) -> dict[str, Any]:
    """Settings from the environment, and the default database URL."""
    values: dict[str, Any] = {
        "DATABASE_URL": os.environ.get("LARP_DATABASE_URL") or sqlite_url(instance_path / "larp.sqlite3")
    }
    if os.environ.get("LARP_SECURE_COOKIES", "").lower() in ("1", "true", "yes"):
        values["SESSION_COOKIE_SECURE"] = True
    if os.environ.get("LARP_BEHIND_PROXY", "").lower() in ("1", "true", "yes"):
        values["BEHIND_PROXY"] = True
    if os.environ.get("LARP_WEBHOOKS_LOCAL_NETWORK", "").lower() in ("0", "false", "no"):
        values["WEBHOOKS_LOCAL_NETWORK"] = False
    return values


def default_instance_path() -> str:
    """The instance folder: ``LARP_INSTANCE_PATH``, else ``./instance`` in the current directory.

    It holds the SQLite database, the secret key and backups. Starting from
    the checkout, that is the checkout's ``instance/`` (ignored by git).
    """
    return str(Path(os.environ.get("LARP_INSTANCE_PATH") or Path.cwd() / "instance").resolve())
