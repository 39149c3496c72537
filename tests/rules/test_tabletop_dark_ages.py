"""The Dark Ages rules of seed 004 that issue 37 adds (item 8): active or passive parry, shields, blood for Physical
Attributes within the generation's limit, Celerity's blood, preparing an ambush, avoiding a blindside by a roll,
one dodge divided among attackers, extended and delayed effects at the end of the turn, armor's penalty halved by
Strength, helmets, and the soak against fire (004's table by default, its step-by-step list by setting)."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import Defender, soak_pool
from larp.rules.tabletop.blood_use import boosted, spend_blood_on_attributes
from larp.rules.tabletop.combat import Attack, Circumstances, DefenseChoice, resolve_ambush, resolve_attack
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.rules.tabletop.shared_dodge import dodge_against, roll_shared_dodge
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, Declaration, apply_effects, begin_turn, new_combat, next_turn
from larp.rules.tabletop.turn_end import end_turn, schedule

from tests.rules.tabletop_fighters import fighter, hits


def settings(**values) -> ChronicleSettings:
    return ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages", **values})


DARK_AGES = settings()


def started(declarations=None, celerity=None, profile="dark_ages", blood=None, rules=DARK_AGES) -> Combat:
    combat = new_combat([("a", "Anno"), ("b", "Berta"), ("c", "Cuno")])
    order = roll_initiative([Entrant(k, k, 3, 3) for k in "abc"], dice={"a": 9, "b": 5, "c": 4})
    combat, _ = begin_turn(combat, order)
    combat, _ = declare(combat, declarations or {}, celerity or {}, tabletop_profile(profile), blood, rules)
    return combat


# ---------------------------------------------------------------- parries and shields


@pytest.mark.parametrize("value", [1, 2])
def test_a_passive_parry_raises_the_attacks_difficulty(value):
    """004 "Target Announces Active or Passive Parry" and "Fastest Character Takes First Action" (the difficulty is
    "modified by conditions such as range and passive parrying"): no roll, no action, the attack at +1 (setting
    ``tabletop_passive_parry_difficulty``)."""
    swordsman = fighter("t", abilities={"Melee": 3}, weapon="sword")
    ruling = resolve_attack(Attack("strike", fighter("a", abilities={"Brawl": 2}), swordsman,
                                   Circumstances(inside_reach=True), defense=DefenseChoice("passive_parry")),
                            settings(tabletop_passive_parry_difficulty=value), dice={"attack": [2] * 4})
    assert ruling.attack_difficulty == 6 + value and ruling.defense_roll is None
    assert any("parries passively" in s.text for s in ruling.steps)


def test_a_passive_parry_needs_a_blade_or_shield_a_close_attack_and_dark_ages():
    """004 "Parrying": a parry uses a melee weapon or shield; missile attacks cannot be parried; the passive parry
    is 004's (the revised profile has none)."""
    bare = fighter("t")
    shielded = fighter("t", shield="buckler")
    archer = fighter("a", abilities={"Archery": 2}, weapon="bow")
    cases = [(Attack("strike", fighter("a"), bare, defense=DefenseChoice("passive_parry")), DARK_AGES),
             (Attack("shoot", archer, shielded, defense=DefenseChoice("passive_parry")), DARK_AGES),
             (Attack("strike", fighter("a"), shielded, defense=DefenseChoice("passive_parry")), None)]
    for attack, rules in cases:
        with pytest.raises(RulesError) as err:
            resolve_attack(attack, rules, dice={"attack": [2] * 4})
        assert err.value.field == "defense.maneuver"
    assert resolve_attack(Attack("strike", fighter("a"), shielded, defense=DefenseChoice("passive_parry")),
                          DARK_AGES, dice={"attack": [2] * 2}).attack_difficulty == 7


