"""Saving, resuming, settings, transcripts and review, end to end through ``hbr``."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from hbr.games.hbr.table import HBRTable
from hbr.settings import Settings
from tests.conftest import Run

SVG = "{http://www.w3.org/2000/svg}"


def data(user_dirs: dict[str, str]) -> Path:
    return Path(user_dirs["XDG_DATA_HOME"]) / "hbr"


def settings_file(user_dirs: dict[str, str]) -> Path:
    return Path(user_dirs["XDG_CONFIG_HOME"]) / "hbr" / "settings.toml"


def test_resume_after_a_real_kill_mid_game(hbr_exe: list[str], run_hbr: Run, user_dirs: dict[str, str]) -> None:
    moves = ["north east", "toward the rabbit", "south", "west", "toward hole"]
    game = subprocess.Popen(
        [*hbr_exe, "play", "--text", "--seed", "8"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    lines: queue.Queue[str] = queue.Queue()
    assert game.stdout is not None
    out = game.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in out], daemon=True).start()  # type: ignore[func-returns-value]
    while "A new normal forest" not in lines.get(timeout=30):  # the tutorial offer, then the opening
        pass
    for move in moves[:3]:
        game.stdin.write(move + "\n")  # type: ignore[union-attr]
        game.stdin.flush()  # type: ignore[union-attr]
        lines.get(timeout=30)  # its reply: the turn is saved before the next is read
    os.kill(game.pid, signal.SIGKILL)
    game.wait(timeout=10)
    resumed = run_hbr("play", "--text", "--resume", input="\n".join(moves[3:]) + "\n")
    whole = run_hbr("play", "--text", "--seed", "8", input="\n".join(moves) + "\n")
    assert "Back in the normal forest number 8, after 3 turns" in resumed.stdout
    assert resumed.stdout.splitlines()[-3:] == whole.stdout.splitlines()[-3:]
    assert "after 5 turns, seed 8" in resumed.stdout.splitlines()[-1]


def test_a_save_from_before_there_were_several_games_is_resumed(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    """Saves used to be saves/current.json (HBR was the only game); such a save is HBR's."""
    run_hbr("play", "--text", "--seed", "12", input="north\nquit\n")
    saves = data(user_dirs) / "saves"
    (saves / "hbr.json").rename(saves / "current.json")
    resumed = run_hbr("play", "--text", "--resume", input="quit\n")
    assert "Back in the normal forest number 12, after 1 turn." in resumed.stdout
    assert not (saves / "current.json").exists()


