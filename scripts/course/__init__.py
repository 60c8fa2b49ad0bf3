"""The course's scripts as one package; the command-line scripts beside it (scripts/*.py) parse
their arguments and call it.

    paths     ROOT, the repository's root folder
    lessons   the lesson model: each lessons/NN_*/lesson.json as a Lesson, with its Runs and Charts
    csvs      reading the lesson programs' CSVs, and what the tables and charts take from them
    results   the generated parts of the Markdown files: markers, tables, logs, the checks on them
    svg       the SVG pictures of draw.py and timeline.py, and their update/check command
    progress  one line of progress on a terminal, for the long steps
    gpus      the machine's GPUs, as nvidia-smi lists them, and their results folder

Importing a module does nothing else: no file is read, no program is run, until a function is
called (scripts/check_package.py holds that line).
"""
