#pragma once
// The name patterns of yunikorn-core's configuration (pkg/common/configs and security): which user
// and group names an ACL, a limit or a placement filter takes, and the characters that make a
// filter entry a regular expression. Shared by the validator and the placement rules.
#include <regex>

namespace gantry::engine::yunikorn {

enum class NamePattern { AclUser, AclGroup, ConfigUser, ConfigGroup, RegexSpecial };

// Compiled once.
const std::regex& namePattern(NamePattern which);

} // namespace gantry::engine::yunikorn
