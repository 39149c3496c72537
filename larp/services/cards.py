"""Character cards: the card token behind each printed QR code, and the QR codes themselves.

A printed card carries ``<base URL>/C/<card token>``. The token is random
(160 bits, 32 base32 characters), stored on the character, and opens that
one character only; an organiser rotates it (a lost card: issue a new one)
or revokes it (``NULL``: no card), each recorded as a ruling (never showing the
token), so a form or call sent twice changes the card once. The token identifies, it does not
authorise: anyone holding the card sees the player's view, and only a
logged-in narrator gets the narrator's actions (stack-notes 3.3).

The URL is written upper-case when the base URL has no path, so the QR
code can use its alphanumeric mode (a smaller code that scans better from
a worn card); hosts and schemes are case-insensitive and the token is
matched case-insensitively.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlparse

import qrcode
import qrcode.constants
from qrcode.image.svg import SvgPathFillImage

from larp.db import as_id, db
from larp.models import Character, Chronicle, User, utcnow
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.rules.explain import N_, Phrase, phrase_step
from larp.services.characters import get_character, new_card_token
from larp.services.chronicles import open_game_session
from larp.services.records import record_ruling
from larp.i18n import N_

#: What a card token looks like (upper-cased): base32, 160 bits.
TOKEN_PATTERN = re.compile(r"[A-Z2-7]{32}")

#: One message for a malformed, unknown and revoked token: it reveals nothing.
UNKNOWN_CARD = N_("This card does not open anything. Ask a narrator or an organiser.")  # shown translated (issue 36)

CARDS_PER_PAGE = 8
PAPER_SIZES = {"a4": "A4", "letter": N_("US Letter")}  # shown translated (issue 36)


class CardQrImage(SvgPathFillImage):
    """qrcode's one-path SVG on a white square, without its fixed ``id``.

    ``SvgPathImage`` writes ``id="qr-path"`` on every code, which would give
    a sheet of inline codes duplicate ids (stack-notes 3.1, gotcha 2).
    """

    def process(self) -> None:
        """Build the path as qrcode does, then drop its id."""
        super().process()
        self.path.attrib.pop("id", None)


def qr_svg(data: str) -> str:
    """The QR code of ``data`` as inline SVG markup (no Pillow needed).

    Error correction level Q (about 25 %) so a creased or smudged card still
    scans; 4 modules of quiet zone on a white background, so it reads on
    coloured card stock too. Sized by CSS (its viewBox is in modules).
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_Q,
        box_size=10,
        border=4,
        image_factory=CardQrImage,
    )
    code.add_data(data)
    code.make(fit=True)
    return code.make_image().to_string(encoding="unicode")


def card_url(base_url: str, token: str) -> str:
    """The address printed on a card: ``BASE/C/TOKEN``.

    Args:
        base_url: ``http(s)://host[:port][/prefix]``, no trailing slash.
        token: the character's card token.

    Without a path prefix the whole URL is upper-cased (alphanumeric-mode
    QR); a path prefix keeps its case, since paths are case-sensitive.
    """
    base = base_url.rstrip("/")
    if urlparse(base).path in ("", "/"):
        base = base.upper()
    return f"{base}/C/{token.upper()}"


def character_for_card(token: str) -> Character:
    """The character whose card carries ``token`` (any case).

    Raises:
        ServiceError: 404 with :data:`UNKNOWN_CARD` for a malformed, unknown
            or revoked token alike, and for a retired character's card.
    """
    wanted = (token or "").strip().upper()
    if not TOKEN_PATTERN.fullmatch(wanted):
        raise ServiceError(UNKNOWN_CARD, status=404)
    character = Character.get_or_none(Character.card_token == wanted)
    if character is None or character.retired_at is not None:  # the player of a retired character left
        raise ServiceError(UNKNOWN_CARD, status=404)
    return character


#: The record's kinds for a card's changes (their summaries never hold the token).
CARD_ROTATED, CARD_REVOKED = "card_rotated", "card_revoked"


