#pragma once
// The CEL rules (x-kubernetes-validations) of the bundled CRDs, written as explicit C++ checks and
// looked up by the rule's text with whitespace collapsed. Transition rules (those that mention
// oldSelf) compare with the stored object, which a file does not have, and are not evaluated.
// docs/validation.md lists which rules are evaluated.
#include "validation/openapi_schema.h"

#include <string_view>

namespace gantry {

// The check for a rule, or nullptr when Gantry has none.
const CelCheck* findCelCheck(std::string_view normalizedRule);

} // namespace gantry
