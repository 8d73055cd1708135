#!/usr/bin/python3
"""validate_suite.py - every JSON file 'ipxlab bench suite' wrote into DIR
against its JSON Schema in SCHEMAS (docs/schema): suite.json, each
bN-NAME.json (suite-result.json) and the benchmark's own JSON inside it
(bench-NAME.json). Debian's python3-jsonschema. Prints one line per file;
exit 1 if any file fails, has no schema, or a schema is not valid itself.

usage: validate_suite.py DIR SCHEMAS
"""
import glob
import json
import os
import sys

import jsonschema


def load(path):
    with open(path) as f:
        return json.load(f)


def check(doc, schema, what, bad):
    cls = jsonschema.validators.validator_for(schema)
    errs = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
    for e in errs[:5]:
        path = "/".join(str(p) for p in e.absolute_path)
        print("INVALID %s at /%s: %s" % (what, path, e.message[:200]))
    if errs:
        bad.append(what)
    else:
        print("valid   %s" % what)


def main():
    d, sdir = sys.argv[1], sys.argv[2]
    bad, seen = [], set()
    schemas = {}
    for p in sorted(glob.glob(os.path.join(sdir, "*.json"))):
        s = load(p)
        jsonschema.validators.validator_for(s).check_schema(s)
        schemas[os.path.basename(p)[:-5]] = s
    suite = load(os.path.join(d, "suite.json"))
    check(suite, schemas["suite"], "suite.json", bad)
    seen.add("suite.json")
    for b in suite.get("benchmarks", []):
        f = b["file"]
        doc = load(os.path.join(d, f))
        seen.add(f)
        check(doc, schemas["suite-result"], f, bad)
        name = "bench-" + doc.get("benchmark", "?")
        if doc.get("result") is None:
            print("INVALID %s: no result" % f)
            bad.append(f)
        elif name not in schemas:
            print("INVALID %s: no schema %s.json" % (f, name))
            bad.append(f)
        else:
            check(doc["result"], schemas[name], f + " result", bad)
    for p in glob.glob(os.path.join(d, "*.json")):
        if os.path.basename(p) not in seen:
            print("INVALID %s: not listed in suite.json" % p)
            bad.append(p)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
