"""Cutting a live stream into utterances and decoding each one as it is spoken.

Noise is suppressed first (:mod:`hbr.voice.denoise`), for the endpointer and the
recognizer alike: a fan or mains hum otherwise reads as endless speech, and costs
words. Then pocketsphinx's endpointer (a WebRTC voice activity detector over a
short window) decides where speech starts and ends; it is tuned so that a command
is handed on about a fifth of a second after the speaker stops. What does not stand
above the room (:mod:`hbr.voice.background`: other people talking) reaches it as
quiet, so that an utterance ends when the player stops, not when the room does. The
speech is fed to the recognizer while it arrives, so that at the end only the last
frames remain to decode (docs/benchmarks.md has the measured delay).

A recognizer that reads the whole utterance at its end (Whisper) reads it early
instead, at each pause of the speaker (:data:`EARLY_QUIET`), so that most of the
endpointer's wait is spent decoding, not idle (a pause: a frame the voice detector
calls quiet, or one that has faded far below the loudest of the utterance, since the
detector goes on calling the fading end of a word speech, or one that would not begin
speech over the room's level, since over other people's talk the detector hears no
pause at all: :mod:`hbr.voice.background`); a reading goes stale when the speaker
goes on. When the pause lasts (:data:`HAND_ON_QUIET`, still well before the
endpointer would end the utterance) and the reading is a sure phrase that nothing in
the grammar goes on from ("up", "capture north west", but not "north", which may
become "north east"), the command is handed on at once. The pause must be longer
than the closure of a stop inside a word: read at the first quiet frame, "western"
was "west" and "easter" was "east" (docs/benchmarks.md).

The other way round, a phrase that the grammar goes on from ("north", "left" in a
game that also knows "left three times") is held until the speaker has been quiet
for :data:`HOLD_QUIET`: if the speaker goes on, the two parts are read as one
utterance, so that a pause inside "north ... east" is one move, not two. So is a
reading that is no phrase but nearly the start of one ("Go, To, Four" of "go to four
... five": :func:`hbr.voice.recognizer.starts_phrase`), which was two utterances,
neither a command.

A phrase read from far more speech than it takes to say (:data:`PHRASE_SECONDS`) is
handed on less sure: the utterance ran together with other people talking, and what
was read from it is asked back rather than acted on. So is a phrase heard in a noisy
room (the player's voice not far above the room's sound as the microphone heard both:
:data:`hbr.voice.background.NOISY_DB`), where Whisper is sure of most of what it mishears.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable

import numpy as np

from hbr.voice.audio import BLOCK_SECONDS, RATE, Framer, rms
from hbr.voice.background import NOISY_DB, NOISY_SURE, Background, Loudness, stands_out
from hbr.voice.channel import ChannelCheck
from hbr.voice.denoise import NoiseSuppressor
from hbr.voice.recognizer import SILENCE, Heard, Recognizer, Utterance, goes_on, starts_phrase

#: Seconds of the endpointer's decision window, the share of it that must be
#: silence to end an utterance, and how strictly its detector tells speech from
#: noise (3: strictest). The detector's default (loosest) mode kept calling the
#: fading end of a word speech: commands were handed on 420 ms after the last word
#: (median), against 181 ms with these settings (both on a fresh endpointer, before
#: noise suppression), and no command in a sample of 420 espeak-ng clips, clean and
#: at 10 dB, was split in two (docs/benchmarks.md).
WINDOW = 0.21
RATIO = 0.7
VAD_MODE = 3
#: Seconds of sound the voice detectors judge at a time (their longest). Frames of
#: 10 ms hand a command on a little sooner (fitting half of the real recordings,
#: streamed: p50 / p95 142 / 358 ms against 146 / 400) but move where speech is found
#: to begin, and with it what Whisper reads: the commands understood moved both ways
#: (as recorded 2 fewer of 601, in babble 9 fewer, in pink noise 15 more): not adopted
#: (docs/benchmarks.md).
FRAME_SECONDS = 0.03
#: Utterances longer than this are cut (nobody says a command for 6 seconds).
MAX_SECONDS = 6.0
#: A recognizer that wants the raw audio (not noise-suppressed) gets the stretch the
#: endpointer called speech and this much on either side, up to the endpointer's own
#: clock: never what happens to have arrived in the same block, so what is heard does
#: not depend on how the microphone cuts its stream into blocks (Whisper's reading of
#: a word moves with a single sample more or less at its end).
MARGIN = 0.3
#: Seconds of quiet inside an utterance after which a recognizer that decodes at the
#: end reads what was said so far.
EARLY_QUIET = 0.03
#: Seconds of quiet after which a sure early reading of a phrase that no other phrase
#: goes on from is handed on without waiting for the endpointer.
HAND_ON_QUIET = 0.12
#: A frame this many decibels below the loudest of the open utterance is quiet, even
#: where the voice detector still calls it speech: after the last word of a real
#: speaker it went on calling the fading end speech for 67 ms (median; 112 ms at the
#: 80th percentile), the level had fallen this far 14 ms after it (docs/benchmarks.md).
QUIET_BELOW_LOUDEST_DB = 26.0
#: How sure an early reading must be to be kept.
EARLY_CONFIDENCE = 0.9
#: A phrase that another phrase goes on from ("north", "left" before "left three
#: times") is handed on only after this much quiet since its last word: when the
#: speaker goes on within it, both parts are read as one utterance, so a pause inside
#: "north ... east" is not two moves. Held at most HOLD_LONGEST seconds.
HOLD_QUIET = 0.4
HOLD_LONGEST = 1.0
#: A reading that only begins a phrase ("Go, To, Four") is held until the speaker has
#: been quiet this long (seconds): it is no command to hand on, and a speaker who stops
#: to think inside a long command pauses longer than inside "north ... east". When the
#: speaker goes on, the pause is read as PAUSE_KEPT of quiet on each side.
START_HOLD = 1.2
PAUSE_KEPT = 0.12
#: Seconds of speech a phrase may take: this much for its first word, and the second
#: for each word after it (a slow speaker, 130 words a minute, says one in 0.46 s).
#: An utterance longer than that ran together with something else, most often other
#: people talking (the player's command and the talk around it read as one word): its
#: confidence is scaled down by how much longer it was (:meth:`Listener._judged`), so
#: that the game asks it back instead of acting on it. The fitting half of the real
#: recordings, streamed: as recorded, no command right was longer than 1.1 s; in
#: babble, 31 of the 42 taken wrongly were longer than 1.2 s, and 19 of the 149 right
#: (docs/benchmarks.md: "Run together").
PHRASE_SECONDS = (1.2, 0.5)
#: A frame that does not stand above the room (:mod:`hbr.voice.background`) reaches
#: the voice detectors this many times quieter (36 dB): quiet to them, yet still
#: itself, so the frame as it was can be found again (:meth:`Listener._ungated`).
BELOW_ROOM = 64


class History:
    """The raw audio since the endpointer started, the last few seconds of it kept,
    cut out by the endpointer's own clock (seconds since it started)."""

    def __init__(self, keep: float = MAX_SECONDS + 2.0) -> None:
        self._blocks: deque[np.ndarray] = deque()
        self._start = 0  # sample index of the first kept sample
        self._length = 0  # samples kept: counted as they come, not summed again for every block
        self._keep = int(keep * RATE)

    def add(self, block: np.ndarray) -> None:
        self._blocks.append(np.asarray(block, np.int16))
        self._length += len(self._blocks[-1])
        while len(self._blocks) > 1 and self._length - len(self._blocks[0]) > self._keep:
            dropped = len(self._blocks.popleft())
            self._start += dropped
            self._length -= dropped

    def between(self, start: float, end: float) -> np.ndarray:
        audio = np.concatenate(self._blocks) if self._blocks else np.zeros(0, np.int16)
        first = max(0, int(start * RATE) - self._start)
        return audio[first : max(first, int(end * RATE) - self._start)]


