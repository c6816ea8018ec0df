"""The build step that brings the service's folders into the wheel; pyproject.toml says the rest.

``templates/``, ``config/``, ``migrations/`` and the served pages of ``docs/``
stay at the top of the source tree, where people look for them, but a service
installed from a wheel must carry them: the build copies them into the package
as ``vpsleuth/_data/`` and ``vpsleuth.DATA`` finds them there, or beside the
package in a checkout (an editable install, the tests). A ``build_py`` step is
setuptools' own place for files a build brings in (matplotlib's setup.py does
the same); ``data-files`` would scatter them under the environment's prefix,
and mapping the folders as packages would mean listing every package by hand.
MANIFEST.in carries the same folders into the sdist, so a wheel built from it
has them too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# source folder -> what of it the service reads at run time
BUNDLED = {
    "templates": ["**/*"],
    "config": ["*.py"],
    "migrations": ["**/*"],
    "docs": ["rulebook*.md", "help-mail*.md", "privacy-notice*.md"],  # web/docs.py, web/legal.py
}


class BuildWithData(build_py):
    """build_py, then the bundled folders copied to ``vpsleuth/_data/`` in the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the folders where they are
        target = Path(self.build_lib) / "vpsleuth" / "_data"
        shutil.rmtree(target, ignore_errors=True)  # nothing stale from an earlier build
        for folder, patterns in BUNDLED.items():
            for pattern in patterns:
                for path in sorted((HERE / folder).glob(pattern)):
                    if path.is_file() and "__pycache__" not in path.parts:  # no stale .pyc
                        copy = target / path.relative_to(HERE)
                        copy.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(path, copy)


setup(cmdclass={"build_py": BuildWithData})