def test_a_finished_game_leaves_nothing_to_resume(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    run_hbr("play", "--text", "--seed", "8", input="toward bear\n" * 40)
    assert not (data(user_dirs) / "saves" / "hbr.json").exists()
    again = run_hbr("play", "--text", "--resume", input="")
    assert "There is no unfinished game to resume, so a new game starts." in again.stdout


@pytest.mark.parametrize(
    ("content", "why"),
    [("{not json", "could not be read"), (json.dumps({"game": "chess", "version": 1}), "could not be used")],
)
def test_a_corrupt_or_foreign_save_is_moved_aside(
    run_hbr: Run, user_dirs: dict[str, str], content: str, why: str,
) -> None:
    save = data(user_dirs) / "saves" / "hbr.json"
    save.parent.mkdir(parents=True)
    save.write_text(content)
    result = run_hbr("play", "--text", "--resume", input="north\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert why in result.stdout and "A new game starts." in result.stdout
    assert "A new normal forest" in result.stdout
    aside = list(save.parent.glob("hbr.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_text() == content


def write_settings(user_dirs: dict[str, str], text: str) -> Path:
    path = settings_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return path


def test_a_broken_settings_file_names_the_line_and_is_left_alone(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    text = 'rate = 200\ndetail = "brief\n'
    path = write_settings(user_dirs, text)
    result = run_hbr("play", "--text", "--seed", "1", input="north\n")
    assert result.returncode == 0
    assert "line 2" in result.stderr and "default settings" in result.stderr
    assert path.read_text() == text
    assert "The bear and then the rabbit move." in result.stdout  # the default detail, not brief


def test_a_change_by_voice_keeps_a_broken_settings_file_aside(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    """The player's own words in a file with a typo are never overwritten by defaults."""
    text = 'rate = 200\n[aliases]\nforward = "north\n'
    path = write_settings(user_dirs, text)
    result = run_hbr("play", "--text", "--seed", "1", input="faster\nslower\n")
    assert result.returncode == 0
    kept = sorted(path.parent.glob("settings.toml.broken-*"))
    assert [p.read_text() for p in kept] == [text]  # kept once, as it was
    assert f"Your settings file could not be read; it is kept as {kept[0]}" in result.stdout
    assert "rate = 175" in path.read_text()  # the new file: defaults, faster, then slower


def test_two_files_kept_aside_in_one_second_do_not_collide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hbr.files import move_aside

    monkeypatch.setattr("hbr.files.time.strftime", lambda fmt: "20261201-000000")  # the same second
    first, second = tmp_path / "a.json", tmp_path / "a.json"
    first.write_text("one")
    kept_one = move_aside(first)
    second.write_text("two")
    kept_two = move_aside(second)
    assert kept_one != kept_two and kept_one.read_text() == "one" and kept_two.read_text() == "two"


def test_bad_values_are_named(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    path = settings_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text('rate = "fast"\ndetail = "brief"\ncolour = "red"\n')
    result = run_hbr("settings")
    assert "rate should be a int" in result.stdout and "unknown setting 'colour'" in result.stdout
    assert "detail = 'brief'" in result.stdout


def test_voice_setting_commands_are_saved(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    run_hbr("play", "--text", "--seed", "1", input="faster\nfaster\nquieter\nbrief\nquit\n")
    saved = tomllib.loads(settings_file(user_dirs).read_text())
    assert saved["rate"] == 225 and saved["volume"] == 0.85 and saved["detail"] == "brief"
    result = run_hbr("play", "--text", "--seed", "1", input="north\n")
    assert "The bear and then the rabbit move." not in result.stdout


def test_paper_sheet_requests(run_hbr: Run) -> None:
    result = run_hbr(
        "play", "--text", "--seed", "6",
        input="where am i\neast\neast\nnorth\nwhere am i\nrecap\npause\nnorth\nresume\nrules\nhelp more\nreveal\n",
    )
    out = result.stdout
    assert "You are where you started." in out
    assert "Turn 1: You move east. Turn 2: You move east." in out
    assert "The game is paused. Say resume to go on." in out
    assert "Reveal is for after the game" in out
    assert "You are the hunter, and you cannot see." in out
    assert "recap for your last moves" in out
    where = [line for line in out.splitlines() if line.startswith("You are ") and "started" in line]
    table = HBRTable.new(6)  # the same forest and moves, played here: where the hunter really is
    for move in ("east", "east", "north"):
        table.act(table.grammar.parse(move).intent)  # type: ignore[union-attr, arg-type]
    assert where[1] == table.where()


def test_transcript_replay_and_divergence(run_hbr: Run, tmp_path: Path) -> None:
    transcript = tmp_path / "game.jsonl"
    run_hbr("play", "--text", "--seed", "12", "--transcript", str(transcript), input="toward rabbit\n" * 60)
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert lines[0]["type"] == "start" and lines[0]["seed"] == 12 and "settings" in lines[0]
    turns = [line for line in lines if line["type"] == "turn"]
    assert turns and all({"command", "heard", "confidence", "events", "observer"} <= set(t) for t in turns)
    assert lines[-1]["type"] == "end"
    ok = run_hbr("replay", str(transcript))
    assert ok.returncode == 0 and "same game" in ok.stdout
    turns[0]["command"] = "south" if turns[0]["command"] != "south" else "north"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(line) + "\n" for line in [lines[0], *turns, lines[-1]]))
    bad = run_hbr("replay", str(tampered))
    assert bad.returncode == 1 and "diverges at turn 1" in bad.stdout
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    assert run_hbr("replay", str(junk)).returncode == 2


def test_review_svg_has_what_a_helper_needs(run_hbr: Run, tmp_path: Path) -> None:
    transcript = tmp_path / "game.jsonl"
    run_hbr("play", "--text", "--seed", "12", "--transcript", str(transcript), input="toward rabbit\n" * 60)
    out = tmp_path / "review.svg"
    result = run_hbr("review", str(transcript), "--svg", str(out))
    assert result.returncode == 0 and "Revealed: from you" in result.stdout
    svg = ET.parse(out).getroot()
    ids = {g.get("id") for g in svg.iter(f"{SVG}g")} | {c.get("id") for c in svg.iter(f"{SVG}circle")}
    assert {"obstacles", "hunter-path", "bear-path", "rabbit-path", "hole", "legend"} <= ids
    obstacles = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == "obstacles")
    assert len(list(obstacles)) == 5
    for name in ("hunter", "bear", "rabbit"):
        path = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == f"{name}-path")
        turns = [int(n) for t in path.iter(f"{SVG}text") for n in str(t.text).split(", ")]
        assert sorted(turns) == list(range(len(turns))) and turns[0] == 0  # every turn once
    # no two labels at one place: a cell visited again gets one label, each animal its own side
    everything = [(t.get("x"), t.get("y")) for g in svg.iter(f"{SVG}g") if str(g.get("id")).endswith("-path")
                  for t in g.iter(f"{SVG}text")]
    assert len(everything) == len(set(everything))


def test_blank_map_svg_has_obstacles_only(run_hbr: Run, tmp_path: Path) -> None:
    out = tmp_path / "blank.svg"
    assert run_hbr("blank-map", "--seed", "12", "--svg", str(out)).returncode == 0
    svg = ET.parse(out).getroot()
    ids = {g.get("id") for g in svg.iter()} - {None}
    assert "obstacles" in ids and not ids & {"hole", "hunter-path", "bear-path", "rabbit-path", "legend"}
    text = out.read_text().lower()
    assert not any(word in text for word in ("north", "south", "east", "west", "hunter", "rabbit"))


def test_tutorial_by_keyboard_teaches_every_lesson(run_hbr: Run) -> None:
    moves = "east\nnorth\nwest\nnorth\ntoward the rabbit\ncapture north east\neast\nwest\nnorth\n"
    result = run_hbr("tutorial", "--text", input=moves)
    out = result.stdout
    assert result.returncode == 0
    for n in range(1, 8):
        assert f"Lesson {n}:" in out
    assert "Not yet. Say west." in out  # the wrong command was not played
    assert "try again" in out  # eaten in lesson 7: the scene was set up again
    assert out.splitlines()[-1] == "Tutorial: 7 of 7 lessons done."


def test_tutorial_checks_what_was_tried(run_hbr: Run) -> None:
    result = run_hbr("tutorial", "--text", input="east\nquit\n")
    assert result.stdout.splitlines()[-1].endswith("Tutorial: 1 of 7 lessons done.")


def test_the_players_own_words(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    path = settings_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text('[aliases]\nforward = "north"\n"go get it" = "capture north east"\nnorth = "south"\nbad = "dance"\n')
    result = run_hbr("play", "--text", "--seed", "3", input="forward\ngo get it\nnorth\n")
    out = result.stdout.splitlines()
    assert out[1].startswith("You move north.")
    assert out[2].startswith("You throw your net north east.")
    assert out[3].startswith("You move north.") or "do not move north" in out[3]  # "north" was not remapped
    assert "'north' is already a command" in result.stderr and "'dance', which is not a command" in result.stderr


def test_aliases_are_spoken_phrases_too() -> None:
    from hbr.games.hbr.phrases import HBRGrammar

    grammar = HBRGrammar(aliases={"Forward!": "north"})
    assert grammar.check_aliases() == []
    assert "forward" in grammar.phrases()


def test_a_new_game_never_replaces_an_unfinished_one_unasked(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    """Piped input (no one at a keyboard to ask): the unfinished game is kept aside."""
    run_hbr("play", "--text", "--seed", "77", input="north\nquit\n")
    saves = Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "saves"
    unfinished = (saves / "hbr.json").read_text()
    result = run_hbr("play", "--text", "--seed", "5", input="quit\n")
    assert result.returncode == 0
    kept = list(saves.glob("hbr.json.unfinished-*"))
    assert [k.read_text() for k in kept] == [unfinished]
    assert f"A new game starts; the unfinished one is kept as {kept[0]}." in result.stdout


def test_at_a_keyboard_the_unfinished_game_is_offered_first(
    user_dirs: dict[str, str], keyboard: Callable[..., None], capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    from hbr import cli
    from hbr.games import registry
    from hbr.records import Journal, save_path
    from hbr.settings import Settings

    hbr = registry()["hbr"]
    args = argparse.Namespace(resume=False, seed=5, no_snare=False, blank_map=False)
    first, resumed = cli._game(hbr, args, Settings())
    assert not resumed
    first.act(first.grammar.parse("north").intent)  # type: ignore[union-attr]
    Journal(save_path("hbr"), None, {}).turn(first, None, None)
    keyboard("yes")
    again, resumed = cli._game(hbr, argparse.Namespace(resume=False, seed=9, no_snare=False, blank_map=False), Settings())
    assert resumed and again.seed == 5 and again.progress() == "forest 5 after 1 turn"
    assert "You have an unfinished game: forest 5 after 1 turn. Go on with it? Type yes or no: " in capsys.readouterr().out


def test_the_tutorial_never_asks_back_whatever_the_settings(
    user_dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lessons want one command at a time: asking back would only get in the way."""
    from hbr import cli

    write_settings(user_dirs, 'confirm = "always"\n')
    used: list[str] = []

    def play_live(spec: object, args: object, settings: Settings, *rest: object) -> int:
        used.append(settings.confirm)
        return 0

    monkeypatch.setattr(cli, "_play_live", play_live)
    assert cli.main(["tutorial"]) == 0
    assert used == ["never"]
