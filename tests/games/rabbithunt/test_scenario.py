"""`hbr scenario --game rabbithunt`: a dealt game changed by hand, replayed with the whole truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run

SCENARIOS = Path(__file__).parent / "scenarios"


def test_a_catch_then_the_deck_runs_out_with_a_rabbit_in_hand(run_hbr: Run) -> None:
    result = run_hbr("scenario", "--game", "rabbithunt", str(SCENARIOS / "catch_and_end.json"))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(r["ok"] for r in records) and len(records) == 7
    assert records[1]["events"] == ["walked", "turned up", "caught", "replaced", "turn"]
    assert records[1]["caught"]["grey"] == ["yellow rabbit"] and records[1]["farm"]["4 3"] != "yellow rabbit"
    assert records[1]["to_move"] == "yellow" and records[1]["deck"] == 2
    assert records[-1]["events"] == ["drew", "deck empty", "out", "won"]
    assert records[-1]["winners"] == ["grey"] and records[-1]["out"] == ["yellow"]


@pytest.mark.parametrize(("doc", "message"), [
    ({"players": 5}, '"players" 2, 3 or 4'),
    ({"farm": {"4": "field"}}, '"4" is not a spot'),
    ({"farm": {"5 5": "field"}}, "the barn, 5 5, holds no card"),
    ({"farm": {"4 3": "red rabbit"}}, '"red" is not a farmer of this game'),
    ({"hands": {"grey": ["tractor"]}}, '"tractor" is not a card'),
    ({"farmers": {"grey": "1 1"}}, "a farmer stands on a card or the barn"),
])
def test_a_broken_scenario_is_one_line(run_hbr: Run, tmp_path: Path, doc: dict[str, object], message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    result = run_hbr("scenario", "--game", "rabbithunt", str(path))
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_a_move_that_may_not_be_played_ends_the_scenario_with_why(run_hbr: Run, tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_text(json.dumps({"seed": 3, "to_move": "grey", "phase": "act", "carrots": {"grey": 0},
                                "moves": ["go to 4 4", "take a carrot"]}))
    result = run_hbr("scenario", "--game", "rabbithunt", str(path))
    assert [json.loads(line) for line in result.stdout.splitlines()] == [
        {"move": "go to 4 4", "ok": False, "error": "too few carrots"}]
