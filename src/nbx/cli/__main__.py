"""``python -m nbx.cli`` = the ``nbx`` command."""

from nbx.cli import main

raise SystemExit(main())