def test_a_shield_parries_a_brawler_without_the_weapons_plus_one():
    """004 "Parrying": "A parry is a block using a melee weapon or shield"; a weapon parrying a brawling attack is at
    +1 difficulty, "shields excluded"."""
    shielded = fighter("t", abilities={"Melee": 2}, shield="shield")
    ruling = resolve_attack(Attack("strike", fighter("a", abilities={"Brawl": 2}), shielded,
                                   defense=DefenseChoice("parry", with_shield=True)), DARK_AGES,
                            dice={"attack": hits(1, 4), "defense": hits(1, 4)})
    assert ruling.defense_roll.difficulty == 6 and not ruling.hit
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("strike", fighter("a"), fighter("t"), defense=DefenseChoice("parry", with_shield=True)),
                       DARK_AGES, dice={"attack": [2] * 2})
    assert err.value.field == "defense.with_shield"


@pytest.mark.parametrize("circumstances, pool", [
    (Circumstances(), 2 + 2),                              # from the front: Stamina 2 + shield 2
    (Circumstances(flank=True, shield_side=True), 2 + 2),  # the flank the shield covers
    (Circumstances(flank=True), 2),                        # the other flank
    (Circumstances(rear=True), 2),                         # never from the rear
])
def test_a_shield_soaks_from_the_front_and_one_flank_only(circumstances, pool):
    """004 "Armor" ("Some protective equipment, such as shields, only adds to the soak pool in certain conditions")
    and "Blindsiding" ("Shields provide no protection against rear attacks and only protect one flank")."""
    shielded = fighter("t", shield="shield")
    extra = 1 if (circumstances.flank or circumstances.rear) else 0
    ruling = resolve_attack(Attack("strike", fighter("a", Strength=3, abilities={"Brawl": 2}), shielded, circumstances),
                            DARK_AGES, dice={"attack": hits(1, 4 + extra), "damage": [2] * 3, "soak": [2] * pool})
    assert ruling.soak.pool == pool


# ---------------------------------------------------------------- armor, helmets, fire


@pytest.mark.parametrize("strength, potence, armor, pool", [
    (3, 0, "mail", 4 - 1),    # mail needs Strength 2: Strength 3 is not twice that, the full penalty
    (4, 0, "mail", 4),        # Strength 4 halves the penalty of 1 (rounding down: none)
    (2, 2, "mail", 4),        # Strength 2 + Potence 2 too
    (5, 0, "plate", 4 - 2),   # plate needs 3: Strength 5 is not twice, the full penalty of 2
    (5, 1, "plate", 4 - 1),   # Strength 5 + Potence 1 = 6: halved, 1
])
def test_armors_penalty_halved_with_twice_its_strength(strength, potence, armor, pool):
    """004 "Armor": characters "with a Strength (or Strength + Potence) that doubles what is required to use the armor
    suffer only half the indicated Dexterity penalties"."""
    a = fighter("a", Strength=strength, abilities={"Brawl": 2}, disciplines={"Potence": potence}, armor=armor)
    ruling = resolve_attack(Attack("strike", a, fighter("t")), DARK_AGES, dice={"attack": [2] * pool})
    assert ruling.attack_pool == pool


def test_a_helmet_adds_to_soak_but_not_to_the_armor_destroyed():
    """004 "Armor": "If the damage rolled in a single attack equals twice the armor's rating ... (excluding any bonus
    for helmets), the armor is destroyed": hard leather (1) and a helm (1) soak with 2 more dice; 2 damage successes
    destroy the leather; a blow aimed at the legs finds no helm."""
    guarded = fighter("t", armor="leather", helmet="helm")
    brute = fighter("a", Strength=3, abilities={"Brawl": 3})
    ruling = resolve_attack(Attack("strike", brute, guarded), DARK_AGES,
                            dice={"attack": hits(1, 5), "damage": hits(2, 3), "soak": [2] * 4})
    assert ruling.soak.pool == 2 + 1 + 1
    assert ruling.has("armor_destroyed", "t") and any("helmet's bonus not counted" in s.text for s in ruling.steps)
    legs = resolve_attack(Attack("strike", brute, guarded, Circumstances(aimed_part="legs")), DARK_AGES,
                          dice={"attack": hits(1, 5), "damage": hits(2, 3), "soak": [2] * 2})
    assert legs.soak.pool == 2


