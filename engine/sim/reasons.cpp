#include "sim/reasons.h"

#include <algorithm>
#include <cctype>

namespace gantry::sim {

namespace {

void replaceAll(std::string& s, std::string_view what, std::string_view with) {
    if (what.empty()) return;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
        s.replace(at, what.size(), with);
}

// "… <marker><name><one of stops>…" -> "… <marker><placeholder><stop>…"
void replaceAfter(std::string& s, std::string_view marker, std::string_view stops,
                  std::string_view placeholder) {
    for (size_t at = s.find(marker); at != std::string::npos; at = s.find(marker, at + 1)) {
        const size_t from = at + marker.size();
        size_t to = s.find_first_of(stops, from);
        if (to == std::string::npos) to = s.size();
        s.replace(from, to - from, placeholder);
    }
}

bool alnum(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

} // namespace

std::string normalizeReason(std::string_view text, std::string_view podKey, std::string_view jobKey) {
    std::string s(text);
    replaceAll(s, podKey, "<pod>");
    replaceAll(s, jobKey, "<job>");
    replaceAfter(s, "assigned to ", ",", "<node>");
    replaceAfter(s, "In hyperNode ", ":", "<hypernode>");
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (std::isdigit(static_cast<unsigned char>(s[i])) && (i == 0 || !alnum(s[i - 1]))) {
            size_t j = i;
            while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
            if (j == s.size() || !alnum(s[j])) {
                out += 'N';
                i = j;
                continue;
            }
        }
        out += s[i++];
    }
    // "N/N nodes are unavailable: N Insufficient cpu, N Insufficient nvidia.com/gpu." lists its
    // parts sorted by their text with the counts in it; without the counts, sort them again.
    for (const char* marker : {"nodes are unavailable: ", "nodes are available: "}) {
        const size_t at = out.find(marker);
        if (at == std::string::npos) continue;
        const size_t from = at + std::string_view(marker).size();
        // The list ends at the full stop: a '.' before a space or the end (nvidia.com/gpu has one too).
        size_t to = out.find('.', from);
        while (to != std::string::npos && to + 1 < out.size() && out[to + 1] != ' ')
            to = out.find('.', to + 1);
        if (to == std::string::npos) continue;
        std::vector<std::string> parts;
        for (size_t p = from; p < to;) {
            size_t comma = out.find(", ", p);
            if (comma == std::string::npos || comma > to) comma = to;
            parts.push_back(out.substr(p, comma - p));
            p = comma == to ? to : comma + 2;
        }
        std::sort(parts.begin(), parts.end());
        std::string joined;
        for (size_t k = 0; k < parts.size(); ++k) joined += (k ? ", " : "") + parts[k];
        out.replace(from, to - from, joined);
    }
    return out;
}

uint32_t ReasonBook::classify(std::string_view text, std::string_view podKey, std::string_view jobKey) {
    std::string key = normalizeReason(text, podKey, jobKey);
    auto [it, inserted] = index_.emplace(key, uint32_t(names_.size()));
    if (inserted) {
        names_.push_back(std::move(key));
        seconds.push_back(0);
        entries.push_back(0);
    }
    return it->second;
}

std::vector<ReasonTime> ReasonBook::table() const {
    std::vector<ReasonTime> out;
    for (size_t c = 1; c < names_.size(); ++c) out.push_back(ReasonTime{names_[c], seconds[c], entries[c]});
    std::sort(out.begin(), out.end(), [](const ReasonTime& a, const ReasonTime& b) {
        if (a.jobSeconds != b.jobSeconds) return a.jobSeconds > b.jobSeconds;
        return a.reason < b.reason;
    });
    return out;
}

} // namespace gantry::sim
