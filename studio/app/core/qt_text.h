#pragma once
// Text from the engine and the formats (std::string, UTF-8) as Qt shows it.
#include <QString>
#include <string>

namespace gantry::studio {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace gantry::studio