@pytest.mark.parametrize("reading, profile, pool", [("table", "dark_ages", 2), ("step_by_step", "dark_ages", 5),
                                                    ("step_by_step", "revised", 2)])
def test_fire_soak_by_the_table_or_the_step_by_step_list(reading, profile, pool):
    """004 "Soak" table: a vampire with Fortitude soaks fire and sunlight with Fortitude alone (000 and 001 agree);
    004 "Roll Soak" lists Stamina + Fortitude: the setting ``dark_ages_fire_soak``, for the Dark Ages profile only."""
    rules = ChronicleSettings.from_overrides({"tabletop_profile": profile, "dark_ages_fire_soak": reading})
    dice, steps = soak_pool(Defender("vampire", stamina=3, fortitude=2), "aggravated", "fire", rules)
    assert dice == pool
    assert any(s.setting == "dark_ages_fire_soak" for s in steps) == (pool == 5)


# ---------------------------------------------------------------- blood


def test_blood_raises_physical_attributes_within_the_generations_limit():
    """004 "Spend Blood": vampires burn blood reflexively, up to their generation's limit, to augment Physical
    Attributes: a 13th-generation vampire burns 1 a turn; the raise lasts the scene and counts in every roll."""
    anno = fighter("a", Strength=3, generation=13, blood=10, abilities={"Brawl": 2})
    combat = started()
    combat, ruling = spend_blood_on_attributes(combat, anno, {"Strength": 1})
    assert ruling.blood == 1 and ruling.raised == {"Strength": 4}
    with pytest.raises(RulesError) as err:
        spend_blood_on_attributes(combat, anno, {"Dexterity": 1})
    assert err.value.field == "blood" and "at most 1 blood point a turn" in err.value.message
    later = next_turn(combat)
    later, _ = spend_blood_on_attributes(later, anno, {"Strength": 1})
    strong = boosted(anno, later)
    assert strong.attribute("Strength") == 5
    ruling = resolve_attack(Attack("strike", strong, fighter("t", Stamina=0)), DARK_AGES,
                            dice={"attack": hits(1, 4), "damage": [2] * 5})
    assert ruling.damage_pool == 5


def test_blood_cannot_raise_beyond_the_generations_maximum_nor_what_he_has():
    """004 "Spend Blood" with the generation chart: an 8th-generation vampire burns 3 a turn but no Attribute goes past
    5; blood he does not have cannot be burnt; Mental Attributes are not raised; a ghoul burns none."""
    elder = fighter("a", Strength=4, generation=8, blood=2)
    with pytest.raises(RulesError) as err:
        spend_blood_on_attributes(started(), elder, {"Strength": 2})
    assert err.value.field == "raises.Strength" and "maximum is 5" in err.value.message
    with pytest.raises(RulesError) as err:
        spend_blood_on_attributes(started(), elder, {"Dexterity": 3})
    assert err.value.field == "blood"
    _, ruling = spend_blood_on_attributes(started(), elder, {"Dexterity": 1, "Stamina": 1})
    assert ruling.blood == 2
    with pytest.raises(RulesError):
        spend_blood_on_attributes(started(), elder, {"Wits": 1})
    with pytest.raises(RulesError):
        spend_blood_on_attributes(started(), fighter("g", creature="ghoul"), {"Strength": 1})


