"""The course's scripts as one package; the command-line scripts beside it (scripts/*.py) parse
their arguments and call it.

    paths     ROOT, the repository's root folder
    lessons   the lesson model: each lessons/NN_*/lesson.json as a Lesson, with its Runs and Charts
    csvs      reading the lesson programs' CSVs, and what the tables and charts take from them
    results   the generated parts of the Markdown files: markers, tables, logs, the checks on them
    svg       the SVG pictures of draw.py and timeline.py, and their update/check command
    progress  one line of progress on a terminal, for the long steps
    gpus      the GPUs a CUDA program sees (CUDA_VISIBLE_DEVICES honoured), and their results folder
    cli       the main() of the check scripts: the check, its selftest, or the help
    built     a check's input not built yet: one line naming it and the command that builds it

and one module for what each command-line script does (the script's name where it differs):

    bench         the lessons' benchmarks run, then the write-ups and charts regenerated
    grading       grade.py: students' exercises built and tested, the gradebook
    formats       grade.py --format: the results for JUnit, Gradescope, PrairieLearn or Autolab
    demo_class    a class of five students to try grading on
    time_answer   an answer's time against the model answer's
    compiled      check_compiled.py: the instructions an answer's PTX must and must not hold
    ctest_summary the line that ends every CTest run: its tests passed, failed, skipped, not run
    doc_commands  the README's and guides' fenced blocks, checked and run
    draw          the pictures of the algorithms
    timeline      the nsys timelines and lesson 07's run summaries
    compare       your GPU's table beside the course's
    timer_check   the course's timer against NVBench
    time_commands the README's two commands timed in a fresh copy
    launch_ranks  one process per GPU, for lesson 07's ranks
    plot          the lessons' charts (matplotlib, imported when a chart is drawn)
    topk_torch    torch.topk timed as lesson06 times its versions
    claims        check_claims.py: docs/claims/ and the quotations
    glossary      check_glossary.py: docs/glossary.md against the lessons' terms
    records       check_records.py: every run record cited or read, no machine's path
    writeups      check_writeups.py: each write-up's parts, word budget and questions
    translations  check_translations.py: each Chinese twin X.zh-CN.md in step with X.md
    package_check check_package.py: this package's modules import without reading or running

Importing a module does nothing else: no file is read, no program is run, until a function is
called (scripts/check_package.py holds that line).
"""
