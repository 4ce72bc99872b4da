"""Bad-input regression cases: every mistake a user can make in a file ends as one line naming file and line.
A package, because its module names repeat others' (test_catalogue.py is also in tests/data/)."""
