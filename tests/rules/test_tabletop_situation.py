"""The situations issue 37 adds to a tabletop attack: armor coverage and targeting an unprotected part (item 5),
weapon length (6), bows and crossbows (7), blind fighting and the sight powers (10), blunt blows at a vital part
(11), mortals' bashing past Wounded (14) (000, 001, 003, 004)."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.health import HealthTrack, new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combat import Attack, Circumstances, DefenseChoice, resolve_attack

from tests.rules.tabletop_fighters import fighter, hits, texts

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})


def settings(**values) -> ChronicleSettings:
    return ChronicleSettings.from_overrides(values)


# ---------------------------------------------------------------- 5. armor coverage


def test_aiming_at_a_part_the_armor_does_not_cover_ignores_it():
    """000 "Armor Chart": "Attackers may make targeting rolls to hit unprotected portions of a defender and thus
    ignore the armor (Storyteller assigns difficulty penalty -- typically +1 or +2)": a Kevlar vest covers the torso;
    a blow at the legs (a limb, +1) is soaked with Stamina 2 alone; at the torso the vest's 3 count."""
    boxer = fighter("a", Strength=3, abilities={"Brawl": 3})
    vested = fighter("t", armor="class_three")
    legs = resolve_attack(Attack("strike", boxer, vested, Circumstances(aimed_part="legs")),
                          dice={"attack": hits(1, 5), "damage": [2] * 3, "soak": [2] * 2})
    assert legs.attack_difficulty == 7 and legs.soak.pool == 2
    assert "does not cover: the armor is ignored" in texts(legs)
    torso = resolve_attack(Attack("strike", boxer, vested, Circumstances(aimed_part="torso")),
                           dice={"attack": hits(1, 5), "damage": [2] * 3, "soak": [2] * 5})
    assert torso.soak.pool == 5
    plain = resolve_attack(Attack("strike", boxer, vested), dice={"attack": hits(1, 5), "damage": [2] * 3,
                                                                   "soak": [2] * 5})
    assert plain.attack_difficulty == 6 and plain.soak.pool == 5


def test_a_head_shot_gets_round_a_vest_but_not_riot_gear():
    """000 "Armor Chart" with the armory's ``covers``: a head shot (difficulty +2) ignores a vest (torso) but not
    full riot gear, which covers the head."""
    shooter = fighter("s", abilities={"Firearms": 3}, weapon="pistol_light")
    for worn, pool in (("class_three", 2), ("class_five", 7)):
        ruling = resolve_attack(Attack("shoot", shooter, fighter("t", armor=worn), Circumstances(aimed_part="head")),
                                dice={"attack": hits(1, 5), "damage": [2] * 5, "soak": [2] * pool})
        assert ruling.attack_difficulty == 8 and ruling.soak.pool == pool, worn


def test_an_unknown_part_and_a_called_shot_elsewhere_are_refused():
    """000 "Targeting": the part aimed at is the head, the torso, the arms or the legs, and a called shot at the
    heart hits the torso."""
    a, t = fighter("a", abilities={"Brawl": 2}), fighter("t")
    for c, field in ((Circumstances(aimed_part="tail"), "aimed_part"),
                     (Circumstances(aimed_part="legs", called_shot="heart"), "aimed_part")):
        with pytest.raises(RulesError) as err:
            resolve_attack(Attack("strike", a, t, c), dice={"attack": [2] * 4})
        assert err.value.field == field


# ---------------------------------------------------------------- 6. weapon length


@pytest.mark.parametrize("weapon, target_weapon, circumstances, pool", [
    ("knife", "sword", Circumstances(), 4 - 1),        # a knife against a sword closes in a yard, -1 die
    ("sword", "knife", Circumstances(), 4),            # the longer weapon loses nothing
    ("knife", "knife", Circumstances(), 4),
    (None, "knife", Circumstances(), 4 - 1),           # a punch against a knife
    ("knife", "staff", Circumstances(inside_reach=True), 4),   # already inside the staff's reach
    ("knife", "sword", Circumstances(target_held=True), 4),    # a held target fends no one off
])
def test_closing_in_on_a_longer_weapon_costs_a_die(weapon, target_weapon, circumstances, pool):
    """000, 003 "Weapon Length": "A character being fended off with a longer weapon must close in one yard, then
    strike, losing a die from her attack roll in the process"."""
    a = fighter("a", abilities={"Brawl": 2, "Melee": 2}, weapon=weapon)
    maneuver = "weapon_strike" if weapon else "strike"
    ruling = resolve_attack(Attack(maneuver, a, fighter("t", weapon=target_weapon), circumstances),
                            dice={"attack": [2] * (pool + (2 if circumstances.target_held else 0))})
    assert ruling.attack_pool == pool + (2 if circumstances.target_held else 0)
    assert ("closes in a yard" in texts(ruling)) == (pool == 3)


