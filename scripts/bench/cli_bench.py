"""Files per second through `trainer-eval validate` beside a jsonschema-rs loop.

Generates FILES instance documents varied from scripts/bench/program.json (about
one in ten invalid) in a temporary folder, 100 per subfolder, then times, in
interleaved rounds:

- `trainer-eval validate --schema SCHEMA FOLDER` (the folder walked recursively),
- `trainer-eval validate --schema SCHEMA -` with the paths on standard input,
- `xargs trainer-eval validate --schema SCHEMA` with the paths as arguments, as a
  shell glob hands them (xargs packs thousands into each call),
- a Python loop with jsonschema-rs over the same paths: read each file, json.loads,
  validator.is_valid.

Times are wall-clock seconds, best of ROUNDS. The CLI runs are whole processes
(start-up, schema compilation and writing every report line included); the
Python loop is timed inside the interpreter, so its start-up and import are not.
Both sides must agree on how many files are valid.

Usage: python3 cli_bench.py BINARY SCHEMA TEMPLATE FILES ROUNDS
"""
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time

EQUIPMENT = ["bodyweight", "mat", "resistance-band", "dumbbell", "kettlebell", "barbell", "bench",
             "pull-up-bar", "jump-rope", "pool"]
EXERCISES = ["Goblet squat", "Romanian deadlift", "Reverse lunge", "Push-up", "Plank", "Bent-over row",
             "Glute bridge", "Easy run", "Intervals", "Farmer carry", "Dead bug", "Step-up", "Swim drills"]


def varied(template, rng):
    """A valid program like the template, with every list and number varied."""
    doc = copy.deepcopy(template)
    doc["title"] = rng.choice(["Home Strength", "5K Base", "Mobility First", "Busy Parent Plan"]) + " #%d" % rng.randrange(10**6)
    doc["duration_weeks"] = rng.randint(1, 52)
    doc["days_per_week"] = rng.randint(1, 7)
    doc["session_minutes"] = rng.randint(10, 180)
    doc["equipment"] = rng.sample(EQUIPMENT, rng.randint(1, 5))
    sessions = []
    for day in range(1, rng.randint(1, 7) + 1):
        session = copy.deepcopy(rng.choice(template["sessions"]))
        session["day"] = day
        session["minutes"] = rng.randint(5, 180)
        session["exercises"] = []
        for _ in range(rng.randint(1, 8)):
            exercise = {"name": rng.choice(EXERCISES), "sets": rng.randint(1, 10),
                        "reps": rng.choice(["8-10", "12", "30 s", "8 each side", "15 min"]),
                        "rest_seconds": rng.randint(0, 300)}
            if rng.random() < 0.5:
                exercise["notes"] = rng.choice(["Keep heels down", "Slow on the way down", "Conversational pace"])
            session["exercises"].append(exercise)
        sessions.append(session)
    doc["sessions"] = sessions
    doc["progression"] = doc["progression"][: rng.randint(1, 3)]
    doc["safety_notes"] = doc["safety_notes"][: rng.randint(0, 2)]
    return doc


def broken(doc, rng):
    """One realistic mistake a model makes, against the schema."""
    mistake = rng.randrange(7)
    if mistake == 0:
        doc["sessions"][0]["exercises"][0]["sets"] = 12
    elif mistake == 1:
        doc["hieght"] = 170
    elif mistake == 2:
        del doc["goal"]
    elif mistake == 3:
        doc["equipment"].append("treadmill")
    elif mistake == 4:
        doc["progression"][0]["weeks"] = "week 1"
    elif mistake == 5:
        doc["sessions"][-1]["day"] = 9
    else:
        doc["days_per_week"] = "three"
    return doc


