"""The Observer's speech on a virtual sound card: it starts soon, and stops at once
when interrupted, whatever the engine. Measured from the sink's monitor, so the
numbers include the capture's own latency: they are upper bounds."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.audio

# Run in its own process: PortAudio sees the sound server that exists when it loads.
PROBE = r"""
import json, sys, threading, time
import numpy as np
import sounddevice as sd
from hbr.speech.cache import SpeechCache
from hbr.speech.player import Player
from hbr.speech.voices import open_synthesizer

synth, note = open_synthesizer(sys.argv[1], "", 175)
assert note is None, note
text = ("You reached the edge of the field of play. You do not move north east. "
        "The bear and then the rabbit move. Danger zone! The bear is right beside you.")
loud = []  # (arrival time, rms) of each block from the monitor
def heard(indata, frames, t, status):
    loud.append((time.monotonic(), float(np.sqrt(np.mean(indata.astype(np.float64) ** 2)))))
mic = sd.InputStream(device="pulse", channels=1, samplerate=22050, blocksize=220, callback=heard)
mic.start()
time.sleep(1.0)
player = Player("pulse")
start = time.monotonic()
worker = threading.Thread(target=player.stream, args=(SpeechCache(None).render(synth, text), synth.sample_rate))
worker.start()
time.sleep(1.2)
while not (loud and loud[-1][1] > 0.02):  # interrupt mid-word, not in a pause
    time.sleep(0.002)
stop = time.monotonic()
player.stop()
worker.join(10)
returned = time.monotonic() - stop
time.sleep(1.0)
mic.stop()
floor = 0.01
sounding = [t for t, level in loud if level > floor]
first = min(t for t in sounding if t >= start) - start
last = max(sounding) - stop
before = [t for t in sounding if stop - 0.1 <= t <= stop]
print(json.dumps({"first_sound": first, "after_stop": last, "returned": returned, "engine": synth.name,
                  "sounding_before_stop": len(before)}))
"""


@pytest.mark.parametrize("engine", ["piper", "system"])
def test_speech_stops_within_100_ms_of_an_interruption(engine: str, pulse: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, engine], env=pulse, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout.splitlines()[-1])
    print(measured)
    assert measured["sounding_before_stop"] > 0, measured  # it was speaking when stopped
    # the last loud block may be the one that set off the stop: then it came before it
    assert measured["after_stop"] <= 0.100, measured
    assert measured["returned"] <= 0.5, measured  # the speaker is free again soon after


LINE = r"""
import json, threading, time
import numpy as np
import sounddevice as sd
from hbr.speech.player import Player
from hbr.voice.audio import RATE
from hbr.voice.played import Played

played = Played()
heard, frames = [], [0]
def capture(indata, n, t, status):
    heard.append(indata[:, 0].copy())
    frames[0] += n
    played.captured(frames[0])
mic = sd.InputStream(device="pulse", channels=1, samplerate=RATE, blocksize=480, dtype="float32", callback=capture)
mic.start()
time.sleep(1.0)
player = Player("pulse", played)
rng = np.random.default_rng(1)
finished = []
for reply in range(5):  # replies with pauses between them, as the game speaks
    noise = (rng.standard_normal(11025) * 6000).astype(np.int16)
    if reply == 2:  # interrupted: stopped halfway, the game goes on
        threading.Timer(0.3, player.stop).start()
    finished.append(player.play(noise, 22050))
    time.sleep(0.2 + 0.15 * reply)
time.sleep(0.5)
mic.stop()
player.close()
x = np.concatenate(heard)
ref = played.read(0, len(x))
loud = np.convolve(np.abs(ref) > 1e-3, np.ones(400), "same") > 0  # a reply: no 25 ms quiet in it
edges = np.flatnonzero(np.diff(loud.astype(int)))
lags = []
for a, b in zip(edges[::2] + 1, edges[1::2] + 1):
    window = x[max(a - 4000, 0) : b + 4000]
    c = np.correlate(window, ref[a:b], "valid")
    lags.append(int(np.argmax(np.abs(c))) - int(a - max(a - 4000, 0)))
print(json.dumps({"lags": lags, "finished": finished}))
"""


def test_through_loudspeakers_the_replies_land_where_the_microphone_hears_them(pulse: dict[str, str]) -> None:
    """With a Played (talk-over), the player keeps one stream open: where each reply is
    heard, against where the timeline puts it, is the same to the sample from reply to
    reply, also after one was stopped, so what the echo canceller learnt stays true.
    A stream opened for each reply landed up to two samples elsewhere, and one sample
    (62 us) already leaves the echo at 1 kHz only 8 dB down."""
    done = subprocess.run([sys.executable, "-c", LINE], env=pulse, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout.splitlines()[-1])
    print(measured)
    assert measured["finished"] == [True, True, False, True, True]
    lags = measured["lags"]
    assert len(lags) == 5, measured
    assert len(set(lags)) == 1, measured
