"""The test run brings what its tests need (tests/system_needs.py): what it decides.

apt-get and pg_ctlcluster are replaced by scripts that record their arguments,
and the search path is a folder of the test's own: the real install is what CI
does on a fresh machine.
"""

from __future__ import annotations

import socket
from pathlib import Path
from types import SimpleNamespace

import pytest
import system_needs
from system_needs import CHROMIUM, DOVECOT, HEADLESS_SHELL, Needs, Unmet

NOBODY_LISTENS = "postgresql+psycopg://postgres@127.0.0.1:{port}/test"


def fake(folder: Path, name: str, body: str = "") -> Path:
    """An executable script ``name`` in ``folder`` that appends its arguments to name.log."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\necho "$@" >> "{folder / name}.log"\n{body}\n')
    script.chmod(0o755)
    return script


def calls(folder: Path, name: str) -> list[str]:
    log = folder / f"{name}.log"
    return log.read_text().splitlines() if log.exists() else []


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def item(*fixtures: str):
    return SimpleNamespace(fixturenames=list(fixtures))


def test_unit_tests_alone_need_nothing_of_the_machine():
    needs = system_needs.needs_of([item("now")], ["json", "system_needs"],
                                  ["sqlite", "postgresql"])
    assert needs == Needs((), postgres=False)


def test_a_collected_browser_test_needs_chromium_and_its_shell_and_an_app_test_postgresql():
    needs = system_needs.needs_of([item("app", "tmp_path")], ["playwright.sync_api"],
                                  ["sqlite", "postgresql"])
    assert needs == Needs((HEADLESS_SHELL, CHROMIUM), postgres=True)


def test_the_imap_tests_need_dovecot_by_fixture_or_by_module():
    assert system_needs.needs_of([item("mailbox", "dovecot")], [], ["sqlite"]).packages == (
        DOVECOT,)
    assert system_needs.needs_of([item("server")], ["dovecot_server"], ["sqlite"]).packages == (
        DOVECOT,)


def test_sqlite_only_runs_need_no_postgresql():
    assert not system_needs.needs_of([item("app")], [], ["sqlite"]).postgres


def test_as_root_the_missing_packages_are_installed_with_apt_get(tmp_path):
    tools, path = tmp_path / "tools", tmp_path / "empty"
    path.mkdir()
    # the fake apt-get "installs" by putting both programs on the search path
    fake(tools, "apt-get", f'case "$*" in *install*) touch "{path}/chromium" "{path}/dovecot"; '
                           f'chmod +x "{path}/chromium" "{path}/dovecot";; esac')
    said = []
    system_needs.bring(Needs((CHROMIUM, DOVECOT)), NOBODY_LISTENS.format(port=closed_port()),
                       search_path=f"{path}:{tools}", is_root=True, say=said.append)
    assert calls(tools, "apt-get") == [
        "-o DPkg::Lock::Timeout=600 update -qq",
        "-o DPkg::Lock::Timeout=600 install -y -qq chromium dovecot-imapd"]
    assert "chromium dovecot-imapd" in said[0]
    assert system_needs.missing([CHROMIUM, DOVECOT], str(path)) == []


def test_not_as_root_the_run_stops_naming_the_packages_and_installs_nothing(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "apt-get")
    with pytest.raises(Unmet) as refused:
        system_needs.bring(Needs((CHROMIUM, DOVECOT)), NOBODY_LISTENS.format(port=1),
                           search_path=str(tools), is_root=False, say=print)
    assert "sudo apt-get install -y chromium dovecot-imapd" in str(refused.value)
    assert "not root" in str(refused.value)
    assert calls(tools, "apt-get") == []


def test_with_everything_there_nothing_is_run(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "apt-get")
    fake(tools, "chromium")
    fake(tools, "dovecot")
    fake(tools, "pg_ctlcluster")
    system_needs.bring(Needs((CHROMIUM, DOVECOT), postgres=False), NOBODY_LISTENS.format(
        port=closed_port()), search_path=str(tools), is_root=True)
    assert calls(tools, "apt-get") == [] and calls(tools, "pg_ctlcluster") == []


def test_a_failing_apt_get_stops_the_run_with_its_exit_code(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "apt-get", "exit 100")
    with pytest.raises(Unmet, match=r"failed \(exit 100\)"):
        system_needs.install([CHROMIUM], is_root=True, search_path=str(tools), say=print)


def test_an_install_that_leaves_the_program_missing_is_not_taken_for_done(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "apt-get")
    with pytest.raises(Unmet, match="dovecot is still not on the PATH"):
        system_needs.install([DOVECOT], is_root=True, search_path=str(tools), say=print)


def test_a_local_postgresql_that_is_down_is_started_with_pg_ctlcluster(tmp_path):
    tools, clusters = tmp_path / "tools", tmp_path / "etc-postgresql"
    (clusters / "15" / "main").mkdir(parents=True)
    fake(tools, "pg_ctlcluster")
    system_needs.start_postgres("127.0.0.1", closed_port(), search_path=str(tools),
                                clusters=clusters, say=print,
                                ready=lambda: bool(calls(tools, "pg_ctlcluster")))
    assert calls(tools, "pg_ctlcluster") == ["--skip-systemctl-redirect 15 main start"]


def test_a_postgresql_that_stays_down_stops_the_run_with_where_to_look(tmp_path):
    tools, clusters = tmp_path / "tools", tmp_path / "etc-postgresql"
    (clusters / "15" / "main").mkdir(parents=True)
    fake(tools, "pg_ctlcluster")
    with pytest.raises(Unmet, match="still down"):
        system_needs.start_postgres("127.0.0.1", closed_port(), search_path=str(tools),
                                    clusters=clusters, timeout=0.5, say=print)


def test_a_postgresql_elsewhere_is_never_started(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "pg_ctlcluster")
    system_needs.start_postgres("db.example.org", 5432, search_path=str(tools),
                                clusters=tmp_path, say=print)
    assert calls(tools, "pg_ctlcluster") == []


def test_no_cluster_to_start_says_how_to_run_sqlite_only(tmp_path):
    with pytest.raises(Unmet, match="VPSLEUTH_TEST_DATABASES=sqlite"):
        system_needs.start_postgres("127.0.0.1", closed_port(), search_path=str(tmp_path),
                                    clusters=tmp_path / "none", say=print)


def test_a_postgresql_that_listens_is_left_alone(tmp_path):
    tools = tmp_path / "tools"
    fake(tools, "pg_ctlcluster")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        system_needs.start_postgres("127.0.0.1", server.getsockname()[1],
                                    search_path=str(tools), clusters=tmp_path, say=print)
    assert calls(tools, "pg_ctlcluster") == []
