"""The services import no channel and no entrance: they announce (services/events.py).

Every import statement of every module under vpsleuth/services is read from its
syntax tree, those inside functions too, so a lazy import cannot hide a call
into mail, web, api or the CLI.
"""

from __future__ import annotations

import ast
from pathlib import Path

import vpsleuth

PACKAGE = Path(vpsleuth.__file__).parent
SERVICES = PACKAGE / "services"
# What the services must not import: the mail channel and the entrances.
FORBIDDEN = ("vpsleuth.mail", "vpsleuth.web", "vpsleuth.api", "vpsleuth.cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module an import statement anywhere in ``source`` names, made absolute."""
    names = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            names.add(prefix)
            # "from .. import mail" names the module vpsleuth.mail itself.
            names.update(f"{prefix}.{alias.name}" for alias in node.names)
    return names


def forbidden(names: set[str]) -> set[str]:
    return {n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)}


def test_the_scan_finds_an_import_of_mail_in_every_form_it_can_take():
    source = '''
import vpsleuth.web.auth
from vpsleuth.api import bp
from ..mail import notify
from .. import cli

def later():
    from ..mail.inbound import answers
'''
    found = forbidden(imported(source, "vpsleuth.services.example"))
    assert found >= {"vpsleuth.web.auth", "vpsleuth.api", "vpsleuth.mail",
                     "vpsleuth.mail.notify", "vpsleuth.cli", "vpsleuth.mail.inbound.answers"}
    assert not forbidden(imported("from . import events\nfrom ..models import Game\n"
                                  "from .mailing import x\n", "vpsleuth.services.example"))


def test_no_service_imports_mail_web_api_or_the_cli():
    modules = sorted(SERVICES.rglob("*.py"))
    assert len(modules) > 20  # the scan reads the services, not an empty folder
    offending = {}
    for path in modules:
        names = imported(path.read_text(encoding="utf-8"), module_name(path),
                         path.name == "__init__.py")
        if forbidden(names):
            offending[str(path.relative_to(PACKAGE))] = sorted(forbidden(names))
    assert offending == {}
