#pragma once
// YuniKorn's name rules, in one place for the reader, the profile, the manifest validator and the
// studio's field checks: queue names (yunikorn-core pkg/common/configs/configvalidator.go,
// QueueNameRegExp), the user and group names an ACL, a limit or a placement filter takes
// (configvalidator.go and pkg/common/security), and the characters that make a filter entry a
// regular expression.
#include <regex>
#include <string_view>

namespace gantry::yunikorn {

// ^[a-zA-Z0-9_:#/@-]{1,64}$, checked by hand (a std::regex match for every part of every
// application's queue path was most of placing it); a test compares the two.
bool validQueueName(std::string_view name);
// The rule in words, for messages.
inline constexpr const char* kQueueNameRule = "1-64 of letters, digits and _ : # / @ - (no dots)";

enum class NamePattern { AclUser, AclGroup, ConfigUser, ConfigGroup, RegexSpecial };

// Compiled once.
const std::regex& namePattern(NamePattern which);

} // namespace gantry::yunikorn
