#!/usr/bin/env bash
# Keeps the layers pointing one way: the engine includes nothing of ours and no Qt, formats/ sits on
# the engine, importers and exporters sit on formats/ and never on each other, the studio on top.
# Each #include of a checked file is resolved the way the build resolves it (next to the including
# file, then under each include root); it is a violation when every header it can name lies in a
# folder the file's layer may not include. Run by CTest (test `layers`).
#
#   scripts/check-layers.sh [ROOT]      (ROOT defaults to the repository holding this script)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

# The include roots (target_include_directories of our libraries and executables).
roots="engine formats importers exporters studio/app studio/cli"

# folder: the folders its files may include from, besides the folder itself. A file is ruled by the
# longest folder (or file) that contains it, so engine/model: narrows engine: for engine/model/;
# "F/*" rules each subfolder of F as its own folder (a profile may not include another profile);
# files under no folder here (tests/, bench/) are not checked. docs/architecture.md explains them.
rules='
engine:
engine/model:
engine/state: engine/model
engine/k8s: engine/model engine/state engine/profile
engine/profile: engine/model engine/state
engine/profiles/factory.cpp: engine/model engine/state engine/profile engine/profiles
engine/profiles/*: engine/model engine/state engine/k8s engine/profile engine/fragmentation
engine/fragmentation: engine/model engine/state engine/trace
engine/workload: engine/model
engine/trace: engine/model
engine/report: engine/model
engine/sim: engine/model engine/state engine/profile engine/fragmentation engine/workload engine/trace
engine/plan: engine/model engine/sim
formats: engine
importers: engine formats
exporters: engine formats
studio: engine formats importers exporters
'

# folder, then the <headers> its files must not include (extended regex on the name), then what they are.
forbidden='
engine ^Q[A-Za-z]*$|^Qt[A-Za-z]*/ Qt headers
formats ^Q[A-Za-z]*$|^Qt[A-Za-z]*/ Qt headers
'

folders=$(printf '%s\n' "$rules" | sed -n 's/^\([^:#]*\):.*/\1/p' | tr '\n' ' ')
# The C++ files under the given folders that exist.
cxx_files() {
    local d
    for d in "$@"; do
        if [ -d "$d" ]; then find "$d" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \); fi
    done | sort -u
}
# shellcheck disable=SC2086 # word splitting of the folder lists is meant
known=$(cxx_files $roots)
# shellcheck disable=SC2086
sources=$(cxx_files $folders)
[ -n "$sources" ] || { echo "check-layers: no sources under $folders in $root" >&2; exit 1; }

