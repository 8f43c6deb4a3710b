import pytest

from hbr.games.hbr.mapgen import Difficulty
from hbr.games.hbr.simulate import Summary, simulate
from tests.conftest import Run


def _without_speed(summary: Summary) -> dict[str, object]:
    d: dict[str, object] = summary.as_dict()
    d.pop("games_per_second")
    d.pop("workers")
    return d


def test_counts_add_up() -> None:
    s = simulate(60, "blind", Difficulty.EASY, seed=5)
    assert s.games == 60
    total = s.win_rate + s.eaten_rate + s.rabbit_home_rate + s.truncated_rate
    assert total == pytest.approx(1.0)
    for rate in (s.win_rate, s.eaten_rate, s.rabbit_home_rate):
        assert (rate * 60) == pytest.approx(round(rate * 60))
    assert s.mean_turns > 0 and s.games_per_second > 0


def test_reproducible_by_seed_and_across_workers() -> None:
    one = simulate(60, "blind", Difficulty.HARD, seed=7, workers=1)
    again = simulate(60, "blind", Difficulty.HARD, seed=7, workers=2)
    assert _without_speed(one) == _without_speed(again)
    other = simulate(60, "blind", Difficulty.HARD, seed=8)
    assert _without_speed(other) != _without_speed(one)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        simulate(0)
    with pytest.raises(ValueError):
        simulate(5, bot="psychic")


def test_simulate_cli_json(run_hbr: Run) -> None:
    import json

    result = run_hbr("simulate", "--games", "30", "--bot", "blind", "--difficulty", "easy", "--seed", "2", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    for key in ("games", "win_rate", "eaten_rate", "rabbit_home_rate", "mean_turns", "games_per_second"):
        assert key in doc
    assert doc["games"] == 30
    plain = run_hbr("simulate", "--games", "30", "--difficulty", "easy", "--seed", "2")
    assert "won (rabbit captured)" in plain.stdout and "games per second" in plain.stdout
