"""The W3C XSD suite runner's XSD 1.1 judge: one long-lived process around python's xmlschema (Debian's
python3-xmlschema; run it with /usr/bin/python3, which has it). conformance/xsd/judge.ts starts it once and talks
to it in JSON lines on stdin/stdout, one request per line, one answer per line, in order:

  {"schema": "/abs/path.xsd", "version": "1.1" | "1.0", "files": ["/abs/a.xml", ...], "texts": ["<x/>", ...]}
  -> {"schemaError": "..."}                               the schema does not load (the reason, shortened)
  -> {"files": [[true, ""], [false, "reason"]], "texts": [...]}   per file, then per text: valid, first error

Schemas are compiled once per (path, version) and kept (a group's instances are judged in one request). Nothing is
fetched: schemas load with allow="local" (xmlschema's own copies of xml.xsd and XLink's schema stay usable through
its fallback locations), instances with allow="local" and defuse="always" (no DTD, no entity expansion).
"""
import json
import sys

import xmlschema

_schemas = {}


def short(e):
    text = getattr(e, "reason", None) or str(e)
    return " ".join(str(text).split())[:300]


def schema_for(path, version):
    key = (path, version)
    if key not in _schemas:
        cls = xmlschema.XMLSchema11 if version == "1.1" else xmlschema.XMLSchema10
        try:
            _schemas[key] = (cls(path, allow="local"), None)
        except Exception as e:  # noqa: BLE001 - every load failure is an answer, never a crash of the judge
            _schemas[key] = (None, short(e))
        if len(_schemas) > 64:
            _schemas.pop(next(iter(_schemas)))
    return _schemas[key]


def judge(schema, source):
    try:
        resource = xmlschema.XMLResource(source, allow="local", defuse="always")
        for err in schema.iter_errors(resource):
            return [False, short(err)]
        return [True, ""]
    except Exception as e:  # noqa: BLE001 - not well-formed, unreadable: invalid, with the reason
        return [False, short(e)]


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            schema, error = schema_for(req["schema"], req.get("version", "1.1"))
            if schema is None:
                answer = {"schemaError": error}
            else:
                answer = {
                    "files": [judge(schema, f) for f in req.get("files", [])],
                    "texts": [judge(schema, t) for t in req.get("texts", [])],
                }
        except Exception as e:  # noqa: BLE001 - a bad request is answered, the process lives on
            answer = {"error": short(e)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
