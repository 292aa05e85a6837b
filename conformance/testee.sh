#!/bin/sh
# The conformance testee as one executable for the official runner, which execv()s its program argument (no PATH
# lookup, no interpreter arguments) and passes the program's own path again as $1, so arguments are ignored here.
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../node_modules/.bin/tsx" "$here/testee.ts"
