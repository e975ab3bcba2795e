#pragma once
// fairshare's arithmetic and usage history. The history: per queue and namespace, the tracked resource's
// units times the seconds they ran, decayed by 2^(-elapsed / halfLife). Upstream keeps it in package
// variables for the life of the scheduler process and, with persistState, in a ConfigMap it reads at the
// first session (volcano-sh/volcano PR #5161: pkg/scheduler/plugins/fairshare/{fairshare,persist}.go).
#include "model/fairshare_state.h"
#include "profile/scheduler_profile.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::fairshare {

struct History {
    std::map<std::string, std::map<std::string, double>> usage; // [queue][namespace]
    std::optional<double> lastCycle; // the state's seconds of the last session (globalLastCycle)
    bool lastFromState = false;      // lastCycle is the persisted state's, not a session's
    bool loadTried = false;          // persistOnce
    // As the last session left them, for what the history becomes until the next one: the units
    // each (queue, namespace) runs, each queue's tracked resource, the half-life.
    std::map<std::pair<std::string, std::string>, double> running;
    std::map<std::string, std::string> resourceKeys;
    double halfLifeSeconds = 0;
};

// The usage at time t (the state's seconds, not before the last session) of every (queue,
// namespace) the history holds or that runs: what the sessions the scheduler runs every `period`
// until t make of it while the same pods run.
std::map<std::pair<std::string, std::string>, double> usageAt(const History& h, double t, double period);

// Reads the ConfigMap ns/name among `maps` into the history, as loadState does: absent, or without
// a state, is a fresh start; a state that is not the JSON upstream writes is a fresh start too, and
// the returned warning says where and why. `epochUnix` is the Unix time of the state's time 0.
std::optional<std::string> loadState(History& h, const std::vector<FairshareStateMap>& maps,
                                     const std::string& ns, const std::string& name,
                                     std::optional<int64_t> epochUnix);

// Max-min fair shares of `total` over the positive demands (CalculateFairShares): a demand no
// larger than an equal split of what is left gets all of it, until none is; the rest split equally.
// No share for a demand of zero, and none at all when total is not positive.
std::map<std::string, double> fairShares(const std::map<std::string, double>& demand, double total);

// 2^(-elapsed / halfLife) (DecayFactor).
double decayFactor(double elapsedSeconds, double halfLifeSeconds);

// Every usage decayed by `factor`; those below 0.01 are dropped (decayAllUsage).
void decayAll(History& h, double factor);

// What `sessions` sessions `period` apart add to one usage while `units` run throughout (each
// session decays, then adds units times its elapsed time): units * period * sum of factor^k.
double accrued(double units, double period, int64_t sessions, double halfLifeSeconds);

// The usage of each (queue, namespace) over a simulation, in hours of its tracked resource (GPU-,
// core-, GiB-hours), decayed: the order fairshare puts their jobs in.
class UsageRecorder {
  public:
    void sample(const History& h, double t, double period);
    std::vector<ObjectSeries> series() const;

  private:
    std::map<std::pair<std::string, std::string>, std::vector<double>> usage_;
    std::map<std::string, std::string> keys_; // queue -> resource
    size_t samples_ = 0;
};

} // namespace gantry::engine::fairshare
