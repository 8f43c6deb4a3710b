"""The live loop, with a stand-in microphone at its seam (the real microphone path
is tested on a virtual sound card in tests/audio)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from hbr.games.hbr.table import HBRTable
from hbr.live import CHANNEL_ADVICE, TALK, TALK_AFTER, _Mute, run_live
from hbr.session import NOT_CAUGHT, Session
from hbr.speech.speaker import TextSpeaker
from hbr.voice.channel import CLIPPING, NARROWBAND, SILENT
from hbr.voice.recognizer import NOT_A_COMMAND, SILENCE, UNCLEAR, Heard

TELEVISION = Heard("what time is it", None, 0.01, 5.0, NOT_A_COMMAND)
NEAR_MISS = Heard("north east", None, 0.3, 5.0, UNCLEAR, guess="north east")  # the player, not heard well
COMMAND = Heard("north east", "north east", 0.9, 5.0)
#: The player throwing a net along a side, which the game does not take: no phrase, but its words are the game's own.
MISTAKE = Heard("Capture, West", None, 0.03, 5.0, NOT_A_COMMAND)
CORNER = "Throw it into a corner: did you mean capture north west or capture south west?"


class Utterances:
    """Yields what was 'heard', then lets the keyboard end the game."""

    def __init__(self, heard: list[Heard], findings: frozenset[str] = frozenset()) -> None:
        self.heard = heard
        self.findings = findings
        self.failed: str | None = None
        self.cancelling = False  # no echo canceller: deaf while the game speaks
        self.finished = threading.Event()
        #: What the game listened for when each utterance began (None: everything).
        self.expected: list[frozenset[str] | None] = []

    def utterances(
        self, recognizer: object, muted: Callable[[], bool], stop: Callable[[], bool],
        expected: Callable[[], frozenset[str] | None], playing: Callable[[], bool],
    ) -> Iterator[Heard]:
        for heard in self.heard:
            self.expected.append(expected())
            muted()  # as the microphone asks for every block it delivers
            playing()
            yield heard
            time.sleep(0.15)  # the main loop takes it before the next utterance begins
        self.finished.set()
        while not stop():
            self.finished.wait(0.05)


class Talking(TextSpeaker):
    """A speaker in the middle of a sentence."""

    @property
    def speaking(self) -> bool:
        return True


def play(microphone: Utterances, speaker_class: type[TextSpeaker] = TextSpeaker) -> list[str]:
    """A live game that hears what ``microphone`` yields, then quits by keyboard."""
    said: list[str] = []
    speaker = speaker_class(said.append)
    session = Session(HBRTable.new(21), speaker)

    def keyboard(stopped: Callable[[], bool]) -> Iterator[str]:
        microphone.finished.wait(5)
        yield "quit"
        yield "yes"

    run_live(session, speaker, keyboard, microphone, object(), echo=said.append)  # type: ignore[arg-type]
    return said


def test_unclear_speech_is_asked_again_and_other_talk_passed_over() -> None:
    said = play(Utterances([TELEVISION, NEAR_MISS, COMMAND]))
    assert said.count(NOT_CAUGHT) == 1
    assert said.index(NOT_CAUGHT) < said.index("> north east")


def test_a_mistake_the_game_knows_is_explained_though_it_was_no_command() -> None:
    """Silence would leave a player who says "capture west" thinking the game is deaf."""
    said = play(Utterances([TELEVISION, MISTAKE, Heard("Capture North", None, 0.3, 5.0, UNCLEAR), COMMAND]))
    assert said.count(CORNER) == 1 and NOT_CAUGHT not in said
    assert "Throw it into a corner: did you mean capture north east or capture north west?" in said
    assert said.index(CORNER) < said.index("> north east")


def test_the_same_near_miss_again_is_asked_back() -> None:
    said = play(Utterances([NEAR_MISS, TELEVISION, NEAR_MISS]))
    assert said.count(NOT_CAUGHT) == 1
    assert said.index(NOT_CAUGHT) < said.index("Did you say north east? Say yes or no.")


def test_over_the_game_a_command_is_taken_and_anything_else_passed_over() -> None:
    """While the game speaks, what is not a command may be what the echo canceller left
    of its voice: no "I didn't catch that", and it does not count as talk in the room."""
    said = play(Utterances([TELEVISION] * (2 * TALK_AFTER) + [NEAR_MISS, COMMAND]), Talking)
    assert NOT_CAUGHT not in said and TALK not in said
    assert "> north east" in said


def test_talk_that_is_never_a_command_is_explained_once() -> None:
    said = play(Utterances([TELEVISION, Heard("", None, None, 1.0, SILENCE)] + [TELEVISION] * (2 * TALK_AFTER)))
    assert said.count(TALK) == 1
    assert said.index(TALK) < len(said) - 1  # said while playing, before the goodbye


def test_talk_between_commands_is_passed_over_without_a_word() -> None:
    few = [TELEVISION] * (TALK_AFTER - 1)  # a near miss breaks a run as a command does
    assert TALK not in play(Utterances([*few, NEAR_MISS, *few, COMMAND, *few]))


def test_a_poor_microphone_is_reported_once_for_each_fault() -> None:
    heard = [COMMAND, Heard("south west", "south west", 0.9, 5.0)]
    advice = set(CHANNEL_ADVICE.values())
    assert not advice & set(play(Utterances(heard)))
    said = play(Utterances(heard, frozenset({NARROWBAND})))
    assert [line for line in said if line in advice] == [CHANNEL_ADVICE[NARROWBAND]]
    said = play(Utterances(heard, frozenset({NARROWBAND, CLIPPING, SILENT})))
    assert sorted(line for line in said if line in advice) == sorted(advice)


def test_while_a_question_waits_only_yes_and_no_are_listened_for() -> None:
    unsure = Heard("north east", "north east", 0.4, 5.0)  # asked back
    answer = Heard("yes", "yes", 0.9, 5.0)
    microphone = Utterances([unsure, answer, COMMAND])
    said = play(microphone)
    assert "Did you say north east? Say yes or no." in said
    assert microphone.expected == [None, frozenset({"yes", "no"}), None]


class Interruptible(TextSpeaker):
    """A text speaker that counts interruptions."""

    def __init__(self, said: list[str]) -> None:
        super().__init__(said.append)
        self.stops = 0

    def stop(self) -> None:
        self.stops += 1


def test_a_new_command_or_enter_interrupts_the_speech() -> None:
    said: list[str] = []
    speaker = Interruptible(said)
    session = Session(HBRTable.new(21), speaker)
    microphone = Utterances([COMMAND])

    def keyboard(stopped: Callable[[], bool]) -> Iterator[str]:
        microphone.finished.wait(5)
        yield ""
        yield "south"
        yield "quit"  # typed, so not asked back

    run_live(session, speaker, keyboard, microphone, object(), echo=said.append)  # type: ignore[arg-type]
    assert speaker.stops == 4  # the heard command, Enter, and each typed line


def test_the_microphone_is_deaf_while_the_game_speaks_only_when_it_hears_the_game_as_it_is() -> None:
    """Deaf with loudspeakers and no echo canceller; listening with headphones or a canceller."""
    speaker = Talking(lambda text: None)
    assert _Mute(speaker, push_to_talk=False, hears_echo=lambda: True)()
    assert not _Mute(speaker, push_to_talk=False, hears_echo=lambda: False)()
    assert _Mute(speaker, push_to_talk=True, hears_echo=lambda: False)()  # push-to-talk still waits for Enter


class Breaking(Utterances):
    """A microphone whose listening fails with an unexpected error after what it heard."""

    def utterances(
        self, recognizer: object, muted: Callable[[], bool], stop: Callable[[], bool],
        expected: Callable[[], frozenset[str] | None], playing: Callable[[], bool],
    ) -> Iterator[Heard]:
        yield from self.heard
        self.finished.set()
        raise RuntimeError("the recognizer broke")


def test_a_failure_while_listening_is_told_and_the_game_goes_on_by_keyboard() -> None:
    said: list[str] = []
    speaker = TextSpeaker(said.append)
    session = Session(HBRTable.new(21), speaker)
    microphone = Breaking([COMMAND])

    def keyboard(stopped: Callable[[], bool]) -> Iterator[str]:
        microphone.finished.wait(5)
        time.sleep(0.3)  # the failure reaches the game before the next line is typed
        yield "south"
        yield "quit"

    run_live(session, speaker, keyboard, microphone, object(), echo=said.append)  # type: ignore[arg-type]
    lost = [line for line in said if line.startswith("The microphone stopped working")]
    assert lost == [
        "The microphone stopped working (listening failed: RuntimeError: the recognizer broke). "
        "Type your commands; the game goes on."
    ]
    assert "> north east" in said and said.index("> north east") < said.index(lost[0])
    assert session.done  # "quit", typed after the failure, was carried out


def test_with_no_keyboard_a_lost_microphone_stops_the_game_cleanly() -> None:
    said: list[str] = []
    speaker = TextSpeaker(said.append)
    session = Session(HBRTable.new(21), speaker)
    finished = threading.Thread(
        target=run_live, args=(session, speaker, None, Breaking([COMMAND]), object()), kwargs={"echo": said.append},
    )
    finished.start()
    finished.join(timeout=10)
    assert not finished.is_alive(), "the game waited for input that could never come"
    assert any(line.startswith("End of input. The game stops here.") for line in said)
