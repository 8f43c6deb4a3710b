"""Rabbit Hunt at the table: what the Observer says (and never says), the words a player
may use, saves, and games played through `hbr play rabbithunt` and by voice."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from hbr.game import RecordError
from hbr.games.rabbithunt.bots import Bot
from hbr.games.rabbithunt.engine import Action, Go, Plant
from hbr.games.rabbithunt.phrases import ALL_SPOTS, Ask, Question, RabbitGrammar, spot_words
from hbr.games.rabbithunt.state import BARN, COLOURS, Kind, Phase
from hbr.games.rabbithunt.table import RabbitTable, restore
from hbr.grammar import Meta, Understood
from tests.conftest import Run


def play_out(table: RabbitTable, level: str = "normal", turns: int = 400) -> list[str]:
    """The player's side played by a bot, each move said as its words; the replies."""
    said = []
    for _ in range(turns):
        if table.over:
            break
        move = Bot(level, random.Random(table.state.turn)).move(table.state)
        parsed = table.grammar.parse(str(move))
        assert isinstance(parsed, Understood) and parsed.intent == move, str(move)
        said.append(table.act(move).words)
    return said


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_never_names_a_card_the_player_has_not_seen(players: int) -> None:
    table = RabbitTable(11, players, "normal")
    replies = play_out(table)
    assert table.over and table.closing().startswith("Game over: you ")
    for colour in COLOURS[1:players]:
        name = colour.capitalize()
        for reply in replies:
            for kind in Kind:
                assert f"{name} plants {kind.value}" not in reply and f"{name} plants a {kind.value}" not in reply
            assert f"{name} draws a card." in reply or "draws a " not in reply.replace("You draw", "")
    assert any("plants a card at" in r for r in replies)
    assert not any(re.search(r"(\w+) takes a carrot, and has \d\. \1 takes a carrot", r) for r in replies)


def test_last_turn_is_what_the_others_did_since_the_players_turn() -> None:
    table = RabbitTable(12, 3, "hard")
    assert table._ask(Ask(Question.LAST)) in table.opening()
    play_out(table, turns=3)
    reply = table.last
    others = table._ask(Ask(Question.LAST))
    assert others.startswith("Yellow ") and reply.endswith(f"{others} {table._prompt()}")


def test_what_is_at_a_spot_says_who_planted_it_and_not_what_it_is() -> None:
    table = RabbitTable(4, 2, "normal")
    play_out(table, turns=6)
    s = table.state
    theirs = [(spot, p) for spot, p in s.farm if p.by == 1 and not p.face_up and not s.knows(0, p)]
    assert theirs
    for spot, placed in theirs:
        said = table._at(spot)
        assert said.startswith("a card Yellow planted") and placed.card.kind.value not in said
    mine = [(spot, p) for spot, p in s.farm if p.by == 0 and not p.face_up]
    for spot, placed in mine:
        assert table._at(spot).startswith(f"{'your rabbit' if placed.card.kind is Kind.RABBIT else 'a ' + placed.card.kind.value}")


def test_describe_says_alike_cards_together_and_every_card_once() -> None:
    """Late in a game the farm holds dozens of cards: each kind is said once, with its
    spots, not once a card."""
    table = RabbitTable(4, 2, "normal")
    play_out(table, turns=12)
    said = table._ask(Ask(Question.DESCRIBE))
    s = table.state
    assert said.startswith(f"The farm has {len(s.farm)} cards around the barn at 5 5")
    assert said.count("A card from the deck, face down:") <= 1 and said.count("planted:") <= len(COLOURS)
    spots = [spot for spot in ALL_SPOTS if s.occupied(spot) and spot != BARN]
    listed = re.findall(r"\b(\d) (\d)\b", said.split("; the deck", 1)[1])
    assert sorted((int(r), int(p)) for r, p in listed) == sorted(spots)


