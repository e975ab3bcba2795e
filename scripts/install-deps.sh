#!/usr/bin/env bash
# Installs the Debian packages Gantry builds and tests with, when any is missing.
set -euo pipefail
packages=(cmake g++ make qt6-base-dev qt6-charts-dev qt6-svg-dev libgl1-mesa-dev libyaml-cpp-dev libyaml-dev pkg-config
          nlohmann-json3-dev libcurl4-openssl-dev libssl-dev zlib1g-dev xvfb xauth openssl)
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
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
