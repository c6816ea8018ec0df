"""A wheel that runs: installed outside the checkout, the service has all it reads.

The source tree is copied (a build writes build/ and egg-info beside its
sources), built the two ways people install it, and installed into a fresh
virtual environment in a temporary folder: a wheel built from the sdist, as
``python -m build`` makes it, and ``pip install .``. The fresh environment sees
the project environment's packages through a ``.pth`` file, so nothing is
fetched; a ``.pth`` line is only a path, so the editable install's finder there
does not load, and the test checks that ``vpsleuth`` is imported from the fresh
environment. The builds use the project environment's setuptools (the test
extra asks for one that builds wheels by itself), so no build backend is
downloaded either. Then the installed ``vpsleuth`` upgrades a SQLite database,
serves, and answers ``/healthz``, the rules in English and German, a translated
page and a static file.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tarfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from process_support import stop, wait_for
from smtp_sink import free_port

import vpsleuth

SOURCE = Path(vpsleuth.__file__).resolve().parent.parent
# What a build of the working tree needs none of; _data would be an earlier in-place build.
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "instance", "test-artifacts", "build", "dist", "*.egg-info",
    "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", "_data")


def run(args: list, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def copy_of_the_source(where: Path) -> Path:
    return Path(shutil.copytree(SOURCE, where / "source", ignore=NOT_SOURCE))


def wheel_from_sdist(where: Path) -> Path:
    """sdist first, then the wheel from the unpacked sdist: what ``python -m build`` does."""
    source = copy_of_the_source(where)
    backend = ("import sys; from setuptools import build_meta as b; "
               "print(getattr(b, sys.argv[1])(sys.argv[2]))")
    sdist = run([sys.executable, "-c", backend, "build_sdist", where / "sdist"], source)
    with tarfile.open(where / "sdist" / sdist.strip().splitlines()[-1]) as archive:
        archive.extractall(where / "unpacked", filter="data")
    (unpacked,) = (where / "unpacked").iterdir()
    built = run([sys.executable, "-c", backend, "build_wheel", where / "wheel"], unpacked)
    return where / "wheel" / built.strip().splitlines()[-1]


def fresh_environment(where: Path) -> Path:
    """A virtual environment without pip that sees the project environment's packages."""
    venv = where / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], where)
    python = venv / "bin" / "python"
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
               where).strip()
    (Path(site) / "project-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def pip_into(python: Path, *args) -> None:
    # --ignore-installed: the project environment's editable vpsleuth is visible here;
    # pip must neither skip the install for it nor try to remove it.
    run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
         "--no-index", "--ignore-installed", *args], python.parent)


@pytest.fixture(scope="module", params=["wheel built from the sdist", "pip install ."])
def installed(request, tmp_path_factory) -> Path:
    """The bin/ folder of a fresh environment with vpsleuth installed the given way."""
    where = tmp_path_factory.mktemp("wheel")
    python = fresh_environment(where)
    if request.param == "pip install .":
        pip_into(python, "--no-build-isolation", copy_of_the_source(where))
    else:
        pip_into(python, wheel_from_sdist(where))
    return python.parent


def outside_the_checkout(bin_dir: Path, tmp_path: Path) -> dict[str, str]:
    """An environment for the installed command: no VPSLEUTH_ settings, no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("VPSLEUTH_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["VPSLEUTH_SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'wheel.db'}"
    env["VPSLEUTH_SECRET_KEY"] = "wheel-test"
    return env




def get(url: str, language: str = "en") -> str:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
        return answer.read().decode()


def test_the_installed_package_upgrades_serves_and_translates(installed, tmp_path):
    env = outside_the_checkout(installed, tmp_path)
    imported = run([installed / "python", "-c",
                    "import vpsleuth; print(vpsleuth.__file__); print(vpsleuth.DATA)"],
                   tmp_path, env).split()
    package, data = (Path(line) for line in imported)
    assert package.is_relative_to(installed.parent), package  # not the checkout's
    assert data == package.parent / "_data", data

    run([installed / "vpsleuth", "db", "upgrade"], tmp_path, env)
    with sqlite3.connect(tmp_path / "wheel.db") as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert revision

    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen([installed / "vpsleuth", "serve", "--port", str(port)],
                                  cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/healthz", server, log)
        health = get(f"{base}/healthz")
        english = get(f"{base}/rules")
        german = get(f"{base}/rules", "de")
        spanish_help = get(f"{base}/help/mail", "es")
        signin = get(f"{base}/signin", "de")
        style = get(f"{base}/static/style.css")
    finally:
        assert stop(server) == 0, log.read_text()
    assert json.loads(health)["database"] == "ok"
    assert "<title>The rules of VP-Sleuth" in english  # docs/rulebook.md
    assert "<title>Die Spielregeln von VP-Sleuth" in german  # docs/rulebook.de.md
    assert "<title>Jugar por correo" in spanish_help  # docs/help-mail.es.md
    assert "<title>Anmelden" in signin  # a template's text from the compiled catalogue
    assert style == (SOURCE / "vpsleuth" / "static" / "style.css").read_text()
