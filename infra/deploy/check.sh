#!/usr/bin/env bash
# The README's Deploy section up to the point where AWS credentials are needed, run as written:
#   1. build:     mvn -B -DskipTests -pl functions/handlers -am package
#   2. package:   what `sam deploy` uploads (the .zip, under its md5) and the template it sends, offline
#   3. transform: the SAM transform CloudFormation applies, then cfn-lint on the result
# Run it from a clean checkout; DeployPathTest runs it on a copy of the repository's tracked files.
set -euo pipefail
cd "$(dirname "$0")/../.."

artifact=functions/handlers/target/fanin-functions-lambda.zip
mvn -B -q -DskipTests -pl functions/handlers -am package
[ -f "$artifact" ] || { echo "check.sh: $artifact was not built" >&2; exit 1; }
python3 -c "import zipfile, sys; z = zipfile.ZipFile(sys.argv[1]); z.getinfo('dev/fanin/lambda/IngestFunction.class')" "$artifact" \
  || { echo "check.sh: $artifact does not hold the handlers" >&2; exit 1; }

mkdir -p target/deploy
python3 infra/deploy/translate.py template.yaml --out target/deploy/template.json 2>/dev/null
cfn-lint -- target/deploy/template.json
echo "check.sh: built $artifact ($(wc -c < "$artifact") bytes), translated and linted target/deploy/template.json"
