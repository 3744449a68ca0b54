"""What the hlomem Python tests share: the repository's test data and the hlomem tool.

ctest sets HLOMEM_SOURCE_DIR, HLOMEM_TOOL (the tool built with the module) and PYTHONPATH (the
package in the build tree); run by hand, the tool is looked for in build/examples/hlomem. The
tests compare the module with the tool's own output, so a missing tool is a failure, not a skip.
"""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("HLOMEM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE_DIR / "tests" / "data"


def tool_path() -> pathlib.Path:
    tool = pathlib.Path(os.environ.get("HLOMEM_TOOL", SOURCE_DIR / "build" / "examples" / "hlomem"))
    if not tool.is_file():
        pytest.fail(f"the hlomem tool is not built at {tool} (set HLOMEM_TOOL, or build the target hlomem-cli)")
    return tool


def run_tool(*args: str, cwd: pathlib.Path = DATA, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `hlomem ARGS...` in `cwd` (tests/data by default, so that names are relative there)."""
    result = subprocess.run([str(tool_path()), *args], cwd=cwd, capture_output=True)
    if check and result.returncode != 0:
        pytest.fail(f"hlomem {' '.join(args)} exited {result.returncode}: {result.stderr.decode()}")
    return result


@pytest.fixture
def in_data(monkeypatch):
    """Runs the test in tests/data, so that paths (and the names reports print) are relative there."""
    monkeypatch.chdir(DATA)
    return DATA
