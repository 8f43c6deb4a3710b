"""The session: confirmation of unsure voice commands, requests that use no turn."""

from __future__ import annotations

from hbr.games.hbr.commands import Command
from hbr.games.hbr.table import HBRTable
from hbr.grammar import Meta
from hbr.session import NOT_CAUGHT, PLAY_AGAIN, Session, StopSpeech
from hbr.speech.speaker import TextSpeaker


def table(s: Session[Command]) -> HBRTable:
    assert isinstance(s.game, HBRTable)
    return s.game


def session(confirm: str = "auto") -> tuple[Session[Command], list[str]]:
    said: list[str] = []
    s = Session(HBRTable.new(5), TextSpeaker(said.append), confirm=confirm)
    s.start()
    return s, said


def test_unsure_voice_command_is_asked_back_and_yes_plays_it() -> None:
    s, said = session()
    s.hear("capture north west", confidence=0.6)
    assert said[-1] == "Did you say capture north west? Say yes or no."
    assert table(s).state.round == 0  # nothing played yet
    s.hear("yes", confidence=0.9)
    assert table(s).state.round == 1 and said[-1].startswith("You throw your net north west.")


def test_no_drops_it_and_another_command_replaces_it() -> None:
    s, said = session()
    s.hear("north", confidence=0.5)
    s.hear("no", confidence=0.9)
    assert said[-1] == "Then say your command again." and table(s).state.round == 0
    s.hear("north", confidence=0.5)
    s.hear("south", confidence=0.95)  # sure enough: played at once, the question dropped
    assert table(s).state.round == 1 and s.core.pending is None


def test_sure_and_typed_commands_are_not_asked_back() -> None:
    s, said = session()
    s.hear("north", confidence=0.95)
    s.hear("east")
    assert table(s).state.round == 2 and not any(line.startswith("Did you say") for line in said)


def test_a_recognizer_that_must_be_surer_gets_its_unsure_commands_asked_back() -> None:
    """The bar is the recognizer's own (Recognizer.sure): pocketsphinx's commands heard
    at 0.75 to 0.9 were wrong one time in five on real people, Whisper's hardly ever."""
    usual, _ = session()
    usual.hear("north", confidence=0.85)
    assert table(usual).state.round == 1
    said: list[str] = []
    strict = Session(HBRTable.new(5), TextSpeaker(said.append), sure=0.9)
    strict.start()
    strict.hear("north", confidence=0.85)
    assert said[-1] == "Did you say north? Say yes or no." and table(strict).state.round == 0
    strict.hear("yes", confidence=0.95)
    assert table(strict).state.round == 1
    before = len(said)
    strict.hear("yes", confidence=0.85)  # an unsure yes with nothing to answer: passed over
    assert len(said) == before
    strict.hear("east", confidence=0.95)
    assert table(strict).state.round == 2


def test_confirm_modes() -> None:
    always, said = session("always")
    always.hear("north", confidence=0.99)
    assert said[-1].startswith("Did you say north?")
    never, said = session("never")
    never.hear("north", confidence=0.1)
    assert table(never).state.round == 1


def test_a_sure_command_with_a_rival_of_another_meaning_is_asked_back() -> None:
    """The recognizer found another phrase nearly as likely (Heard.rival): when the two
    mean different things, or the rival means nothing ("uh" read as "up"), the game asks,
    however sure the recognizer was; a rival that means the same, no rival, or a typed
    command, is carried out at once."""
    s, said = session()
    s.hear("move toward bear", confidence=0.99, rival="move toward hole")
    assert said[-1] == "Did you say toward the bear? Say yes or no." and table(s).state.round == 0
    s.hear("yes", confidence=0.9)
    assert table(s).state.round == 1
    s.hear("up", confidence=0.99, rival="Uh")  # a hesitation
    assert said[-1] == "Did you say north? Say yes or no." and table(s).state.round == 1
    s.hear("no", confidence=0.9)
    assert table(s).state.round == 1
    s.hear("move toward bear", confidence=0.99, rival="move towards the bear")  # the same move
    s.hear("north", confidence=0.99)
    assert table(s).state.round == 3 and not said[-1].startswith("Did you say")
    never, said = session("never")
    never.hear("north", confidence=0.99, rival="south")
    assert table(never).state.round == 1