@pytest.mark.parametrize("profile, model, extra, cost", [
    ("dark_ages", "by_profile", 2, 2),   # 004: one for each extra action
    ("revised", "by_profile", 2, 1),     # LotNR: one for all of them
    ("dark_ages", "per_turn", 2, 1),
    ("revised", "per_action", 3, 3),
    ("dark_ages", "none", 2, 0),
])
def test_celeritys_extra_actions_cost_blood(profile, model, extra, cost):
    """004 "Activate Celerity": "burn blood to take additional physical actions this turn, on one-for-one basis, up to
    their Celerity rating. This expenditure ignores generation limit" (setting ``tabletop_celerity_blood``)."""
    rules = ChronicleSettings.from_overrides({"tabletop_profile": profile, "tabletop_celerity_blood": model})
    combat = started({"a": Declaration(celerity=extra)}, {"a": 3}, profile, {"a": 5}, rules)
    assert combat.carried.celerity_paid.get("a", 0) == cost
    assert combat.carried.blood_spent.get("a", 0) == 0  # not against the generation's limit


def test_celerity_needs_the_blood_in_the_pool():
    """004 "Activate Celerity": the blood is burnt, so a vampire with one blood point cannot buy two actions."""
    with pytest.raises(RulesError) as err:
        started({"a": Declaration(celerity=2)}, {"a": 2}, blood={"a": 1})
    assert err.value.field == "a.celerity"


# ---------------------------------------------------------------- ambush and blindside


def test_preparing_an_ambush_takes_cover_and_wits_plus_stealth():
    """004 "Ambush": "Preparing an ambush generally requires a Wits + Stealth roll (difficulty 6) as well as proper
    cover": no success, no ambush; no cover, refused; 000: a target already in combat cannot be ambushed."""
    a = fighter("a", Wits=3, abilities={"Stealth": 2})
    t = fighter("t", Perception=2, abilities={"Alertness": 1})
    failed = resolve_ambush(a, t, DARK_AGES, dice={"preparation": [2] * 5})
    assert failed.outcome == "not_prepared" and failed.target_dice is None
    made = resolve_ambush(a, t, DARK_AGES, dice={"preparation": hits(1, 5), "alertness": [8, 2, 2]})
    assert made.outcome == "ambushed" and made.target_dice == 1
    for kw, field in (({"cover": False}, "cover"), ({"in_combat": True}, "target")):
        with pytest.raises(RulesError) as err:
            resolve_ambush(a, t, DARK_AGES, dice={"preparation": hits(1, 5), "alertness": [8, 2, 2]}, **kw)
        assert err.value.field == field


@pytest.mark.parametrize("where, faces, pool", [
    ({"flank": True}, hits(2, 4, face=6), 4),   # Stealth 2: two successes at 6 avoid the blindside
    ({"flank": True}, hits(1, 4, face=6), 5),   # one is not enough: +1 die
    ({"rear": True}, hits(2, 4, face=7), 5),    # from the rear the difficulty is 8: sevens fail
    ({"rear": True}, hits(2, 4, face=8), 4),
])
def test_avoiding_a_blindside_is_rolled(where, faces, pool):
    """004 "Blindsiding": "Storytellers may allow the target to make a Wits + Perception roll to avoid being
    blindsided - Flank: difficulty 6 - Rear: difficulty 8 ... they must gain a number of successes equal to the
    attacker's Stealth Ability (minimum one success)" (setting ``tabletop_blindside_roll``: rolled)."""
    a = fighter("a", abilities={"Brawl": 2, "Stealth": 2})
    ruling = resolve_attack(Attack("strike", a, fighter("t"), Circumstances(**where)),
                            settings(tabletop_blindside_roll="roll"), dice={"blindside": faces, "attack": [2] * pool})
    assert ruling.attack_pool == pool and len(ruling.dice["blindside"]) == 4


