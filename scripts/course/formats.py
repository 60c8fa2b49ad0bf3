"""A student's grading as a grading platform reads it (scripts/grade.py --format): JUnit XML (the
default), Gradescope's results.json, PrairieLearn's external grader's results.json, and Autolab's
autoresult, the last line of the grader's output.

Each writer is a pure function of what the grader holds once a student is graded (grading.py's
grade_student): the student's name, the exercises graded, the scores {exercise: points}, the
problems [(exercise, test, reason)] (a build's verdict is test "(build)", a report line such as the
time bound's is "(report)"), the time ratios {exercise: the answer's time over the model answer's,
from the time verdict}, the seed and the seconds the grading took; and, for the checks that passed
to be named too, the tests {exercise: [test names]} (tests_of); JUnit XML is made of the testcases
made as the tests ran (cases, junit_case). Each gives the file's text: nothing is read, run or
written here, so every format can be tested with made-up data (selftest, from each platform's
published examples).

In each format an exercise is one test worth POINTS points, named as the gradebook's column ("01.1
warp_aggregated"); its checks (its build, then each of its tests) are entries worth nothing that
pass or fail, the failed ones with their reason, where the format has room for them; an answer
that was refused, is missing or did not compile fails its build check with that reason, and its
tests were not run. The ratio to the model answer's time goes on the platform's leaderboard
(Gradescope) or scoreboard (Autolab), for an exercise that earned its points only: a wrong
answer's speed means nothing."""

import io
import json
import xml.etree.ElementTree as ET

POINTS = 10  # an exercise's worth (grading.POINTS is this one)
FORMATS = ("junit", "gradescope", "prairielearn", "autolab")
# One student's file in the build folder, unless --results names one; a class's files are
# <out>/<format>/<student><EXTENSION>.
DEFAULT_FILE = {"junit": "grade.xml", "gradescope": "gradescope.json",
                "prairielearn": "prairielearn.json", "autolab": "autolab.txt"}
EXTENSION = {"junit": ".xml", "gradescope": ".json", "prairielearn": ".json", "autolab": ".txt"}
TITLE = {"junit": "JUnit XML", "gradescope": "Gradescope results", "prairielearn":
         "PrairieLearn results", "autolab": "Autolab autoresult"}
BUILD = "(build)"
REPORT = "(report)"
LONGEST = 2000  # characters of one reason in these files (summary.txt and JUnit keep it whole)
TIMING = "time over the model answer's"


def junit_case(name, classname, seconds=0.0, failure=None, skipped=None, notes=()):
    """One test's JUnit testcase: its failure's or skip's reason, and its keyed report lines."""
    case = ET.Element("testcase", name=name, classname=classname, time=f"{seconds:.3f}")
    if failure is not None:
        ET.SubElement(case, "failure", message=failure)
    elif skipped is not None:
        ET.SubElement(case, "skipped", message=skipped)
    if notes:
        ET.SubElement(case, "system-out").text = "\n".join(notes)
    return case


def tests_of(exercises, cases):
    """{exercise: [its tests' names after its prefix]}, from the JUnit cases of a grading (each
    exercise's tests are named "<prefix>/<test>", of class <prefix>)."""
    tests = {}
    for exercise in exercises:
        start = exercise.prefix + "/"
        tests[exercise] = [c.get("name")[len(start):] for c in cases
                           if c.get("classname") == exercise.prefix and
                           c.get("name", "").startswith(start)]
    return tests


def _short(text):
    text = str(text)
    return text if len(text) <= LONGEST else text[:LONGEST - 3] + "..."


def _number(value):
    return round(float(value), 4)


def exercise_results(exercises, scores, problems, ratios, tests=None):
    """Each exercise graded, as every format shows it: {"exercise", "name", "points", "earned"
    (every point), "build" (why it did not build, or ""), "checks" [(name, passed, reason)],
    "reports" [lines], "ratio" (or None), "text" (its lines for a person)}."""
    rows = []
    for exercise in exercises:
        mine = [(test, _short(reason)) for e, test, reason in problems if e is exercise]
        build = next((reason for test, reason in mine if test == BUILD), "")
        reports = [reason for test, reason in mine if test == REPORT]
        failed = {}
        for test, reason in mine:
            if test not in (BUILD, REPORT):
                failed.setdefault(test, reason)
        names = list((tests or {}).get(exercise, []))
        names += [t for t in failed if t not in names]
        points = float(scores.get(exercise, 0.0))
        if build:
            checks = [("build", False, build)]
            said = f"{build} (its tests were not run)"
        else:
            checks = [("build", True, "")] + [(t, t not in failed, failed.get(t, ""))
                                             for t in names]
            if tests is not None:
                said = f"{len(names) - len(failed)} of {len(names)} tests passed"
            else:
                said = f"{len(failed)} test{'' if len(failed) == 1 else 's'} failed"
        name = exercise.column()
        text = [f"{name}: {points:.1f} of {POINTS} points: {said}"]
        text += [f"  failed: {t}: {why}" for t, ok, why in checks[1:] if not ok]
        text += [f"  {line}" for line in reports]
        rows.append({"exercise": exercise, "name": name, "points": points,
                     "earned": points >= POINTS, "build": build, "checks": checks,
                     "reports": reports, "ratio": ratios.get(exercise), "text": "\n".join(text)})
    return rows


