"""SARIF output of the audit (ds_audit_sarif) checked against the SARIF 2.1.0 schema.

What this checks, honestly: the JSON schema (sarif-schema-2.1.0.json, OASIS, the errata01 version
published in oasis-tcs/sarif-spec Schemata/) is not on this machine and there is no PyPI here for a
JSON-schema validator. So the definitions below are a hand transcription, read from the published
schema, of the parts of it that our documents use: for each definition, its "required" and "anyOf
required" members, "additionalProperties": false (the property names it allows), the JSON types of
the properties we emit, their enums ("version", "level", "kind", suppression "kind"/"status") and
integer minimums ("ruleIndex" >= -1, "startLine" >= 1), and the "$ref"s that lead from one object to
the next. A small validator walks the document with them.

It does not check: "format" (uri, uri-reference), "uniqueItems", "pattern", definitions we never
emit (they are rejected as unknown if a member we do not transcribe appears, because every
transcribed definition is closed like the schema's own), nor a full JSON Schema draft-04 semantics.
"""

import os
import unittest

import daemonset.audit as audit

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "vectors", "audit", "corpus")

# type names: "string", "integer", "boolean", "object", "array", or ("ref", name), ("array", item), ("enum", [...])
S, I, B = "string", "integer", "boolean"
LEVELS = ["none", "note", "warning", "error"]

