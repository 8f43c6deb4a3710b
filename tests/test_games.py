"""The seam where a game plugs in: games are found by looking, their packages import
nothing from the shell, and a new game plays through the unchanged shell."""

from __future__ import annotations

import ast
import contextlib
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import hbr.games
from hbr import cli
from hbr.games import registry
from tests.conftest import Run

SRC = Path(__file__).resolve().parents[1] / "src" / "hbr"
#: What a game package may import from hbr: the game interface and the grammar helpers.
CORE = {"hbr.game", "hbr.grammar"}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_game_packages_import_nothing_from_the_shell() -> None:
    for path in (SRC / "games").rglob("*.py"):
        shell = {m for m in imports(path) if m.startswith("hbr.") and m not in CORE and not m.startswith("hbr.games")}
        assert not shell, f"{path.relative_to(SRC)} imports {shell}"


def test_hunter_bear_rabbit_is_found_and_the_default() -> None:
    games = registry()
    assert next(iter(games)) == "hbr" == hbr.games.DEFAULT
    assert games["hbr"].title == "Hunter Bear Rabbit"


def test_hbr_games_lists_every_game(run_hbr: Run) -> None:
    result = run_hbr("games")
    assert result.returncode == 0
    assert result.stdout.startswith("hbr: Hunter Bear Rabbit, a game of blind survival")
    assert "Start with: hbr play" in result.stdout


def test_recognize_listens_for_the_game_named(run_hbr: Run) -> None:
    result = run_hbr("recognize", "--game", "chess", "x.wav")
    assert result.returncode == 2 and "invalid choice: 'chess'" in result.stderr


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game of tests/games/toy, beside the real games."""
    monkeypatch.setattr(hbr.games, "__path__", [*hbr.games.__path__, str(Path(__file__).parent / "games")])
    monkeypatch.setattr(hbr.games, "__name__", "hbr.games")
    registry.cache_clear()
    yield
    registry.cache_clear()


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[[str], None]]:
    """``typed(text)``: standard input from a file, as when lines are piped in."""
    numbers = itertools.count()
    with contextlib.ExitStack() as files:

        def pipe(text: str) -> None:
            path = tmp_path / f"typed-{next(numbers)}.txt"
            path.write_text(text)
            monkeypatch.setattr("sys.stdin", files.enter_context(open(path, encoding="utf-8")))

        yield pipe


def test_a_new_game_plays_through_the_unchanged_shell(
    toy: None, user_dirs: dict[str, str], typed: Callable[[str], None], capsys: pytest.CaptureFixture[str],
) -> None:
    assert list(registry()) == ["hbr", "jumpers", "rabbithunt", "spyhunting", "toy"]
    typed("two\none\nquit\n")
    assert cli.main(["play", "toy", "--text", "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Count to three. Say help at any time to hear what you can say."
    assert out[1:3] == ["Not two: say one.", "One."]
    assert "Your game is saved: hbr play toy --resume goes on with it." in out[-1]
    saves = Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "saves"
    assert json.loads((saves / "toy.json").read_text()) == {"game": "toy", "seed": 4, "said": ["one"]}
    assert not (saves / "hbr.json").exists()  # one game's record is never offered to another
    transcripts = list((Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "transcripts").glob("*-toy-4.jsonl"))
    assert len(transcripts) == 1
    typed("two\nthree\n")
    assert cli.main(["play", "toy", "--text", "--resume"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "You counted to three."


def test_a_game_brings_its_own_subcommands_and_the_shell_does_their_io(
    toy: None, user_dirs: dict[str, str], typed: Callable[[str], None], capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The toy game's tools: "sheet" under its own name, "replay" as toy-replay (HBR's
    replay has the name); the shell reads the transcript and writes the file."""
    typed("one\ntwo\nquit\n")
    assert cli.main(["play", "toy", "--text", "--seed", "4"]) == 0
    transcript, = (Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "transcripts").glob("*-toy-4.jsonl")
    capsys.readouterr()
    assert cli.main(["toy-replay", str(transcript)]) == 0
    assert capsys.readouterr().out == "counted one two\n"
    assert cli.main(["replay", str(transcript)]) == 2  # HBR's replay: not one of its transcripts
    assert "is not a transcript" in capsys.readouterr().err
    out = tmp_path / "sheet.txt"
    assert cli.main(["sheet", "--seed", "7", "--start", "two", "--out", str(out)]) == 0
    assert out.read_text() == "Two at game 7.\n" and capsys.readouterr().out == f"wrote {out}\n"
    with pytest.raises(SystemExit):
        cli.main(["sheet", "--seed", "7", "--start", "four", "--out", str(out)])


def test_simulate_takes_each_game_s_own_study_options_and_no_other_s(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["simulate", "--game", "toy"]) == 2
    assert "Count to three has no computer players to study" in capsys.readouterr().err
    assert cli.main(["simulate", "--game", "hbr", "--goal", "long", "--games", "1"]) == 2
    assert "--goal is not an option of hbr" in capsys.readouterr().err
    assert cli.main(["simulate", "--game", "hbr", "--no-snare", "--games", "3", "--seed", "4", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3 and summary["seed"] == 4 and summary["bot"] == "blind"


def test_a_study_may_set_each_side_apart(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "spyhunting", "--games", "1", "--difficulty", "hard", "--spy", "easy", "--json"]
    assert cli.main(argv) == 0
    options = json.loads(capsys.readouterr().out)["options"]
    assert (options["hunter"], options["spy"]) == ("hard", "easy")
