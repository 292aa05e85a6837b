#!/usr/bin/env bash
# Prints the path of the official protobuf conformance_test_runner (v21.12, sources in ../shared/conformance-runner),
# building it first if the cache has no build of these exact sources. The cache folder is keyed by a hash of the
# runner's sources and build script, so a changed runner gets a fresh build and an unchanged one is never rebuilt.
# Needs the apt packages scripts/ensure-tools.sh installs (g++, libprotobuf-dev, libjsoncpp-dev, protobuf-compiler).
# Build log goes to stderr; stdout is only the runner's path.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
src=${SPECFORGE_CONFORMANCE_RUNNER_SRC:-$repo/../shared/conformance-runner}
[ -f "$src/build.sh" ] || { echo "conformance runner sources not found at $src" >&2; exit 1; }
src=$(cd "$src" && pwd)
hash=$(cd "$src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
out="$repo/.specforge-cache/conformance-runner/$hash"
if [ ! -x "$out/conformance_test_runner" ]; then
  echo "building the conformance runner into $out (a few minutes, once)" >&2
  # Build into a temporary folder and rename it, so an interrupted build never leaves a half-written runner behind.
  tmp=$(mktemp -d "$repo/.specforge-cache/conformance-runner.tmp.XXXXXX" 2>/dev/null || { mkdir -p "$repo/.specforge-cache"; mktemp -d "$repo/.specforge-cache/conformance-runner.tmp.XXXXXX"; })
  # build.sh copies its sources into a scratch folder and compiles there; shared/ may be read-only (CI lays it out
  # without write bits), and a non-root user cannot write into copies that keep those bits. So build from a copy
  # whose files are ours and writable.
  sources=$(mktemp -d "$repo/.specforge-cache/conformance-runner.src.XXXXXX")
  cp -r "$src/." "$sources/"
  chmod -R u+w "$sources"
  trap 'rm -rf "$sources"' EXIT
  bash "$sources/build.sh" "$tmp" >&2
  mkdir -p "$(dirname "$out")"
  rm -rf "$out"
  mv "$tmp" "$out"
fi
echo "$out/conformance_test_runner"