def _change_card(chronicle: Chronicle, by: User | None, character_id: int | str, kind: str) -> Character:
    with db.atomic():
        # Check-then-write: the loader locks the character (FOR NO KEY UPDATE on PostgreSQL; SQLite's
        # BEGIN IMMEDIATE serialises writers) and refuses a form or call whose one-time key is
        # recorded already, before the token changes; the ruling's unique key is the exact check.
        character = get_character(chronicle, character_id)
        token = new_card_token() if kind == CARD_ROTATED else None
        summary, step = ((N_("%(name)s: new card link issued; the old printed card opens nothing"),
                          N_("%(name)s: new card link issued; the old printed card opens nothing."))
                         if kind == CARD_ROTATED else
                         (N_("%(name)s: card revoked; the printed card opens nothing"),
                          N_("%(name)s: card revoked; the printed card opens nothing.")))
        record_ruling(chronicle, by, kind, Phrase.message(summary, name=character.name),
                      [phrase_step(step, "Character cards (stack-notes 3.3)", name=character.name)],
                      [(character, "subject")], game_session=open_game_session(chronicle),
                      inputs={"character_id": character.id},
                      outcome={"card": "issued" if token else "revoked"})  # never the token itself
        now = utcnow()
        Character.update(card_token=token, card_revoked_at=None if token else now, updated_at=now).where(
            Character.id == character.id).execute()
        return Character.get_by_id(character.id)


def rotate_card(chronicle: Chronicle, character_id: int | str, by: User | None = None) -> Character:
    """Give the character a new card token (a lost card, or a first card after a revoke), recorded
    as a ruling of kind ``card_rotated`` by ``by`` (its summary does not hold the token), which
    carries the form's one-time token or the call's Idempotency-Key.

    The old printed card stops working at once; the new card must be printed.

    Raises:
        ServiceError: 404 when there is no such character in the chronicle.
        AlreadyRecorded: 409 naming the first ruling when this form or call was recorded already
            (nothing rotates again).
    """
    return _change_card(chronicle, by, character_id, CARD_ROTATED)


def revoke_card(chronicle: Chronicle, character_id: int | str, by: User | None = None) -> Character:
    """Take the character's card token away: its printed card opens nothing, no new card is issued.
    Recorded as a ruling of kind ``card_revoked``, as :func:`rotate_card`.

    Raises:
        ServiceError: 404 when there is no such character in the chronicle.
        AlreadyRecorded: 409 naming the first ruling when this form or call was recorded already.
    """
    return _change_card(chronicle, by, character_id, CARD_REVOKED)


@dataclass(frozen=True)
class Card:
    """One card on the sheet: the character, the address in its QR code, and the code as SVG.

    ``url`` and ``svg`` are ``None`` for a character without a card token
    (printed with a note instead of a code).
    """

    character: Character
    url: str | None
    svg: str | None


def cards_to_print(chronicle: Chronicle, character_ids: list[str] | None, base_url: str) -> list[list[Card]]:
    """The sheet's pages: the chosen characters' cards, by name, :data:`CARDS_PER_PAGE` a page.

    Args:
        character_ids: the ticked characters' ids (as sent by the form), or
            ``None`` for every character of the chronicle.
        base_url: the address the QR codes start with (``card_url``).

    Raises:
        ServiceError: 422 (field ``character``) when no character is chosen,
            an id is not a number or not a character of this chronicle.
    """
    query = Character.select().where((Character.chronicle == chronicle) & Character.retired_at.is_null()) \
        .order_by(Character.name)  # retired characters are left off the card sheet (issue 14)
    if character_ids is not None:
        ids = {as_id(value) for value in character_ids}
        if None in ids:
            raise ServiceError(Phrase.message(N_("Choose characters from the list.")), field="character")
        if not ids:
            raise ServiceError(
                Phrase.message(N_("No character is ticked: tick the characters whose cards to print, or print all "
                                  "cards.")),
                field="character",
            )
        query = query.where(Character.id.in_(ids))
    characters = list(query)
    if character_ids is not None and len(characters) != len(ids):
        raise ServiceError(Phrase.message(N_("Some of the ticked characters are not in this "
                                             "chronicle.")), field="character")
    if not characters:
        raise ServiceError(Phrase.message(N_("This chronicle has no characters yet, so there are no cards to print.")),
                           field="character")
    cards = []
    for character in characters:
        if character.card_token:
            url = card_url(base_url, character.card_token)
            cards.append(Card(character, url, qr_svg(url)))
        else:
            cards.append(Card(character, None, None))
    return [cards[i:i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