def _headline(student, rows, seed, seconds):
    total = sum(r["points"] for r in rows)
    earned = sum(r["earned"] for r in rows)
    return (f"{student}: {total:.1f} of {POINTS * len(rows)} points, {earned} of {len(rows)} "
            f"exercises earned their points; graded by scripts/grade.py on a CUDA GPU in "
            f"{seconds:.0f} s, seed {seed} (grade.py --seed {seed} grades again with the same "
            "inputs)")


def _leaders(rows):
    """(exercise name, ratio or None) for each exercise graded that has a time bound; the ratio
    only where the exercise earned its points."""
    return [(r["name"], _number(r["ratio"]) if r["earned"] and r["ratio"] is not None else None)
            for r in rows if getattr(r["exercise"], "factor", None) is not None]


def gradescope(student, exercises, scores, problems, ratios, seed, seconds, tests=None,
               cases=None):
    """Gradescope's /autograder/results/results.json (gradescope-autograders.readthedocs.io,
    Autograder Specifications): the score, the execution time, an output for the submission, a
    test per exercise (score, max_score, status, output) followed by its checks (max_score 0),
    and a leaderboard: the points, then each timed exercise's ratio (ascending)."""
    rows = exercise_results(exercises, scores, problems, ratios, tests)
    listed = []
    for row in rows:
        listed.append({"name": row["name"], "score": _number(row["points"]),
                       "max_score": POINTS, "status": "passed" if row["earned"] else "failed",
                       "output": row["text"], "visibility": "visible"})
        for check, ok, why in row["checks"]:
            listed.append({"name": f"{row['name']}: {check}", "score": 0, "max_score": 0,
                           "status": "passed" if ok else "failed",
                           "output": why or "passed", "visibility": "visible"})
    results = {"score": _number(sum(r["points"] for r in rows)),
               "execution_time": int(round(seconds)),
               "output": _headline(student, rows, seed, seconds),
               "extra_data": {"student": student, "seed": str(seed)},
               "tests": listed}
    timed = _leaders(rows)
    if timed:
        results["leaderboard"] = ([{"name": "points", "value": results["score"]}] +
                                  [{"name": f"{name}: {TIMING}", "value": value, "order": "asc"}
                                   for name, value in timed if value is not None])
    return json.dumps(results, indent=2) + "\n"


def prairielearn(student, exercises, scores, problems, ratios, seed, seconds, tests=None,
                 cases=None):
    """PrairieLearn's /grade/results/results.json (docs/externalGrading.md, Grading results):
    "gradable", the score as a fraction in [0, 1], a message and an output, and a test per
    exercise (points, max_points, message, output) followed by its checks (max_points 0).
    Gradable is false only when nothing could be graded (no answer built): then no score is
    given and the reasons are the format_errors, and PrairieLearn counts no attempt."""
    rows = exercise_results(exercises, scores, problems, ratios, tests)
    listed = []
    for row in rows:
        failed = [(c, why) for c, ok, why in row["checks"] if not ok]
        message = ("passed" if row["earned"] else
                   row["build"] or (f"failed: {failed[0][0]}: {failed[0][1]}" if failed else
                                    "failed"))
        listed.append({"name": row["name"],
                       "description": f"{row['exercise'].lesson_dir}/{row['exercise'].name}.cuh",
                       "points": _number(row["points"]), "max_points": POINTS,
                       "message": message, "output": row["text"]})
        for check, ok, why in row["checks"]:
            listed.append({"name": f"{row['name']}: {check}", "points": 0, "max_points": 0,
                           "message": why or "passed"})
    gradable = any(not r["build"] for r in rows)
    total = sum(r["points"] for r in rows)
    results = {"gradable": gradable}
    if gradable:
        results["score"] = min(1.0, max(0.0, round(total / (POINTS * len(rows)), 4)))
        results["message"] = (f"{total:.1f} of {POINTS * len(rows)} points "
                              f"({sum(r['earned'] for r in rows)} of {len(rows)} exercises)")
    else:
        results["message"] = "nothing could be graded: no answer built"
        results["format_errors"] = [f"{r['name']}: {r['build']}" for r in rows]
    results["output"] = "\n".join([_headline(student, rows, seed, seconds)] +
                                  [r["text"] for r in rows])
    results["tests"] = listed
    return json.dumps(results, indent=2) + "\n"


