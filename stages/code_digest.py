"""Write the code digests: for each kind of stage and each learner family, the sha256 of every source file it runs,
to data/code/<name>.txt, so a stage depends on one path instead of every module it imports (see
nbx.pipeline.dvcgen). A digest whose files did not change comes out byte for byte the same, so DVC reruns only the
stages that run a changed file. Usage: python stages/code_digest.py"""

import sys
from pathlib import Path

from nbx.core.errors import run_reported
from nbx.core.io import sha256_file, write_text
from nbx.pipeline import config, dvcgen, layout


def digest(out: Path, files: list[str]) -> None:
    write_text(out, "".join(f"{sha256_file(f)}  {Path(f).as_posix()}\n" for f in sorted(files)))


def digests() -> None:
    for name, files in dvcgen.code_files(config.load_params()).items():
        digest(layout.code_digest(name), files)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(__doc__)
    sys.exit(run_reported(digests, "code_digest", "code_digest: interrupted"))
