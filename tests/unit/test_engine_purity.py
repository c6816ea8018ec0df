"""The engine is a pure floor: standard library and vpsleuth.rules, nothing above."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import vpsleuth.engine

ENGINE = Path(vpsleuth.engine.__file__).parent


def test_the_engine_imports_only_the_standard_library_and_the_rules():
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: only inside the engine itself
                    assert node.module is None or "." not in node.module, path
                    continue
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert (top in sys.stdlib_module_names or name == "vpsleuth.rules"
                        or name.startswith("vpsleuth.rules.")), f"{path.name} imports {name}"