def autolab(student, exercises, scores, problems, ratios, seed, seconds, tests=None, cases=None):
    """Autolab's feedback and autoresult (docs.autolabproject.com, Guide for Lab Authors, and
    Formatted Feedback): lines for a person, then the semantic feedback line (a stage per
    exercise, each check passed or not, a failed one's reason its hint; a stage of the time
    ratios), then, last, the autoresult: {"scores": {exercise: points}, "scoreboard": [points,
    then each timed exercise's ratio, null where it has none]}. The problems' names on Autolab
    must be the exercises' names here."""
    rows = exercise_results(exercises, scores, problems, ratios, tests)
    feedback = {"_presentation": "semantic", "stages": [r["name"] for r in rows]}
    for row in rows:
        feedback[row["name"]] = {check: ({"passed": True} if ok else
                                         {"passed": False, "hint": why})
                                 for check, ok, why in row["checks"]}
    measured = {r["name"]: _number(r["ratio"]) for r in rows if r["ratio"] is not None}
    if measured:
        feedback["stages"].append(TIMING)
        feedback[TIMING] = measured
    total = _number(sum(r["points"] for r in rows))
    autoresult = {"scores": {r["name"]: _number(r["points"]) for r in rows}}
    timed = _leaders(rows)
    if timed:
        autoresult["scoreboard"] = [total] + [value for _, value in timed]
    lines = [_headline(student, rows, seed, seconds)] + [r["text"] for r in rows]
    return "\n".join(lines + [json.dumps(feedback), json.dumps(autoresult)]) + "\n"


def junit(student, exercises, scores, problems, ratios, seed, seconds, tests=None, cases=None):
    """JUnit XML: a testsuite named after the student, a testcase per test (`cases`, made by
    junit_case as each test ran: its seconds, its failure's or skip's reason, its keyed report
    lines), and the count of failures."""
    suite = ET.Element("testsuite", name=student, tests=str(len(cases or [])))
    failures = 0
    for case in cases or []:
        failures += case.find("failure") is not None or case.find("error") is not None
        suite.append(case)
    suite.set("failures", str(failures))
    return ET.tostring(suite, encoding="UTF-8", xml_declaration=True).decode("utf-8")


WRITERS = {"junit": junit, "gradescope": gradescope, "prairielearn": prairielearn,
           "autolab": autolab}


def render(fmt, student, exercises, scores, problems, ratios, seed, seconds, tests=None,
           cases=None):
    """The file's text for `fmt` (one of FORMATS)."""
    return WRITERS[fmt](student, exercises, scores, problems, ratios, seed, seconds, tests,
                        cases)


# The selftest (grade.py selftest formats): each writer's output, from made-up gradings, against
# its platform's published specification, whose examples are turned into the checks' own cases
# (a check that refuses its specification's example is wrong); then each output changed as a
# careless writer would change it, which the checks must catch.

VISIBILITY = ("hidden", "after_due_date", "after_published", "visible")
GS_FORMATS = ("text", "html", "simple_format", "md", "ansi")
GS_TOP = {"score", "execution_time", "output", "output_format", "test_output_format",
          "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
          "leaderboard"}
GS_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output",
           "output_format", "tags", "visibility", "extra_data"}
# gradescope-autograders.readthedocs.io/en/latest/specs/ (Output format; Test case status), the
# comments taken out.
GS_EXAMPLES = [
    {"score": 44.0, "execution_time": 136, "output": "Text relevant to the entire submission",
     "output_format": "simple_format", "test_output_format": "text", "test_name_format": "text",
     "visibility": "after_due_date", "stdout_visibility": "visible", "extra_data": {},
     "tests": [{"score": 2.0, "max_score": 2.0, "status": "passed", "name": "Your name here",
                "name_format": "text", "number": "1.1",
                "output": "Giant multiline string that will be placed in a <pre> tag and "
                          "collapsed by default", "output_format": "text",
                "tags": ["tag1", "tag2", "tag3"], "visibility": "visible", "extra_data": {}}],
     "leaderboard": [{"name": "Accuracy", "value": .926},
                     {"name": "Time", "value": 15.1, "order": "asc"},
                     {"name": "Stars", "value": "*****"}]},
    {"tests": [{"name": "Compilation check", "status": "passed"},
               {"name": "Style check", "status": "failed"},
               {"name": "Test 3", "score": 5, "max_score": 10, "status": "passed"}]},
]
# docs/externalGrading.md of PrairieLearn (Grading results), the images' data cut short.
PL_EXAMPLES = [
    {"gradable": True, "score": 0.25, "message": "Tests completed successfully.",
     "output": "Running tests...\nTest 1 passed\nTest 2 failed!\n...",
     "images": [{"label": "First Image", "url": "data:image/png;base64,..."},
                {"label": "Second Image", "url": "data:image/jpeg;base64,..."}],
     "tests": [{"name": "Test 1", "description": "Tests that a thing does a thing.",
                "points": 1, "max_points": 1, "message": "No errors!",
                "output": "Running test...\nYour output matched the expected output!"},
               {"name": "Test 2", "description": "Like Test 1, but harder, you'll probably fail "
                "it.", "points": 0, "max_points": 3,
                "message": "Make sure that your code is doing the thing correctly.",
                "output": "Running test...\nYour output did not match the expected output.",
                "images": [{"label": "First Image", "url": "data:image/gif;base64,..."},
                           {"label": "First Image", "url": "data:image/png;base64,..."}]}]},
    {"score": 1.0},
    {"gradable": False, "format_errors": "a syntax error on line 3"},
]
# docs.autolabproject.com/lab/ (Writing Autograders, the Hello Lab's driver.sh run) and
# /features/formatted-feedback/ (semantic feedback with test cases, multi-stage): stdout.
AUTOLAB_EXAMPLES = [
    '{ "scores": { "Prob1": 10, "Prob2": 5 } }',
    '{ "scores": { "Prob1": 10, "Prob2": 5 }, "scoreboard": [10, 5, 15] }',
    'Compiling hello.c\nrm -rf *~ hello\ngcc hello.c -o hello\nRunning ./hello\nHello, world\n'
    'Success: ./hello runs with an exit status of 0\n{"scores": {"Correctness": 100}}\n',
    '{"_presentation": "semantic"}\n'
    '{ "scores": { "Correctness": 20, "TA/Design/Readability": 40 } }',
    '{"_presentation": "semantic", "stages": ["Build", "Test", "Timing"], "Test": {"Add Things": '
    '{"passed": true}, "Return Values": {"passed": false, "hint": "You need to return 1"}}, '
    '"Build": {"compile" : {"passed": true}, "link": {"passed": true}}, "Timing": {"Stage 1 (ms)"'
    ': 10, "Stage 2 (ms)": 20}}\n{"scores": {"Correctness": 20, "TA/Design/Readability": 40}}',
]
# A JUnit file as CI services read it (the testsuite's name, tests and failures; each testcase's
# name, classname and time; a failure's message), e.g. GitLab's unit test reports.
JUNIT_EXAMPLES = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="suite" tests="2" failures="1">'
    '<testcase name="a" classname="c" time="0.5"/><testcase name="b" classname="c" time="1.0">'
    '<failure message="expected 1, got 2"/></testcase></testsuite>',
]


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _keys(what, value, allowed):
    return [f"{what}: unknown field {k!r}" for k in value if k not in allowed]


