#include "model/resources.h"

#include <algorithm>

namespace gantry {

ResourceUnit unitOf(std::string_view name) {
    if (name == res::Cpu) return ResourceUnit::Milli;
    if (name == res::Memory || name == res::EphemeralStorage || name == "storage" ||
        name.starts_with("hugepages-") || name.starts_with("requests.storage"))
        return ResourceUnit::Bytes;
    if (name == res::Pods) return ResourceUnit::Count;
    return ResourceUnit::Milli;
}

std::optional<int64_t> toAmount(std::string_view name, const Quantity& q) {
    return unitOf(name) == ResourceUnit::Milli ? q.milliValue() : q.value();
}

std::optional<int64_t> parseAmount(std::string_view name, std::string_view text, std::string* error) {
    auto q = Quantity::parse(text, error);
    if (!q) return std::nullopt;
    auto amount = toAmount(name, *q);
    if (!amount && error) *error = "quantity out of range";
    return amount;
}

std::string formatAmount(std::string_view name, int64_t amount) {
    switch (unitOf(name)) {
    case ResourceUnit::Milli:
        return formatQuantity(amount, true, false);
    case ResourceUnit::Bytes:
        return formatQuantity(amount, false, true);
    case ResourceUnit::Count:
        return formatQuantity(amount, false, false);
    }
    return std::to_string(amount);
}

bool isGpuResource(std::string_view name) {
    return name == res::NvidiaGpu || name == "amd.com/gpu" || name == "gpu" || name.ends_with("/gpu");
}

ResourceList::ResourceList(std::initializer_list<Entry> entries) {
    for (const auto& [name, amount] : entries) set(name, amount);
}

namespace {
template <class V> auto findEntry(V& entries, std::string_view name) {
    return std::lower_bound(entries.begin(), entries.end(), name,
                            [](const auto& e, std::string_view n) { return e.first < n; });
}
} // namespace

int64_t ResourceList::get(std::string_view name) const {
    auto it = findEntry(entries_, name);
    return it != entries_.end() && it->first == name ? it->second : 0;
}

bool ResourceList::has(std::string_view name) const {
    auto it = findEntry(entries_, name);
    return it != entries_.end() && it->first == name;
}

void ResourceList::set(std::string_view name, int64_t amount) {
    auto it = findEntry(entries_, name);
    if (it != entries_.end() && it->first == name)
        it->second = amount;
    else
        entries_.insert(it, Entry{std::string(name), amount});
}

void ResourceList::add(std::string_view name, int64_t amount) {
    auto it = findEntry(entries_, name);
    if (it != entries_.end() && it->first == name)
        it->second += amount;
    else
        entries_.insert(it, Entry{std::string(name), amount});
}

void ResourceList::erase(std::string_view name) {
    auto it = findEntry(entries_, name);
    if (it != entries_.end() && it->first == name) entries_.erase(it);
}

ResourceList& ResourceList::operator+=(const ResourceList& other) {
    for (const auto& [name, amount] : other.entries_) add(name, amount);
    return *this;
}

ResourceList& ResourceList::operator-=(const ResourceList& other) {
    for (const auto& [name, amount] : other.entries_) add(name, -amount);
    return *this;
}

bool ResourceList::fitsIn(const ResourceList& other) const {
    return std::all_of(entries_.begin(), entries_.end(),
                       [&](const Entry& e) { return e.second <= other.get(e.first); });
}

ResourceList ResourceList::max(const ResourceList& a, const ResourceList& b) {
    ResourceList out = a;
    for (const auto& [name, amount] : b.entries_)
        if (!out.has(name) || out.get(name) < amount) out.set(name, amount);
    return out;
}

std::string ResourceList::str() const {
    std::string out;
    for (const auto& [name, amount] : entries_) {
        if (!out.empty()) out += ", ";
        out += name + '=' + formatAmount(name, amount);
    }
    return out;
}

} // namespace gantry
