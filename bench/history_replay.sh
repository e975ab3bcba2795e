#!/usr/bin/env bash
# Benchmark of the history replay (issue 34): a made-up month of a large GPU cluster loaded into a real
# Prometheus (Debian's prometheus and promtool), read back with `gantry import --prometheus` over the
# whole window, then replayed with `gantry simulate`. Prints the time, peak memory and queries of the
# import, Prometheus' own peak memory while it answered, and the time and memory of the replay.
#   bench/history_replay.sh [NODES [DAYS [PODS [SCRAPE_SECONDS]]]]
#       defaults: 5000 8-GPU nodes, 30 days, 1000000 pods, kube-state-metrics scraped every 180 s
# GANTRY_BENCH_DIR keeps the work (TSDB, history, logs) in that folder; it needs a few GiB.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GANTRY_BUILD_DIR:-$root/build}"
nodes="${1:-5000}"
days="${2:-30}"
pods="${3:-1000000}"
scrape="${4:-180}"
for p in prometheus promtool; do
    command -v "$p" >/dev/null || { echo "history_replay: $p is not installed (Debian package prometheus)" >&2; exit 1; }
done
cmake --build "$build" --target gantry gantry-history-fixture -j2 >/dev/null
if [ -n "${GANTRY_BENCH_DIR:-}" ]; then
    work="$GANTRY_BENCH_DIR"
    mkdir -p "$work"
else
    work="$(mktemp -d)"
fi
prom_pid=""
cleanup() {
    [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null || true
    # A kept work folder must not make the trap's status, the script's, a failure.
    if [ -z "${GANTRY_BENCH_DIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<<"$1"; }
measure() { # FILE: "wall s, peak MiB" from /usr/bin/time -v
    local wall rss
    wall="$(grep 'Elapsed (wall clock)' "$1" | awk '{print $NF}')"
    rss="$(grep 'Maximum resident set size' "$1" | awk '{print $NF}')"
    echo "$(seconds "$wall") s wall, $((rss / 1024)) MiB peak"
}

echo "history_replay: $nodes nodes, $days days, $pods pods, scraped every ${scrape}s; work in $work"
if [ ! -f "$work/fixture.txt" ]; then
    rm -rf "$work/tsdb"
    /usr/bin/time -v "$build/tests/history/gantry-history-fixture" --tsdb "$work/tsdb" --nodes "$nodes" \
        --days "$days" --pods "$pods" --scrape "$scrape" >"$work/fixture.txt" 2>"$work/fixture-time.txt" ||
        { tail -20 "$work/fixture-time.txt" >&2; exit 1; }
fi
cat "$work/fixture.txt"
echo "TSDB: $(du -sh "$work/tsdb" | cut -f1)"
read -r _ start end < <(grep '^window' "$work/fixture.txt")

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
printf 'global:\n  scrape_interval: 1h\n' >"$work/prometheus.yml"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --storage.tsdb.retention.time=100y --storage.tsdb.max-block-duration=6h \
    --web.listen-address="127.0.0.1:$port" >"$work/prometheus.log" 2>&1 &
prom_pid=$!
for _ in $(seq 1 600); do
    grep -q "Server is ready" "$work/prometheus.log" && break
    sleep 0.5
done
grep -q "Server is ready" "$work/prometheus.log" || { tail -20 "$work/prometheus.log" >&2; exit 1; }
echo "prometheus: ready on port $port ($(grep -c . "$work/prometheus.log") log lines), $(awk '/VmRSS/ {print int($2/1024)}' /proc/$prom_pid/status) MiB before the import"

/usr/bin/time -v "$build/studio/gantry" import --prometheus "http://127.0.0.1:$port" --start "$start" --end "$end" \
    --step "${scrape}s" --request-timeout 5m --out "$work/history.yaml" 2>"$work/import.txt" ||
    { tail -20 "$work/import.txt" >&2; exit 1; }
grep -E "gantry import: (wrote|note|warning)" "$work/import.txt" || true
echo "import: $(measure "$work/import.txt")"
echo "prometheus: $(awk '/VmHWM/ {print int($2/1024)}' /proc/$prom_pid/status) MiB peak while answering"
echo "history file: $(( $(stat -c %s "$work/history.yaml") / 1048576 )) MiB"

/usr/bin/time -v "$build/studio/gantry" simulate "$work/history.yaml" --json >"$work/replay.json" \
    2>"$work/replay.txt" || { tail -20 "$work/replay.txt" >&2; exit 1; }
echo "replay: $(measure "$work/replay.txt")"
python3 - "$work/replay.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
j, p, g = d["jobs"], d["pods"], d["gpu"]
print(f"replay: {j['total']} jobs ({p['total']} pods), {j['completed']} completed, "
      f"{j['pending_at_end']} pending at the end; mean GPU allocation {g['mean_allocation_pct']:.1f}% "
      f"over {d['end_seconds'] / 86400:.1f} simulated days")
EOF
