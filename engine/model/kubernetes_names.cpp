#include "model/kubernetes_names.h"

#include <algorithm>
#include <cctype>

namespace gantry {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

} // namespace

std::string dnsSubdomain(const std::string& name) {
    std::string s;
    for (unsigned char c : lower(name)) s += (std::isalnum(c) || c == '-' || c == '.') ? char(c) : '-';
    // Every dot-separated part starts and ends with an alphanumeric character.
    std::string out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t dot = s.find('.', start);
        std::string part = s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        size_t a = part.find_first_not_of('-'), b = part.find_last_not_of('-');
        part = a == std::string::npos ? std::string() : part.substr(a, b - a + 1);
        if (!part.empty()) {
            if (!out.empty()) out += '.';
            out += part;
        }
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    if (out.empty()) return "x";
    if (out.size() > 253) out.resize(253);
    while (!out.empty() && !std::isalnum(static_cast<unsigned char>(out.back()))) out.pop_back();
    return out;
}

std::string dnsLabel(const std::string& name) {
    std::string s = dnsSubdomain(name);
    std::replace(s.begin(), s.end(), '.', '-');
    if (s.size() > 63) s.resize(63);
    while (!s.empty() && s.back() == '-') s.pop_back();
    return s.empty() ? "x" : s;
}

} // namespace gantry
