"""The combat board and the bystanders screen (issue 4): flows, one record per fight, bad input changing nothing."""

from __future__ import annotations

import html
import json
import re

import pytest

from larp.models import AbilitySpend, Character, Ruling, RulingCharacter, TraitLoss

NAMES = ("Vivienne Ashcombe", "Konrad Vale", "Lys Moreau", "Teodor Brandt", "Ines Castellano", "Aldous Whitmore",
         "Pim Halloran", "Marcus Hale", "Ruth Calder", "Sister Agathe")


def snapshot():
    """Everything a fight may change, to prove that bad input changes nothing."""
    return (
        Ruling.select().count(), TraitLoss.select().count(), AbilitySpend.select().count(),
        RulingCharacter.select().count(),
        sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.damage_aggravated, c.condition,
                c.willpower_current) for c in Character.select()),
    )


@pytest.fixture
def cast(dbconn):
    """Id and card code of each demo character, by first name."""
    return {c.name.split()[0] if c.name != "Sister Agathe" else "Agathe": (c.id, c.short_code)
            for c in Character.select()}


def board_fields(target, attackers, target_throw="rock", throws=None, **extra):
    """The board's form for ``target`` against ``attackers`` (ids), every sign given."""
    data = {"target": target, "a": list(attackers), "target_throw": target_throw, **extra}
    for index, aid in enumerate(attackers):
        data.setdefault(f"a{aid}_throw", (throws or {}).get(aid, "scissors"))
    return data


def in_progress(body: str) -> dict | None:
    match = re.search(r"name=\"tests_json\" value='([^']*)'", body)
    return json.loads(html.unescape(match.group(1))) if match else None


def post(client, data, htmx=False):
    return client.post("/combat", data=data, headers={"HX-Request": "true"} if htmx else {})


def test_the_board_needs_a_narrator(client):
    response = client.get("/combat")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_combat_is_in_the_nav_next_to_challenge(client, auth):
    auth.login()
    page = client.get("/combat").get_data(as_text=True)
    nav = page[page.index('class="mainnav"'):page.index("</nav>", page.index('class="mainnav"'))]
    assert nav.index(">Challenge<") < nav.index(">Combat<") < nav.index(">Characters<")
    assert 'href="/combat" class="active"' in nav


