"""The repository's files as they stand, and copies of them: the scratch copy that
check_configs.py configures and the students' handout (handout.py)."""

import os
import shutil
import subprocess

from course.paths import ROOT


def repository_files(root=ROOT):
    """The repository's files as they stand, relative to `root`: tracked, and untracked but not
    ignored (git ls-files), less those deleted in the work tree."""
    listed = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z"],
                            capture_output=True, text=True, check=True)
    return sorted(n for n in listed.stdout.split("\0")
                  if n and os.path.isfile(os.path.join(root, n)))


def copy_files(names, dest, root=ROOT):
    """Copies the files `names` (relative to `root`) into `dest`, keeping their folders."""
    for name in names:
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(root, name), target)