def test_requests_use_no_turn_and_unknown_words_cost_nothing() -> None:
    s, said = session()
    for text in ("help", "rules", "repeat", "recap", "where am i", "dance", "capture north"):
        s.hear(text)
    assert table(s).state.round == 0
    assert "did you mean capture north east or capture north west" in said[-1]


def test_yes_with_nothing_asked() -> None:
    s, said = session()
    s.hear("yes")
    assert said[-1] == "There is nothing to answer yes or no to right now."


def test_an_unsure_yes_or_no_with_nothing_asked_is_passed_over_in_silence() -> None:
    """Other people talking are read as "no" now and then (docs/benchmarks.md: "Run
    together"): the game must not answer the room. A sure one is still answered, and
    an unsure one while a question waits is still the answer."""
    s, said = session()
    for word in ("no", "yes"):
        before = len(said)
        s.hear(word, confidence=0.6)
        assert len(said) == before
    s.hear("no", confidence=0.9)
    assert said[-1] == "There is nothing to answer yes or no to right now."
    s.hear("north", confidence=0.5)
    s.hear("yes", confidence=0.6)
    assert table(s).state.round == 1


def test_quit_by_voice_is_always_asked_back() -> None:
    s, said = session("never")
    s.hear("quit", confidence=0.99)
    assert said[-1] == "Did you say quit? Say yes or no." and not s.done
    s.hear("no", confidence=0.9)
    assert not s.done
    s.hear("quit", confidence=0.99)
    s.hear("yes", confidence=0.9)
    assert s.done and said[-1].startswith("You quit.")


def test_quit_typed_is_not_asked_back() -> None:
    s, _ = session()
    s.hear("quit")
    assert s.done


def test_an_unsure_setting_by_voice_is_asked_back() -> None:
    s, said = session()
    rate = s.speaker.rate
    s.hear("faster", confidence=0.5)
    assert said[-1] == "Did you say faster? Say yes or no." and s.speaker.rate == rate
    s.hear("no", confidence=0.9)
    assert s.speaker.rate == rate
    s.hear("more detail", confidence=0.5)
    s.hear("yes", confidence=0.9)
    assert s.game.detail == "verbose"
    s.hear("louder", confidence=0.95)  # sure: done at once
    assert not said[-1].startswith("Did you say")


def test_an_unsure_request_for_a_long_answer_is_asked_back_and_stop_never() -> None:
    """A "help" read unsurely from the room's talk asks before it starts a paragraph of
    help; a sure one, or a typed one, is answered at once; stop acts at once however
    unsure, as it must."""
    s, said = session()
    s.hear("help", confidence=0.6)
    assert said[-1] == "Did you say help? Say yes or no."
    s.hear("yes", confidence=0.9)
    assert said[-1] == s.game.answer(Meta.HELP)
    for sure in (0.95, None):
        s.hear("rules", sure)
        assert said[-1] == s.game.answer(Meta.RULES)
    s.hear("pause", confidence=0.6)
    assert said[-1] == "Did you say pause? Say yes or no." and not s.core.paused
    assert s.core.hear("stop", confidence=0.3) == [StopSpeech()]