def check_gradescope(text):
    """What in `text` is not Gradescope's results.json (its Autograder Specifications)."""
    try:
        results = json.loads(text)
    except ValueError as error:
        return [f"not JSON: {error}"]
    if not isinstance(results, dict):
        return ["not a JSON object"]
    problems = _keys("results", results, GS_TOP)
    for key in ("score", "execution_time"):
        if key in results and not _is_number(results[key]):
            problems.append(f"{key} is not a number")
    for key in ("output",):
        if key in results and not isinstance(results[key], str):
            problems.append(f"{key} is not a string")
    for key in ("visibility", "stdout_visibility"):
        if key in results and results[key] not in VISIBILITY:
            problems.append(f"{key} {results[key]!r} is not one of {VISIBILITY}")
    for key in ("output_format", "test_output_format", "test_name_format"):
        if key in results and results[key] not in GS_FORMATS:
            problems.append(f"{key} {results[key]!r} is not one of {GS_FORMATS}")
    if "extra_data" in results and not isinstance(results["extra_data"], dict):
        problems.append("extra_data is not an object")
    tests = results.get("tests", [])
    if "tests" not in results and "score" not in results:
        problems.append("neither a score nor tests")
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    for i, test in enumerate(tests):
        what = f"tests[{i}]"
        if not isinstance(test, dict):
            problems.append(f"{what} is not an object")
            continue
        problems += _keys(what, test, GS_TEST)
        for key in ("score", "max_score"):
            if key in test and not _is_number(test[key]):
                problems.append(f"{what}.{key} is not a number")
        if "score" not in results and "score" not in test and "status" not in test:
            problems.append(f"{what} has no score, and there is no top-level score")
        if "status" in test and test["status"] not in ("passed", "failed"):
            problems.append(f"{what}.status {test['status']!r} is not passed or failed")
        for key in ("name", "number", "output"):
            if key in test and not isinstance(test[key], str):
                problems.append(f"{what}.{key} is not a string")
        if "visibility" in test and test["visibility"] not in VISIBILITY:
            problems.append(f"{what}.visibility {test['visibility']!r} is not one of "
                            f"{VISIBILITY}")
        for key in ("name_format", "output_format"):
            if key in test and test[key] not in GS_FORMATS:
                problems.append(f"{what}.{key} {test[key]!r} is not one of {GS_FORMATS}")
        if "tags" in test and not (isinstance(test["tags"], list) and
                                   all(isinstance(t, str) for t in test["tags"])):
            problems.append(f"{what}.tags is not a list of strings")
    board = results.get("leaderboard", [])
    if not isinstance(board, list):
        return problems + ["leaderboard is not a list"]
    for i, entry in enumerate(board):
        what = f"leaderboard[{i}]"
        if not isinstance(entry, dict):
            problems.append(f"{what} is not an object")
            continue
        problems += _keys(what, entry, {"name", "value", "order"})
        if not isinstance(entry.get("name"), str):
            problems.append(f"{what} has no name")
        if not (_is_number(entry.get("value")) or isinstance(entry.get("value"), str)):
            problems.append(f"{what} has no value (a number or a string)")
        if "order" in entry and entry["order"] not in ("asc", "desc"):
            problems.append(f"{what}.order {entry['order']!r} is not asc or desc")
    return problems


