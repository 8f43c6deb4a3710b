"""The live loop: microphone and keyboard in, speaker out, for any game's session.

Both inputs feed one queue, so typing works at any moment, also while listening.
The microphone listens all the time, also while the game speaks: through
loudspeakers the game's own voice is taken out of what it hears (an echo canceller,
:mod:`hbr.voice.echo`), in headphones there is none to take out. A command said over
the Observer stops it and is carried out (barge-in); anything else heard while it
speaks is passed over, for it may be what the canceller left of the Observer's voice.
Only when the echo is not removed (loudspeakers, and no canceller, or one that has
not yet learnt the room) is the microphone deaf while the game speaks, and a moment after.
If the microphone fails mid-game, or listening itself fails, the player is told once
and goes on by keyboard (with no keyboard, the game stops as at the end of input);
nothing of the game is lost.

Talk that is plainly not a command is passed over in silence, so that a television
does not make the game nag; but when nothing else is heard for a while, the game
says once why it is not answering, for the talk may be the player's own commands
drowned by the television. When the microphone's own sound shows it to be poor (a
telephone band, or a voice clipped by a level turned up too far), the player is told
once, with what to do about it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from hbr.session import Session
from hbr.speech.speaker import Speaker
from hbr.voice import channel
from hbr.voice.microphone import Microphone
from hbr.voice.recognizer import NOT_A_COMMAND, SILENCE, UNCLEAR, Heard, Recognizer

#: Seconds the microphone stays deaf after the game stops speaking (room echo).
ECHO_GUARD = 0.25
#: Seconds after the game stops speaking during which an utterance that begins may
#: still be its echo (the device's buffers and the room's reverberation).
ECHO_TAIL = 0.5
#: Utterances in a row that were plainly not commands, with no command or near miss
#: between them (silence does not count either way), before TALK is said, once.
#: On the benchmark corpus played as commands only (bench/talk_hint.py: 54 sessions
#: of 178 commands), it was said in every session with other people talking, after 2
#: to 36 commands, and in none without.
TALK_AFTER = 3
TALK = (
    "I hear talking, but no commands. If you are speaking to me, come closer to the microphone, "
    "or turn down the television or radio."
)
#: What the game says, once each, when the microphone's sound shows it to be poor
#: (hbr.voice.channel).
CHANNEL_ADVICE = {
    channel.NARROWBAND: (
        "Your microphone sounds like a telephone line, as a Bluetooth headset's microphone does. "
        "I will mishear you more often. A USB or built-in microphone works better; keep the headset for listening."
    ),
    channel.CLIPPING: (
        "Your microphone is turned up so far that your voice is distorted. I will mishear you more often. "
        "Turn the microphone's input level down, or hold it a little further away."
    ),
    channel.SILENT: (
        "I hear no sound at all from your microphone. It may be muted, or turned all the way down: "
        "check its switch, or the system's sound settings. Meanwhile you can type your commands."
    ),
}


class _Mute:
    """True while the speaker talks, and for ECHO_GUARD seconds after, when the
    microphone hears the game's voice as it is (``hears_echo()``); with push-to-talk,
    also until Enter. Called for every block the microphone delivers, it also keeps
    when the game last spoke."""

    def __init__(self, speaker: Speaker, push_to_talk: bool, hears_echo: Callable[[], bool]) -> None:
        self.speaker = speaker
        self.push_to_talk = push_to_talk
        self.hears_echo = hears_echo
        self.armed = threading.Event()
        self._quiet_since = 0.0
        self.spoke = -float("inf")  # when the speaker was last seen talking (time.monotonic)

    def __call__(self) -> bool:
        now = time.monotonic()
        if self.speaker.speaking:
            self.spoke = now
            if self.hears_echo():
                self._quiet_since = now
                return True
        if now - self._quiet_since < ECHO_GUARD:
            return True
        return self.push_to_talk and not self.armed.is_set()


class TalkCheck:
    """Tells when TALK is due: after TALK_AFTER utterances in a row that were not
    commands, the first time only."""

    def __init__(self) -> None:
        self.passed_over = 0
        self.said = False

    def due(self, heard: Heard) -> bool:
        if heard.rejected == NOT_A_COMMAND:
            self.passed_over += 1
        elif heard.rejected != SILENCE:
            self.passed_over = 0
        if self.said or self.passed_over < TALK_AFTER:
            return False
        self.said = True
        return True


def run_live(
    session: Session[Any],
    speaker: Speaker,
    keyboard: Callable[[Callable[[], bool]], Iterable[str]] | None,
    microphone: Microphone | None = None,
    recognizer: Recognizer | None = None,
    push_to_talk: bool = False,
    echo: Callable[[str], None] = print,
    headphones: bool = False,
) -> None:
    events: queue.Queue[tuple[str, object]] = queue.Queue()
    stopped = threading.Event()
    def hears_echo() -> bool:
        """Loudspeakers, and no echo canceller that has learnt the room (yet)."""
        return not headphones and (microphone is None or not microphone.cancelling)

    mute = _Mute(speaker, push_to_talk, hears_echo)

    def read_keys() -> None:
        assert keyboard is not None
        for line in keyboard(stopped.is_set):
            events.put(("typed", line))
        events.put(("keyboard closed", None))

    def listen() -> None:
        assert microphone is not None and recognizer is not None
        warned: set[str] = set()
        try:
            for heard in microphone.utterances(
                recognizer, muted=mute, stop=stopped.is_set, expected=session.expected,
                playing=lambda: speaker.speaking,
            ):
                mute.armed.clear()
                for finding in sorted(microphone.findings - warned):
                    warned.add(finding)
                    events.put(("channel", finding))
                over_the_game = mute.spoke >= time.monotonic() - heard.since - ECHO_TAIL
                if heard.phrase or not over_the_game:
                    events.put(("heard", heard))
        except Exception as err:  # noqa: BLE001 - a fault in listening must not leave the game deaf in silence
            events.put(("microphone lost", f"listening failed: {type(err).__name__}: {err}"))
            return
        if microphone.failed:
            events.put(("microphone lost", microphone.failed))

    threads = []
    if keyboard is not None:
        threads.append(threading.Thread(target=read_keys, name="keyboard", daemon=True))
    listening = microphone is not None and recognizer is not None
    talk = TalkCheck()
    if listening:
        threads.append(threading.Thread(target=listen, name="microphone", daemon=True))
    for thread in threads:
        thread.start()
    session.start()
    try:
        while not session.done:
            kind, value = events.get()
            if kind == "typed":
                line = str(value)
                speaker.stop()  # Enter or a new command interrupts the speech ...
                if not line.strip():
                    mute.armed.set()  # ... and, with push-to-talk, Enter opens the microphone
                    continue
                session.hear(line)
            elif kind == "heard" and isinstance(value, Heard):
                heard = value
                if heard.phrase:
                    speaker.stop()
                    echo(f"> {heard.phrase}")
                    session.hear(heard.phrase, heard.confidence, heard.rival)
                elif heard.rejected == UNCLEAR:
                    session.near_miss(heard.guess, heard.confidence, heard.words)
                # plainly no command, but a mistake the game knows ("capture west"): it says what would do
                explained = heard.rejected == NOT_A_COMMAND and session.explain(heard.words)
                if not explained and talk.due(heard):
                    session.say(TALK)
            elif kind == "channel":
                session.say(CHANNEL_ADVICE[str(value)])
            elif kind == "microphone lost":
                listening = False
                if keyboard is None:  # nothing more can come in: stop cleanly, the game kept
                    session.say(f"The microphone stopped working ({value}).")
                    session.end_of_input()
                    break
                session.say(f"The microphone stopped working ({value}). Type your commands; the game goes on.")
            elif kind == "keyboard closed" and not listening:
                session.end_of_input()
                break
    finally:
        stopped.set()
        speaker.wait()
        for thread in threads:
            thread.join(timeout=2)
