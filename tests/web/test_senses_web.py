"""Issue 30 wiring, step 1: the inputs issue 30 added to the rules core reach the stored API and the screens:
the sense a challenge depends on (challenge screen, combat board, stray-shot screen, stored APIs), a
character's Acute Sense read from his Merit's note, a specialisation named by its Ability, a clip emptied on
full auto, and a deliberate Spray on the stray-shot screen (LotNR Acute Sense, met-reference 1.3; LotNR
Abilities; met-reference 3.7, 6.2)."""

from __future__ import annotations

import re

from larp.models import Character, MeritFlaw, Ruling, Trait, TraitLoss
from tests.web.test_challenge_web import post


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def trait(name: str, category: str) -> str:
    """A Trait ``name`` still holds in ``category`` tonight (a bid)."""
    lost: dict[str, int] = {}
    for loss in TraitLoss.select().where((TraitLoss.character == cid(name)) & TraitLoss.restored_at.is_null()):
        lost[loss.name] = lost.get(loss.name, 0) + loss.count
    return next(t.name for t in Trait.select().where((Trait.character == cid(name)) & (Trait.category == category)
                                                     & (Trait.negative == False)).order_by(Trait.id)  # noqa: E712
                if t.count > lost.get(t.name, 0))


def acute(name: str, note: str) -> None:
    MeritFlaw.create(character=cid(name), kind="merit", key="acute_sense", name="Acute Sense", cost=1, note=note)