DEFS = {
    "sarifLog": {
        "required": ["version", "runs"],
        "props": {"$schema": S, "version": ("enum", ["2.1.0"]), "runs": ("array", ("ref", "run")),
                  "inlineExternalProperties": ("array", "object"), "properties": ("ref", "propertyBag")},
    },
    "run": {
        "required": ["tool"],
        "props": {"tool": ("ref", "tool"), "results": ("array", ("ref", "result")),
                  "invocations": ("array", "object"), "artifacts": ("array", "object"),
                  "logicalLocations": ("array", ("ref", "logicalLocation")), "language": S,
                  "columnKind": ("enum", ["utf16CodeUnits", "unicodeCodePoints"]),
                  "properties": ("ref", "propertyBag")},
        "open_unlisted": True,  # run has many members we never emit; the ones we emit are typed above
    },
    "tool": {
        "required": ["driver"],
        "props": {"driver": ("ref", "toolComponent"), "extensions": ("array", ("ref", "toolComponent")),
                  "properties": ("ref", "propertyBag")},
    },
    "toolComponent": {
        "required": ["name"],
        "props": {"guid": S, "name": S, "organization": S, "product": S, "productSuite": S,
                  "shortDescription": ("ref", "multiformatMessageString"),
                  "fullDescription": ("ref", "multiformatMessageString"), "fullName": S, "version": S,
                  "semanticVersion": S, "dottedQuadFileVersion": S, "releaseDateUtc": S, "downloadUri": S,
                  "informationUri": S, "rules": ("array", ("ref", "reportingDescriptor")),
                  "notifications": ("array", ("ref", "reportingDescriptor")),
                  "taxa": ("array", ("ref", "reportingDescriptor")), "language": S,
                  "isComprehensive": B, "properties": ("ref", "propertyBag")},
        "open_unlisted": True,
    },
    "reportingDescriptor": {
        "required": ["id"],
        "props": {"id": S, "deprecatedIds": ("array", S), "guid": S, "deprecatedGuids": ("array", S), "name": S,
                  "deprecatedNames": ("array", S), "shortDescription": ("ref", "multiformatMessageString"),
                  "fullDescription": ("ref", "multiformatMessageString"), "messageStrings": "object",
                  "defaultConfiguration": ("ref", "reportingConfiguration"), "helpUri": S,
                  "help": ("ref", "multiformatMessageString"), "relationships": ("array", "object"),
                  "properties": ("ref", "propertyBag")},
    },
    "reportingConfiguration": {
        "props": {"enabled": B, "level": ("enum", LEVELS), "rank": "number",
                  "parameters": ("ref", "propertyBag"), "properties": ("ref", "propertyBag")},
    },
    "multiformatMessageString": {
        "required": ["text"],
        "props": {"text": S, "markdown": S, "properties": ("ref", "propertyBag")},
    },
    "message": {
        "anyOf": [["text"], ["id"]],
        "props": {"text": S, "markdown": S, "id": S, "arguments": ("array", S),
                  "properties": ("ref", "propertyBag")},
    },
    "result": {
        "required": ["message"],
        "props": {"ruleId": S, "ruleIndex": (I, -1), "rule": "object",
                  "kind": ("enum", ["notApplicable", "pass", "fail", "review", "open", "informational"]),
                  "level": ("enum", LEVELS), "message": ("ref", "message"),
                  "analysisTarget": ("ref", "artifactLocation"), "locations": ("array", ("ref", "location")),
                  "guid": S, "correlationGuid": S, "occurrenceCount": (I, 1),
                  "partialFingerprints": ("map", S), "fingerprints": ("map", S),
                  "relatedLocations": ("array", ("ref", "location")),
                  "suppressions": ("array", ("ref", "suppression")),
                  "baselineState": ("enum", ["new", "unchanged", "updated", "absent"]), "rank": "number",
                  "properties": ("ref", "propertyBag")},
        "open_unlisted": True,
    },
    "location": {
        "props": {"id": (I, -1), "physicalLocation": ("ref", "physicalLocation"),
                  "logicalLocations": ("array", ("ref", "logicalLocation")), "message": ("ref", "message"),
                  "annotations": ("array", ("ref", "region")), "relationships": ("array", "object"),
                  "properties": ("ref", "propertyBag")},
    },
    "physicalLocation": {
        "anyOf": [["address"], ["artifactLocation"]],
        "props": {"address": "object", "artifactLocation": ("ref", "artifactLocation"), "region": ("ref", "region"),
                  "contextRegion": ("ref", "region"), "properties": ("ref", "propertyBag")},
    },
    "artifactLocation": {
        "props": {"uri": S, "uriBaseId": S, "index": (I, -1), "description": ("ref", "message"),
                  "properties": ("ref", "propertyBag")},
    },
    "region": {
        "anyOf": [["startLine"], ["charOffset"], ["byteOffset"]],
        "props": {"startLine": (I, 1), "startColumn": (I, 1), "endLine": (I, 1), "endColumn": (I, 1),
                  "charOffset": (I, -1), "charLength": (I, 0), "byteOffset": (I, -1), "byteLength": (I, 0),
                  "snippet": "object", "message": ("ref", "message"), "sourceLanguage": S,
                  "properties": ("ref", "propertyBag")},
    },
    "logicalLocation": {
        "props": {"name": S, "index": (I, -1), "fullyQualifiedName": S, "decoratedName": S,
                  "parentIndex": (I, -1), "kind": S, "properties": ("ref", "propertyBag")},
    },
    "suppression": {
        "required": ["kind"],
        "props": {"guid": S, "kind": ("enum", ["inSource", "external"]),
                  "status": ("enum", ["accepted", "underReview", "rejected"]), "justification": S,
                  "location": ("ref", "location"), "properties": ("ref", "propertyBag")},
    },
    "propertyBag": {"props": {"tags": ("array", S)}, "additional": True},
}


class SchemaError(AssertionError):
    pass


def check_type(value, t, where):
    if isinstance(t, str):
        ok = {"string": isinstance(value, str),
              "integer": isinstance(value, int) and not isinstance(value, bool),
              "boolean": isinstance(value, bool),
              "object": isinstance(value, dict),
              "array": isinstance(value, list),
              "number": isinstance(value, (int, float)) and not isinstance(value, bool)}[t]
        if not ok:
            raise SchemaError("%s: expected %s, got %r" % (where, t, value))
        return
    kind = t[0]
    if kind == "ref":
        validate(value, t[1], where)
    elif kind == "array":
        check_type(value, "array", where)
        for i, item in enumerate(value):
            check_type(item, t[1], "%s[%d]" % (where, i))
    elif kind == "map":
        check_type(value, "object", where)
        for k, v in value.items():
            check_type(v, t[1], "%s.%s" % (where, k))
    elif kind == "enum":
        if value not in t[1]:
            raise SchemaError("%s: %r not in %r" % (where, value, t[1]))
    elif kind == "integer":
        check_type(value, "integer", where)
        if value < t[1]:
            raise SchemaError("%s: %d below the minimum %d" % (where, value, t[1]))
    else:
        raise AssertionError("bad transcription %r" % (t,))