def test_target_by_card_code_and_attackers_by_several_codes(client, auth, cast):
    """The narrator types the target's card code, then several attackers' codes at once; a plain browser is
    redirected (303) to the board's address, htmx gets the board with the address to show."""
    auth.login()
    konrad, viv, lys, ruth = cast["Konrad"], cast["Vivienne"], cast["Lys"], cast["Ruth"]
    response = post(client, {"step": "enter", "target_q": konrad[1].lower()})
    assert response.status_code == 303 and response.headers["Location"] == f"/combat?target={konrad[0]}"
    response = post(client, {"step": "add:hand_to_hand", "target": konrad[0], "add_q": f"{viv[1]}, {lys[1]}"},
                    htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in body
    assert body.count('name="a" value=') == 2
    assert response.headers["HX-Replace-Url"] == f"/combat?target={konrad[0]}&a={viv[0]}&a={lys[0]}"
    response = post(client, {"step": "add:ranged", "target": konrad[0], "a": [viv[0], lys[0]], "add_q": "ruth"},
                    htmx=True)
    assert f'name="a{ruth[0]}_range" value="ranged" checked' in response.get_data(as_text=True)


def test_a_three_attacker_fight_is_one_record_with_every_character(client, auth, cast, dbconn):
    """002 "Mass Combat": one simultaneous challenge, and the whole of it is ONE record (kind mass_combat) with
    every character as a participant and its role; Traits lost, the hits with weapon and damage type, and the
    damage marked, all in the same transaction."""
    auth.login()
    konrad, viv, lys, ruth = cast["Konrad"], cast["Vivienne"], cast["Lys"], cast["Ruth"]
    data = board_fields(konrad[0], [viv[0], lys[0], ruth[0]],
                        throws={viv[0]: "paper", lys[0]: "scissors", ruth[0]: "paper"},
                        **{f"a{ruth[0]}_range": "ranged", f"a{ruth[0]}_weapon": "pistol"})
    response = post(client, {**data, "step": "record"})
    assert response.status_code == 303
    ruling = Ruling.get()
    assert f"ruling={ruling.id}" in response.headers["Location"] and response.headers["Location"].endswith("#combat-result")
    assert ruling.kind == "mass_combat" and ruling.summary.startswith("Konrad Vale against 3")
    roles = {(rc.character.name, rc.role) for rc in ruling.participants}
    assert roles == {("Konrad Vale", "target"), ("Vivienne Ashcombe", "attacker, hand to hand"),
                     ("Lys Moreau", "attacker, hand to hand"), ("Ruth Calder", "attacker, ranged")}
    pairs = {p["attacker"]: p for p in ruling.outcome["pairs"]}
    assert [pairs[n]["outcome"] for n in ("Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")] == \
        ["challenger", "defender", "challenger"]
    hits = ruling.outcome["hits"]
    assert {(h["by"], h["weapon"], h["damage_type"], h["applied"]) for h in hits} == {
        ("Vivienne Ashcombe", None, "bashing", True), ("Ruth Calder", "Pistol", "lethal", True)}
    konrad_now = Character.get_by_id(konrad[0])
    # Bare hands: 1 bashing, halved to at least 1; the pistol: 2 bashing against a vampire, not halved (002).
    assert (konrad_now.damage_bashing, konrad_now.damage_lethal) == (3, 0)
    losses = {(t.character.name, t.name) for t in TraitLoss.select()}
    assert ("Lys Moreau", "Quick") in losses and len([l for l in losses if l[0] == "Konrad Vale"]) == 2
    assert all(t.ruling_id == ruling.id for t in TraitLoss.select())
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert ruling.summary in page and "Open the record" in page


def test_pairs_may_retest_before_the_fight_is_recorded(client, auth, cast, dbconn):
    """002 "Mass Combat": "retests may then be performed": Konrad loses to Vivienne and retests with Might (a
    strength challenge hand to hand); the board shows the result so far, the retest is made, then recorded."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad[0], [viv[0], lys[0]], throws={viv[0]: "paper", lys[0]: "scissors"})
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    assert "So far:" in body and Ruling.select().count() == 0
    assert 'value="defender|might|' in body  # Konrad's retest with Might, one chip a new sign (issue 31, wave 5)
    retest = {**data, "step": "retest", "tests_json": json.dumps(in_progress(body)),
              f"r{viv[0]}_source": "defender|might", f"r{viv[0]}_a_throw": "rock", f"r{viv[0]}_d_throw": "paper"}
    body = post(client, retest, htmx=True).get_data(as_text=True)
    tests = in_progress(body)
    if tests is not None:  # someone may still retest: record as it stands
        body = post(client, {**data, "step": "record", "tests_json": json.dumps(tests)}, htmx=True).get_data(
            as_text=True)
    ruling = Ruling.get()
    viv_pair = next(p for p in ruling.outcome["pairs"] if p["attacker"] == "Vivienne Ashcombe")
    assert viv_pair["outcome"] == "defender"
    assert [t["source"] for t in viv_pair["ruling"]["tests"] if t["call"] == "retest"] == ["might"]
    assert ruling.inputs["attackers"][0]["tests"][0]["source"] == "might"
    assert "Recorded as ruling" in body


def test_make_the_retests_without_the_signs_keeps_the_result_so_far(client, auth, cast, dbconn):
    """A new user's finding: "Make the retests" with a retest chosen but one new sign missing answers under
    the retests, with the result so far still there, the retest and the sign chosen ticked again, and
    nothing written; the missing sign then makes the retest."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad[0], [viv[0], lys[0]], throws={viv[0]: "paper", lys[0]: "scissors"})
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    tests = json.dumps(in_progress(body))
    # Konrad's retest with Might and his new sign in one chip (issue 31, wave 5); Vivienne's new sign missing.
    retest = {**data, "step": "retest", "tests_json": tests, f"r{viv[0]}_retest": "defender|might|paper"}
    response = post(client, retest, htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "So far:" in body and "Choose both signs for the retest." in body and "Not recorded</h2>" not in body
    assert 'value="defender|might|paper" checked' in body
    assert json.dumps(in_progress(body)) == tests and Ruling.select().count() == 0
    body = post(client, {**retest, f"r{viv[0]}_a_throw": "rock"}, htmx=True).get_data(as_text=True)
    assert "Choose both signs" not in body and ("So far:" in body or "Recorded as ruling" in body)
    # The fields of before (the retest, then each sign) still read the same.
    old = {**data, "step": "retest", "tests_json": tests, f"r{viv[0]}_source": "defender|might",
           f"r{viv[0]}_a_throw": "rock"}
    response = post(client, old, htmx=True)
    assert response.status_code == 422 and f'name="r{viv[0]}_a_throw" value="rock" checked' in response.get_data(as_text=True)


def test_one_chip_names_the_retest_and_one_more_tap_makes_it_and_records(client, auth, cast, dbconn):
    """Issue 31 (wave 5): on the result so far one chip says who retests, with what, and his new sign
    (``r<id>_retest``); with the other side's sign, "Make the retests and record" makes the retest and records
    the fight in one post, though Lys, who lost too, could still retest ("Make the retests" would wait)."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad[0], [viv[0], lys[0]], throws={viv[0]: "paper", lys[0]: "scissors"})
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    assert f'name="r{viv[0]}_retest" value="defender|might|rock"' in body
    assert 'value="retest_record"' in body and "Make the retests and record" in body
    tests = json.dumps(in_progress(body))
    pick = {**data, "tests_json": tests, f"r{viv[0]}_retest": "defender|might|paper", f"r{viv[0]}_a_throw": "rock"}
    body = post(client, {**pick, "step": "retest"}, htmx=True).get_data(as_text=True)
    assert "So far:" in body and Ruling.select().count() == 0  # Lys may still retest: nothing written yet
    body = post(client, {**pick, "step": "retest_record"}, htmx=True).get_data(as_text=True)
    assert "Recorded as ruling" in body and Ruling.select().count() == 1
    ruling = Ruling.get()
    made = ruling.inputs["attackers"][0]["tests"]
    assert [(t["call"], t["by"], t["source"], t["challenger_throw"], t["defender_throw"]) for t in made] == [
        ("retest", "defender", "might", "rock", "paper")]
    viv_pair = next(p for p in ruling.outcome["pairs"] if p["attacker"] == "Vivienne Ashcombe")
    assert [t["source"] for t in viv_pair["ruling"]["tests"] if t["call"] == "retest"] == ["might"]


def test_random_signs_are_drawn_once_and_kept(client, auth, cast, dbconn):
    """A narrator character's sign may be random: drawn once when the fight is first ruled and kept after."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad[0], [viv[0], lys[0]], target_throw="random")
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    drawn = re.search(r'name="target_throw" value="(\w+)" checked', body).group(1)
    assert drawn in ("rock", "paper", "scissors")
    post(client, {**data, "target_throw": drawn, "step": "record"})
    assert Ruling.get().inputs["target"]["throw"] == drawn


def test_a_sixth_hand_to_hand_attacker_is_refused_and_nothing_changes(client, auth, cast, dbconn):
    """002 "Mass Combat": at most five hand to hand: adding a sixth, or resolving with six, is refused with the
    rule's words, and the database is as before."""
    auth.login()
    target = cast["Konrad"][0]
    five = [cast[n][0] for n in ("Vivienne", "Lys", "Teodor", "Ines", "Aldous")]
    before = snapshot()
    response = post(client, {"step": "add:hand_to_hand", "target": target, "a": five, "add_q": cast["Pim"][1]},
                    htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "At most 5 characters can engage one target hand to hand" in body and "Pim Halloran" in body
    assert body.count('name="a" value=') == 5
    response = post(client, {**board_fields(target, five + [cast["Pim"][0]]), "step": "record"})
    assert response.status_code == 422 and "would be the 6th" in response.get_data(as_text=True)
    assert snapshot() == before
    # A sixth of the other kind is welcome.
    response = post(client, {"step": "add:ranged", "target": target, "a": five, "add_q": cast["Pim"][1]}, htmx=True)
    assert response.status_code == 200 and response.get_data(as_text=True).count('name="a" value=') == 6


def test_the_target_cannot_also_attack_and_nothing_changes(client, auth, cast, dbconn):
    """002 "Mass Combat": everyone points at who they attack; the target is not among his attackers."""
    auth.login()
    konrad, viv = cast["Konrad"], cast["Vivienne"]
    before = snapshot()
    response = post(client, {"step": "add:hand_to_hand", "target": konrad[0], "a": [viv[0]], "add_q": konrad[1]},
                    htmx=True)
    assert response.status_code == 422
    assert "Konrad Vale is the target and cannot also be an attacker" in response.get_data(as_text=True)
    response = post(client, {**board_fields(konrad[0], [viv[0], konrad[0]]), "step": "record"})
    assert response.status_code == 422 and "cannot also be an attacker" in response.get_data(as_text=True)
    assert snapshot() == before


def test_lacking_traits_the_board_asks_whom_he_relents_to(client, auth, cast, dbconn):
    """002 "Mass Combat": "If not able to do this (due to lack of enough traits), he can choose who he defends
    against and whom he will relent to": Pim (2 Physical Traits) against three is refused until he relents."""
    auth.login()
    pim = cast["Pim"][0]
    three = [cast[n][0] for n in ("Vivienne", "Lys", "Konrad")]
    before = snapshot()
    response = post(client, {**board_fields(pim, three), "step": "record"}, htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Pim Halloran has 2 Physical Traits left and cannot defend against 3 attackers" in body
    assert "relents to" in re.sub(r"<[^>]+>", "", body)  # the board's own hint and the relent chips
    assert snapshot() == before
    response = post(client, {**board_fields(pim, three), f"a{three[2]}_relent": "on", "step": "record"})
    assert response.status_code == 303
    pairs = {p["attacker"]: p for p in Ruling.get().outcome["pairs"]}
    assert pairs["Konrad Vale"]["relented"] and pairs["Konrad Vale"]["outcome"] == "challenger"


def test_a_plain_post_of_bad_tests_in_progress_is_refused(client, auth, cast, dbconn):
    auth.login()
    konrad, viv = cast["Konrad"], cast["Vivienne"]
    before = snapshot()
    response = post(client, {**board_fields(konrad[0], [viv[0]]), "step": "record", "tests_json": "{not json"})
    assert response.status_code == 422 and "could not be read" in response.get_data(as_text=True)
    assert snapshot() == before


# ----- bystanders ---------------------------------------------------------------


def stray_fields(firer, target, people, weapon="pistol", **extra):
    data = {"firer": firer, "target": target, "b": list(people), "firer_weapon": weapon, **extra}
    for pid in people:
        data.setdefault(f"b{pid}_throw", "scissors")
        data.setdefault(f"b{pid}_firer_throw", "rock")
    return data


def spost(client, data, htmx=False):
    return client.post("/combat/bystanders", data=data, headers={"HX-Request": "true"} if htmx else {})


def test_a_stray_round_is_one_record_naming_everyone(client, auth, cast, dbconn):
    """002 "Firing Guns into Groups of People": Ruth misses Konrad; Lys (closest) wins her test, Pim is hit by
    the pistol and the round stops in him; one record of kind firing_into_group names all four."""
    auth.login()
    ruth, konrad, lys, pim = cast["Ruth"], cast["Konrad"], cast["Lys"], cast["Pim"]
    data = stray_fields(ruth[0], konrad[0], [lys[0], pim[0]], **{f"b{lys[0]}_throw": "paper"})
    response = spost(client, {**data, "step": "record"})
    assert response.status_code == 303
    ruling = Ruling.get()
    assert ruling.kind == "firing_into_group" and ruling.summary == "Ruth Calder's stray round hits Pim Halloran."
    assert {(rc.character.name, rc.role) for rc in ruling.participants} == {
        ("Ruth Calder", "firer"), ("Konrad Vale", "missed target"), ("Lys Moreau", "bystander"),
        ("Pim Halloran", "bystander")}
    assert Character.get_by_id(pim[0]).damage_bashing == 2  # a pistol against a vampire: 2 bashing, not halved
    assert [h["weapon"] for h in ruling.outcome["hits"]] == ["Pistol"]


def test_bystanders_are_ordered_by_the_narrator(client, auth, cast):
    """002: "starting with those closest to the target": the narrator moves people up and down the list."""
    auth.login()
    ruth, konrad, lys, pim = cast["Ruth"], cast["Konrad"], cast["Lys"], cast["Pim"]
    response = spost(client, {**stray_fields(ruth[0], konrad[0], [lys[0], pim[0]]), "step": f"up:{pim[0]}"})
    assert response.status_code == 303
    assert re.findall(r"[?&]b=(\d+)", response.headers["Location"]) == [str(pim[0]), str(lys[0])]


def test_a_bystander_twice_is_refused_and_nothing_changes(client, auth, cast, dbconn):
    """002: the people near the target, each once."""
    auth.login()
    ruth, konrad, lys = cast["Ruth"], cast["Konrad"], cast["Lys"]
    before = snapshot()
    response = spost(client, {**stray_fields(ruth[0], konrad[0], [lys[0]]), "step": "add:near", "add_q": lys[1]},
                     htmx=True)
    assert response.status_code == 422 and "Lys Moreau is already on the list" in response.get_data(as_text=True)
    response = spost(client, {**stray_fields(ruth[0], konrad[0], [lys[0]]), "step": "add:near",
                              "add_q": konrad[1]}, htmx=True)
    assert response.status_code == 422 and "is the target, not a bystander" in response.get_data(as_text=True)
    assert snapshot() == before


def test_extra_traits_with_a_shotgun_are_refused_and_nothing_changes(client, auth, cast, dbconn):
    """002: "These two options can only be taken when firing one shot at a time (not when firing shotguns ...)":
    a shotgun spraying the group past twenty feet (met-reference 6.2)."""
    auth.login()
    konrad, ruth, lys, pim = cast["Konrad"], cast["Ruth"], cast["Lys"], cast["Pim"]
    before = snapshot()
    data = stray_fields(konrad[0], ruth[0], [lys[0], pim[0]], weapon="shotgun", firer_throw="rock", range="far",
                        **{f"b{lys[0]}_excluded": "on"})
    response = spost(client, {**data, "step": "record"}, htmx=True)
    assert response.status_code == 422 and "only when firing one shot at a time" in response.get_data(as_text=True)
    assert snapshot() == before


def test_excluded_bystanders_cost_one_extra_trait_each(client, auth, cast, dbconn):
    """002: "bid less traits to eliminate some bystanders ... he can actually say which specific bystanders he will
    not hit": Lys is excluded by one extra Trait, which Ruth loses with the missed shot; Pim is tested, which
    costs Ruth nothing ("perform a test", setting stray_tests_cost_firer off by default)."""
    auth.login()
    ruth, konrad, lys, pim = cast["Ruth"], cast["Konrad"], cast["Lys"], cast["Pim"]
    data = stray_fields(ruth[0], konrad[0], [lys[0], pim[0]], **{f"b{lys[0]}_excluded": "on",
                                                                  f"b{pim[0]}_throw": "paper"})
    assert spost(client, {**data, "step": "record"}).status_code == 303
    ruling = Ruling.get()
    results = {b["name"]: b for b in ruling.outcome["bystanders"]}
    assert results["Lys Moreau"]["excluded"] and not results["Lys Moreau"]["tested"]
    assert results["Pim Halloran"]["tested"] and not results["Pim Halloran"]["hit"]
    ruth_lost = [t.name for t in TraitLoss.select().where(TraitLoss.character == ruth[0])]
    extra = ruling.inputs["extra_traits"]
    assert len(extra) == 1 and ruth_lost == extra  # the extra one only: Pim's test risks no Trait
    assert any("(2 in all)" in s["text"] for s in ruling.steps)


def test_a_recorded_fight_posted_again_is_refused(client, auth, cast, dbconn):
    """The board's one-time token: replaying the request that recorded a fight (a double tap, the
    back button) records nothing more and says which ruling already holds it."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad[0], [viv[0], lys[0]], throws={viv[0]: "paper", lys[0]: "paper"},
                        step="record", request_token="board-token-1")
    assert post(client, data).status_code == 303
    before = snapshot()
    response = post(client, data, htmx=True)
    assert response.status_code == 409
    assert "already recorded as ruling #1" in response.get_data(as_text=True)
    assert snapshot() == before


def _section(body: str, element_id: str) -> str:
    """The HTML of the element with ``element_id`` up to the next section, person's row or the end of the form."""
    start = body.index(f'id="{element_id}"')
    ends = [i for i in (body.find("<section", start), body.find("</form>", start),
                        body.find('<fieldset class="panel attacker-row', start)) if i != -1]
    return body[start:min(ends)]


def test_a_missing_gun_is_told_beside_the_gun_and_in_view(client, auth, cast, dbconn):
    """Found at 390 px: Resolve without a gun said "Choose the gun that fired." only at the bottom, far below
    the gun. The message is in the firer's box next to "The gun", htmx scrolls that box to the top of the
    viewport, a plain browser focuses the select; nothing is recorded."""
    auth.login()
    aldous, konrad = cast["Aldous"], cast["Konrad"]
    people = [cast["Ruth"][0], cast["Lys"][0], cast["Pim"][0]]
    data = {**stray_fields(aldous[0], konrad[0], people, weapon=""), "step": "resolve"}
    before = snapshot()
    response = spost(client, data, htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert response.headers["HX-Reswap"] == "outerHTML show:#firer-panel:top"
    firer_box = _section(body, "firer-panel")
    assert firer_box.index('name="firer_weapon"') < firer_box.index("Choose the gun that fired.")
    assert "Choose the gun that fired." not in _section(body, "combat-result")
    plain = spost(client, data).get_data(as_text=True)
    assert re.search(r'<select name="firer_weapon" autofocus', plain)
    assert snapshot() == before


def test_the_stray_shot_result_is_put_in_view(client, auth, cast, dbconn):
    """Found at 390 px: the recorded stray shot ("... stray round hits ...", "Recorded as ruling #") was below
    the fold. htmx swaps the form and scrolls #combat-result to the top, as the combat board does; a
    plain post is redirected to the result's anchor."""
    auth.login()
    aldous, konrad = cast["Aldous"], cast["Konrad"]
    people = [cast["Ruth"][0], cast["Lys"][0], cast["Pim"][0]]
    data = stray_fields(aldous[0], konrad[0], people)
    resolve = spost(client, {**data, "step": "resolve"}, htmx=True)
    assert resolve.status_code == 200 and resolve.headers["HX-Reswap"] == "outerHTML show:#combat-result:top"
    assert "HX-Retarget" not in resolve.headers  # the answer is the whole form, swapped for itself
    assert re.search(r"So far:|Recorded as ruling #", _section(resolve.get_data(as_text=True), "combat-result"))
    record = spost(client, {**data, "step": "record", "request_token": "stray-1"}, htmx=True)
    ruling = Ruling.select().where(Ruling.kind == "firing_into_group").order_by(Ruling.id.desc()).get()
    result = _section(record.get_data(as_text=True), "combat-result")
    assert record.headers["HX-Reswap"] == "outerHTML show:#combat-result:top"
    assert ruling.summary.rstrip(".") in html.unescape(result) and f"#{ruling.id}" in result
    plain = spost(client, {**data, "step": "record", "request_token": "stray-2"})
    assert plain.status_code == 303 and plain.headers["Location"].endswith("#combat-result")


def test_an_attacker_in_torpor_is_marked_on_the_board_before_resolve(client, auth, cast, dbconn):
    """Found by a new user: Vivienne in torpor was accepted as an attacker, her card read "7 Physical left ·
    Healthy", and the refusal came only after Resolve. Her card now shows TORPOR and that she cannot take
    part (LotNR Health, the rules core's own words) as soon as she is added, and Resolve waits; the stray-shot
    screen says the same of a firer in torpor."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    Character.update(condition="torpor").where(Character.id == viv[0]).execute()
    response = post(client, {"target": konrad[0], "a": [lys[0]], "step": f"pick:{viv[0]}:hand_to_hand"}, htmx=True)
    body = response.get_data(as_text=True)
    row = _section(body, f"row-{viv[0]}")
    assert 'class="condition-banner condition-torpor">Torpor</span>' in row
    assert "Vivienne Ashcombe is in torpor and cannot take part in a challenge." in row
    assert "cannot take part" not in _section(body, f"row-{lys[0]}")
    assert re.search(r'<button type="submit" name="step" value="resolve" class="primary big" disabled>', body)
    assert "Resolve waits: Vivienne Ashcombe cannot take part: remove with ✕ on the card." in body
    page = client.get(f"/combat/bystanders?firer={viv[0]}&target={konrad[0]}&b={lys[0]}").get_data(as_text=True)
    assert "Vivienne Ashcombe is in torpor and cannot take part" in _section(page, "firer-panel")
    assert re.search(r'value="resolve" class="primary big" disabled>Resolve the stray shot', page)


def test_a_missing_sign_on_the_board_is_shown_where_it_is_chosen(client, auth, cast, dbconn):
    """Resolve without the target's sign: the answer scrolls to the target's box, whose sign chips carry
    the message; without an attacker's sign, to that attacker's row. Nothing is recorded."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    before = snapshot()
    data = board_fields(konrad[0], [viv[0], lys[0]])
    del data["target_throw"]
    response = post(client, {**data, "step": "resolve"}, htmx=True)
    assert 400 <= response.status_code < 500
    assert response.headers["HX-Reswap"] == "outerHTML show:#target-panel:top"
    panel = re.search(r'id="target-panel".*?</section>', response.get_data(as_text=True), re.S).group(0)
    assert 'class="field-error"' in panel
    data = board_fields(konrad[0], [viv[0], lys[0]])
    del data[f"a{lys[0]}_throw"]
    response = post(client, {**data, "step": "resolve"}, htmx=True)
    assert response.headers["HX-Reswap"] == f"outerHTML show:#row-{lys[0]}:top"
    assert snapshot() == before


def test_make_the_retests_without_the_signs_keeps_the_stray_shot_so_far(client, auth, cast, dbconn):
    """As on the combat board: on the stray-shot screen, "Make the retests" with a retest chosen but a sign
    missing answers under the retests with the result so far, the retest and the sign ticked again, and
    nothing written."""
    auth.login()
    ruth, konrad, lys = cast["Ruth"], cast["Konrad"], cast["Lys"]
    data = stray_fields(ruth[0], konrad[0], [lys[0]], **{f"b{lys[0]}_throw": "paper"})  # Lys wins: Ruth may retest
    body = spost(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    assert "So far:" in body, "the test needs a retest left open"
    choice = re.findall(rf'name="r{lys[0]}_source" value="([^"]+)"', body)[0]
    tests = in_progress(body)
    response = spost(client, {**data, "step": "retest", "tests_json": json.dumps(tests),
                              f"r{lys[0]}_source": choice, f"r{lys[0]}_f_throw": "rock"}, htmx=True)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "So far:" in page and "Choose both signs for the retest." in page
    assert f'value="{choice}" checked' in page and f'name="r{lys[0]}_f_throw" value="rock" checked' in page
    assert "Not recorded</h2>" not in page and Ruling.select().count() == 0


def test_the_board_says_what_celerity_adds_as_the_core_says(client, auth, cast):
    """LotNR Celerity (met-reference 3.3), decided by the rules core and only printed by the board: Teodor
    (Rapidity, Celerity 3) gets extra actions and the speed Bomb; Vivienne (Swiftness, 2) extra actions only."""
    auth.login()
    teodor, viv, konrad = cast["Teodor"], cast["Vivienne"], cast["Konrad"]
    body = client.get("/combat", query_string={"target": teodor[0], "a": [konrad[0]]}).get_data(as_text=True)
    assert "Celerity active this round (level 3: extra actions, speed Bomb)" in body
    body = client.get("/combat", query_string={"target": viv[0], "a": [konrad[0]]}).get_data(as_text=True)
    assert "Celerity active this round (level 2: extra actions)" in body


def test_a_retest_offers_the_bomb_only_to_a_side_who_announced_it(client, auth, cast, dbconn):
    """LotNR Vigor: "You must state before the Physical Challenge that you can use it", and a retest is part of
    the same challenge. Teodor (Vigor) loses to Vivienne hand to hand: his retest chips offer no Bomb unless
    "Bomb announced" was tapped for him before the fight."""
    auth.login()
    teodor, viv = cast["Teodor"], cast["Vivienne"]
    data = board_fields(teodor[0], [viv[0]], throws={viv[0]: "paper"})
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    picks = re.findall(rf'name="r{viv[0]}_retest" value="defender\|([a-z]+)\|([a-z]+)"', body)
    assert picks and {sign for _, sign in picks} == {"rock", "paper", "scissors"}
    announced = post(client, {**data, "target_bomb": "on", "step": "resolve"}, htmx=True).get_data(as_text=True)
    picks = re.findall(rf'name="r{viv[0]}_retest" value="defender\|([a-z]+)\|([a-z]+)"', announced)
    assert {sign for _, sign in picks} == {"rock", "paper", "scissors", "bomb"}


def test_an_attacker_added_at_range_comes_with_his_gun(client, auth, cast, dbconn):
    """met-reference 3.7: a ranged attack needs a ranged weapon. Ruth carries a pistol on her sheet: added at
    range she comes with it chosen (no "choose the ranged weapon" refusal first); added hand to hand she
    comes bare-handed; Lys, who carries nothing, comes bare-handed at range and the board asks for the weapon."""
    auth.login()
    konrad, ruth, lys = cast["Konrad"], cast["Ruth"], cast["Lys"]  # the demo's Ruth carries her pistol (s7)
    body = post(client, {"step": "add:ranged", "target": konrad[0], "add_q": ruth[1]}, htmx=True).get_data(as_text=True)
    assert re.search(rf'name="a{ruth[0]}_weapon"[^>]*>.*?<option value="pistol" selected', body, re.S)
    near = post(client, {"step": "add:hand_to_hand", "target": konrad[0], "add_q": ruth[1]}, htmx=True).get_data(
        as_text=True)
    assert not re.search(rf'name="a{ruth[0]}_weapon"[^>]*>.*?<option value="[a-z_]+" selected', near, re.S)
    bare = post(client, {"step": "add:ranged", "target": konrad[0], "add_q": lys[1]}, htmx=True).get_data(as_text=True)
    assert not re.search(rf'name="a{lys[0]}_weapon"[^>]*>.*?<option value="[a-z_]+" selected', bare, re.S)
    # The stray-shot screen: the firer picked comes with his gun too.
    firer = spost(client, {"step": f"set:firer:{ruth[0]}"}, htmx=True).get_data(as_text=True)
    assert re.search(r'name="firer_weapon"[^>]*>.*?<option value="pistol"\s+selected', firer, re.S)


def test_a_hand_made_address_cannot_set_a_character_against_himself(client, auth, cast, dbconn):
    """A new user typed /combat?target=K&a=K and /combat/bystanders?firer=T&target=T: the pickers never offer one
    character twice, and such an address leaves him once (the target, the firer), not as his own attacker."""
    auth.login()
    konrad, teodor = cast["Konrad"], cast["Teodor"]
    board = client.get(f"/combat?target={konrad[0]}&a={konrad[0]}").get_data(as_text=True)
    assert 'class="attacker-row' not in board and "Konrad Vale against Konrad Vale" not in board
    board = client.get(f"/combat?target={konrad[0]}&a={konrad[0]}").get_data(as_text=True)
    assert re.findall(r'name="(?:target|a)" value="(\d+)"', board) == [str(konrad[0])]
    stray = client.get(f"/combat/bystanders?firer={teodor[0]}&target={teodor[0]}").get_data(as_text=True)
    assert re.findall(r'name="(?:firer|target)" value="(\d+)"', stray) == [str(teodor[0])]


def test_several_card_codes_with_one_wrong_name_only_the_bad_code(client, auth, cast, dbconn):
    """New-user test 12, finding 10: on the stray-shot screen "Q8QYPA u8xut5 XEKF6S ZZZZZZ" (three good codes,
    one wrong) is refused naming only “ZZZZZZ”, nothing added, and the good codes stay in the box as typed."""
    auth.login()
    ruth, konrad, lys, pim, aldous = cast["Ruth"], cast["Konrad"], cast["Lys"], cast["Pim"], cast["Aldous"]
    typed = f"{lys[1]} {pim[1].lower()} {aldous[1]} ZZZZZZ"
    before = snapshot()
    response = spost(client, {"firer": ruth[0], "target": konrad[0], "firer_weapon": "pistol", "add_q": typed,
                              "step": "add:near"}, htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "No character has the card code “ZZZZZZ”: nothing was added." in html.unescape(body)
    assert lys[1] not in re.search(r'<p class="field-error" role="alert">(.*?)</p>', body, re.S).group(1)
    assert re.findall(r'<input type="hidden" name="b" value="(\d+)">', body) == []
    assert f'value="{html.escape(typed)}"' in body or f'value="{typed}"' in body
    assert snapshot() == before
    fixed = spost(client, {"firer": ruth[0], "target": konrad[0], "firer_weapon": "pistol",
                           "add_q": typed.replace(" ZZZZZZ", ""), "step": "add:near"}, htmx=True)
    assert re.findall(r'<input type="hidden" name="b" value="(\d+)">', fixed.get_data(as_text=True)) == [
        str(lys[0]), str(pim[0]), str(aldous[0])]
