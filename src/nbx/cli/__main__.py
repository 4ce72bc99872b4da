"""``python -m nbx.cli`` = the ``nbx`` command."""
from . import main

raise SystemExit(main())
