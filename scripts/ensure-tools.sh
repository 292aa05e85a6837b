#!/usr/bin/env bash
# Debian packages the test suite cross-checks against: protoc (protobuf-compiler), xmllint (libxml2-utils), what
# the official protobuf conformance runner builds with (g++, libprotobuf-dev, libjsoncpp-dev), and the headless
# browser the generated clients are driven in (chromium: test/browser/, over the DevTools protocol; never a
# downloaded browser build). Installs whatever is
# missing (needs root: CI and these machines run as root), then builds the runner into .specforge-cache/ unless a
# build of the same sources is already there (scripts/conformance-runner.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
missing=()
command -v protoc >/dev/null 2>&1 || missing+=(protobuf-compiler)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -f /usr/include/google/protobuf/message.h ] || missing+=(libprotobuf-dev)
[ -f /usr/include/jsoncpp/json/json.h ] || missing+=(libjsoncpp-dev)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
bash "$here/conformance-runner.sh" >/dev/null
