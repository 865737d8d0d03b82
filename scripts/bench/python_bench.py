"""Validations per second for python-jsonschema and jsonschema-rs on one document.

Each iteration parses the document text with json.loads and validates the
result (validator.is_valid), the same work `trainer-eval bench-validate`
measures for the Swift validator. Times are CPU seconds of this process.
"""
import json
import sys
import time


def rate(iterations, body):
    start = time.process_time()
    for _ in range(iterations):
        if not body():
            raise SystemExit("the benchmark document stopped validating")
    return iterations / (time.process_time() - start)


def main():
    schema_path, instance_path, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    schema = json.load(open(schema_path))
    text = open(instance_path).read()
    document = json.loads(text)

    import jsonschema_rs
    rs = jsonschema_rs.validator_for(schema)
    rate(min(iterations, 2000), lambda: rs.is_valid(json.loads(text)))
    print("jsonschema-rs parse+isValid %.0f" % rate(iterations, lambda: rs.is_valid(json.loads(text))))
    print("jsonschema-rs is-valid %.0f" % rate(iterations, lambda: rs.is_valid(document)))

    import jsonschema
    py = jsonschema.Draft202012Validator(schema)
    slow = max(1, min(iterations, 3000))
    print("python-jsonschema parse+isValid %.0f" % rate(slow, lambda: py.is_valid(json.loads(text))))
    print("python-jsonschema is-valid %.0f" % rate(slow, lambda: py.is_valid(document)))


if __name__ == "__main__":
    main()