def validate(obj, name, where="$"):
    d = DEFS[name]
    check_type(obj, "object", where)
    for k in d.get("required", []):
        if k not in obj:
            raise SchemaError("%s (%s): missing required %s" % (where, name, k))
    if "anyOf" in d and not any(all(k in obj for k in alt) for alt in d["anyOf"]):
        raise SchemaError("%s (%s): needs one of %r" % (where, name, d["anyOf"]))
    for k, v in obj.items():
        if k in d["props"]:
            check_type(v, d["props"][k], "%s.%s" % (where, k))
        elif not d.get("additional") and not d.get("open_unlisted"):
            raise SchemaError("%s (%s): property %s is not allowed" % (where, name, k))
        elif d.get("open_unlisted"):
            # the schema's definition is closed too; we only did not transcribe members we never emit
            raise SchemaError("%s (%s): %s is not transcribed here: extend DEFS from the schema" % (where, name, k))


def corpus_reports():
    reports = []
    for name in sorted(os.listdir(CORPUS)):
        with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
            r = audit.audit(f.read())
        r["file"] = "tests/vectors/audit/corpus/" + name
        reports.append(r)
    return reports


class SarifSchemaTest(unittest.TestCase):
    def test_corpus_log_is_valid(self):
        reports = corpus_reports()
        log = audit.audit_sarif(reports)
        validate(log, "sarifLog")
        run = log["runs"][0]
        self.assertEqual(len(run["results"]), sum(len(r["findings"]) for r in reports))
        # every result points at a rule of the driver, and at its file and line
        rules = run["tool"]["driver"]["rules"]
        for res in run["results"]:
            self.assertEqual(rules[res["ruleIndex"]]["id"], res["ruleId"])
            phys = res["locations"][0]["physicalLocation"]
            self.assertTrue(phys["artifactLocation"]["uri"].startswith("tests/vectors/audit/corpus/"))
            self.assertGreater(phys["region"]["startLine"], 0)

    def test_lines_point_at_the_field(self):
        reports = corpus_reports()
        log = audit.audit_sarif(reports)
        for res in log["runs"][0]["results"]:
            phys = res["locations"][0]["physicalLocation"]
            path = os.path.join(HERE, "..", "..", phys["artifactLocation"]["uri"])
            with open(path, encoding="utf-8") as f:
                line = f.read().split("\n")[phys["region"]["startLine"] - 1]
            field = res["properties"]["path"]
            # the line holds the field's last segment that exists in the file, e.g. "path:" for hostPath.path
            segments = [s for s in field.replace("[", ".[").split(".") if s and not s.startswith("[")]
            self.assertTrue(any(s + ":" in line or line.lstrip().startswith("- ") for s in segments),
                            "%s: line %r" % (field, line))

    def test_single_report_and_suppressions(self):
        with open(os.path.join(CORPUS, "fluent-bit.yaml"), encoding="utf-8") as f:
            r = audit.audit(f.read())
        log = audit.audit_sarif(r)
        validate(log, "sarifLog")
        sup = [res for res in log["runs"][0]["results"] if "suppressions" in res]
        self.assertEqual(sorted(res["ruleId"] for res in sup), ["readOnlyRootFilesystem", "serviceAccountToken"])
        self.assertEqual(sup[0]["suppressions"][0]["kind"], "inSource")
        # no file: logical locations only
        self.assertNotIn("physicalLocation", log["runs"][0]["results"][0]["locations"][0])

    def test_validator_rejects(self):
        # the validator itself: each of these breaks one transcribed rule of the schema
        good = audit.audit_sarif([])
        validate(good, "sarifLog")
        bad = [
            {"runs": []},
            {"version": "2.0.0", "runs": []},
            {"version": "2.1.0", "runs": [{}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                           "results": [{"message": {"text": "m"}, "level": "critical"}]}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                           "results": [{"message": {"text": "m"}, "locations": [
                                               {"physicalLocation": {"region": {"startLine": 0}}}]}]}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{"name": "r"}]}}}]},
            {"version": "2.1.0", "runs": [], "extra": 1},
        ]
        for doc in bad:
            with self.assertRaises(SchemaError, msg=repr(doc)):
                validate(doc, "sarifLog")


if __name__ == "__main__":
    unittest.main()
