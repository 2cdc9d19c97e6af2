#!/usr/bin/env python3
"""What `sam deploy` makes of template.yaml before CloudFormation sees it, without AWS credentials.

1. Package (as `sam package` does): every local CodeUri becomes s3://BUCKET/<md5 of the file>, the key SAM uploads
   the artifact under, so a change of the code is a change of the key.
2. Transform (as CloudFormation's AWS::Serverless-2016-10-31 transform does, with the same aws-sam-translator that
   cfn-lint ships): the SAM resources become plain CloudFormation, with the given parameter values.

Writes the translated template as JSON (--out, default stdout). With --versions it prints instead, per function,
the logical id of its published version and that version's description with the parameters substituted: what
decides whether a deploy publishes a new version (a new logical id, or a changed description, which CloudFormation
can only apply by replacing the version).

With --versions-matrix it reads a JSON list of runs from stdin, each {"params": {NAME: VALUE}, "codeKey": KEY},
and prints the versions of each run (one process for many translations: the translator takes a second to load).

Usage: translate.py TEMPLATE [--artifact FILE | --code-key KEY] [--bucket B] [--param NAME=VALUE]... [--out FILE]
                    [--versions | --versions-matrix]
"""
import argparse
import copy
import hashlib
import json
import os
import re
import sys

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # the translator needs a region; nothing is called

from samtranslator.translator.transform import transform  # noqa: E402
from samtranslator.yaml_helper import yaml_parse  # noqa: E402


class NoManagedPolicies:
    """The template names no managed policy, so the translator needs no IAM look-up."""

    def load(self):
        return {}


def md5(path):
    digest = hashlib.md5()  # noqa: S324 - the key `sam package` uses, not a security measure
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def package(template, template_dir, bucket, artifact, code_key):
    """Replaces every local CodeUri by the S3 URI sam package would upload it to."""
    def s3_uri(code_uri):
        if not isinstance(code_uri, str) or code_uri.startswith("s3://"):
            return code_uri
        if code_key:
            return "s3://%s/%s" % (bucket, code_key)
        path = artifact or os.path.join(template_dir, code_uri)
        if not os.path.isfile(path):
            sys.exit("translate.py: %s does not exist; build it first: mvn -B -DskipTests package" % path)
        return "s3://%s/%s" % (bucket, md5(path))

    function_globals = template.get("Globals", {}).get("Function", {})
    if "CodeUri" in function_globals:
        function_globals["CodeUri"] = s3_uri(function_globals["CodeUri"])
    for resource in template.get("Resources", {}).values():
        if resource.get("Type") == "AWS::Serverless::Function" and "CodeUri" in resource.get("Properties", {}):
            resource["Properties"]["CodeUri"] = s3_uri(resource["Properties"]["CodeUri"])


def parameter_values(template, given):
    values = {name: str(p["Default"]) for name, p in template.get("Parameters", {}).items() if "Default" in p}
    values.update(given)
    return values


def substitute(value, parameters):
    """A Fn::Sub of parameters (the only form version descriptions use) as CloudFormation resolves it."""
    if isinstance(value, dict) and set(value) == {"Fn::Sub"} and isinstance(value["Fn::Sub"], str):
        def one(match):
            name = match.group(1)
            if name not in parameters:
                sys.exit("translate.py: version description refers to ${%s}, which is not a parameter" % name)
            return parameters[name]
        return re.sub(r"\$\{([A-Za-z0-9]+)\}", one, value["Fn::Sub"])
    return value


def versions(translated, parameters):
    found = {}
    for logical_id, resource in translated["Resources"].items():
        if resource["Type"] == "AWS::Lambda::Version":
            function = resource["Properties"]["FunctionName"]["Ref"]
            found[function] = {
                "version": logical_id,
                "description": substitute(resource["Properties"].get("Description"), parameters),
            }
    return found


def main():
    parser = argparse.ArgumentParser(description="package and transform template.yaml offline")
    parser.add_argument("template")
    parser.add_argument("--artifact", help="the code artifact (default: each CodeUri, relative to the template)")
    parser.add_argument("--code-key", help="use this S3 key instead of an artifact's md5 (no build needed)")
    parser.add_argument("--bucket", default="fanin-artifacts-example")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--out")
    parser.add_argument("--versions", action="store_true")
    parser.add_argument("--versions-matrix", action="store_true")
    args = parser.parse_args()

    with open(args.template) as f:
        template = yaml_parse(f.read())
    template_dir = os.path.dirname(os.path.abspath(args.template))

    def run(given, code_key):
        unknown = set(given) - set(template.get("Parameters", {}))
        if unknown:
            sys.exit("translate.py: unknown parameters %s" % sorted(unknown))
        packaged = copy.deepcopy(template)
        package(packaged, template_dir, args.bucket, args.artifact, code_key)
        parameters = parameter_values(packaged, given)
        return parameters, transform(packaged, parameters, NoManagedPolicies())

    if args.versions_matrix:
        output = [versions(*reversed(run(r.get("params", {}), r.get("codeKey")))) for r in json.load(sys.stdin)]
    else:
        parameters, translated = run(dict(p.split("=", 1) for p in args.param), args.code_key)
        output = versions(translated, parameters) if args.versions else translated
    text = json.dumps(output, indent=1, sort_keys=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