# shellcheck disable=SC2086
grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' $sources |
    awk -v roots="$roots" -v rules="$rules" -v forbidden="$forbidden" -v known="$known" '
    function norm(p,    n, parts, out, i, k, s) {
        n = split(p, parts, "/")
        k = 0
        for (i = 1; i <= n; i++) {
            if (parts[i] == "." || parts[i] == "") continue
            if (parts[i] == "..") { if (k > 0) k--; continue }
            out[++k] = parts[i]
        }
        s = ""
        for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
        return s
    }
    function under(path, folder) { return path == folder || index(path, folder "/") == 1 }
    function each(f) { return f ~ /\/\*$/ }
    function base(f) { return each(f) ? substr(f, 1, length(f) - 2) : f }
    function ruleOf(file,    f, best) {
        best = ""
        for (f in allow)
            if (under(file, base(f)) && length(f) > length(best)) best = f
        return best
    }
    # The folder a file counts as its own under its rule: for "F/*", the subfolder of F holding it.
    function selfOf(file, rule,    rest) {
        if (!each(rule)) return rule
        rest = substr(file, length(base(rule)) + 2)
        sub(/\/.*/, "", rest)
        return base(rule) "/" rest
    }
    function allowed(target, file, rule,    n, a, i) {
        if (under(target, selfOf(file, rule))) return 1
        n = split(allow[rule], a, " ")
        for (i = 1; i <= n; i++)
            if (under(target, a[i])) return 1
        return 0
    }
    BEGIN {
        nk = split(known, k, "\n")
        for (i = 1; i <= nk; i++) exists[k[i]] = 1
        nroots = split(roots, root, " ")
        nr = split(rules, r, "\n")
        for (i = 1; i <= nr; i++) {
            if (r[i] !~ /:/ || r[i] ~ /^#/) continue
            folder = r[i]; sub(/:.*/, "", folder)
            rest = r[i]; sub(/^[^:]*:[ \t]*/, "", rest)
            allow[folder] = rest
        }
        nf = split(forbidden, fl, "\n")
        for (i = 1; i <= nf; i++) {
            if (split(fl[i], parts, " ") < 3) continue
            what = fl[i]; sub(/^[^ ]+ +[^ ]+ +/, "", what)
            banFolder[++nbans] = parts[1]; banPattern[nbans] = parts[2]; banWhat[nbans] = what
        }
    }
    {
        # file:line:text
        file = $0; sub(/:.*/, "", file)
        rest = substr($0, length(file) + 2)
        line = rest; sub(/:.*/, "", line)
        text = substr(rest, length(line) + 2)
        angle = text ~ /include[ \t]*</
        header = text
        sub(/^[^<"]*[<"]/, "", header)
        sub(/[>"].*$/, "", header)
        rule = ruleOf(file)
        if (rule == "") next
        shown = angle ? "<" header ">" : "\"" header "\""
        if (angle)
            for (b = 1; b <= nbans; b++)
                if (under(file, banFolder[b]) && header ~ banPattern[b]) {
                    printf "%s:%s: includes %s: %s must not include %s\n", file, line, shown, banFolder[b], banWhat[b]
                    bad++
                }
        # Where the header can come from: next to the file (quoted includes only), else under each root.
        ncand = 0
        dir = file; sub(/\/[^\/]*$/, "", dir)
        local = norm(dir "/" header)
        if (!angle && (local in exists)) {
            cand[++ncand] = local
        } else {
            for (i = 1; i <= nroots; i++) {
                p = norm(root[i] "/" header)
                if (p in exists) cand[++ncand] = p
            }
        }
        if (ncand == 0) next # a system, third-party or generated header
        # Profiles are reached at the edge: a profile does not look the others up in the list of
        # profiles (it calls a library, as Kueue calls k8s/kube_scheduler.h), and nothing outside the
        # engine includes the internals of a profile (only profile/registry.h and its NAME_profile.h).
        for (i = 1; i <= ncand; i++) {
            if (under(file, "engine/profiles") && file != "engine/profiles/factory.cpp" &&
                cand[i] == "engine/profile/registry.h") {
                printf "%s:%s: includes %s: a profile does not look up other profiles by name (the list is for the edge; share a library under engine/k8s or engine/state instead)\n", file, line, shown
                bad++
            }
            if (!under(file, "engine") && under(cand[i], "engine/profiles") &&
                cand[i] !~ /^engine\/profiles\/[^\/]+\/[^\/]+_profile\.h$/) {
                printf "%s:%s: includes %s, a profile'"'"'s internals; outside the engine a profile is reached through profile/registry.h or its profiles/NAME/NAME_profile.h\n", file, line, shown
                bad++
            }
        }
        ok = 0
        for (i = 1; i <= ncand; i++) if (allowed(cand[i], file, rule)) ok = 1
        if (!ok) {
            may = "only " selfOf(file, rule) "/"
            n = split(allow[rule], a, " ")
            for (i = 1; i <= n; i++) may = may (i == n ? " and " : ", ") a[i] "/"
            printf "%s:%s: includes %s, which is %s; %s may include %s\n", file, line, shown, cand[1], selfOf(file, rule), may
            bad++
        }
    }
    END {
        if (bad) {
            printf "check-layers: %d include(s) against the layer rules (scripts/check-layers.sh)\n", bad
            exit 1
        }
    }'
# A profile that names another to the registry reaches it by name, whatever it includes.
# shellcheck disable=SC2086
byname=$(grep -nE '(findProfile|profiles)[[:space:]]*\(' $(cxx_files engine/profiles) /dev/null |
    grep -v '^engine/profiles/factory.cpp:' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [ -n "$byname" ]; then
    printf '%s: a profile looks up another profile by name (share a library instead)\n' "$byname"
    echo "check-layers: profiles reaching others by name (scripts/check-layers.sh)"
    exit 1
fi
echo "check-layers: the includes under ${folders% } follow the layer rules"