def _tie(client, **top) -> dict:
    response = client.post("/api/v1/challenges", json={
        "category": "mental", **top,
        "challenger": {"character_id": cid("Konrad Vale"), "bid": trait("Konrad Vale", "mental")},
        "defender": {"character_id": cid("Pim Halloran"), "bid": trait("Pim Halloran", "mental")},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    traits = Ruling.get_by_id(body["ruling_id"]).inputs["challenger"]["traits"]
    TraitLoss.delete().execute()  # each tie starts with the Traits whole
    return {"up": body["ruling"]["totals"]["challenger"] - traits, "ruling": body["ruling"],
            "inputs": Ruling.get_by_id(body["ruling_id"]).inputs}


def test_acute_sense_from_the_merits_note_counts_in_the_stored_api(client, auth, dbconn):
    """LotNR Acute Sense ("specify which one"; "two Traits up on challenge-resolution", met-reference 1.3): Konrad's
    Merit with the note "Hearing" puts him two Traits up in a Mental tie that depends on hearing (said beside the
    challenge or in its scene object), not in one of sight nor with no sense named; the sense is recorded with the
    ruling's scene; a word naming no sense is refused with its field."""
    auth.login()
    assert _tie(client, sense="hearing")["up"] == 0  # no Merit yet
    acute("Konrad Vale", "Hearing")
    heard = _tie(client, sense="hearing")
    assert heard["up"] == 2 and heard["inputs"]["scene"]["sense"] == "hearing"
    assert _tie(client, scene={"sense": "ears"})["up"] == 2
    assert _tie(client, sense="sight")["up"] == 0
    assert _tie(client)["up"] == 0
    refused = client.post("/api/v1/challenges", json={
        "category": "mental", "sense": "echolocation",
        "challenger": {"character_id": cid("Konrad Vale"), "bid": trait("Konrad Vale", "mental")},
        "defender": {"character_id": cid("Pim Halloran"), "bid": trait("Pim Halloran", "mental")},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
    assert refused.status_code == 422 and refused.get_json()["field"] == "sense"


def test_a_specialisation_named_by_its_ability_in_the_stored_api(client, auth, dbconn):
    """LotNR Abilities (met-reference 1.3): a specialisation named by an Ability Konrad holds a level of gives the
    bonus Trait; named by one he does not hold, none (the step says why)."""
    from larp.models import Ability

    auth.login()
    held = Ability.get((Ability.character == cid("Konrad Vale")) & (Ability.level > 0)).name

    def up(spec) -> int:
        response = client.post("/api/v1/challenges", json={
            "category": "mental",
            "challenger": {"character_id": cid("Konrad Vale"), "bid": trait("Konrad Vale", "mental"), "specialisation": spec},
            "defender": {"character_id": cid("Pim Halloran"), "bid": trait("Pim Halloran", "mental")},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        TraitLoss.delete().execute()
        return body["ruling"]["totals"]["challenger"] - Ruling.get_by_id(body["ruling_id"]).inputs["challenger"]["traits"]

    assert up(held) == 1
    assert up("Basket Weaving") == 0
    assert up(False) == 0


def test_the_challenge_screen_offers_the_sense(client, auth, dbconn):
    """The challenge screen has a plain "Depends on" select (no script needed); a challenge posted with it is
    ruled with Konrad's Acute Sense (hearing) two Traits up, and the record's scene names the sense."""
    auth.login()
    acute("Konrad Vale", "keen ears")
    page = client.get("/challenge").get_data(as_text=True)
    assert re.search(r'<select name="sense">.*?<option value="hearing"', page, re.S)
    response = post(client, challenger=cid("Konrad Vale"), defender=cid("Pim Halloran"), category="mental",
                    kind="contested", action="other", defender_action="defend", sense="hearing",
                    challenger_bid=trait("Konrad Vale", "mental"), defender_bid=trait("Pim Halloran", "mental"),
                    challenger_throw="rock", defender_throw="rock")
    assert response.status_code in (200, 303), re.findall(r'field-error[^>]*>([^<]*)', response.get_data(as_text=True))
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.inputs["scene"]["sense"] == "hearing"
    assert ruling.outcome["totals"]["challenger"] - ruling.inputs["challenger"]["traits"] == 2


def test_the_combat_board_and_stray_shot_screen_offer_the_sense(client, auth, dbconn):
    """The combat board and the stray-shot screen share the scene bar: its "Depends on" select goes with the mass
    challenge (each pair depends on it: the target's Acute Sense counts in every pair) and is recorded."""
    auth.login()
    acute("Konrad Vale", "Hearing")
    konrad, viv = cid("Konrad Vale"), cid("Vivienne Ashcombe")
    for url in ("/combat", "/combat/bystanders"):
        assert re.search(r'<select name="sense">', client.get(url).get_data(as_text=True))
    response = client.post("/combat", data={"target": konrad, "a": [viv], "target_throw": "rock",
                                            f"a{viv}_throw": "rock", "sense": "hearing", "step": "record"})
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.inputs["scene"]["sense"] == "hearing"
    steps = [s["text"] for s in ruling.outcome["pairs"][0]["ruling"]["steps"]]
    assert any("depends on hearing and Konrad Vale has Acute Sense (hearing)" in s for s in steps)


def test_the_stray_shot_screen_sprays_on_purpose(client, auth, dbconn):
    """met-reference 6.2 and T24 (LotNR Spray): the stray-shot screen offers "sprays the group on purpose" for a gun
    with Spray; ticked, a shotgun at mid range (ten to twenty feet) is a single shot by Spray's distances and the
    record says so; not ticked, the same missed blast is one mass challenge (002)."""
    auth.login()
    marcus, konrad, lys = cid("Marcus Hale"), cid("Konrad Vale"), cid("Lys Moreau")
    base = {"firer": marcus, "target": konrad, "b": [lys], "firer_weapon": "shotgun", "range": "mid",
            "firer_throw": "rock", f"b{lys}_throw": "scissors", f"b{lys}_firer_throw": "rock"}
    page = client.get("/combat/bystanders", query_string=base).get_data(as_text=True)
    assert 'name="firer_deliberate_spray"' in page
    response = client.post("/combat/bystanders", data={**base, "firer_deliberate_spray": "on", "step": "record"})
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.inputs.get("deliberate_spray") is True and ruling.outcome["fire"] == "single"
    assert any("A deliberate Spray sprays only at targets more than 20 feet away" in s["text"]
               for s in ruling.outcome["steps"])
    missed = client.post("/combat/bystanders", data={**base, "step": "record"})
    assert missed.status_code == 303
    assert Ruling.select().order_by(Ruling.id.desc()).get().outcome["fire"] == "group"


def test_full_auto_in_the_stored_api(client, auth, dbconn):
    """met-reference 3.7 (LotNR Fully Automatic): Marcus's submachine gun up close adds its level only when the
    clip is emptied (``full_auto`` on his side)."""
    auth.login()

    def levels(full_auto: bool) -> int:
        response = client.post("/api/v1/challenges", json={
            "category": "physical", "action": "weapon", "range": "close",
            "challenger": {"character_id": cid("Marcus Hale"), "bid": trait("Marcus Hale", "physical"), "weapon": "smg", "full_auto": full_auto},
            "defender": {"character_id": cid("Pim Halloran"), "bid": trait("Pim Halloran", "physical")},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
        assert response.status_code == 201, response.get_json()
        return sum(h["levels"] for h in response.get_json()["ruling"]["hits"])

    assert levels(True) == levels(False) + 1


def test_the_challenge_screen_names_the_specialisation_and_empties_the_clip(client, auth, dbconn):
    """The challenge screen offers what the API takes: a specialisation named by an Ability of the sheet that
    has one (+1 on a tie, LotNR Abilities), and "Empties the clip" (met-reference 3.7: Marcus's submachine
    gun up close deals a level more only then)."""
    from larp.models import Ability

    auth.login()
    konrad = cid("Konrad Vale")
    held = Ability.get((Ability.character == konrad) & (Ability.level > 0))
    held.specialisations = ["Test"]
    held.save()
    page = client.get("/challenge", query_string={"challenger": konrad, "category": "mental"}).get_data(as_text=True)
    assert re.search(r'<select name="challenger_specialisation">.*?<option value="%s"' % re.escape(held.name), page, re.S)
    mental = dict(challenger=konrad, defender=cid("Pim Halloran"), category="mental", kind="contested",
                  action="other", defender_action="defend", challenger_bid=trait("Konrad Vale", "mental"),
                  defender_bid=trait("Pim Halloran", "mental"), challenger_throw="rock", defender_throw="rock")
    post(client, **mental, challenger_specialisation=held.name)
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["totals"]["challenger"] - ruling.inputs["challenger"]["traits"] == 1
    TraitLoss.delete().execute()

    def levels(**extra) -> int:
        post(client, challenger=cid("Marcus Hale"), defender=cid("Pim Halloran"), category="physical",
             kind="contested", action="weapon", defender_action="defend", range="close", challenger_weapon="smg",
             challenger_bid=trait("Marcus Hale", "physical"), defender_bid=trait("Pim Halloran", "physical"),
             challenger_throw="rock", defender_throw="scissors", **extra)
        TraitLoss.delete().execute()
        return sum(h["levels"] for h in Ruling.select().order_by(Ruling.id.desc()).get().outcome["hits"])

    assert 'name="challenger_full_auto"' in client.get("/challenge", query_string={
        "challenger": cid("Marcus Hale"), "category": "physical"}).get_data(as_text=True)
    assert levels(challenger_full_auto="on") == levels() + 1


def test_the_combat_board_empties_the_clip(client, auth, dbconn):
    """met-reference 3.7 on the combat board: Marcus's submachine gun at close range deals a level more to Pim
    only when "Empties the clip" is ticked on his row."""
    auth.login()
    marcus, pim = cid("Marcus Hale"), cid("Pim Halloran")

    def levels(**extra) -> int:
        response = client.post("/combat", data={"target": pim, "a": [marcus], "target_throw": "scissors",
                                                f"a{marcus}_throw": "rock", f"a{marcus}_weapon": "smg",
                                                f"a{marcus}_range": "ranged", "range": "close", "step": "record", **extra})
        assert response.status_code == 303, response.get_data(as_text=True)[:300]
        TraitLoss.delete().execute()
        hits = Ruling.select().order_by(Ruling.id.desc()).get().outcome["hits"]
        return sum(h.get("levels", 0) for h in hits if h.get("applied"))

    assert f'name="a{marcus}_fullauto"' in client.get("/combat", query_string={"target": pim, "a": marcus}).get_data(as_text=True)
    assert levels(**{f"a{marcus}_fullauto": "on"}) == levels() + 1
