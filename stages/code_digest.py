"""Write the sha256 of source files to one digest file, so train cells depend on one path instead of every
module their learner imports (see nbx.pipeline.dvcgen). Usage: python stages/code_digest.py OUT FILE..."""

import sys
from pathlib import Path

from nbx.core.errors import run_reported
from nbx.core.io import sha256_file, write_text


def digest(out: str, files: list[str]) -> None:
    write_text(out, "".join(f"{sha256_file(f)}  {Path(f).as_posix()}\n" for f in sorted(files)))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    sys.exit(run_reported(lambda: digest(sys.argv[1], sys.argv[2:]), "code_digest", "code_digest: interrupted"))