# ---------------------------------------------------------------- 7. bows


def test_a_bow_rolls_archery_and_strength_damage_plus_successes():
    """001 "Quick Combat Summary Chart": "For ranged bow and crossbow combat, roll Dexterity + Archery"; "Ranged
    Bow/Crossbow attack = Roll (Strength) damage + (# of dice above first success on attack roll)": Strength 3,
    three successes: 3 + 2 = 5 dice, in every profile."""
    archer = fighter("a", Strength=3, Dexterity=3, abilities={"Archery": 2, "Firearms": 4}, weapon="bow")
    for rules in (None, DARK_AGES):
        ruling = resolve_attack(Attack("shoot", archer, fighter("t", creature="mortal")), rules,
                                dice={"attack": hits(3, 5), "damage": [2] * 5})
        assert ruling.attack_pool == 3 + 2 and ruling.damage_pool == 3 + 2
        assert "Archery 2" in texts(ruling)
        assert any("Strength 3 + 0 (Bow)" in s.text and s.rule.startswith("001") for s in ruling.steps)


def test_the_crossbow_rolls_archery_and_its_damage_by_setting():
    """000 "Ranged Weapons Chart": the crossbow's damage is 5 dice (default, 000 the fuller text); 001 reads
    Strength damage for bows and crossbows alike (setting ``tabletop_crossbow_damage``)."""
    archer = fighter("a", Strength=2, Dexterity=3, abilities={"Archery": 1}, weapon="crossbow")
    chart = resolve_attack(Attack("shoot", archer, fighter("t", creature="mortal")),
                           dice={"attack": hits(2, 4), "damage": [2] * 6})
    assert chart.attack_pool == 4 and chart.damage_pool == 5 + 1
    strength = resolve_attack(Attack("shoot", archer, fighter("t", creature="mortal")),
                              settings(tabletop_crossbow_damage="strength"),
                              dice={"attack": hits(2, 4), "damage": [2] * 3})
    assert strength.damage_pool == 2 + 1
    assert any(s.setting == "tabletop_crossbow_damage" for s in strength.steps)


# ---------------------------------------------------------------- 10. blind fighting


@pytest.mark.parametrize("powers, rules, difficulty", [
    ((), None, 8),                                # +2 blind
    (("Heightened Senses",), None, 7),            # partly negates (000)
    (("Eyes of the Beast",), None, 6),            # fully negates
    (("Heightened Senses",), DARK_AGES, 6),       # 004: negated by Heightened Senses
    (("Witness of Darkness",), DARK_AGES, 6),     # or Witness of Darkness
])
def test_fighting_blind_less_the_sight_powers(powers, rules, difficulty):
    """000 "Blind Fighting/Fire": +2 difficulty; "Heightened Senses and Eyes of the Beast partly or fully negate this
    penalty"; 004 "Blind Fighting": "Can be negated by some disciplines (Heightened Senses, Witness of Darkness)"."""
    a = fighter("a", abilities={"Brawl": 2}, powers=powers)
    ruling = resolve_attack(Attack("strike", a, fighter("t"), Circumstances(blind=True)), rules,
                            dice={"attack": [2] * 4})
    assert ruling.attack_difficulty == difficulty


def test_no_ranged_attack_blind_unless_the_power_sees():
    """000 "Blind Fighting/Fire": "ranged attacks cannot be accurately made at all"; with Eyes of the Beast, which
    sees in pitch darkness, the shot is made at the normal difficulty."""
    shooter = fighter("s", abilities={"Firearms": 2}, weapon="pistol_light")
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("shoot", shooter, fighter("t"), Circumstances(blind=True)), dice={"attack": [2] * 4})
    assert err.value.field == "blind"
    seer = fighter("s", abilities={"Firearms": 2}, weapon="pistol_light", powers=("Eyes of the Beast",))
    assert resolve_attack(Attack("shoot", seer, fighter("t"), Circumstances(blind=True)),
                          dice={"attack": [2] * 4}).attack_difficulty == 6


@pytest.mark.parametrize("powers, dice, defense_difficulty", [((), 6, 8), (("Heightened Senses",), 6, 7),
                                                             (("Eyes of the Beast",), 4, 6)])
def test_a_blinded_defender_is_penalised_too(powers, dice, defense_difficulty):
    """000 "Blinded": "Add two dice to attack rolls made against a blinded target. Furthermore, blind characters are
    at +2 difficulty on all actions" - his dodge too, less his sight powers; a power that sees through the dark
    leaves him not blinded at all."""
    a = fighter("a", abilities={"Brawl": 2})
    t = fighter("t", abilities={"Dodge": 2}, powers=powers)
    ruling = resolve_attack(Attack("strike", a, t, Circumstances(target_blinded=True), defense=DefenseChoice("dodge")),
                            dice={"attack": hits(1, dice), "defense": [2] * 4, "damage": [2] * 2, "soak": [2] * 2})
    assert ruling.attack_pool == dice and ruling.defense_roll.difficulty == defense_difficulty


