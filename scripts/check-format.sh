#!/usr/bin/env bash
# Checks that every C++ source of the project is as clang-format (Debian 12's, 14) writes it, with the
# repository's .clang-format; names each file that differs and how to fix it.
#   scripts/check-format.sh [ROOT]        check
#   scripts/check-format.sh --fix [ROOT]  rewrite the files that differ
set -euo pipefail
fix=0
if [ "${1:-}" = "--fix" ]; then
    fix=1
    shift
fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
command -v clang-format >/dev/null 2>&1 || {
    echo "check-format: clang-format is not installed (./scripts/install-deps.sh --test installs it)" >&2
    exit 1
}
cd "$root"
mapfile -d '' files < <(find engine formats importers exporters studio tests bench \
    -path tests/fuzz/corpus -prune -o \( -name '*.cpp' -o -name '*.h' \) -type f -print0 | sort -z)
[ ${#files[@]} -gt 0 ] || { echo "check-format: no sources under $root" >&2; exit 1; }
if [ $fix -eq 1 ]; then
    printf '%s\0' "${files[@]}" | xargs -0 -n 50 -P "$(nproc)" clang-format -i
    echo "check-format: ${#files[@]} files formatted"
    exit 0
fi
differ="$(printf '%s\0' "${files[@]}" | xargs -0 -n 50 -P "$(nproc)" clang-format --dry-run 2>&1 |
    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)"
if [ -n "$differ" ]; then
    echo "check-format: these files are not as clang-format writes them:"
    echo "$differ" | sed 's/^/  /'
    echo "check-format: run scripts/check-format.sh --fix (or clang-format -i FILE)"
    exit 1
fi
echo "check-format: ${#files[@]} files as clang-format writes them"
