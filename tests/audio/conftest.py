"""A real virtual sound card for tests: a private PulseAudio server with a null sink.

The harness owns it: started once for the tests that need it, stopped (by the PID
in its pid file, waiting for it to exit) when they are done, never left running.
Clients reach it only through PULSE_SERVER; sounddevice sees it as "pulse"/"default".
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CONFIG = """\
load-module module-native-protocol-unix auth-anonymous=1 socket={dir}/native
load-module module-null-sink sink_name=virt
load-module module-null-source source_name=keepalive
load-module module-loopback source=keepalive sink=virt
set-default-sink virt
set-default-source virt.monitor
"""


def start_pulse(folder: Path) -> dict[str, str]:
    """Start a private server in ``folder``; returns the environment for its clients."""
    exe = shutil.which("pulseaudio")
    assert exe, "pulseaudio is not installed: bash .ci/run installs it (apt-get install pulseaudio pulseaudio-utils)"
    (folder / "virt.pa").write_text(CONFIG.format(dir=folder))
    env: dict[str, str] = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(folder),
        "PULSE_RUNTIME_PATH": str(folder),
        "PULSE_STATE_PATH": str(folder),
        "HOME": str(folder),
    }
    subprocess.run(
        [exe, "--daemonize=yes", "-n", "-F", str(folder / "virt.pa"), "--exit-idle-time=-1", "--use-pid-file=yes"],
        env=env, check=True, capture_output=True, timeout=30,
    )
    env["PULSE_SERVER"] = f"unix:{folder}/native"
    deadline = time.monotonic() + 15
    while subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
        assert time.monotonic() < deadline, "PulseAudio did not come up"
        time.sleep(0.2)
    time.sleep(2)  # an idle null sink delivers its first audio late; let it settle
    return env


def stop_pulse(folder: Path) -> None:
    """Stop the server by the PID in its pid file and wait until it has exited."""
    pid_file = folder / "pid"
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text().split()[0])
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)


@pytest.fixture(scope="session")
def pulse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    folder = tmp_path_factory.mktemp("pulse")
    try:
        yield start_pulse(folder)
    finally:
        stop_pulse(folder)