def check_prairielearn(text):
    """What in `text` is not PrairieLearn's external grader results.json (Grading results)."""
    problems = []
    if len(text.encode("utf-8")) > 1 << 20:
        problems.append(f"{len(text.encode('utf-8'))} bytes: more than PrairieLearn's 1 MB")
    try:
        results = json.loads(text)
    except ValueError as error:
        return problems + [f"not JSON: {error}"]
    if not isinstance(results, dict):
        return problems + ["not a JSON object"]
    gradable = results.get("gradable", True)
    if not isinstance(gradable, bool):
        problems.append("gradable is not true or false")
    if gradable is not False:
        score = results.get("score")
        if not _is_number(score):
            problems.append("a gradable result without a score (a number)")
        elif not 0.0 <= score <= 1.0:
            problems.append(f"score {score} is not in [0, 1]")
    errors = results.get("format_errors", [])
    if not (isinstance(errors, str) or
            isinstance(errors, list) and all(isinstance(e, str) for e in errors)):
        problems.append("format_errors is not a string or a list of strings")

    def images(what, value):
        if not isinstance(value, list):
            return [f"{what}.images is not a list"]
        return [f"{what}.images[{i}] is not a URL or an object with one"
                for i, image in enumerate(value)
                if not (isinstance(image, str) or isinstance(image, dict) and
                        isinstance(image.get("url"), str))]

    for key in ("message", "output"):
        if key in results and not isinstance(results[key], str):
            problems.append(f"{key} is not a string")
    if "images" in results:
        problems += images("results", results["images"])
    tests = results.get("tests", [])
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    for i, test in enumerate(tests):
        what = f"tests[{i}]"
        if not isinstance(test, dict):
            problems.append(f"{what} is not an object")
            continue
        for key in ("name", "description", "message", "output"):
            if key in test and not isinstance(test[key], str):
                problems.append(f"{what}.{key} is not a string")
        if not isinstance(test.get("name"), str):
            problems.append(f"{what} has no name")
        for key in ("points", "max_points"):
            if key in test and not _is_number(test[key]):
                problems.append(f"{what}.{key} is not a number")
        if "images" in test:
            problems += images(what, test["images"])
    return problems


def check_autolab(text):
    """What in `text`, an autograder's stdout, Autolab cannot read: its last line must be the
    autoresult, a JSON object whose "scores" give each problem a number (and "scoreboard", when
    there, a list); a line of semantic feedback, when there, comes just before it."""
    lines = text.splitlines()
    if not lines:
        return ["no output"]
    try:
        autoresult = json.loads(lines[-1])
    except ValueError as error:
        return [f"the last line {lines[-1][:60]!r} is not JSON: {error}"]
    if not isinstance(autoresult, dict):
        return ["the last line is not a JSON object"]
    problems = _keys("the autoresult", autoresult, {"scores", "scoreboard"})
    scores = autoresult.get("scores")
    if not isinstance(scores, dict) or not scores:
        problems.append("the autoresult has no scores")
    elif not all(isinstance(k, str) and _is_number(v) for k, v in scores.items()):
        problems.append("a score is not a number")
    if "scoreboard" in autoresult and not isinstance(autoresult["scoreboard"], list):
        problems.append("the scoreboard is not a list")
    try:
        feedback = json.loads(lines[-2]) if len(lines) > 1 else None
    except ValueError:
        feedback = None
    if isinstance(feedback, dict) and "_presentation" in feedback:
        if feedback["_presentation"] != "semantic":
            problems.append(f"_presentation {feedback['_presentation']!r} is not semantic")
        stages = feedback.get("stages", [])
        if not isinstance(stages, list) or not all(isinstance(s, str) for s in stages):
            problems.append("stages is not a list of names")
            stages = []
        for stage in stages:
            entries = feedback.get(stage)
            if not isinstance(entries, dict):
                problems.append(f"the stage {stage!r} has no entries")
                continue
            for name, entry in entries.items():
                if _is_number(entry):
                    continue
                if not isinstance(entry, dict) or not isinstance(entry.get("passed"), bool):
                    problems.append(f"{stage}: {name}: neither a number nor passed true/false")
                elif "hint" in entry and not isinstance(entry["hint"], str):
                    problems.append(f"{stage}: {name}: the hint is not a string")
    return problems


def check_junit(text):
    """What in `text` is not a JUnit testsuite as CI services read it."""
    try:
        suite = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as error:
        return [f"not XML: {error}"]
    if suite.tag != "testsuite":
        return [f"the root is {suite.tag}, not testsuite"]
    problems = [] if suite.get("name") else ["the testsuite has no name"]
    cases = suite.findall("testcase")
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if suite.get("tests") != str(len(cases)):
        problems.append(f"tests={suite.get('tests')!r}, for {len(cases)} testcases")
    if suite.get("failures") != str(len(failed)):
        problems.append(f"failures={suite.get('failures')!r}, for {len(failed)} failed")
    for case in cases:
        if not case.get("name") or not case.get("classname"):
            problems.append("a testcase without its name and classname")
        try:
            float(case.get("time", "0"))
        except ValueError:
            problems.append(f"{case.get('name')}: time {case.get('time')!r} is not a number")
        failure = case.find("failure")
        if failure is not None and failure.get("message") is None:
            problems.append(f"{case.get('name')}: a failure without its message")
    return problems


