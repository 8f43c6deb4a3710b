"""Model download, checksum and unpacking, against a local HTTP server (no network)."""

from __future__ import annotations

import hashlib
import http.server
import io
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from hbr.voice import models


def model_zip(top: str = "vosk-model-test", extra: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"{top}/am/final.mdl", "acoustic model")
        z.writestr(f"{top}/conf/mfcc.conf", "--sample-frequency=16000")
        z.writestr(f"{top}/README", "test model")
        for name, text in (extra or {}).items():
            z.writestr(name, text)
    return buf.getvalue()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "served"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    httpd.server_close()


def test_download_verifies_and_installs(server, tmp_path: Path) -> None:
    url, root = server
    data = model_zip()
    (root / "m.zip").write_bytes(data)
    seen: list[int] = []
    target = tmp_path / "models"
    path = models.download(f"{url}/m.zip", hashlib.sha256(data).hexdigest(), target, lambda n, t: seen.append(n))
    assert path == target / "vosk-model-test"
    assert models.problems(path) == []
    assert sum(seen) == len(data)
    assert [p.name for p in target.iterdir()] == ["vosk-model-test"]  # no leftovers


def test_checksum_mismatch_installs_nothing(server, tmp_path: Path) -> None:
    url, root = server
    (root / "m.zip").write_bytes(model_zip())
    target = tmp_path / "models"
    with pytest.raises(models.ModelError, match="SHA-256"):
        models.download(f"{url}/m.zip", "0" * 64, target)
    assert list(target.iterdir()) == []


def test_unsafe_archive_is_refused(server, tmp_path: Path) -> None:
    url, root = server
    data = model_zip(extra={"../../escaped.txt": "gotcha"})
    (root / "m.zip").write_bytes(data)
    target = tmp_path / "deep" / "models"
    with pytest.raises(models.ModelError, match="unsafe archive"):
        models.download(f"{url}/m.zip", hashlib.sha256(data).hexdigest(), target)
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "deep" / "escaped.txt").exists()
    assert list(target.iterdir()) == []


def test_archive_without_a_model_is_refused(server, tmp_path: Path) -> None:
    url, root = server
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", "no model here")
    (root / "m.zip").write_bytes(buf.getvalue())
    with pytest.raises(models.ModelError, match="holds no vosk model"):
        models.download(f"{url}/m.zip", hashlib.sha256(buf.getvalue()).hexdigest(), tmp_path / "t")


def test_offline_is_one_clear_sentence(tmp_path: Path) -> None:
    with pytest.raises(models.ModelError) as err:
        models.download("http://127.0.0.1:9/none.zip", "0" * 64, tmp_path / "t")
    message = str(err.value)
    assert "cannot download" in message and "--model DIR" in message
    assert list((tmp_path / "t").iterdir()) == []


def test_search_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def make(path: Path) -> Path:
        (path / "am").mkdir(parents=True)
        (path / "am" / "final.mdl").write_text("x")
        (path / "conf").mkdir()
        (path / "conf" / "mfcc.conf").write_text("x")
        return path

    user = tmp_path / "user"
    monkeypatch.setattr(models, "user_models_dir", lambda: user)
    monkeypatch.setattr(models, "project_models_dir", lambda: tmp_path / "project")
    monkeypatch.delenv(models.ENV_VAR, raising=False)
    assert models.find_model().path is None
    in_user = make(user / "m1")
    assert models.find_model().path == in_user
    in_project = make(tmp_path / "project" / "m2")
    assert models.find_model().path == in_project
    by_env = make(tmp_path / "env")
    monkeypatch.setenv(models.ENV_VAR, str(by_env))
    assert models.find_model().path == by_env
    explicit = make(tmp_path / "explicit")
    assert models.find_model(explicit).path == explicit
    monkeypatch.setenv(models.ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(models.ModelError, match="HBR_VOSK_MODEL"):
        models.find_model()


def test_models_download_cli_offline(run_hbr, tmp_path: Path) -> None:
    result = run_hbr("models", "download", "--url", "http://127.0.0.1:9/x.zip", "--to", str(tmp_path))
    assert result.returncode == 1
    assert "cannot download" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_models_download_cli_from_local_server(run_hbr, server, tmp_path: Path) -> None:
    url, root = server
    data = model_zip()
    (root / "m.zip").write_bytes(data)
    result = run_hbr(
        "models", "download", "--url", f"{url}/m.zip", "--sha256", hashlib.sha256(data).hexdigest(), "--to", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "vosk-model-test" / "am" / "final.mdl").is_file()
