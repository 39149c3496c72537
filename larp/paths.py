"""Where the app's bundled files live, in a source checkout and in an install.

The repository keeps ``templates/``, ``static/`` and ``data/`` at its top level.
A wheel built by ``pip install .`` carries them inside the package
(``larp/templates`` and so on; see ``[tool.hatch.build.targets.wheel.force-include]``
in ``pyproject.toml``), so the app looks inside the package first and falls back
to the checkout's top level.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The directory ``name`` (``"templates"``, ``"static"`` or ``"data"``).

    Raises:
        FileNotFoundError: neither the installed nor the checkout copy exists,
            which means a broken install.
    """
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"larp is installed without its {name}/ directory")


def data_path(*parts: str) -> Path:
    """A path inside the bundled ``data/`` directory."""
    return resource_dir("data").joinpath(*parts)