CHECKS = {"junit": check_junit, "gradescope": check_gradescope,
          "prairielearn": check_prairielearn, "autolab": check_autolab}
EXAMPLES = {"junit": JUNIT_EXAMPLES,
            "gradescope": [json.dumps(e) for e in GS_EXAMPLES],
            "prairielearn": [json.dumps(e) for e in PL_EXAMPLES],
            "autolab": AUTOLAB_EXAMPLES}


REFUSAL = "refused: block_sum.cuh includes <thrust/sort.h> (not allowed in this exercise)"
TIME_LINE = ("exercise01_1: 1.59 ms, 0.98 times the model answer's 1.63 ms: within the bound of "
             "2 times")
SLOW = ("exercise03_1: 5.7000 ms, more than 2 times the model answer's 1.6300 ms (3.5 times): "
        "the technique the exercise asks for is not there")
CORRECT = "correct at every size the seed draws"
TIMED = "it takes at most 2 times the model answer's time"


def made_up_gradings():
    """Made-up gradings, as grade_student() gives them: {name: (student, exercises, scores,
    problems, ratios, seed, seconds, tests, cases)}. "mixed": 01.1 earned its points (its time
    line reported, its ratio 0.98), 02.1 was refused, 03.1 failed its time bound (ratio 3.5);
    "none built": one answer refused, one missing; "unnamed": the tests' names not given, and
    03.1 given half its points (--partial-credit)."""
    from course.grading import Exercise  # grading imports this module: not at import time
    fast = Exercise({"lesson": "01_made_up", "number": 1, "name": "warp_aggregated",
                     "time_factor": 2})
    refused = Exercise({"lesson": "02_made_up", "number": 1, "name": "block_sum"})
    slow = Exercise({"lesson": "03_made_up", "number": 1, "name": "bitonic_sort",
                     "time_factor": 2})
    missing = Exercise({"lesson": "04_made_up", "number": 2, "name": "top_k"})
    problems = [(fast, REPORT, "n = 1000, 4097 (seed 7)"), (fast, REPORT, TIME_LINE),
                (refused, BUILD, REFUSAL), (slow, TIMED, SLOW)]
    tests = {fast: [CORRECT, TIMED], refused: [CORRECT], slow: [CORRECT, TIMED]}
    failed = {(e, t): why for e, t, why in problems if t not in (BUILD, REPORT)}
    cases = []
    for exercise, names in tests.items():
        for name in names:
            why = REFUSAL if exercise is refused else failed.get((exercise, name))
            cases.append(junit_case(f"{exercise.prefix}/{name}", exercise.prefix, 1.5,
                                    failure=why))
    mixed = ("ada", [fast, refused, slow], {fast: 10.0, refused: 0.0, slow: 0.0}, problems,
             {fast: 1.59 / 1.63, slow: 3.5}, 7, 12.0, tests, cases)
    gone = f"missing: no {missing.lesson_dir}/{missing.name}.cuh"
    none_built = ("bo", [refused, missing], {refused: 0.0, missing: 0.0},
                  [(refused, BUILD, REFUSAL), (missing, BUILD, gone)], {}, 1 << 63, 3.0,
                  {refused: [CORRECT], missing: [CORRECT]},
                  [junit_case(f"{e.prefix}/{CORRECT}", e.prefix, failure=why)
                   for e, why in ((refused, REFUSAL), (missing, gone))])
    unnamed = ("cy", [fast, slow], {fast: 10.0, slow: 5.0},
               [(slow, TIMED, SLOW)], {fast: 0.5, slow: 3.5}, 0, 1.0, None,
               [junit_case(f"{slow.prefix}/{TIMED}", slow.prefix, failure=SLOW)])
    return {"mixed": mixed, "none built": none_built, "unnamed": unnamed}


def check(fmt, text, grading):
    """The problems of `text` as `fmt`'s file for the made-up `grading`: its format's (CHECKS),
    then, if it has none, what it says (check_content)."""
    problems = CHECKS[fmt](text)
    if problems:
        return problems
    try:
        return check_content(fmt, text, grading)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, ET.ParseError) as error:
        return [f"cannot be read as the grading: {error!r}"]


