#!/usr/bin/env bash
# Installs the Debian 12 packages Gantry builds, tests and runs with, when any is missing.
# Every package is named here: apt runs with --no-install-recommends, so nothing may come in as a
# Recommends of another (libqt6opengl6-dev, which Qt6Charts' CMake config needs, is only a
# Recommends of qt6-base-dev). ../shared/tools/fresh-debian proves the list on a fresh Debian 12.
set -euo pipefail
packages=(
    # build tools
    cmake ninja-build g++ make pkg-config
    # Qt 6: Widgets, Charts, Network, Test; Charts' CMake config requires Qt6OpenGL's
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libgl1-mesa-dev
    # the studio's window (xcb) and screenshots (offscreen) platform plugins, and a font to draw with
    qt6-qpa-plugins fonts-dejavu-core
    # libraries
    libyaml-cpp-dev libyaml-dev nlohmann-json3-dev libcurl4-openssl-dev
    # the programs' allocator (CMake option GANTRY_JEMALLOC)
    libjemalloc-dev
    # the live-import tests' loopback HTTPS API server
    libssl-dev zlib1g-dev openssl ca-certificates
    # the history tests' real Prometheus: prometheus and promtool, both in this package (Go programs
    # that need only libc; its Depends are the web UI's JavaScript). The tests start their own on a
    # free loopback port; on a systemd host the package also starts a prometheus service on :9090.
    prometheus
)
# --test adds what only the test command needs: clang-format, which the suite's `format` test runs
# (scripts/check-format.sh); the test command asks for it itself, so the first command stays lean.
# --dev adds that and what only developers need: clang for the fuzz targets (scripts/fuzz.sh).
case "${1:-}" in
--test) packages+=(clang-format) ;;
--dev) packages+=(clang-format clang) ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# kubectl is optional (the live-import tests cross-check with it when present); any kubectl on
# PATH will do, whichever package brought it, so Debian's is only asked for when none is there.
command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi
echo "install-deps: installing ${#missing[@]} Debian packages and what they depend on: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# -qq keeps apt to errors; dpkg's own per-package lines are dropped, the last lines kept for errors.
log="$(mktemp)"
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    tail -n 30 "$log"
    rm -f "$log"
    echo "install-deps: apt-get install failed (above)" >&2
    exit 1
fi
rm -f "$log"
echo "install-deps: done"