def generate(template, folder, count):
    """Writes `count` instances below `folder`; returns their paths in sorted order."""
    rng = random.Random(2020_12)
    paths = []
    for index in range(count):
        subfolder = os.path.join(folder, "batch-%03d" % (index // 100))
        if index % 100 == 0:
            os.makedirs(subfolder)
        doc = varied(template, rng)
        if rng.random() < 0.1:
            doc = broken(doc, rng)
        path = os.path.join(subfolder, "program-%05d.json" % index)
        with open(path, "w") as file:
            json.dump(doc, file, indent=2 if index % 2 else None)
        paths.append(path)
    return sorted(paths)


def time_cli(command, stdin_path, output_path):
    """Wall seconds of one CLI run, and how many reports said `valid`."""
    with open(stdin_path) as stdin, open(output_path, "w") as output:
        start = time.perf_counter()
        status = subprocess.run(command, stdin=stdin, stdout=output).returncode
        elapsed = time.perf_counter() - start
    # xargs exits 123 when a call exited 1 to 125 (here: invalid files were found).
    if status not in (0, 1, 123):
        raise SystemExit("%s exited %d" % (" ".join(command), status))
    with open(output_path) as output:
        return elapsed, sum(1 for line in output if line.endswith(": valid\n"))


def time_python(validator, paths):
    """Wall seconds of the jsonschema-rs loop, and how many files it found valid."""
    start = time.perf_counter()
    valid = 0
    for path in paths:
        with open(path, "rb") as file:
            if validator.is_valid(json.loads(file.read())):
                valid += 1
    return time.perf_counter() - start, valid


def main():
    binary, schema_path, template_path, count, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    import jsonschema_rs
    with open(schema_path) as file:
        validator = jsonschema_rs.validator_for(json.load(file))
    with open(template_path) as file:
        template = json.load(file)

    with tempfile.TemporaryDirectory(prefix="bench-validate-") as work:
        folder = os.path.join(work, "instances")
        paths = generate(template, folder, count)
        list_path, output_path = os.path.join(work, "paths.txt"), os.path.join(work, "out.txt")
        with open(list_path, "w") as file:
            file.write("\n".join(paths) + "\n")
        size = sum(os.path.getsize(path) for path in paths) / len(paths)

        runs = {
            "folder": lambda: time_cli([binary, "validate", "--schema", schema_path, folder], os.devnull, output_path),
            "stdin": lambda: time_cli([binary, "validate", "--schema", schema_path, "-"], list_path, output_path),
            "xargs": lambda: time_cli(["xargs", binary, "validate", "--schema", schema_path], list_path, output_path),
            "python": lambda: time_python(validator, paths),
        }
        best, valid_counts = {}, {}
        for _ in range(rounds):
            for name, run in runs.items():
                seconds, valid = run()
                best[name] = min(best.get(name, seconds), seconds)
                valid_counts.setdefault(name, set()).add(valid)
        if len(set.union(*valid_counts.values())) != 1:
            raise SystemExit("the validators disagree on how many files are valid: %s" % valid_counts)

    rate = {name: count / seconds for name, seconds in best.items()}
    invalid = count - valid_counts["python"].pop()
    print("%d instance files (%.1f KB on average, %d invalid) in %d folders; best of %d interleaved rounds; wall time"
          % (count, size / 1024, invalid, (count + 99) // 100, rounds))
    print("%-44s %10s" % ("command", "files/s"))
    print("%-44s %10.0f" % ("trainer-eval validate --schema S FOLDER", rate["folder"]))
    print("%-44s %10.0f" % ("trainer-eval validate --schema S - (paths)", rate["stdin"]))
    print("%-44s %10.0f" % ("xargs trainer-eval validate --schema S", rate["xargs"]))
    print("%-44s %10.0f" % ("jsonschema-rs (Python loop: read+parse+valid)", rate["python"]))
    print("ratio to jsonschema-rs: folder %.2fx, standard input %.2fx, xargs %.2fx"
          % (rate["folder"] / rate["python"], rate["stdin"] / rate["python"], rate["xargs"] / rate["python"]))


if __name__ == "__main__":
    main()