def test_a_refused_command_costs_nothing_and_says_why() -> None:
    table = RabbitTable(1, 2, "normal")
    assert table.state.to_move == 0 and table.state.phase is Phase.PLANT
    before = table.state
    first = before.open_spots()[0]
    lone = next(spot for spot in ALL_SPOTS if not before.occupied(spot) and spot not in before.open_spots())
    reply = table.act(Plant(Kind.RABBIT, lone))
    assert reply.words.startswith(f"A card there would touch fewer than two cards. Open spots: {first[0]} {first[1]}")
    assert reply.words.endswith("Your turn: plant a card.") and table.state == before
    assert table.act(Action.CARROT).words.startswith("First plant a card from your hand.")
    assert table.act(Plant(Kind.RABBIT, first)).words == f"You plant a rabbit at {first[0]} {first[1]}. Now two actions."
    assert table.act(Go(first)).words.startswith(f"You walk {table.state.steps(BARN)[first]} step")
    assert table.state.carrots[0] == 2 - 1 and "It is your own rabbit!" in table.last


def test_every_phrase_is_understood_and_listening_follows_the_turn() -> None:
    grammar = RabbitGrammar()
    phrases = grammar.phrases()
    assert all(isinstance(grammar.parse(p), Understood) for p in phrases)
    table = RabbitTable(1, 3, "normal")
    planting = table.listening()
    (r, p), lone = table.state.open_spots()[0], next(
        spot for spot in ALL_SPOTS if not table.state.occupied(spot) and spot not in table.state.open_spots())
    assert planting <= set(phrases) and f"plant a rabbit at {spot_words((r, p))}" in planting
    assert f"plant a rabbit at {spot_words(lone)}" not in planting and "take a carrot" not in planting
    table.act(Plant(Kind.FIELD, (r, p)))
    acting = table.listening()
    assert {"take a carrot", f"go to {spot_words((r, p))}", "peek at blue", "my hand"} <= acting
    assert not any(p.startswith("plant") for p in acting) and "peek at green" not in acting


@pytest.mark.parametrize(("text", "answer"), [
    ("plant a rabbit", "Where? Say plant a rabbit at a spot"),
    ("plant at four four", "Which card? Say plant a field at four four"),
    ("go", "Go where?"),
    ("peek", "Whose hand?"),
])
def test_known_mistakes_are_answered(text: str, answer: str) -> None:
    parsed = RabbitGrammar().parse(text)
    assert not isinstance(parsed, Understood) and parsed.known and parsed.message.startswith(answer)


def test_a_saved_game_is_restored_to_the_same_farm() -> None:
    table = RabbitTable(9, 3, "hard")
    play_out(table, turns=12)
    again = restore(json.loads(json.dumps(table.record())))
    assert again.state == table.state and again.history == table.history
    with pytest.raises(RecordError):
        restore({**table.record(), "players": 5})
    with pytest.raises(RecordError):
        restore({**table.record(), "commands": ["fly to the moon"]})


