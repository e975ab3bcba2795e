#include "profiles/kueue/context.h"

#include "profiles/kueue/tas.h"

namespace gantry::engine::kueue {

void Context::removeWorkload(uint32_t wl) {
    removed[wl] = 1;
    const Workload& x = wls[wl];
    kueue::removeUsage(this->w, x.cq, x.usage);
    if (tas)
        for (size_t i = 0; i < x.admission.size() && i < x.podSets.size(); ++i)
            if (x.admission[i].topology && x.admission[i].topologyFlavor >= 0)
                tas->addUsage(x.admission[i].topologyFlavor, *x.admission[i].topology, x.podSets[i].shape,
                              -1);
}

void Context::addWorkload(uint32_t wl) {
    removed[wl] = 0;
    const Workload& x = wls[wl];
    kueue::addUsage(this->w, x.cq, x.usage);
    if (tas)
        for (size_t i = 0; i < x.admission.size() && i < x.podSets.size(); ++i)
            if (x.admission[i].topology && x.admission[i].topologyFlavor >= 0)
                tas->addUsage(x.admission[i].topologyFlavor, *x.admission[i].topology, x.podSets[i].shape,
                              +1);
}

} // namespace gantry::engine::kueue