def test_the_core_decides_and_only_returns_effects() -> None:
    from hbr.session import Adjust, Keep, Record, Say, SessionCore, StopSpeech
    from hbr.speech.tts import SpeechPrefs

    core = SessionCore(HBRTable.new(5), SpeechPrefs(430, 0.95))
    assert core.start()[0] == Record("start")
    assert core.hear("faster") == [
        Adjust(SpeechPrefs(450, 0.95)), Keep("rate", 450), Say("Faster: 450 words a minute. Say slower to undo.")
    ]
    assert core.hear("louder")[:2] == [Adjust(SpeechPrefs(450, 1.0)), Keep("volume", 1.0)]  # held at the limits
    assert core.hear("louder") == [Say("Volume 100 percent is already the loudest.")]  # nothing to undo
    assert core.hear("faster") == [Say("450 words a minute is already the fastest.")]
    assert core.hear("stop") == [StopSpeech()]
    played = core.hear("north")
    assert played[0] == Record("turn", None, None) and isinstance(played[1], Say)
    assert played[1].words.startswith("You move north.") or "do not move north" in played[1].words
    asked = core.hear("quit", confidence=0.99)  # by voice, quitting is always asked back
    assert asked == [Say("Did you say quit? Say yes or no.")] and not core.done
    assert core.hear("yes", confidence=0.9)[-1] == Record("end") and core.done


def test_every_setting_said_tells_how_to_undo_it_and_the_word_it_names_does() -> None:
    from hbr.session import Keep, Say, SessionCore
    from hbr.speech.tts import SpeechPrefs

    core = SessionCore(HBRTable.new(5), SpeechPrefs(175, 0.5))
    for word in ("faster", "slower", "louder", "quieter", "brief", "more detail"):
        before = (core.prefs, core.game.detail)
        said = [e.words for e in core.hear(word) if isinstance(e, Say)][-1]
        undo = said.split("Say ")[-1].removesuffix(" to undo.")
        assert said.endswith(" to undo.") and undo != word, said
        core.hear(undo)
        assert (core.prefs, core.game.detail) == before, (word, undo)
    core.hear("brief")
    assert core.hear("brief") == [Say("Already brief.")]
    assert core.hear("more detail")[0] == Keep("detail", "normal")  # one step: brief, normal, verbose


def test_the_game_says_what_to_listen_for_and_a_question_its_answers() -> None:
    from hbr.games.jumpers.table import JumpersTable

    game = JumpersTable(1)
    said: list[str] = []
    s = Session(game, TextSpeaker(said.append))
    s.start()
    assert s.expected() == game.listening()
    s.hear("quit", confidence=0.99)  # by voice, quitting is asked back
    assert s.expected() == frozenset({"yes", "no"})
    assert session()[0].expected() is None  # Hunter Bear Rabbit: every phrase


def test_the_same_near_miss_twice_in_a_row_is_asked_back() -> None:
    """A voice the recognizer never hears surely still gets its command, with a yes."""
    s, said = session()
    s.near_miss("up", 0.3, "")
    assert said[-1] == NOT_CAUGHT
    s.near_miss("up", 0.4, "")
    assert said[-1] == "Did you say north? Say yes or no." and table(s).state.round == 0
    s.hear("yes", confidence=0.9)
    assert table(s).state.round == 1


def test_a_mistake_the_game_knows_is_explained_by_voice_and_other_talk_passed_over() -> None:
    """Words the recognizer took for no command: "capture west" (a net goes into a
    corner) gets what typed words get; other talk, or anything while a question waits,
    gets nothing, and no turn is used either way."""
    s, said = session()
    assert s.explain("Capture, West")
    assert said[-1] == "Throw it into a corner: did you mean capture north west or capture south west?"
    assert not s.explain("Capture the flag") and not s.explain("what time is it") and not s.explain("")
    s.near_miss(None, 0.3, "Toward")  # heard unsurely: what would do, rather than "say it again"
    assert said[-1] == "Toward what? Say toward the rabbit, toward the bear or toward the hole."
    s.hear("north", confidence=0.5)  # asked back: a question waits
    before = len(said)
    assert not s.explain("Capture, West") and len(said) == before
    assert table(s).state.round == 0


def test_near_misses_of_one_command_in_other_words_are_asked_back() -> None:
    """"capture south east" said twice, read nearest to "catch south east" and then to
    "capture south east": the same command, so the second is asked back, as the
    command's own name."""
    s, said = session()
    s.near_miss("catch south east", 0.4, "Catch yourself, East")
    assert said[-1] == NOT_CAUGHT
    s.near_miss("capture south east", 0.3, "Cut your South East")
    assert said[-1] == "Did you say capture south east? Say yes or no." and table(s).state.round == 0


