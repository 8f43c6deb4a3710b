"""Reading the settings file (hbr.settings): what older files said still counts."""

from __future__ import annotations

from pathlib import Path

from hbr.settings import Settings, load


def test_talk_over_as_older_files_wrote_it(tmp_path: Path) -> None:
    """It was on or off, off by default, and every saved file wrote it down: on stays
    on, off becomes the new default (auto) rather than a choice the player never made."""
    path = tmp_path / "settings.toml"
    path.write_text("talk_over = true\n")
    assert load(path) == (Settings(talk_over="on"), [])
    path.write_text("talk_over = false\n")
    assert load(path) == (Settings(talk_over="auto"), [])


def test_talk_over_takes_only_its_three_values(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('talk_over = "off"\n')
    assert load(path) == (Settings(talk_over="off"), [])
    path.write_text('talk_over = "loud"\n')
    settings, problems = load(path)
    assert settings.talk_over == "auto"
    assert problems == [f"{path}: talk_over must be one of auto, on, off; the default is used."]
