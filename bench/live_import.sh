#!/usr/bin/env bash
# Benchmark of `gantry import`: a loopback API server (the tests' server, real TLS, gzip above 128 KiB,
# client-certificate auth) holding NODES nodes and PODS pods, read with the default page size of 500.
# Prints the import's wall time and peak memory (from /usr/bin/time -v) and the snapshot's size.
#   bench/live_import.sh [NODES [PODS]]        (defaults: 5000 nodes, 100000 pods)
# Target (issue 6): 5,000 nodes and 100,000 pods in under 20 s with under 1 GiB peak memory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
nodes="${1:-5000}"
pods="${2:-100000}"
cmake --build "$build" --target gantry gantry-loopback-apiserver -j2 >/dev/null
work="$(mktemp -d)"
trap 'exec 3>&- 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
mkfifo "$work/stdin"
"$build/tests/live/gantry-loopback-apiserver" --dir "$work" --nodes "$nodes" --pods "$pods" <"$work/stdin" >"$work/ready" &
exec 3>"$work/stdin" # the server runs until this closes
for _ in $(seq 1 600); do
    grep -q ready "$work/ready" 2>/dev/null && break
    sleep 0.5
done
grep -q ready "$work/ready" || { echo "server did not start" >&2; exit 1; }
echo "server: $nodes nodes, $pods pods on port $(awk '{print $2}' "$work/ready")"
/usr/bin/time -v "$build/studio/gantry" import --kubeconfig "$work/kubeconfig" --out "$work/snapshot.yaml" --quiet \
    2>"$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
grep -E "wrote" "$work/time.txt" || true
wall="$(grep 'Elapsed (wall clock)' "$work/time.txt" | awk '{print $NF}')"
rss_kb="$(grep 'Maximum resident set size' "$work/time.txt" | awk '{print $NF}')"
size="$(stat -c %s "$work/snapshot.yaml")"
echo "import wall time: $wall"
echo "import peak memory: $((rss_kb / 1024)) MiB"
echo "snapshot: $((size / 1048576)) MiB, $(grep -c '^kind: Pod$' "$work/snapshot.yaml") pods, $(grep -c '^kind: Node$' "$work/snapshot.yaml") nodes"
