#!/usr/bin/env bash
# The tools the test suite cross-checks against, installed by the README's test command (`npm test` runs this first;
# so does vitest's global setup, with --check): protoc (protobuf-compiler), xmllint (libxml2-utils), xmlsec1 (the
# independent XML Signature signer and verifier of the WS-Security tests), what the
# official protobuf conformance runner builds with (g++, libprotobuf-dev, libjsoncpp-dev), and the headless browser
# the generated clients are driven in (chromium: test/browser/, over the DevTools protocol; never a downloaded
# browser build), and python's xmlschema (python3-xmlschema: the XSD 1.1 judge of the W3C XSD suite runner,
# conformance/xsd/judge.ts, run as /usr/bin/python3 since a python3 earlier on PATH may lack it). All are Debian
# packages.
#
#   bash scripts/ensure-tools.sh          install what is missing (as root, or through passwordless sudo), then build
#                                         the conformance runner into .specforge-cache/ unless a build of the same
#                                         sources is already there (scripts/conformance-runner.sh)
#   bash scripts/ensure-tools.sh --check  install nothing: exit 1 if anything is missing
#
# When something is missing and cannot be installed (not root, no sudo, apt-get failing), it stops at once with one
# message naming the missing tools and the command that installs them, instead of letting dozens of tests fail with
# `spawnSync protoc ENOENT`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check_only=false
[ "${1:-}" = "--check" ] && check_only=true

# "tool (package)" pairs of what is missing, and the packages to install.
missing=()
packages=()
need() { missing+=("$1 ($2)"); packages+=("$2"); }
command -v protoc >/dev/null 2>&1 || need protoc protobuf-compiler
command -v xmllint >/dev/null 2>&1 || need xmllint libxml2-utils
command -v xmlsec1 >/dev/null 2>&1 || need xmlsec1 xmlsec1
command -v g++ >/dev/null 2>&1 || need g++ g++
[ -f /usr/include/google/protobuf/message.h ] || need "protobuf headers" libprotobuf-dev
[ -f /usr/include/jsoncpp/json/json.h ] || need "jsoncpp headers" libjsoncpp-dev
[ -x /usr/bin/chromium ] || need chromium chromium
/usr/bin/python3 -c "import xmlschema" >/dev/null 2>&1 || need "python xmlschema (XSD 1.1 judge)" python3-xmlschema
# Bazel, for the genrule test of test/build-systems/ (Debian's bootstrap build of Bazel runs offline).
command -v bazel >/dev/null 2>&1 || need bazel bazel-bootstrap

explain() {
  {
    echo "specforge tests: missing tools: $(IFS=,; echo "${missing[*]}" | sed 's/,/, /g')."
    echo "$1"
    echo "Install them with:"
    echo "  sudo apt-get update && sudo apt-get install -y ${packages[*]}"
    echo "(or run the tests as root, which installs them: npm test)"
  } >&2
  exit 1
}

if [ ${#missing[@]} -gt 0 ]; then
  $check_only && explain "Nothing was installed (--check)."
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo=(sudo -n)
  else
    explain "They cannot be installed from here: not root, and no passwordless sudo."
  fi
  echo "installing ${packages[*]}" >&2
  if ! { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null; }; then
    explain "apt-get could not install them (see its message above)."
  fi
fi
$check_only && exit 0
bash "$here/conformance-runner.sh" >/dev/null
