"""``python -m pokerlab``: the command line, as the ``pokerlab`` console script runs it."""

from pokerlab.cli import main

if __name__ == "__main__":
    main()
