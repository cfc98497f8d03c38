"""``python -m gqlir``: the same command as the ``gqlir`` console script."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
