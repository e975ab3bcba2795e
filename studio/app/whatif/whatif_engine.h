#pragma once
// "Run the project's what-if": the one interface between the studio and whatever computes it (the
// engine's scheduling session today, the time-based simulator when it exists). Implementations run
// on a worker thread, report progress, stop early when asked, and return an immutable result.
#include "model/project.h"
#include "whatif/whatif_result.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace gantry::studio {

struct WhatIfControl {
    std::function<void(double fraction, const std::string& stage)> progress; // fraction in [0, 1]
    const std::atomic<bool>* cancel = nullptr;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

class WhatIfEngine {
  public:
    virtual ~WhatIfEngine() = default;
    // Empty when the engine can run; otherwise why not, in words for the user.
    virtual std::string unavailableReason() const = 0;
    // Runs the project's what-if under a scheduler profile (a name from engine/profile/registry.h).
    // Throws std::exception (InputError for bad project content) with a message for the user.
    // Returns nullptr when cancelled. The runner fills in the revision, then shares it as const.
    virtual std::unique_ptr<WhatIfResult> run(const Project& project, const std::string& profile,
                                              const WhatIfControl& control) = 0;
};

// The engine built into this studio.
std::unique_ptr<WhatIfEngine> makeDefaultWhatIfEngine();

} // namespace gantry::studio
