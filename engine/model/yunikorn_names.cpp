#include "model/yunikorn_names.h"

namespace gantry::yunikorn {

bool validQueueName(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '_' || c == ':' || c == '#' || c == '/' || c == '@' || c == '-';
        if (!ok) return false;
    }
    return true;
}

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

} // namespace gantry::yunikorn
