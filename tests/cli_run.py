"""Running the ``nbx`` command in-process from a test, and what a failed command gives."""

from nbx.cli import main


def nbx(capsys, *argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one in-process run of ``nbx ARGV``."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error(message: str) -> tuple[int, str, str]:
    """What a failed command gives: exit code 1, nothing on stdout, one line on stderr."""
    return 1, "", f"nbx: error: {message}\n"
