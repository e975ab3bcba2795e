#include "profiles/yunikorn/name_patterns.h"

namespace gantry::engine::yunikorn {

const std::regex& namePattern(NamePattern which) {
    static const std::regex patterns[] = {
        std::regex(R"(^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$)"),    // AclUser
        std::regex(R"(^[_a-zA-Z][a-zA-Z0-9_-]*$)"),          // AclGroup
        std::regex(R"(^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$)"), // ConfigUser
        std::regex(R"(^[_a-zA-Z][a-zA-Z0-9:_.-]*$)"),        // ConfigGroup
        std::regex(R"([\^$*+?()\[{}|])"),                    // RegexSpecial
    };
    return patterns[int(which)];
}

} // namespace gantry::engine::yunikorn