def check_content(fmt, text, grading):
    """What in `text`, `fmt`'s file for the made-up `grading`, does not say what the grading
    says: each exercise's points of POINTS, an answer that did not build failing with its
    reason, the score's total (and PrairieLearn's fraction, and its gradable), the leaderboard's
    ratios of the exercises that earned their points only."""
    student, exercises, scores, problems, ratios, _, _, tests, cases = grading
    total = sum(scores.values())
    built = {e: next((why for x, t, why in problems if x is e and t == BUILD), "")
             for e in exercises}
    timed = [e for e in exercises if e.factor is not None]
    leaders = {e.column(): ratios[e] for e in timed if scores[e] >= POINTS and e in ratios}
    out = []
    if fmt == "junit":
        suite = ET.fromstring(text.encode("utf-8"))
        if suite.get("name") != student or len(suite.findall("testcase")) != len(cases):
            out.append("not the student's testsuite of every testcase")
        for e, why in built.items():
            if why and not any(why == f.get("message") for f in suite.iter("failure")):
                out.append(f"{e.column()}: its reason {why!r} is not a failure's message")
        return out
    if fmt == "autolab":
        lines = text.splitlines()
        autoresult, feedback = json.loads(lines[-1]), json.loads(lines[-2])
        if autoresult.get("scores") != {e.column(): scores[e] for e in exercises}:
            out.append(f"the scores {autoresult.get('scores')} are not the grading's")
        want = [total] + [round(leaders[e.column()], 4) if e.column() in leaders else None
                          for e in timed] if timed else None
        if autoresult.get("scoreboard") != want:
            out.append(f"the scoreboard {autoresult.get('scoreboard')} is not {want}")
        for e, why in built.items():
            entry = feedback.get(e.column(), {}).get("build", {})
            if why and (entry.get("passed") is not False or why not in entry.get("hint", "")):
                out.append(f"{e.column()}: its build is not failed with its reason: {entry}")
            if scores[e] >= POINTS and not all(v.get("passed") for v in
                                               feedback.get(e.column(), {"": {}}).values()):
                out.append(f"{e.column()} earned its points, but a check failed: {feedback}")
        return out
    results = json.loads(text)
    named = {t.get("name"): t for t in results.get("tests", [])}
    points, most = ("score", "max_score") if fmt == "gradescope" else ("points", "max_points")
    for e in exercises:
        test = named.get(e.column(), {})
        if test.get(most) != POINTS or abs(test.get(points, -1) - scores[e]) > 1e-6:
            out.append(f"{e.column()}: {test.get(points)} of {test.get(most)}, not "
                       f"{scores[e]} of {POINTS}")
        said = test.get("output", "") + test.get("message", "")
        if built[e] and built[e] not in said:
            out.append(f"{e.column()}: its reason {built[e]!r} is not in {said!r}")
        check = named.get(f"{e.column()}: build", {})
        if check.get(most) != 0 or (built[e] and built[e] not in
                                    check.get("output", "") + check.get("message", "")):
            out.append(f"{e.column()}: its build check is not worth 0 with its reason: {check}")
        if fmt == "gradescope" and test.get("status") != ("passed" if scores[e] >= POINTS
                                                          else "failed"):
            out.append(f"{e.column()}: status {test.get('status')!r}")
    extra = sum(t.get(most, 0) for t in named.values()) - POINTS * len(exercises)
    if extra:
        out.append(f"the checks are worth {extra} points, not 0")
    if fmt == "gradescope":
        if abs(results.get("score", -1) - total) > 1e-6:
            out.append(f"score {results.get('score')}, not {total}")
        board = {b["name"].split(":")[0]: b for b in results.get("leaderboard", [])}
        for e in timed:
            entry = board.get(e.column())
            if e.column() in leaders and (not entry or entry.get("order") != "asc" or
                                          abs(entry["value"] - leaders[e.column()]) > 1e-3):
                out.append(f"{e.column()}: its ratio is not on the leaderboard, ascending")
            if e.column() not in leaders and entry:
                out.append(f"{e.column()} did not earn its points but is on the leaderboard")
        if timed and "leaderboard" not in results:
            out.append("no leaderboard")
    else:
        gradable = any(not why for why in built.values())
        if results.get("gradable") is not gradable:
            out.append(f"gradable {results.get('gradable')}, not {gradable}: "
                       f"{sum(not w for w in built.values())} answers built")
        if gradable and abs(results.get("score", -1) - total / (POINTS * len(exercises))) > 1e-4:
            out.append(f"score {results.get('score')}, not {total} / {POINTS * len(exercises)}")
        if not gradable and not all(why in "\n".join(results.get("format_errors", []))
                                    for why in built.values()):
            out.append("the reasons are not all in format_errors")
    return out


def _json_edit(edit):
    def change(text):
        results = json.loads(text)
        edit(results)
        return json.dumps(results, indent=2) + "\n"
    return change


def _tests_edit(key, value, where=lambda t: True):
    def edit(results):
        for test in results["tests"]:
            if where(test):
                test[key] = value
    return _json_edit(edit)


def _autolab_edit(edit):
    def change(text):
        lines = text.splitlines()
        return "\n".join(edit(lines)) + "\n"
    return change


def _junit_edit(edit):
    def change(text):
        suite = ET.fromstring(text.encode("utf-8"))
        edit(suite)
        return ET.tostring(suite, encoding="unicode")
    return change


def _unscored(lines):
    autoresult = json.loads(lines[-1])
    autoresult["scores"] = {k: str(v) for k, v in autoresult["scores"].items()}
    return lines[:-1] + [json.dumps(autoresult)]


