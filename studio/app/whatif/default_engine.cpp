// The what-if engine compiled into this studio. The engine library does not yet provide a
// scheduling session, so the studio says so instead of inventing numbers.
#include "whatif/whatif_engine.h"

namespace gantry::studio {
namespace {

class UnavailableEngine : public WhatIfEngine {
public:
    std::string unavailableReason() const override {
        return "This build has no scheduling engine yet, so what-if runs are not available. "
               "Everything else (editing, topology, export) works; results appear once the engine is built in.";
    }
    std::unique_ptr<WhatIfResult> run(const Project&, WhatIfProfile, const WhatIfControl&) override { return nullptr; }
};

} // namespace

std::unique_ptr<WhatIfEngine> makeDefaultWhatIfEngine() { return std::make_unique<UnavailableEngine>(); }

} // namespace gantry::studio
