#!/usr/bin/env bash
# Debian packages the test suite cross-checks against: protoc (protobuf-compiler) and xmllint (libxml2-utils).
# Installs whatever is missing; needs root (CI and these machines run as root).
set -euo pipefail
missing=()
command -v protoc >/dev/null 2>&1 || missing+=(protobuf-compiler)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
