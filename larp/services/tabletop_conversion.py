"""Convert from tabletop (issue 30 item 7): a character kept in tabletop dots gets his live values, shown
each one before anything is saved (:func:`larp.rules.conversion.tabletop_to_live`; LotNR Converting
Characters, met-reference 4.3 and T25; the torpor length at the converted Morality, 5.2 and T20).

The ratings read are the sheet's tabletop section (``Character.tabletop``): the nine Attributes, Willpower
and the Morality (its key is the sheet's Humanity or Path name). Saving writes what has one value on the
sheet: permanent Willpower and the Humanity or Path rating, as one recorded sheet change (the sheet
editor's, with the character's version checked). The Traits per category and the Negative Traits owed are
shown beside the sheet's own, but not written: a live sheet holds named adjectives, and which adjectives a
character has is the organiser's choice, not the tool's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from larp.models import Character, Chronicle, Ruling, User
from larp.rules.conversion import ATTRIBUTE_CATEGORIES, LiveCharacter, TabletopCharacter, tabletop_to_live
from larp.rules.explain import N_, Phrase, RulesError
from larp.services import ServiceError
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, open_game_session


@dataclass
class ConversionPreview:
    """The converted values beside the sheet's (nothing saved yet).

    Attributes:
        character: the character.
        live: the conversion (Traits per category, Negative Traits owed, Willpower, Morality, torpor).
        sheet_traits: the Traits the sheet holds now, per category.
        saved: what saving writes: field name to (now, converted).
    """

    character: Character
    live: LiveCharacter
    sheet_traits: dict[str, int]
    saved: dict[str, tuple[Any, Any]]


def tabletop_of(character: Character) -> TabletopCharacter:
    """The character's tabletop ratings as the conversion reads them: the Attributes, Willpower and his
    Humanity or Path (other keys are not tabletop ratings the conversion knows, and are left out)."""
    dots = dict(character.tabletop or {})
    attributes = {name: dots[name] for cat in ATTRIBUTE_CATEGORIES.values() for name in cat if name in dots}
    return TabletopCharacter(attributes=attributes, morality=dots.get(character.morality_name or "Humanity"),
                             willpower=dots.get("Willpower"),
                             generation=character.generation if character.creature == "vampire" else None)


def preview_conversion(chronicle: Chronicle, character_id: Any) -> ConversionPreview:
    """What "Convert from tabletop" would give ``character_id``, beside what his sheet holds.

    Raises:
        ServiceError: 404 unknown character; 422 (field ``tabletop``) no tabletop ratings on the sheet, or
            ratings the conversion refuses (naming them).
    """
    character = get_character(chronicle, character_id)
    ratings = tabletop_of(character)
    if not ratings.attributes and ratings.morality is None and ratings.willpower is None:
        raise ServiceError(Phrase.message(N_("%(name)s has no tabletop ratings: enter them in the sheet's Tabletop "
                                             "ratings first."), name=character.name), field="tabletop")
    settings = chronicle_settings(chronicle)
    try:
        live = tabletop_to_live(ratings, settings)
    except RulesError as exc:
        raise ServiceError(exc.message, field="tabletop") from None
    state = character_state(character, open_game_session(chronicle), settings)
    saved = {}
    if live.willpower is not None:
        saved["willpower_permanent"] = (character.willpower_permanent, live.willpower)
    if live.morality is not None:
        saved["morality_rating"] = (character.morality_rating, live.morality)
    return ConversionPreview(character, live, {cat: state.total(cat) for cat in ATTRIBUTE_CATEGORIES}, saved)


def apply_conversion(chronicle: Chronicle, user: User | None, character_id: Any,
                     expected_version: int | None) -> tuple[Character, Ruling | None]:
    """Save the converted permanent Willpower and Humanity or Path rating (one recorded sheet change).

    Args:
        expected_version: the character's ``version`` the preview showed: any change since refuses the
            save as stale (409), so what is saved is what was shown.

    Raises:
        ServiceError: as :func:`preview_conversion`; 422 nothing to save (no Willpower or Morality
            rating); 409 the character changed since the preview; 403 a narrator who may not change
            these fields.
    """
    from larp.services.sheets import edit_character

    preview = preview_conversion(chronicle, character_id)
    if not preview.saved:
        raise ServiceError(Phrase.message(N_("Nothing to save: the tabletop ratings give no Willpower or "
                                             "Humanity/Path rating.")),
                           field="tabletop")
    return edit_character(chronicle, user, preview.character.id,
                          {key: converted for key, (_now, converted) in preview.saved.items()},
                          expected_version=expected_version)
