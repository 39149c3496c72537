"""The game's words that pages show from data (issue 36): health levels, kinds of damage, conditions,
Trait categories, creatures, roles, what a level of the tabletop chart allows. The rules core and the tables keep them in English (they are keys and
stored values); the ``term`` template filter shows each in the reader's language, with the words of
``data/glossary.toml`` (the published tabletop translations where there are some).

A word not listed here (a Trait adjective, a Discipline, a Path a chronicle wrote) is shown as written:
the sheet's words stay the chronicle's (issue 36 item 3).
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

#: English word (as the core and the tables say it) -> its marked message.
TERMS = {
    # Health levels (data/health.toml; met-reference 4.1, 000 "Health Chart").
    "Healthy": _l("Healthy"),
    "Bruised": _l("Bruised"),
    "Hurt": _l("Hurt"),
    "Injured": _l("Injured"),
    "Wounded": _l("Wounded"),
    "Mauled": _l("Mauled"),
    "Crippled": _l("Crippled"),
    "Maimed": _l("Maimed"),
    "Incapacitated": _l("Incapacitated"),
    "Below Incapacitated": _l("Below Incapacitated"),
    # Kinds of damage.
    "bashing": _l("bashing"),
    "lethal": _l("lethal"),
    "aggravated": _l("aggravated"),
    # Conditions (larp.models.Character.CONDITIONS).
    "active": _l("active"),
    "unconscious": _l("unconscious"),
    "torpor": _l("torpor"),
    "final_death": _l("Final Death"),
    "dead": _l("dead"),
    "final death": _l("final death"),  # a condition as a ruling's step says it mid-sentence
    # Torpor lengths and the ratings they are read by (data/torpor.toml), as a torpor's steps say them.
    "MET Humanity or Path Traits": _l("MET Humanity or Path Traits"),
    "Humanity or Path dots": _l("Humanity or Path dots"),
    "a millennium": _l("a millennium"),
    "a century": _l("a century"),
    "a decade": _l("a decade"),
    "a year": _l("a year"),
    "a week": _l("a week"),
    "two days": _l("two days"),
    "a millennium or more": _l("a millennium or more"),
    "five centuries": _l("five centuries"),
    "five decades": _l("five decades"),
    "a month": _l("a month"),
    "two weeks": _l("two weeks"),
    "three days": _l("three days"),
    "a day": _l("a day"),
    # The Virtues, a Negative Trait's category and the stimuli of a Virtue Test (data/frenzy.toml), mid-sentence.
    "Conscience": _l("Conscience"),
    "Conviction": _l("Conviction"),
    "Self-Control": _l("Self-Control"),
    "Instinct": _l("Instinct"),
    "Courage": _l("Courage"),
    "physical or mental": _l("physical or mental"),
    "smell of blood when hungry": _l("smell of blood when hungry"),
    "sight of blood when hungry": _l("sight of blood when hungry"),
    "harassed": _l("harassed"),
    "life-threatening situation": _l("life-threatening situation"),
    "physical provocation or attacks": _l("physical provocation or attacks"),
    "taste of blood when hungry": _l("taste of blood when hungry"),
    "loved one in danger": _l("loved one in danger"),
    "humiliated": _l("humiliated"),
    "outright humiliation": _l("outright humiliation"),
    "mortal insults": _l("mortal insults"),
    "being bullied": _l("being bullied"),
    "lighter": _l("lighter"),
    "sunrise": _l("sunrise"),
    "torch": _l("torch"),
    "obscured sunlight": _l("obscured sunlight"),
    "bonfire": _l("bonfire"),
    "uncovered window during daylight": _l("uncovered window during daylight"),
    "house fire": _l("house fire"),
    "being burned": _l("being burned"),
    "trapped in a burning building": _l("trapped in a burning building"),
    "direct sunlight": _l("direct sunlight"),
    # Sunlight as a ruling names it (data/frenzy.toml [sunlight]).
    "Indirect sunlight (through thick curtains, heavy cloud)": _l("Indirect sunlight (through thick curtains, heavy cloud)"),
    "Direct sunlight": _l("Direct sunlight"),
    # Trait categories.
    "physical": _l("physical"),
    "social": _l("social"),
    "mental": _l("mental"),
    # Creatures (larp.sheet_entries.CREATURES).
    "vampire": _l("vampire"),
    "ghoul": _l("ghoul"),
    "mortal": _l("mortal"),
    # Conditions as the health views name them (larp.rules.health.track.CONDITION_LABELS).
    "Active": _l("Active"),
    "Unconscious": _l("Unconscious"),
    "Torpor": _l("Torpor"),
    "Final Death": _l("Final Death"),
    "Dead": _l("Dead"),
    # What each level of the tabletop chart allows (data/health.toml "movement"; larp.rules.health.views).
    "Only bruised a bit: no dice pool penalty.": _l("Only bruised a bit: no dice pool penalty."),
    "Superficially hurt: no movement hindrance.": _l("Superficially hurt: no movement hindrance."),
    "Minor injuries: halve maximum running speed.": _l("Minor injuries: halve maximum running speed."),
    "Significant damage: may not run, may still walk; may not move and then attack without losing dice.":
        _l("Significant damage: may not run, may still walk; may not move and then attack without losing dice."),
    "Badly injured: may only hobble (three yards a turn).": _l("Badly injured: may only hobble (three yards a turn)."),
    "Catastrophically injured: may only crawl (one yard a turn).":
        _l("Catastrophically injured: may only crawl (one yard a turn)."),
    "Incapable of movement, likely unconscious: may do nothing except spend blood points.":
        _l("Incapable of movement, likely unconscious: may do nothing except spend blood points."),
    "Incapable of movement, likely unconscious: may do nothing.":
        _l("Incapable of movement, likely unconscious: may do nothing."),
    "Hurt.": _l("Hurt."),
    "Maimed.": _l("Maimed."),
    "Incapable of movement.": _l("Incapable of movement."),
    "No penalty.": _l("No penalty."),
    "No action.": _l("No action."),
    "Unconscious.": _l("Unconscious."),
    # The challenge screen's choices (larp.web.challenges KINDS, DARKNESS, THROW_CHOICES, SITUATION;
    # larp.rules Category and RangeBand labels, capitalised; data/senses.toml; the core's ACTIONS).
    "Contested": _l("Contested"),
    "Static": _l("Static"),
    "Simple test": _l("Simple test"),
    "Light": _l("Light"),
    "Partial dark": _l("Partial dark"),
    "Total dark": _l("Total dark"),
    "Rock": _l("Rock"),
    "Paper": _l("Paper"),
    "Scissors": _l("Scissors"),
    "Random": _l("Random"),
    "Bomb": _l("Bomb"),
    "−2 Traits": _l("−2 Traits"),
    "−1 Trait": _l("−1 Trait"),
    "None": _l("None"),
    "+1 Trait": _l("+1 Trait"),
    "+2 Traits": _l("+2 Traits"),
    "Physical": _l("Physical"),
    "Social": _l("Social"),
    "Mental": _l("Mental"),
    "Hand to hand": _l("Hand to hand"),
    "Within five feet": _l("Within five feet"),
    "Five to ten feet": _l("Five to ten feet"),
    "Ten to twenty feet": _l("Ten to twenty feet"),
    "Past twenty feet": _l("Past twenty feet"),
    "Sight": _l("Sight"),
    "Hearing": _l("Hearing"),
    "Smell": _l("Smell"),
    "Taste": _l("Taste"),
    "Touch": _l("Touch"),
    "Bare-handed strike": _l("Bare-handed strike"),
    "Bite": _l("Bite"),
    "Weapon attack": _l("Weapon attack"),
    "Defend (dodge or block)": _l("Defend (dodge or block)"),
    "Another stated outcome": _l("Another stated outcome"),
    # The same actions and senses as a ruling's steps say them, mid-sentence ("Ann's bite hits Bob"; the
    # challenge depends on sight), and the Virtue category (larp.rules.challenge: ACTIONS, Category).
    "bare-handed strike": _l("bare-handed strike"),
    "bite": _l("bite"),
    "weapon attack": _l("weapon attack"),
    "defend (dodge or block)": _l("defend (dodge or block)"),
    "another stated outcome": _l("another stated outcome"),
    "sight": _l("sight"),
    "hearing": _l("hearing"),
    "smell": _l("smell"),
    "taste": _l("taste"),
    "touch": _l("touch"),
    "Virtue": _l("Virtue"),
    # Health levels as a healing step says them mid-sentence ("is incapacitated: healing is automatic").
    "healthy": _l("healthy"),
    "bruised": _l("bruised"),
    "hurt": _l("hurt"),
    "injured": _l("injured"),
    "wounded": _l("wounded"),
    "mauled": _l("mauled"),
    "crippled": _l("crippled"),
    "incapacitated": _l("incapacitated"),
    # Roles (larp.models.User.ROLES, and the players' accounts of issue 33).
    "organiser": _l("organiser"),
    "narrator": _l("narrator"),
    "player": _l("player"),
    # The morality every sheet without a Path has.
    "Humanity": _l("Humanity"),
    # A weapon card's abilities (data/armory.toml "specials"), as the sheet editor and the cards list them.
    "Speed": _l("Speed"),
    "Destroy Shield": _l("Destroy Shield"),
    "Full-Auto": _l("Full-Auto"),
    "Burst": _l("Burst"),
    "Spray": _l("Spray"),
    "Mass-Trauma": _l("Mass-Trauma"),
    "High-Caliber": _l("High-Caliber"),
    "Staking": _l("Staking"),
    "Armor-Piercing": _l("Armor-Piercing"),
    # A custom weapon's kind (larp.rules.damage.WEAPON_KINDS), in the sheet editor.
    "blade": _l("blade"),
    "blunt": _l("blunt"),
    "firearm": _l("firearm"),
    "ranged": _l("ranged"),
    # A character's part in a ruling (the record's participants, capitalised).
    "Challenger": _l("Challenger"),
    "Defender": _l("Defender"),
    "Subject": _l("Subject"),
    "Target": _l("Target"),
    "Fighter": _l("Fighter"),
    "Character": _l("Character"),
    "Holder": _l("Holder"),
    "Edited": _l("Edited"),
    "Attacker": _l("Attacker"),
    "Ambusher": _l("Ambusher"),
    "Escaper": _l("Escaper"),
    "Firer": _l("Firer"),
    "Bystander": _l("Bystander"),
    "Attacker, hand to hand": _l("Attacker, hand to hand"),
    "Attacker, ranged": _l("Attacker, ranged"),
    "Missed target": _l("Missed target"),
    "Victim": _l("Victim"),
    "Drinker": _l("Drinker"),
    "Healed": _l("Healed"),
    "Created": _l("Created"),
    "Tested": _l("Tested"),
    # The tabletop Attributes a sheet rates (sheets' "Tabletop ratings", the tabletop screens).
    "Strength": _l("Strength"),
    "Dexterity": _l("Dexterity"),
    "Stamina": _l("Stamina"),
    "Charisma": _l("Charisma"),
    "Manipulation": _l("Manipulation"),
    "Appearance": _l("Appearance"),
    "Perception": _l("Perception"),
    "Intelligence": _l("Intelligence"),
    "Wits": _l("Wits"),
    "Willpower": _l("Willpower"),
    # What a player may ask to spend experience on (larp.rules.experience_purchase.KINDS), Rituals' tiers.
    "A Physical, Social or Mental Trait": _l("A Physical, Social or Mental Trait"),
    "An Ability level": _l("An Ability level"),
    "A Discipline power": _l("A Discipline power"),
    "A Ritual": _l("A Ritual"),
    "A Background Trait": _l("A Background Trait"),
    "A permanent Willpower Trait": _l("A permanent Willpower Trait"),
    "A Humanity or Path Trait": _l("A Humanity or Path Trait"),
    "A Merit": _l("A Merit"),
    "Removing a Flaw": _l("Removing a Flaw"),
    "Removing a Negative Trait": _l("Removing a Negative Trait"),
    "Removing a Derangement": _l("Removing a Derangement"),
    "Basic": _l("Basic"),
    "Intermediate": _l("Intermediate"),
    "Advanced": _l("Advanced"),
    "Master": _l("Master"),
    "Elder": _l("Elder"),
    "Ascendant": _l("Ascendant"),
    "Methuselah": _l("Methuselah"),
    # The combat board's and the stray-shot screen's choices (larp.web.people_form RANGES, COUNTERS).
    "Ranged": _l("Ranged"),
    "Only defends": _l("Only defends"),
    "Strikes back bare-handed": _l("Strikes back bare-handed"),
    "Bites back": _l("Bites back"),
    "Strikes back with a weapon": _l("Strikes back with a weapon"),
    # A retest's source as the combat board and the stray-shot screen name it (the forced retest of total
    # darkness), and why a bystander was not tested (larp.rules.firing_into_groups: a result's ``note``).
    "Forced": _l("Forced"),
    "careful aim": _l("careful aim"),
    "excluded by an extra Trait": _l("excluded by an extra Trait"),
    # The Virtues a printed sheet rates besides those above (larp.catalogues' humanity and path Virtues).
    "Conscience": _l("Conscience"),
    "Conviction": _l("Conviction"),
    # What a piece of armor protects (larp.rules.armory.ARMOR_COVERS; the character page's armor).
    "head": _l("head"),
    "torso": _l("torso"),
    "arms": _l("arms"),
    "legs": _l("legs"),
    # A kind of damage at the start of a tabletop soak step ("Aggravated damage cannot be soaked by a mortal").
    "Aggravated": _l("Aggravated"),
}


def term(word: object) -> str:
    """Template filter: ``word`` (a game word from data) in the reader's language, as written when it
    is not one of :data:`TERMS` (a chronicle's own word)."""
    if word is None:
        return ""
    found = TERMS.get(str(word))
    return str(found) if found is not None else str(word)


__all__ = ["TERMS", "term"]
