"""The spaceships' footprints: the reconstruction in the data file, turned but never mirrored."""
import json

import pytest

from audio_console.battleship.footprints import FLEET, FOOTPRINTS, HEADINGS, SHIP_NAMES, load_footprints


def test_the_fleet_matches_the_hole_counts_of_the_rulebook():
    assert {f.name: len(f.holes) for f in FLEET} == {
        "Quadron": 8, "Rocket Raider": 6, "Celestial Crawler": 6, "Tricorn Fighter": 3, "Dueler": 2}


def test_the_data_file_is_named_a_reconstruction_and_is_what_the_code_loads(tmp_path):
    from audio_console.battleship.footprints import DATA_FILE
    data = json.loads(DATA_FILE.read_text())
    assert "RECONSTRUCTION" in data["note"]
    # Changing the data changes the ships, without touching code.
    data["ships"][4]["pattern"] = ["###"]
    data["ships"][4]["holes"] = 3
    path = tmp_path / "footprints.json"
    path.write_text(json.dumps(data))
    assert len(load_footprints(str(path))[4].holes) == 3
    data["ships"][4]["holes"] = 2
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="Dueler"):
        load_footprints(str(wrong))


def test_a_quarter_turn_clockwise_lays_the_quadron_down():
    assert FOOTPRINTS["Quadron"].size("across") == (2, 4)
    assert FOOTPRINTS["Quadron"].size("down") == (4, 2)
    # The Rocket Raider's nose (the lone holes' side) turns round with it.
    raider = FOOTPRINTS["Rocket Raider"]
    assert raider.turned("across") == ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0))
    assert raider.turned("down") == ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1), (3, 1))
    assert raider.turned("left") == ((0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 3))


@pytest.mark.parametrize("ship", SHIP_NAMES)
def test_turns_keep_the_holes_and_four_turns_come_back(ship):
    footprint = FOOTPRINTS[ship]
    for heading in HEADINGS:
        assert len(footprint.turned(heading)) == len(footprint.holes)
    assert footprint.turned("across") == footprint.holes


def test_the_celestial_crawler_is_never_mirrored():
    crawler = FOOTPRINTS["Celestial Crawler"]
    mirrored = tuple(sorted((r, 3 - c) for r, c in crawler.holes))
    mirrored = tuple(sorted((r, c - min(c for _, c in mirrored)) for r, c in mirrored))
    assert mirrored not in {crawler.turned(h) for h in HEADINGS}
