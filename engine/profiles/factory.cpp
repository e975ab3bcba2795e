// The factory of scheduler profiles, as Volcano's plugins/factory.go is for its plugins: the one list
// of the schedulers Gantry emulates. Adding a scheduler: its folder under engine/profiles/ with a
// profileInfo() function, and one line here (docs/architecture.md, "Add a scheduler profile").
#include "profile/registry.h"
#include "profiles/kube_default/kube_default_profile.h"
#include "profiles/kueue/kueue_profile.h"
#include "profiles/volcano/volcano_profile.h"
#include "profiles/yunikorn/yunikorn_profile.h"

namespace gantry::engine {

std::vector<ProfileInfo> profileFactory() {
    // The first is the one a run uses when none is named.
    return {volcano::profileInfo(), kueue::profileInfo(), yunikorn::profileInfo(),
            kube_default::profileInfo()};
}

} // namespace gantry::engine
