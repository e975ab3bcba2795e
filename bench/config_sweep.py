#!/usr/bin/env python3
"""Configuration sweep (issue 31): the simulator must cost sessions plus evictions, whatever the
configuration says. Draws valid scheduler configurations with a seed, runs `gantry simulate` on the
inventory of bench/make_sim_inventory.py under each, and prints per configuration its CPU time, the
ratio to the plain run of the same profile (the inventory's own policy), its pod evictions and the
cost per eviction. A configuration misses when its time is over 3x plain plus 50 us per eviction,
or when it runs out of --timeout; each miss is written to --keep (default bench/config-sweep-misses/)
as a configuration file named by the draw's seed and index, so it can be run again as a kept case.

  bench/config_sweep.py [--nodes 2000] [--pods 200000] [--horizon 4h] [--count 12] [--seed 1]
                        [--profiles volcano,kueue] [--timeout 300] [--keep DIR]

What is drawn:
  volcano  actions: enqueue, allocate, then preempt and/or reclaim or neither, backfill or not;
           tier 1: priority, gang (enablePreemptable / enableJobStarving as written or left to the
           plugin's default), conformance; tier 2: overcommit or not, drf (enablePreemptable drawn,
           hierarchy off: the flat inventory), predicates, proportion or capacity, nodeorder,
           binpack or not, deviceshare (the inventory's shared-GPU pods need it).
  kueue    a Configuration with fair sharing on (each preemption strategy list) or off; the
           ClusterQueues are the inventory's queues as exported (preemption from the policy).
YuniKorn's partition settings (preemption, node sort policy) and the hierarchy modes (a queue tree
inventory) are not drawn yet.
Run it alone on the machine: the figures are whole-process CPU times (/usr/bin/time).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def plugin(name, **switches):
    lines = [f"  - name: {name}"]
    for key, value in switches.items():
        if value is not None:
            lines.append(f"    {key}: {'true' if value else 'false'}")
    return "\n".join(lines)


def draw_volcano(rng):
    actions = ["enqueue", "allocate"]
    evict = rng.choice([[], ["preempt"], ["reclaim"], ["preempt", "reclaim"]])
    actions += evict
    if rng.random() < 0.7:
        actions.append("backfill")
    maybe = lambda: rng.choice([None, True, False])  # written on or off, or the plugin's default
    tier1 = [plugin("priority"),
             plugin("gang", enablePreemptable=maybe(), enableJobStarving=maybe()),
             plugin("conformance")]
    tier2 = []
    if rng.random() < 0.6:
        tier2.append(plugin("overcommit"))
    tier2.append(plugin("drf", enablePreemptable=maybe()))
    tier2.append(plugin("predicates"))
    tier2.append(plugin(rng.choice(["proportion", "capacity"])))
    tier2.append(plugin("nodeorder"))
    if rng.random() < 0.7:
        tier2.append(plugin("binpack"))
    tier2.append(plugin("deviceshare"))
    text = f'actions: "{", ".join(actions)}"\ntiers:\n- plugins:\n' + "\n".join(tier1) + \
           "\n- plugins:\n" + "\n".join(tier2) + "\n"
    return text


def draw_kueue(rng):
    fair = rng.choice([None, ["LessThanOrEqualToFinalShare", "LessThanInitialShare"],
                       ["LessThanInitialShare"], ["LessThanOrEqualToFinalShare"]])
    text = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
    if fair is not None:
        text += "fairSharing:\n  preemptionStrategies: [" + ", ".join(fair) + "]\n"
    return text


def run(gantry, inventory, profile, horizon, conf, timeout):
    cmd = ["/usr/bin/time", "-f", "%U %S %M", gantry, "simulate", inventory, "--json",
           "--profile", profile, "--horizon", horizon]
    if conf:
        cmd += ["--scheduler-conf", conf]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0:
        raise RuntimeError(f"gantry simulate failed ({p.returncode}): {p.stderr.strip()[-500:]}")
    user, system, rss = p.stderr.strip().splitlines()[-1].split()
    d = json.loads(p.stdout)
    return {"cpu": float(user) + float(system), "rss_kib": int(rss),
            "evictions": d["preemption"]["pod_evictions"], "pods": d["pods"]["total"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--pods", type=int, default=200000)
    ap.add_argument("--horizon", default="4h")
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profiles", default="volcano,kueue")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--keep", default=os.path.join(ROOT, "bench", "config-sweep-misses"))
    a = ap.parse_args()
    gantry = os.path.join(os.environ.get("GANTRY_BUILD_DIR", os.path.join(ROOT, "build")), "studio", "gantry")
    if not os.access(gantry, os.X_OK):
        sys.exit("build gantry first (./scripts/build.sh)")
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="config-sweep-")
    inventory = os.path.join(work, "inventory.yaml")
    with open(inventory, "w") as f:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_sim_inventory.py"), str(a.nodes),
                        str(a.pods)], stdout=f, check=True)
    profiles = a.profiles.split(",")
    draws = {"volcano": draw_volcano, "kueue": draw_kueue}
    print(f"config sweep: {a.nodes} nodes, {a.pods} pods, horizon {a.horizon}, seed {a.seed}, "
          f"{a.count} configurations per profile")
    print(f"{'profile':8} {'#':>3} {'cpu s':>8} {'x plain':>8} {'evictions':>10} {'us/evict':>9} "
          f"{'B/pod':>6}  verdict")
    misses = 0
    for profile in profiles:
        plain = run(gantry, inventory, profile, a.horizon, None, a.timeout)
        if plain is None:
            print(f"{profile:8} plain run over {a.timeout:.0f} s: nothing to compare with")
            continue
        print(f"{profile:8} {'-':>3} {plain['cpu']:8.2f} {1.0:8.2f} {plain['evictions']:10d} {'-':>9} "
              f"{plain['rss_kib'] * 1024 // max(plain['pods'], 1):6d}  plain")
        for i in range(a.count):
            text = draws[profile](rng)
            conf = os.path.join(work, f"{profile}-{i}.conf")
            with open(conf, "w") as f:
                f.write(text)
            r = run(gantry, inventory, profile, a.horizon, conf, a.timeout)
            if r is None:
                verdict, line = "MISS (timeout)", f"{'>' + str(int(a.timeout)):>8} {'-':>8} {'-':>10} {'-':>9} {'-':>6}"
            else:
                budget = 3 * plain["cpu"] + 50e-6 * r["evictions"]
                over = max(0.0, r["cpu"] - plain["cpu"])
                per = f"{over / r['evictions'] * 1e6:9.0f}" if r["evictions"] else f"{'-':>9}"
                verdict = "ok" if r["cpu"] <= budget else "MISS"
                line = (f"{r['cpu']:8.2f} {r['cpu'] / max(plain['cpu'], 1e-9):8.2f} {r['evictions']:10d} {per} "
                        f"{r['rss_kib'] * 1024 // max(r['pods'], 1):6d}")
            print(f"{profile:8} {i:3d} {line}  {verdict}")
            if verdict != "ok":
                misses += 1
                os.makedirs(a.keep, exist_ok=True)
                name = f"{profile}-seed{a.seed}-{i}.conf"
                with open(os.path.join(a.keep, name), "w") as f:
                    f.write(f"# missed in bench/config_sweep.py --nodes {a.nodes} --pods {a.pods} --horizon "
                            f"{a.horizon} --seed {a.seed} ({verdict})\n" + text)
    print(f"{misses} configuration(s) missed" + (f"; kept in {a.keep}" if misses else ""))


if __name__ == "__main__":
    main()
