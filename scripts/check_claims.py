#!/usr/bin/env python3
"""Checks the fact-check lists in docs/claims/ against the repository, so that what they record
stays true of the write-ups.

    python3 scripts/check_claims.py            # exit 1, one line per problem, if any
    python3 scripts/check_claims.py selftest   # proves that the check catches each fault

A claims file (docs/claims/NN.md for lesson NN, docs/claims/docs.md for the docs and the README)
lists each claim of its parts with what checked it. The check fails when:
- a claims file names a results file (docs/results/...) that is not there;
- a part quotes a source (the text between 「 and 」, on one line) in words that no record of the
  claims files holds for that part, or leaves out the translation recorded with it;
- a record's quotation is missing from a part it names;
- a part holds Chinese text outside a quotation (docs/glossary.md, whose rows are terms, the
  Chinese twins X.zh-CN.md, and an English part's link [简体中文](X.zh-CN.md) aside);
- a Chinese twin lacks a quotation recorded for its English part, or quotes words no record of
  its English part holds (its reader needs no translation, so none is asked of it);
- a lesson has no claims file.

A record is a row of a claims file's "## Quotations" table:

    | id | where in the source | original | translation | quoted in |

`original` is the quotation exactly as the parts give it (code between backticks included),
`translation` the English the parts give with it ("-" for code, which needs none), and `quoted in`
the parts, comma-separated. The sources themselves are not part of the repository: the records
are what the parts are checked against, and a reviewer checks the records against the sources.

Only the Python standard library is used, and nothing outside the repository is read.
"""

import sys

from course import claims
from course.cli import check_main


def main(argv):
    return check_main(argv, __doc__, claims.check, claims.selftest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
