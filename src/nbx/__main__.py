"""``python -m nbx`` = the ``nbx`` command (as ``python -m nbx.cli``)."""

from nbx.cli import main

raise SystemExit(main())
