"""What the scripts' main() shares: the check scripts' (check_claims.py, check_glossary.py,
check_package.py) check without arguments, its selftest, or the help; the argument parser whose
errors are one line (every script that takes options); and the one way every script refuses bad
input, a file or folder it cannot use among them: one line, "<prog>: error: <what>", and exit 2
(refuse; Refusal, raised where the input is read and said by run)."""

import argparse
import os
import sys
import tempfile


def refuse(prog, message):
    """Says "<prog>: error: <message>" on stderr, in one line, and gives 2, the exit status of bad
    input: every script's refusal comes here (OneLineParser's, run()'s)."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def bad_usage(prog, what):
    """refuse() for a bad command line, pointing at the help: "<prog>: error: <what> (see <prog>
    --help)"; gives 2."""
    return refuse(prog, f"{what} (see {prog} --help)")


class Refusal(Exception):
    """Bad input, said in one line with exit 2 by run(): a file that is not there, is empty or is
    a folder, a folder that cannot be read, an output that cannot be written. str() is the line,
    without the program's name."""


def run(main, argv):
    """main(argv)'s exit status; a Refusal raised below it is said by refuse(), under the name
    the script was called by (argv[0]'s), and gives 2."""
    try:
        return main(argv)
    except Refusal as e:
        return refuse(os.path.basename(argv[0]), str(e))


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose bad arguments are one line and exit 2, not the usage block
    before it: "<prog>: error: <what> (see <prog> --help)"."""

    def error(self, message):
        sys.exit(bad_usage(self.prog, message))


def check_main(argv, doc, check, selftest):
    """The exit status of a check script called with `argv`: no argument runs `check`, "selftest"
    runs `selftest`; -h or --help prints `doc` (the script's help) and gives 0; anything else is
    one line (bad_usage) and 2."""
    if argv[1:] == ["selftest"]:
        return selftest()
    if argv[1:] in (["--help"], ["-h"]):
        print(doc)
        return 0
    if argv[1:]:
        return bad_usage(os.path.basename(argv[0]),
                         f"unexpected arguments {' '.join(argv[1:])!r}: give none (the check) "
                         "or selftest")
    return check()


def writable(folder):
    """Whether a file can be made in `folder` (tried: permissions, a read-only file system)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _named(path, what):
    return f"{what} {path}" if what else path


def input_file(path, what="", empty_ok=False):
    """`path`, when it is a file that can be read and (unless `empty_ok`) is not empty; else a
    Refusal says which of these it is not. `what` names it in the line ("--mine")."""
    named = _named(path, what)
    if not os.path.exists(path):
        raise Refusal(f"{named}: no such file")
    if os.path.isdir(path):
        raise Refusal(f"{named} is a folder, not a file")
    try:
        with open(path, "rb") as f:
            empty = not f.read(1)
    except OSError as e:
        raise Refusal(f"cannot read {named}: {e.strerror}") from None
    if empty and not empty_ok:
        raise Refusal(f"{named} is empty")
    return path


def input_folder(path, what=""):
    """`path`, when it is a folder that can be read; else a Refusal says why not."""
    named = _named(path, what)
    if not os.path.exists(path):
        raise Refusal(f"{named}: no such folder")
    if not os.path.isdir(path):
        raise Refusal(f"{named} is a file, not a folder")
    try:
        os.listdir(path)
    except OSError as e:
        raise Refusal(f"cannot read {named}: {e.strerror}") from None
    return path


def output_folder(path, what="", empty=False):
    """Before any work: `path`, when it is a folder that can be written (and, with `empty`, holds
    nothing), or one that can be made; else a Refusal says why not: a file, a folder that cannot
    be read or written, one that holds files, a file or a read-only folder where it would be
    made."""
    named = _named(path, what)
    if os.path.lexists(path):
        input_folder(path, what)
        if empty and os.listdir(path):
            raise Refusal(f"{named} exists and is not empty")
        if not writable(path):
            raise Refusal(f"cannot write in {named}")
        return path
    above = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(above):
        above = os.path.dirname(above)
    if not os.path.isdir(above):
        raise Refusal(f"cannot make {named}: {above} is a file, not a folder")
    if not writable(above):
        raise Refusal(f"cannot make {named}: cannot write in {above}")
    return path


def output_file(path, what="", make=False):
    """Before any work: `path`, when a file can be written there; else a Refusal says why not: a
    folder, a file that cannot be written, a folder for it that is not there (unless `make`: the
    caller makes it) or cannot be made or written (output_folder)."""
    named = _named(path, what)
    if os.path.isdir(path):
        raise Refusal(f"{named} is a folder: give a file's name")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise Refusal(f"cannot write {named}")
    folder = os.path.dirname(os.path.abspath(path))
    if not make and not os.path.lexists(folder):
        raise Refusal(f"{named}: no such folder {folder}")
    try:
        output_folder(folder)
    except Refusal as e:
        raise Refusal(f"{named}: {e}") from None
    return path