def test_the_blindside_by_the_narrators_word_or_always():
    """004 "Blindsiding" is the Storyteller's option: by default the narrator says whether the target spotted it
    (no roll); "never" gives the attacker the die every time."""
    a = fighter("a", abilities={"Brawl": 2, "Stealth": 2})
    spotted = Circumstances(flank=True, blindside_spotted=True)
    assert resolve_attack(Attack("strike", a, fighter("t"), spotted), DARK_AGES,
                          dice={"attack": [2] * 4}).attack_pool == 4
    assert resolve_attack(Attack("strike", a, fighter("t"), spotted), settings(tabletop_blindside_roll="never"),
                          dice={"attack": [2] * 5}).attack_pool == 5


# ---------------------------------------------------------------- one dodge divided


def test_one_dodge_roll_divided_among_the_attackers():
    """004 "Dodging": "Suffering multiple attacks a player can divide success from a single Dexterity + Dodge roll
    between the attackers. +1 difficulty for every attacker past the first": Berta dodges Anno and Cuno with one
    roll at difficulty 7, three successes, gives two to Anno's attack and one to Cuno's."""
    berta = fighter("b", Dexterity=3, abilities={"Dodge": 3})
    combat = started({"b": Declaration(defenses=1)})
    combat, dodge = roll_shared_dodge(combat, berta, 2, DARK_AGES, dice={"dodge": hits(3, 6, face=7)})
    assert (dodge.pool, dodge.difficulty, dodge.successes) == (6, 7, 3)
    assert combat.carried.dodges["b"] == 3 and combat.defended["b"] == 1
    anno = fighter("a", abilities={"Brawl": 3})
    first = resolve_attack(Attack("strike", anno, berta, defense=dodge_against(combat, "b", 2)), DARK_AGES,
                           dice={"attack": hits(2, 5)})
    assert not first.hit and first.defense_roll is None
    combat = apply_effects(combat, first.effects)
    assert combat.carried.dodges["b"] == 1
    with pytest.raises(RulesError) as err:
        dodge_against(combat, "b", 2)
    assert err.value.field == "defense.shared"
    second = resolve_attack(Attack("strike", fighter("c", abilities={"Brawl": 3}), berta,
                                   defense=dodge_against(combat, "b", 1)), DARK_AGES,
                            dice={"attack": hits(2, 5), "damage": [2] * 2, "soak": [2] * 2})
    assert second.hit and second.net_successes == 1


def test_the_divided_dodge_is_the_dark_ages_one():
    """004 "Dodging": the revised profile rolls each dodge on its own (000 "Defensive Maneuvers")."""
    revised = ChronicleSettings.from_overrides({"tabletop_profile": "revised"})
    with pytest.raises(RulesError) as err:
        roll_shared_dodge(started(profile="revised", rules=revised), fighter("b"), 2, revised, dice={"dodge": [2] * 4})
    assert err.value.field == "defense.shared"
    with pytest.raises(RulesError):
        resolve_attack(Attack("strike", fighter("a"), fighter("b"), defense=DefenseChoice("dodge", shared=1)),
                       dice={"attack": [2] * 2})


# ---------------------------------------------------------------- end of the turn


def test_extended_and_delayed_effects_at_the_end_of_the_turn():
    """004 "Extended and Delayed Effects": "Extended actions that end this turn, and any action that says it takes
    effect at the end of the turn, takes effect": the effect due now happens when the turn ends, a three-turn one
    waits, and the next turn begins."""
    combat = schedule(started(), "a", "Anno's eyes glow red: he sees in the dark.")
    combat = schedule(combat, "c", "Cuno finishes the ritual.", turns=2)
    combat, steps, due = end_turn(combat)
    assert [p.who for p in due] == ["a"] and combat.turn == 2 and combat.phase == "initiative"
    assert steps[0].rule == '004 "Extended and Delayed Effects"' and "Anno's eyes glow red" in steps[0].text
    assert [p.who for p in combat.carried.pending] == ["c"]
    assert Combat.from_dict(combat.to_dict()).carried.pending == combat.carried.pending
    with pytest.raises(RulesError):
        schedule(combat, "z", "Nobody.")
