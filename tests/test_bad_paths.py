"""Every subcommand that takes a path, given bad paths (a folder, a missing folder, a
file that is not what it should be, an unwritable place, a very long name): one clear
sentence and an exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Run

#: Each subcommand, with "{}" where the bad path goes (and what it needs besides).
USES = [
    ("recognize", "{}"),
    ("replay", "{}"),
    ("review", "{} --svg out.svg"),
    ("review", "{good} --svg {}"),
    ("blank-map", "--seed 1 --svg {}"),
    ("scenario", "{}"),
    ("scenario", "--game spyhunting {}"),
    ("scenario", "--game jumpers {}"),
    ("say", "hello --tts system --out {}"),
    ("models", "verify {}"),
    ("play", "--text --transcript {}"),
]


def bad_path(kind: str, name: str, root: Path) -> str:
    match kind:
        case "folder":
            return str(root)
        case "missing folder":
            return str(root / "no" / "such" / f"{name}.wav")
        case "not what it should be":
            junk = root / f"{name}.txt"
            junk.write_bytes(b"\x00\xffnot audio, not json\n")
            return str(junk)
        case "unwritable":
            return f"/proc/{name}.out"
        case _:
            return str(root / (name * 60)[:300])


@settings(max_examples=22, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    use=st.sampled_from(USES),
    kind=st.sampled_from(["folder", "missing folder", "not what it should be", "unwritable", "too long"]),
    name=st.text(alphabet="abcxyz-_", min_size=1, max_size=8),
)
def test_bad_paths_are_one_sentence(run_hbr: Run, tmp_path: Path, use: tuple[str, str], kind: str, name: str) -> None:
    command, args = use
    good = tmp_path / "good.jsonl"
    good.write_text('{"type": "start", "game": "hbr"}\n')
    path = bad_path(kind, name, tmp_path)
    argv = [command, *args.replace("{good}", str(good)).replace("{}", "\0").split()]
    argv = [path if a == "\0" else a for a in argv]
    result = run_hbr(*argv, input="quit\n", cwd=tmp_path, timeout=120)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, (argv, result.stderr[-800:])
    assert result.returncode in (0, 1, 2), (argv, result.returncode, result.stderr[-400:])
    if result.returncode:
        assert result.stderr.strip(), argv  # it said why
