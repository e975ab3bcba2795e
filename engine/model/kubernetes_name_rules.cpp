#include "model/kubernetes_names.h"

namespace gantry {

namespace {

bool lowerAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool alnum(char c) {
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
}

bool isLabel(std::string_view s) {
    if (s.empty() || s.size() > 63 || !lowerAlnum(s.front()) || !lowerAlnum(s.back())) return false;
    for (char c : s)
        if (!lowerAlnum(c) && c != '-') return false;
    return true;
}

// [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at most 63 characters.
std::string checkNamePart(std::string_view s, const char* what) {
    if (s.empty()) return std::string(what) + " must be non-empty";
    if (s.size() > 63) return std::string(what) + " must be no more than 63 characters";
    bool ok = alnum(s.front()) && alnum(s.back());
    for (char c : s) ok = ok && (alnum(c) || c == '-' || c == '_' || c == '.');
    if (!ok)
        return std::string(what) +
               " must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
               "alphanumeric character";
    return {};
}

} // namespace

std::string checkDns1123Label(std::string_view name) {
    if (name.empty()) return "must be non-empty";
    if (name.size() > 63) return "must be no more than 63 characters";
    if (!isLabel(name))
        return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
               "must "
               "start and end with an alphanumeric character";
    return {};
}

std::string checkDns1123Subdomain(std::string_view name) {
    if (name.empty()) return "must be non-empty";
    if (name.size() > 253) return "must be no more than 253 characters";
    size_t start = 0;
    while (true) {
        size_t dot = name.find('.', start);
        std::string_view part =
            name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        bool ok = !part.empty() && lowerAlnum(part.front()) && lowerAlnum(part.back());
        for (char c : part) ok = ok && (lowerAlnum(c) || c == '-');
        if (!ok)
            return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
                   "or '.', "
                   "and must start and end with an alphanumeric character";
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return {};
}

std::string checkQualifiedName(std::string_view name) {
    size_t slash = name.find('/');
    if (slash != std::string_view::npos) {
        if (name.find('/', slash + 1) != std::string_view::npos)
            return "a qualified name must be a name with an optional DNS subdomain prefix and '/'";
        std::string_view prefix = name.substr(0, slash);
        if (prefix.empty()) return "prefix part must be non-empty";
        std::string why = checkDns1123Subdomain(prefix);
        if (!why.empty()) return "prefix part " + why;
        return checkNamePart(name.substr(slash + 1), "name part");
    }
    return checkNamePart(name, "name part");
}

std::string checkLabelValue(std::string_view value) {
    if (value.empty()) return {};
    return checkNamePart(value, "a valid label value");
}

} // namespace gantry