def test_a_typed_game_through_the_shell(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    result = run_hbr("play", "rabbithunt", "--text", "--seed", "1", "--players", "3",
                     input="my hand\nplant a rabbit at 4 3\ndance\ntake a carrot\nscore\nquit\n")
    assert result.returncode == 0, result.stderr
    offer, *out = result.stdout.splitlines()
    assert offer == "New here? 'hbr tutorial rabbithunt' teaches the game in six short lessons."
    assert out[0].startswith("Rabbit Hunt. You farm grey; the computer plays Yellow, Blue, normal.")
    assert out[0].endswith("Your turn: plant a card. You hold 3 fields, a carrot patch, a seed bag and 3 rabbits. "
                           "Say help at any time to hear what you can say.")
    assert out[1].startswith("Your hand: ") and "3 rabbits" in out[1]
    assert out[2] == "You plant a rabbit at 4 3. Now two actions."
    assert out[3].startswith("I didn't catch that.")
    assert out[4].startswith("You take a carrot, and have 3. One more action.")
    assert out[5].startswith("You: 0 caught, 0 lost, 3 carrots, 7 cards in hand; Yellow:")
    saved = json.loads((Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "saves" / "rabbithunt.json").read_text())
    assert saved["players"] == 3 and saved["commands"][:2] == ["my hand", "plant a rabbit at 4 3"]
    again = run_hbr("play", "rabbithunt", "--text", "--resume", input="quit\n")
    assert again.stdout.startswith("Back in Rabbit Hunt, turn 3. One more action.")
    bad = run_hbr("play", "rabbithunt", "--players", "7")
    assert bad.returncode == 2 and "invalid choice: '7'" in bad.stderr and "Traceback" not in bad.stderr


def test_simulate_plays_bot_against_bots(run_hbr: Run) -> None:
    result = run_hbr("simulate", "--game", "rabbithunt", "--games", "6", "--players", "4", "--grey", "hard", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "rabbithunt" and summary["games"] == 6 and summary["options"]["levels"][0] == "hard"
    assert sum(summary["wins"].values()) >= 2 * 6 and summary["mean_turns"] > 1


@pytest.mark.audio
def test_spoken_commands_are_heard_as_said_or_not_at_all(whisper_model: Path) -> None:
    """espeak-ng saying the game's commands, recognized among the phrases a player may
    say at that moment (``listening``), as in a live game; never taken for another."""
    from hbr.voice.recognizer import decode
    from hbr.voice.synth import espeak
    from hbr.voice.whisper import WhisperRecognizer

    grammar = RabbitGrammar()
    recognizer = WhisperRecognizer(grammar.phrases(), whisper_model)
    table = RabbitTable(1, 2, "normal")
    said = {"plant a rabbit at four three": table.listening()}
    table.act(grammar.parse("plant a rabbit at four three").intent)  # type: ignore[union-attr, arg-type]
    for text in ("take a carrot", "go to six five", "look at yellow", "go to the barn", "my hand", "where can i plant"):
        said[text] = table.listening()
    right = wrong = 0
    for text, among in said.items():
        heard = decode(recognizer, espeak(text, "en-us", 150), among).phrase
        if heard is not None:
            same = grammar.parse(heard) == grammar.parse(text) or grammar.parse(heard).intent == grammar.parse(text).intent  # type: ignore[union-attr]
            right, wrong = right + same, wrong + (not same)
    assert wrong == 0 and right >= 5, (right, wrong)


def test_once_the_player_is_out_the_others_play_on_and_only_the_catches_are_told() -> None:
    table = RabbitTable(5, 3, "normal")
    replies = play_out(table, level="easy")
    assert table.over and table.state.out[0]
    last = replies[-1]
    assert "You have lost all three rabbits: you are out. The others play on to the end." in last
    after = last.split("The others play on to the end.")[1]
    assert "catches it" in after and "plants" not in after and "walks" not in after and "carrot" not in after


def test_where_the_others_planted_and_how_far_is_told_to_plan_a_walk() -> None:
    table = RabbitTable(12, 3, "hard")
    play_out(table, turns=7)
    s = table.state
    blue = [spot for spot, p in s.farm if p.by == 2 and not p.face_up]
    assert blue
    steps = s.steps(s.farmers[0])[blue[0]]
    said = table._ask(Ask(Question.PLANTED, who=2))
    assert said.startswith("Cards Blue planted, face down, nearest first: ")
    assert f"{blue[0][0]} {blue[0][1]}, {steps} step" in said and "rabbit" not in said
    assert table._ask(Ask(Question.AT, blue[0])).endswith("from your farmer.")
    where = table.answer(Meta.WHERE)
    assert where.startswith(f"Your farmer is at {s.farmers[0][0]} {s.farmers[0][1]}, with ") and "Beside it: " in where
    assert table._ask(Ask(Question.PLANTED, who=0)).startswith("Your face-down cards: ")
    assert RabbitGrammar().parse("where did blue plant") == Understood(Ask(Question.PLANTED, who=2), "where did blue plant")


def test_brief_says_less_of_the_same_game() -> None:
    brief, normal = RabbitTable(12, 3, "hard", detail="brief"), RabbitTable(12, 3, "hard")
    said_brief, said_normal = play_out(brief, turns=12), play_out(normal, turns=12)
    assert brief.state == normal.state
    assert sum(map(len, said_brief)) < 0.8 * sum(map(len, said_normal))
    assert not any("steps to" in r or ", and has" in r for r in said_brief)
    assert any(" walks to " in r for r in said_brief)
