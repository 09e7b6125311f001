"""The test runner of ``bash run.sh mutate`` (setup.cfg ``[mutmut] runner``): pytest, with
every failing status made 1.

mutmut 2.5 counts a mutant as killed only when its runner exits with status 1 (``tests_pass``
returns ``returncode != 1``). pytest exits 1 when tests failed, but 2 when collection failed
(a mutant that breaks an import or the syntax of a module the tests load), 3 on an internal
error, 4 on a usage error and 5 when it collected nothing, and a crash ends it by a signal:
mutmut recorded all of those as *survived*. This wrapper exits 0 only when pytest passed, and 1
otherwise. (mutmut's baseline run, before any mutant, still needs status 0, so a runner that is
itself broken is reported, not counted as kills.)

Usage: ``python tools/mutmut_runner.py [pytest arguments]``.
"""

from __future__ import annotations

import subprocess
import sys


def main(argv: list[str]) -> int:
    status = subprocess.call([sys.executable, "-m", "pytest", *argv])
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
