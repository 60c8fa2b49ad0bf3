"""Where the course is: the repository's root folder, named once for every script."""

import os

# scripts/course/paths.py is three levels below the root.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
