"""What the scripts' main() shares: the check scripts' (check_claims.py, check_glossary.py,
check_package.py) check without arguments, its selftest, or the help; and the argument parser
whose errors are one line (every script that takes options)."""

import argparse
import tempfile


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose bad arguments are one line and exit 2, not the usage block
    before it: "<prog>: error: <what> (see <prog> --help)"."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def check_main(argv, doc, check, selftest):
    """The exit status of a check script called with `argv`: no argument runs `check`, "selftest"
    runs `selftest`; -h or --help prints `doc` (the script's help) and gives 0, anything else
    prints it and gives 2."""
    if argv[1:] == ["selftest"]:
        return selftest()
    if argv[1:]:
        print(doc)
        return 0 if argv[1:] in (["--help"], ["-h"]) else 2
    return check()


def writable(folder):
    """Whether a file can be made in `folder` (tried: permissions, a read-only file system)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False
