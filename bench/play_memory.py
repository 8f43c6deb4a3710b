"""Peak memory and start-up time of a live `hbr play`, on a PulseAudio virtual sound card.

Run: python bench/play_memory.py [--backend auto|whisper|vosk|pocketsphinx] [--tts auto|piper|system|none]

Starts a private PulseAudio server with a null sink (as the audio tests do), runs
`hbr play` on it with its recognizer, microphone and voice, plays one spoken command
into the virtual microphone, quits, and prints the game's peak resident memory (its
own, from the kernel's accounting of the finished child) and how long it took from
start to its first words. Target (docs/benchmarks.md): under 400 MB.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import header  # noqa: E402

from tests.audio.conftest import start_pulse, stop_pulse  # noqa: E402
from tests.audio.test_audio_path import lines_of, wait_for  # noqa: E402

#: Typed after the spoken command, each with the seconds given to say it: the rules
#: (about a minute of long sentences) and the help.
TYPED = (("rules", 60.0), ("help", 20.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--tts", default="auto", help="the Observer's voice (auto: a Piper voice where one is found)")
    args = parser.parse_args()
    print(header())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**start_pulse(folder), "XDG_CONFIG_HOME": tmp + "/config", "XDG_DATA_HOME": tmp + "/data"}
        try:
            command = folder / "command.wav"
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(command), "north east"], check=True)
            began = time.monotonic()
            game = subprocess.Popen(
                [sys.executable, "-m", "hbr", "play", "--seed", "3", "--backend", args.backend, "--tts", args.tts,
                 "--cues", "off"],
                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )
            seen: list[str] = []
            out = lines_of(game)
            assert wait_for(out, seen, "A new normal forest", 120), seen
            started = time.monotonic() - began
            heard = False
            for _ in range(3):  # the microphone is deaf while the opening is spoken: try again
                time.sleep(8)
                subprocess.run(["paplay", str(command)], env=env, check=True)
                if heard := wait_for(out, seen, "> ", 10):
                    break
            assert game.stdin is not None
            for typed, seconds in TYPED:  # the longest things the game says
                game.stdin.write(typed + "\n")
                game.stdin.flush()
                time.sleep(seconds)
            game.stdin.write("quit\n")
            game.stdin.flush()
            game.wait(timeout=60)
        finally:
            stop_pulse(folder)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest child: the game
    print(next((line for line in seen if line.startswith("Listening")), "(no recognizer line)"))
    print(f"hbr play: peak resident memory {peak:.0f} MB; first words after {started:.1f} s; "
          f"the spoken command was {'heard: ' + seen[-1] if heard else 'not heard'}")


if __name__ == "__main__":
    main()
