"""Sound devices through sounddevice (PortAudio): loaded lazily, listed, failures named.

On Linux the sounddevice wheel does not bundle PortAudio, and with no sound server
there are no devices at all; both become one clear AudioDeviceError.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType


class AudioDeviceError(RuntimeError):
    """No usable audio device, or PortAudio missing; the message says what to do."""


def load_sounddevice() -> ModuleType:
    try:
        import sounddevice
    except OSError as err:
        raise AudioDeviceError(f"PortAudio is not installed ({err}); on Debian: apt-get install libportaudio2") from None
    module: ModuleType = sounddevice
    return module


@dataclass(frozen=True, slots=True)
class Device:
    index: int
    name: str
    inputs: int
    outputs: int
    rate: float
    default: bool


def list_devices() -> list[Device]:
    sd = load_sounddevice()
    try:
        found = sd.query_devices()
        default_in, default_out = sd.default.device
    except sd.PortAudioError as err:
        raise AudioDeviceError(f"cannot list audio devices: {err}") from None
    return [
        Device(
            i, d["name"], d["max_input_channels"], d["max_output_channels"], d["default_samplerate"],
            i in (default_in, default_out),
        )
        for i, d in enumerate(found)
    ]


def explain(err: Exception, what: str) -> str:
    """PortAudio's message in words a player can act on."""
    if "-1" in str(err) or "Invalid device" in str(err):
        return f"no {what} found (no sound card or sound server answered)"
    return f"{what} failed: {err}"
