"""What the check scripts' main() shares (check_claims.py, check_glossary.py, check_package.py):
the check without arguments, its selftest, or the help."""


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