# ---------------------------------------------------------------- 11. blunt blows at a vital part


@pytest.mark.parametrize("reading, creature, kind", [
    ("weapons_at_head", "mortal", "bashing"),   # default: only a blunt weapon at the head (the melee chart)
    ("mortals", "mortal", "lethal"),
    ("mortals", "vampire", "bashing"),
    ("everyone", "vampire", "lethal"),
])
def test_a_fist_at_the_head_by_setting(reading, creature, kind):
    """000, 001 "Lethal Damage": "At the Storyteller's option, blunt attacks aimed at a vital body part (difficulty
    8 or 9 to target) can cause lethal damage, particularly versus mortals", fists included (setting
    ``tabletop_blunt_vital_lethal``)."""
    boxer = fighter("a", Strength=3, abilities={"Brawl": 3})
    ruling = resolve_attack(Attack("strike", boxer, fighter("t", creature=creature, Stamina=0),
                                   Circumstances(called_shot="head")), settings(tabletop_blunt_vital_lethal=reading),
                            dice={"attack": hits(1, 5), "damage": hits(2, 4), "soak": []})
    assert ruling.soak.damage_type == kind
    assert any(s.setting == "tabletop_blunt_vital_lethal" for s in ruling.steps) == (kind == "lethal")


def test_a_blow_at_a_limb_is_not_vital_and_a_club_at_the_head_is_lethal_anyway():
    """000 "Lethal Damage": a vital part is difficulty 8 or 9 (a limb, +1, is not); 000 "Melee Weapons Chart": a blunt
    object targeted at the head inflicts lethal damage whatever the setting."""
    boxer = fighter("a", Strength=3, abilities={"Brawl": 3, "Melee": 3})
    limb = resolve_attack(Attack("strike", boxer, fighter("t", creature="mortal", Stamina=0),
                                 Circumstances(target_size="medium")), settings(tabletop_blunt_vital_lethal="everyone"),
                          dice={"attack": hits(1, 5), "damage": hits(2, 3), "soak": []})
    assert limb.soak.damage_type == "bashing"
    club = fighter("a", Strength=3, abilities={"Melee": 3}, weapon="club")
    head = resolve_attack(Attack("weapon_strike", club, fighter("t", creature="mortal", Stamina=0),
                                 Circumstances(called_shot="head")),
                          dice={"attack": hits(1, 5), "damage": hits(2, 6), "soak": []})
    assert head.soak.damage_type == "lethal"


# ---------------------------------------------------------------- 14. mortals' bashing past Wounded


@pytest.mark.parametrize("on, creature, kind, lasting", [
    (True, "mortal", "bashing", True), (False, "mortal", "bashing", False),
    (True, "vampire", "bashing", False), (True, "ghoul", "bashing", True)])
def test_a_mortal_beaten_past_wounded_may_keep_a_lasting_effect(on, creature, kind, lasting):
    """000 "Healing Bashing Damage": "Bashing damage beyond Wounded may have deeper consequences ... These effects can
    be negated if the mortal receives adequate medical attention": an optional rule (setting
    ``mortal_bashing_aftereffects``), for mortals (and ghouls, who heal as mortals) beaten to Mauled or worse."""
    hurt = HealthTrack(levels=new_track(creature).levels, bashing=4, creature=creature)
    ruling = resolve_attack(Attack("strike", fighter("a", Strength=4, abilities={"Brawl": 3}),
                                   fighter("t", creature=creature, track=hurt, Stamina=0)),
                            settings(mortal_bashing_aftereffects=on),
                            dice={"attack": hits(1, 5), "damage": hits(4 if creature == "vampire" else 2, 4), "soak": []})
    assert ruling.has("lasting_injury", "t") == lasting
    if lasting:
        assert any(s.setting == "mortal_bashing_aftereffects" and "medical attention" in s.text for s in ruling.steps)


def test_bashing_down_to_wounded_leaves_no_lasting_effect():
    """000 "Healing Bashing Damage": "Bashing damage up to the Wounded level can be cared for without medical skill":
    a mortal beaten to Wounded exactly keeps no lasting effect, even with the optional rule on."""
    hurt = HealthTrack(levels=new_track("mortal").levels, bashing=2, creature="mortal")
    ruling = resolve_attack(Attack("strike", fighter("a", Strength=4, abilities={"Brawl": 3}),
                                   fighter("t", creature="mortal", track=hurt, Stamina=0)),
                            settings(mortal_bashing_aftereffects=True),
                            dice={"attack": hits(1, 5), "damage": hits(2, 4), "soak": []})
    assert ruling.target_track.bashing == 4 and not ruling.has("lasting_injury")
