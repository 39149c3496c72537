"""Passwords are hashed at werkzeug's full scrypt cost outside the test suite's own apps."""

from __future__ import annotations

import subprocess
import sys

from tests.servers import ROOT


def test_a_served_app_hashes_passwords_at_the_full_scrypt_cost():
    """Issue 19: werkzeug's scrypt at its default cost (n=2**15, r=8, p=1), for real passwords and for
    the made-up names' dummy; the suite lowers it only for its in-process apps (tests/web/conftest.py)."""
    script = ("from larp.services.passwords import dummy_hash, hash_password\n"
              "print(hash_password('correct horse').split('$')[0], dummy_hash().split('$')[0])\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["scrypt:32768:8:1", "scrypt:32768:8:1"]


def test_the_suites_own_apps_use_the_same_algorithm_at_a_lower_cost():
    """The in-process apps of tests/web (tests/web/conftest.py): scrypt still, only n is lower."""
    from larp.services.passwords import dummy_hash, hash_password

    assert hash_password("correct horse").split("$")[0] == dummy_hash().split("$")[0] == "scrypt:1024:8:1"