class Listener:
    """Feed 16 kHz int16 blocks of any size; get back what was heard in each
    utterance that ended during them."""

    def __init__(
        self, recognizer: Recognizer, expected: Callable[[], frozenset[str] | None] = lambda: None
    ) -> None:
        """``expected()``: the only phrases an utterance starting now may be (None: any)."""
        self.recognizer = recognizer
        self.expected = expected
        self._open: Utterance | None = None
        self._suppressor = NoiseSuppressor()
        #: Whether the microphone is narrowband, or clips, judged from the speech heard, or
        #: gives no sound at all.
        self.channel = ChannelCheck()
        #: How far the player stands above the room, as the microphone hears both.
        self._loudness = Loudness(FRAME_SECONDS)
        self._start()
        #: How loud the room is: kept across resets, as what the suppressor learnt is.
        self._room = Background(self._ep.frame_length)

    def _complete(self, phrase: str) -> bool:
        """Whether no phrase the open utterance may be goes on from this one: it cannot
        be the start of a longer command."""
        return not goes_on(phrase, self._among or self.recognizer.phrases)

    def _begun(self, heard: Heard) -> bool:
        """Whether what was read, no phrase itself, is the start of one: the speaker may
        go on after a pause ("go to four ... five")."""
        return heard.rejected != SILENCE and starts_phrase(heard.words, self._among or self.recognizer.phrases)

    def reset(self) -> None:
        """Forget what was heard (used while the game itself is speaking). What the
        noise suppressor has learned about the room is kept.

        Called for every block while the microphone is muted, it does nothing when
        nothing was fed since the last time: each new pocketsphinx Endpointer keeps
        about 14 KB that is never given back (3,000 of them: 42 MB), and a game muted
        while it speaks, or waiting for Enter with push-to-talk, grew 1.4 MB a second."""
        if self._fed:
            self._start()

    def _start(self) -> None:
        """A fresh endpointer and utterance state."""
        from pocketsphinx import Endpointer, Vad

        self._fed = False  # fed since this start: reset has something to forget
        if self._open is not None:
            self._open.finish()  # abandoned: the recognizer must be free again
            self._open = None
        self._ep = Endpointer(window=WINDOW, ratio=RATIO, vad_mode=VAD_MODE, frame_length=FRAME_SECONDS)
        self._vad = Vad(mode=VAD_MODE, frame_length=FRAME_SECONDS)  # frame by frame, for the pauses inside an utterance
        self._among: frozenset[str] | None = None  # what the open utterance may be
        self._quiet = 0  # frames of quiet since the last speech
        self._early: Heard | None = None  # the reading of the utterance up to this pause
        self._handed = False  # its command was handed on early: the rest is its tail
        #: a phrase that may go on (or a reading that begins one), its start, when held
        self._held: tuple[Heard, float, float] | None = None
        #: Inside the open utterance, the pause after a held start of a phrase (from, to,
        #: by the endpointer's clock), left out of what the recognizer reads (_audio).
        self._pause: tuple[float, float] | None = None
        self._held_end = 0.0  # where the held utterance's speech ended, by that clock
        self._framer = Framer(self._ep.frame_bytes // 2)
        # the frames the endpointer was given and what they were before the gate, as far
        # back as the speech it hands back lags behind (its decision window)
        self._gated: deque[tuple[bytes, np.ndarray]] = deque(maxlen=self._frames(WINDOW) + 1)
        self._seconds = 0.0
        self._history = History()
        # (clock, level) of each frame, as far back as an utterance may reach
        self._levels: deque[tuple[float, float]] = deque(maxlen=round((MAX_SECONDS + 1) / self._ep.frame_length))
        self._clock = 0.0  # seconds the endpointer has processed
        self._loudness.restart()  # on the endpointer's clock
        self._began = 0.0  # where the open utterance's speech began, by that clock
        self._taken_until = 0.0  # where the speech of the last command taken ended, by that clock
        self._floor = 0.0  # how far back the open utterance's audio may reach (_reach)
        self._cut_at: float | None = None  # where an over-long utterance was cut, speech going on

    def feed(self, block: np.ndarray, playing: bool = False) -> list[Heard]:
        """``playing``: the game itself is speaking (through loudspeakers, its echo taken
        out): nothing is raised by the automatic gain (:mod:`hbr.voice.gain`), and what
        is left of its voice is not learnt as the room's level, nor held back by it
        (:mod:`hbr.voice.background`)."""
        self._fed = True
        self.channel.listened(block)
        if self._ep.in_speech:
            self.channel.feed(block)  # the raw sound: the suppressor's floor has every band
        raw = not self.recognizer.denoised
        if raw:
            self._history.add(block)
        self._loudness.feed(block, playing)
        done = []
        for frame in self._framer.frames(self._suppressor.process(block, hold=playing)):
            was_speaking = self._ep.in_speech
            level = rms(frame)
            margin = float("inf") if playing else self._room.margin(level)
            held_back = not stands_out(margin, was_speaking and not self._handed)
            detected = (frame // BELOW_ROOM if held_back else frame).tobytes()
            self._gated.append((detected, frame))
            out = self._ep.process(detected)
            self._clock += self._ep.frame_length
            self._levels.append((self._clock, level))
            self._pace(self._vad.is_speech(detected) and not self._faded() and stands_out(margin))
            if out is not None and self._handed:
                # the rest of an utterance whose command was handed on early: ignored, as
                # Whisper ignores what follows a phrase when it reads a whole utterance
                # (held back above as a beginning would be, so that the room's talk ends it)
                self._seconds += self._ep.frame_length
                if self._seconds > MAX_SECONDS:
                    self._handed, self._cut_at = False, self._clock
            elif out is not None:
                if self._open is None:
                    self._open, self._seconds = self._listen(), 0.0
                    # where its speech began, or where an over-long one before it was cut
                    self._began = self._ep.speech_start if self._cut_at is None else self._cut_at
                    self._pause = None
                    if self._held is not None:  # the speaker went on: one utterance with the held phrase
                        if self._held[0].phrase is None:  # a start: its pause is left out of the reading
                            self._pause = (self._held_end + PAUSE_KEPT, float(self._ep.speech_start) - PAUSE_KEPT)
                        self._began, self._held = self._held[1], None  # (its floor stays the held one's)
                    else:
                        self._floor = self._taken_until
                if not raw:
                    self._open.feed(self._ungated(out))
                self._seconds += self._ep.frame_length
            ended = was_speaking and not self._ep.in_speech
            if ended:
                if self._handed:  # the tail of a command handed on early: no part of what follows
                    self._taken_until = float(self._ep.speech_end)
                self._handed = False
            if self._open is not None and (ended or self._seconds > MAX_SECONDS):
                heard = self._aged(self._judged(self._finish(raw, ended)), self._began)
                if heard.phrase is not None:
                    self._taken_until = float(self._ep.speech_end) if ended else self._clock
                if raw and ended and (heard.phrase is not None and not self._complete(heard.phrase)
                                      or heard.phrase is None and self._begun(heard)):
                    self._held = (heard, self._began, self._clock)  # it may go on: wait for the rest
                    self._held_end = float(self._ep.speech_end)
                else:
                    done.append(heard)
                self._open, self._early = None, None
                self._cut_at = None if ended else self._clock
            elif raw and self._open is not None:
                done += self._early_reading()
            start = self._held is not None and self._held[0].phrase is None
            if self._held is not None and not self._ep.in_speech and (
                self._quiet >= self._frames(START_HOLD if start else HOLD_QUIET)
                or self._clock - self._held[2] >= (START_HOLD if start else HOLD_LONGEST)
            ):
                done.append(self._aged(*self._held[:2]))
                self._held = None
        return done

    def _finish(self, raw: bool, ended: bool) -> Heard:
        """What the open utterance was: its early reading when nothing was said since,
        else its whole audio read now."""
        assert self._open is not None
        if raw and ended and self._early is not None:
            self._open.finish()
            return self._early
        if raw:
            end = self._ep.speech_end if ended else self._clock
            self._open.feed(self._audio(min(end + MARGIN, self._clock)))
        return self._open.finish()

    def _audio(self, until: float) -> np.ndarray:
        """The open utterance's raw audio up to ``until``, without the pause after a held
        start of a phrase: read with a second of quiet inside, Whisper often ended its
        text before the rest ("Go, To, Four" for "go to four ... five")."""
        if self._pause is None or self._pause[1] <= self._pause[0]:
            return self._history.between(self._reach(), until)
        return np.concatenate([self._history.between(self._reach(), self._pause[0]),
                               self._history.between(self._pause[1], until)])

    def _reach(self) -> float:
        """Where the open utterance's raw audio begins: MARGIN before its speech, but not
        before the end of the last command taken. A word said after a command that was
        handed on ("west ... please") otherwise brought the end of the command with it
        ("West, Please"), read as the command again and asked again (docs/benchmarks.md).
        After a part that was no command ("capture ... north west") the margin still
        reaches back into it, as before: cut off there, "north west" would be a move."""
        return max(self._began - MARGIN, self._floor)

    def _ungated(self, out: bytes) -> np.ndarray:
        """A frame of speech that the endpointer handed back, as it was before the gate
        (the recognizer hears the room as it is; the gate only tells where speech is)."""
        return next((frame for detected, frame in self._gated if detected == out), np.frombuffer(out, np.int16))

    def _listen(self) -> Utterance:
        self._among = self.expected()
        return self.recognizer.listen(self._among)

    def _frames(self, seconds: float) -> int:
        return max(1, round(seconds / float(self._ep.frame_length)))

    def _faded(self) -> bool:
        """Whether the last frame is QUIET_BELOW_LOUDEST_DB below the loudest frame of
        the open utterance (from where its speech began)."""
        if self._open is None:
            return False
        loudest = max(level for clock, level in self._levels if clock >= self._began)
        return self._levels[-1][1] < loudest * 10 ** (-QUIET_BELOW_LOUDEST_DB / 20)

    def _pace(self, speech: bool) -> None:
        """Keep count of the current run of quiet; speech makes an early reading stale."""
        if speech:
            self._quiet, self._early = 0, None
        else:
            self._quiet += 1

    def _early_reading(self) -> list[Heard]:
        """Inside a pause of the open utterance: read what was said so far when the
        pause begins (kept only when sure), and hand it on if the pause lasts and it
        is a command nothing goes on from; the rest of the utterance is then its tail."""
        assert self._open is not None
        if self._quiet == self._frames(EARLY_QUIET):
            probe = self.recognizer.listen(self._among, early=True)
            probe.feed(self._audio(self._clock))
            heard = probe.finish()
            sure = heard.phrase is not None and (heard.confidence or 0.0) >= EARLY_CONFIDENCE
            self._early = heard if sure else None
        early = self._early
        if early is None or early.phrase is None or self._quiet != self._frames(HAND_ON_QUIET):
            return []
        if not self._complete(early.phrase):
            return []
        self._open.finish()
        self._open, self._early, self._handed = None, None, True
        return [self._aged(self._judged(early), self._began)]

    def _judged(self, heard: Heard) -> Heard:
        """``heard``, less sure when its speech (from where the utterance began to the
        last frame of speech, now) lasted longer than its phrase may take
        (:data:`PHRASE_SECONDS`): by the ratio of the two; and less sure when it was
        heard in a noisy room (:data:`hbr.voice.background.NOISY_DB`), where it must be
        :data:`hbr.voice.background.NOISY_SURE` sure to be as sure as the recognizer's bar."""
        if heard.phrase is None or heard.confidence is None:
            return heard
        end = self._clock - self._quiet * float(self._ep.frame_length)
        spoken = end - self._began
        first, more = PHRASE_SECONDS
        allowed = first + more * (len(heard.phrase.split()) - 1)
        confidence = heard.confidence * (allowed / spoken if spoken > allowed else 1.0)
        if self._loudness.above_room(self._began, end) < NOISY_DB:
            confidence *= min(1.0, self.recognizer.sure / NOISY_SURE)
        if confidence == heard.confidence:
            return heard
        return dataclasses.replace(heard, confidence=round(confidence, 3))

    def _aged(self, heard: Heard, began: float) -> Heard:
        """``heard`` with the seconds since its speech began, as it is handed on."""
        return dataclasses.replace(heard, since=round(float(self._clock - began), 3))


def utterances(recognizer: Recognizer, samples: np.ndarray) -> list[tuple[float, Heard]]:
    """What was heard in each utterance of a recording (16 kHz mono int16) longer than
    one utterance may be, with about where it began (seconds): the recording is cut
    as a game's listener cuts the microphone's sound, fed to it in the microphone's
    blocks, and followed by enough quiet for its last utterance to end."""
    listener = Listener(recognizer)
    block = int(BLOCK_SECONDS * RATE)
    quiet = np.zeros(int((HOLD_LONGEST + WINDOW + 0.5) * RATE), np.int16)
    audio = np.concatenate([np.asarray(samples, np.int16), quiet])
    heard = []
    for start in range(0, len(audio), block):
        for one in listener.feed(audio[start : start + block]):
            heard.append((round(max(0.0, (start + block) / RATE - one.since), 1), one))
    return heard