def _leaderboard_all(results):
    if "leaderboard" in results:
        results["leaderboard"] = [dict(b, order="desc") for b in results["leaderboard"]]


def _unmessaged(suite):
    for failure in suite.iter("failure"):
        del failure.attrib["message"]


def _flattered(results):
    results["gradable"] = False
    results.pop("score", None)


# A careless writer's output, as each format's checks must catch it: (format, what, change).
MUTATIONS = [
    ("gradescope", "a status Gradescope does not know ('fail')",
     _tests_edit("status", "fail", lambda t: t.get("status") == "failed")),
    ("gradescope", "the refusal's reason left out",
     _tests_edit("output", "failed", lambda t: REFUSAL in t.get("output", ""))),
    ("gradescope", "the ratios' leaderboard sorted descending", _json_edit(_leaderboard_all)),
    ("gradescope", "a check worth points", _tests_edit("max_score", 1,
                                                       lambda t: t.get("max_score") == 0)),
    ("prairielearn", "the score in points, not a fraction of them",
     _json_edit(lambda r: r.update(score=r["score"] * 30) if "score" in r else None)),
    ("prairielearn", "gradable false for a set that partly built", _json_edit(_flattered)),
    ("prairielearn", "the refusal's reason left out",
     _tests_edit("message", "failed", lambda t: REFUSAL in t.get("message", ""))),
    ("autolab", "a line after the autoresult", _autolab_edit(lambda ls: ls + ["grading done"])),
    ("autolab", "the autoresult pretty-printed, on many lines",
     _autolab_edit(lambda ls: ls[:-1] + json.dumps(json.loads(ls[-1]), indent=2).split("\n"))),
    ("autolab", "the autoresult before the feedback", _autolab_edit(
        lambda ls: ls[:-2] + [ls[-1], ls[-2]])),
    ("autolab", "the scores as strings", _autolab_edit(_unscored)),
    ("junit", "the failures miscounted", _junit_edit(
        lambda s: s.set("failures", str(int(s.get("failures")) + 1)))),
    ("junit", "a failure without its message", _junit_edit(_unmessaged)),
]


def selftest():
    """grade.py selftest formats: the problems found (none when every check holds). Each check
    accepts its specification's published examples; each writer's output for each made-up
    grading passes its format's check and says what the grading says, the same text each time
    and its inputs unchanged; and each mutation is caught."""
    problems = []
    for fmt in FORMATS:
        for i, example in enumerate(EXAMPLES[fmt]):
            for problem in CHECKS[fmt](example):
                problems.append(f"{fmt}: the check refuses the specification's example {i + 1}: "
                                f"{problem}")
    gradings = made_up_gradings()
    outputs = {}
    wrong = set()  # (format, grading) whose file fails already: not mutated
    for name, grading in gradings.items():
        before = repr(grading[2:8])
        for fmt in FORMATS:
            text = render(fmt, *grading)
            outputs[fmt, name] = text
            if render(fmt, *grading) != text:
                problems.append(f"{fmt}, {name}: not the same text twice")
            for problem in check(fmt, text, grading):
                problems.append(f"{fmt}, {name}: {problem}")
                wrong.add((fmt, name))
            if any(len(line) > 100000 for line in text.splitlines()):
                problems.append(f"{fmt}, {name}: a line of more than 100000 characters")
        if repr(grading[2:8]) != before:
            problems.append(f"{name}: a writer changed its inputs")
    # JUnit XML as grade.py wrote it before these formats: ElementTree's own file.
    mixed = gradings["mixed"]
    suite = ET.Element("testsuite", name=mixed[0], tests=str(len(mixed[8])))
    for case in mixed[8]:
        suite.append(case)
    suite.set("failures", str(sum(c.find("failure") is not None for c in mixed[8])))
    old = io.BytesIO()
    ET.ElementTree(suite).write(old, encoding="UTF-8", xml_declaration=True)
    if outputs["junit", "mixed"].encode("utf-8") != old.getvalue():
        problems.append("junit: not the file grade.py wrote before")
    caught = 0
    for fmt, what, change in MUTATIONS:
        changed_any = False
        for name, grading in gradings.items():
            if (fmt, name) in wrong:
                continue
            text = outputs[fmt, name]
            changed = change(text)
            if changed == text:
                continue
            changed_any = True
            if not check(fmt, changed, grading):
                problems.append(f"{fmt}, {name}: the checks did not catch {what}")
        if not changed_any:
            problems.append(f"{fmt}: {what} changed no made-up grading's file")
        caught += changed_any
    if not problems:
        shown = outputs["autolab", "mixed"].splitlines()[-1]
        print(f"grade.py selftest formats: ok ({len(FORMATS)} formats, "
              f"{sum(len(e) for e in EXAMPLES.values())} published examples accepted, "
              f"{len(gradings)} made-up gradings written and read back, {caught} of "
              f"{len(MUTATIONS)} mutations caught); Autolab's last line: {shown}")
    return problems