def test_near_misses_that_differ_or_are_apart_are_only_asked_again() -> None:
    s, said = session()
    for guess in ("up", "down", None, None, "left"):
        s.near_miss(guess, 0.3, "")
    s.hear("repeat", confidence=0.9)  # anything understood between two near misses parts them
    s.near_miss("left", 0.3, "")
    assert said.count(NOT_CAUGHT) == 6 and s.core.pending is None


def test_near_misses_of_yes_or_no_and_moves_while_paused_are_never_asked_back() -> None:
    s, said = session()
    s.near_miss("yes", 0.3, "")
    s.near_miss("yes", 0.3, "")
    assert said[-1] == NOT_CAUGHT and s.core.pending is None
    s.hear("pause", confidence=0.9)
    s.near_miss("north", 0.3, "")
    s.near_miss("north", 0.3, "")
    assert said[-1] == "The game is paused. Say resume to go on." and s.core.pending is None
    s.near_miss("resume", 0.3, "")
    assert said[-1] == NOT_CAUGHT
    s.near_miss("resume", 0.3, "")
    assert said[-1] == "Did you say resume? Say yes or no."
    s.hear("yes", confidence=0.9)
    assert not s.core.paused


def test_what_is_not_an_answer_has_the_question_asked_again() -> None:
    """While "Did you say north?" waits, the command said again ("south!", refused by a
    recognizer that weighs every phrase) or a mumble is no answer: the question is asked
    again, nothing is played, and a yes after it still plays what was asked about."""
    s, said = session()
    s.hear("north", confidence=0.5)
    s.near_miss("south", 0.95, "South!")
    s.near_miss(None, 0.3, "Mm")
    assert said[-2:] == ["Did you say north? Say yes or no."] * 2 and table(s).state.round == 0
    s.hear("yes", confidence=0.9)
    assert table(s).state.round == 1 and s.core.pending is None


def played_to_its_end(s: Session[Command]) -> None:
    """Throw the net until the game ends (the rabbit reaches its hole or the bear eats)."""
    for _ in range(500):
        s.hear("capture north east", confidence=0.95)
        if s.game.over:
            return
    raise AssertionError("the game never ended")


def test_when_a_game_ends_another_is_offered_and_yes_starts_it() -> None:
    """By voice alone a player plays on: "Play again?" is asked, only yes and no are
    listened for, and yes starts a new forest with a journal of its own."""
    said: list[str] = []
    games = [HBRTable.new(9)]
    s = Session(HBRTable.new(5), TextSpeaker(said.append), next_game=lambda: (games.pop(), None))
    s.start()
    played_to_its_end(s)
    assert said[-2].startswith("Game over") and said[-1] == PLAY_AGAIN
    assert not s.done and s.expected() == frozenset({"yes", "no"})
    s.hear("north", confidence=0.95)  # typed or misheard: the question again, no move
    assert said[-1] == PLAY_AGAIN
    s.hear("repeat", confidence=0.95)
    assert said[-1] == PLAY_AGAIN
    s.near_miss("north", 0.95, "North")  # a command refused as no answer: asked again
    assert said[-1] == PLAY_AGAIN and s.core.pending is None
    s.hear("yes", confidence=0.6)
    assert not s.done and not games and table(s).seed == 9 and not table(s).over
    assert said[-1].startswith(HBRTable.new(9).opening()) and s.expected() is None
    played_to_its_end(s)
    s.hear("no", confidence=0.9)
    assert s.done and said[-1] == "Thank you for playing. Goodbye."


def test_without_another_game_to_start_none_is_offered() -> None:
    s, said = session()
    played_to_its_end(s)
    assert s.done and PLAY_AGAIN not in said and said[-1].startswith("Game over")
