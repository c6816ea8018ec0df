"""The engine is a pure floor: standard library and vpsleuth.rules, nothing above;
OR-Tools' CP-SAT only where the rare hard record is handed to it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import vpsleuth.engine

ENGINE = Path(vpsleuth.engine.__file__).parent
# The one package beyond them, and the one module that may import it.
SOLVER, SOLVER_MODULE = "ortools", "cpsat.py"


def test_the_engine_imports_only_the_standard_library_the_rules_and_its_solver():
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
                        or name.startswith("vpsleuth.rules.")
                        or (top == SOLVER and path.name == SOLVER_MODULE)
                        ), f"{path.name} imports {name}"
