#!/usr/bin/env bash
# scripts/check-layers.sh catches what it is there to catch: on a small tree of our own layout, each
# planted include (or lookup by name) is named, with its file and line, and the clean tree passes.
#
#   tests/layers/check_layers_catches.sh CHECK_LAYERS_SCRIPT
set -euo pipefail
script="${1:?usage: check_layers_catches.sh CHECK_LAYERS_SCRIPT}"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT

put() { mkdir -p "$tree/$(dirname "$1")"; printf '%s\n' "$2" >"$tree/$1"; }

# A clean house: the interface, two profiles, a library both may call, the edge.
put engine/model/cluster.h '#pragma once'
put engine/profile/profile_info.h '#include "model/cluster.h"'
put engine/profile/registry.h '#include "profile/profile_info.h"'
put engine/k8s/kube_scheduler.h '#include "profile/profile_info.h"'
put engine/profiles/kube_default/kube_default_profile.h '#include "profile/profile_info.h"'
put engine/profiles/kueue/kueue_profile.h '#include "profile/profile_info.h"'
put engine/profiles/kueue/internal.h '#pragma once'
put engine/profiles/kueue/pod_placement.cpp '#include "k8s/kube_scheduler.h"
#include "profiles/kueue/internal.h"'
put engine/profiles/factory.cpp '#include "profile/registry.h"
#include "profiles/kueue/kueue_profile.h"
std::vector<ProfileInfo> profileFactory() { return {kueue::profileInfo()}; }'
put formats/yaml/reader.h '#include "model/cluster.h"'
put importers/snapshot.cpp '#include "formats/yaml/reader.h"'
put exporters/validation/rules.cpp '#include "profiles/kueue/kueue_profile.h"'
put studio/app/main.cpp '#include "profile/registry.h"
#include "snapshot.cpp"'

out="$("$script" "$tree" 2>&1)" || { echo "FAIL: the clean tree was refused:"; echo "$out"; exit 1; }

expect() { # what to plant, then a text the report must hold
    local file="$1" text="$2" want="$3" rc=0
    put "$file" "$text"
    out="$("$script" "$tree" 2>&1)" || rc=$?
    rm -f "$tree/$file"
    if [ "$rc" -eq 0 ]; then echo "FAIL: $file was not refused ($text)"; exit 1; fi
    if ! grep -qF -- "$want" <<<"$out"; then echo "FAIL: $file: expected '$want' in:"; echo "$out"; exit 1; fi
    echo "ok: $file: $want"
}

expect engine/profiles/kueue/lookup.cpp '#include "profile/registry.h"' \
    'engine/profiles/kueue/lookup.cpp:1: includes "profile/registry.h": a profile does not look up other profiles by name'
expect engine/profiles/kueue/byname.cpp 'auto* kube = findProfile("kube-default");' \
    'engine/profiles/kueue/byname.cpp:1:auto* kube = findProfile("kube-default");: a profile looks up another profile by name'
expect engine/profiles/kueue/reach.cpp '#include "profiles/kube_default/kube_default_profile.h"' \
    'engine/profiles/kueue/reach.cpp:1: includes "profiles/kube_default/kube_default_profile.h"'
expect exporters/validation/inner.cpp '#include "profiles/kueue/internal.h"' \
    "exporters/validation/inner.cpp:1: includes \"profiles/kueue/internal.h\", a profile's internals"
expect studio/app/inner.cpp '#include "profiles/kueue/internal.h"' \
    "studio/app/inner.cpp:1: includes \"profiles/kueue/internal.h\", a profile's internals"
expect importers/cross.cpp '#include "validation/rules.cpp"' \
    'importers/cross.cpp:1: includes "validation/rules.cpp", which is exporters/validation/rules.cpp'
expect engine/model/up.h '#include "profile/registry.h"' \
    'engine/model/up.h:1: includes "profile/registry.h"'
echo "check-layers catches every planted violation"
