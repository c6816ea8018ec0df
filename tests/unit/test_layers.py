"""The floors of the house are a checked contract: import-linter's, from pyproject.toml.

The README's test command runs pytest, so these tests are how it runs the contracts.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Run lint-imports in ``cwd`` (it reads the pyproject.toml there); its output as text."""
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=300, env={"PATH": "/usr/bin:/bin", **env})


def test_every_import_keeps_the_floors_and_no_package_cycles():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout


def test_an_import_inside_a_function_that_climbs_a_floor_breaks_the_contract(tmp_path):
    # The same kind of contract on a two-floor package whose lower floor imports the
    # upper one inside a function: grimp reads it as any other import.
    package = tmp_path / "house"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "upper.py").write_text("from . import lower\n")
    (package / "lower.py").write_text("def later():\n    from . import upper\n    return upper\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nroot_package = "house"\n\n'
        '[[tool.importlinter.contracts]]\nname = "floors"\ntype = "layers"\n'
        'layers = ["house.upper", "house.lower"]\n')
    run = lint_imports(tmp_path, PYTHONPATH=str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "house.lower -> house.upper (l.2)" in run.stdout
