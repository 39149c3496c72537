"""What a player reads of his own character (issue 33 item 1): the rulings his character was in, with
their full steps as said at the table, and never a narrator's notes or a player's contact details.

The character itself is found by :func:`larp.services.players.own_character` first; everything here
takes that character and shows only what concerns him.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from peewee import JOIN

from larp.i18n import session_label
from larp.models import Character, GameSession, Ruling, RulingCharacter
from larp.sheet_checks import FIELD_LABELS

#: The sheet's fields a player never reads, in a ruling or anywhere (as the webhooks' NEVER_SENT).
PRIVATE_FIELDS = ("narrator_notes", "player_contact")

#: The words by which a ruling's texts name a private field ("Narrator notes: — → Seen at the docks").
PRIVATE_LABELS = tuple(FIELD_LABELS[name] for name in PRIVATE_FIELDS)

#: Kinds of ruling that are the keeping of the chronicle, not what happened to the character at the
#: table or to his sheet: a player's record leaves them out.
NOT_FOR_PLAYERS = frozenset({"card_rotated", "card_revoked", "import", "settings", "deleted", "api_token_made",
                             "api_token_revoked", "webhook_made", "webhook_changed", "webhook_deleted",
                             "webhook_secret"})

#: The most rulings the player's page lists (newest first).
RULINGS_SHOWN = 200


@dataclass(frozen=True)
class PlayerRuling:
    """One ruling as the player reads it: ``summary`` and ``steps`` (``{"text", "rule"}`` each) with
    every text naming a private field left out; ``role`` is his character's part in it (challenger,
    defender, target...)."""

    id: int
    kind: str
    created_at: datetime
    summary: str
    steps: tuple[dict, ...]
    role: str
    narrator: str
    game_session: str
    undone: bool
    #: The summary's phrase data (``Ruling.summary_said``) when the summary is the ruling's own: the
    #: ``summary_text`` filter says it in the reader's language.
    summary_said: dict | None = None


def _private(text: str) -> bool:
    return any(label in text for label in PRIVATE_LABELS)


def _visible_changes(ruling: Ruling) -> list[str]:
    """A sheet edit's changes as texts, without the private fields' (from the ruling's outcome)."""
    changes = (ruling.outcome or {}).get("changes") or []
    return [f"{c.get('label', '')}: {c.get('before', '')} → {c.get('after', '')}" for c in changes
            if isinstance(c, dict) and str(c.get("field", "")).split(".")[0] not in PRIVATE_FIELDS
            and not _private(str(c.get("label", "")))]


def player_ruling(ruling: Ruling, role: str, character: Character) -> PlayerRuling | None:
    """``ruling`` as ``character``'s player reads it, or ``None`` when nothing of it is his to read (a
    keeping kind, :data:`NOT_FOR_PLAYERS`, or a sheet edit that changed only private fields).

    A text (summary or step) that names a private field is never shown, not even in part: a sheet
    edit's summary is written again from its stored changes without them; any other text is left out
    whole (an undo's summary then reads "Undo of #12").
    """
    if ruling.kind in NOT_FOR_PLAYERS:
        return None
    steps = tuple({"text": str(step.get("text", "")), "rule": str(step.get("rule", "") or ""),
                   **({"said": step["said"]} if step.get("said") else {})}
                  for step in (ruling.steps or []) if isinstance(step, dict) and not _private(str(step.get("text", ""))))
    summary = ruling.summary or ""
    summary_said = ruling.summary_said
    if ruling.kind in ("sheet", "edit"):
        visible = _visible_changes(ruling)
        if not visible and not steps:
            return None
        if _private(summary):
            summary = f"{character.name}'s sheet: " + ("; ".join(visible[:3]) + (f" and {len(visible) - 3} more"
                                                                                  if len(visible) > 3 else "")
                                                        if visible else "experience")
            summary_said = None
    elif _private(summary):
        summary_said = None
        summary = f"Undo of #{(ruling.inputs or {}).get('ruling', '')}" if ruling.kind == "undo" else ""
    return PlayerRuling(id=ruling.id, kind=ruling.kind, created_at=ruling.created_at, summary=summary, steps=steps,
                        role=role, narrator=ruling.narrator_label,
                        game_session=session_label(ruling.game_session) if ruling.game_session_id else "",
                        undone=ruling.undone_at is not None, summary_said=summary_said)


def rulings_of(character: Character, limit: int = RULINGS_SHOWN) -> list[PlayerRuling]:
    """The rulings ``character`` was in, newest first, as his player reads them (:func:`player_ruling`)."""
    links = (RulingCharacter.select(RulingCharacter, Ruling, GameSession).join(Ruling)
             .join(GameSession, JOIN.LEFT_OUTER).switch(RulingCharacter)
             .where(RulingCharacter.character == character.id).order_by(Ruling.id.desc()).limit(limit))
    shown = (player_ruling(link.ruling, link.role, character) for link in links)
    return [r for r in shown if r is not None]


__all__ = ["NOT_FOR_PLAYERS", "PRIVATE_FIELDS", "PlayerRuling", "player_ruling", "rulings_of"]
