#pragma once
// The comparison rules of the Kueue conformance suite (tests/data/conformance/kueue/README.md and
// compare.py there), in C++: admissions with their ClusterQueue, flavors, counts, Admitted condition
// and topology placement; preempted and pending sets (exact where expected.json pins them, else at
// least) with their reasons; the queues after the cycle.
#include <nlohmann/json.hpp>
#include <string>

namespace gantry::test {

// The first difference between `gantry cycle --profile kueue --json` output and expected.json, or
// empty when they agree.
std::string compareKueue(const nlohmann::json& expected, const nlohmann::json& got);

} // namespace gantry::test
