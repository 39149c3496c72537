"""Grapevine's play status and the character's condition, both ways.

Grapevine keeps a play status per character (stock menu: Absent, Active, Dead, Destroyed,
Harrowing, Inactive, Torpor, Withering). Three of them are conditions here: Torpor is torpor,
Destroyed and Dead are Final Death for a vampire and death for a ghoul or mortal. They are applied
when a character is created and when he is updated by an import, with two exceptions: Final Death
is final (an import never brings a character back), and an import does not wake a character from
torpor (the file may be older than tonight; waking is done on Between game sessions). Inactive is
retirement both ways (issue 27): an Inactive character comes in retired, on creation and on update,
and a retired character is written as Inactive; by the same caution an import brings no retired
character back into play (that is done on his page). The other statuses change nothing and are kept
as written. On export the condition gives the status; otherwise the status kept from the import is
written (Active when there is none).
"""

from __future__ import annotations

OUT_OF_PLAY = ("final_death", "dead")
_DEATH = ("destroyed", "dead", "final death")
_WORDS = {"torpor": "go into torpor", "final_death": "meet Final Death", "dead": "be dead"}


def condition_from_status(status: str, creature: str) -> str | None:
    """The condition Grapevine's ``status`` means for a ``creature`` (vampire, ghoul, mortal), or ``None``."""
    word = status.strip().lower()
    if word == "torpor" and creature == "vampire":
        return "torpor"
    if word in _DEATH:
        return "final_death" if creature == "vampire" else "dead"
    return None


def condition_on_import(status: str, creature: str, current: str | None) -> tuple[str | None, str]:
    """What an import does to the condition: ``(new condition or None for no change, a sentence for the
    preview or "")``. ``current`` is the character's condition here, ``None`` when he is created."""
    wanted = condition_from_status(status, creature)
    shown = f"Grapevine status {status.strip()}"
    if status.strip().lower() == "torpor" and creature != "vampire":
        return None, f"{shown}: only vampires go into torpor; not applied."
    if current is None:
        return (wanted, f"Will {_WORDS[wanted]} ({shown}).") if wanted else (None, "")
    if current in OUT_OF_PLAY:
        if wanted == current:
            return None, ""
        what = "in Final Death" if current == "final_death" else "dead"
        return None, f"Is {what} here and stays so ({shown}): Final Death is final."
    if wanted is None:
        if current == "torpor":
            return None, (f"Stays in torpor here ({shown or 'no status'}): an import wakes no one; wake him on "
                          "Between game sessions.")
        return None, ""
    if wanted == current:
        return None, ""
    return wanted, f"Will {_WORDS[wanted]} ({shown})."


def retired_on_import(status: str, retired: bool | None) -> tuple[bool, str]:
    """Whether an import retires the character (Grapevine's ``status`` Inactive), and the sentence for
    the preview. ``retired`` is whether he is retired here, ``None`` when he is created."""
    inactive = status.strip().lower() == "inactive"
    if inactive and not retired:
        return True, "Will be retired (Grapevine status Inactive): hidden from the pickers, kept in the record."
    if retired and not inactive:
        return False, (f"Stays retired here (Grapevine status {status.strip() or 'none'}): an import brings no one "
                       "back into play; do it on his page.")
    return False, ""


def status_on_export(condition: str, retired: bool, creature: str, kept_status: str = "") -> str:
    """Grapevine's status for a ``creature`` in ``condition`` (``retired``: out of play), keeping the status
    an import brought where it does not contradict the condition."""
    kept = (kept_status or "").strip()
    means = condition_from_status(kept, creature) if kept else None
    if condition == "torpor":
        return "Torpor"
    if condition in OUT_OF_PLAY:
        return kept if means == condition else ("Destroyed" if condition == "final_death" else "Dead")
    if retired:
        return "Inactive"  # what an import reads as retired (retired_on_import), whatever was kept
    return kept if kept and means is None and kept.lower() != "inactive" else "Active"
