#pragma once
// One page of a Kubernetes list, read as a stream of JSON events and written straight out as YAML
// documents, one per item, trimmed by keepField() as it goes: no document tree is built, so a page of
// 500 pods costs one pass over its text. Items of built-in lists get the apiVersion and kind they come
// without; pods that finished and PodGroups that completed are left out and counted.
#include <cstddef>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>

namespace gantry::live {

// The JSON of a page is malformed at `byte` (>= its size: it ends too early).
struct MalformedJson : std::runtime_error {
    MalformedJson(size_t at, const std::string& message) : std::runtime_error(message), byte(at) {}
    size_t byte;
};

// The JSON is well formed but is not a Kubernetes list.
struct NotAList : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct StreamedPage {
    std::string continueToken;
    std::optional<int64_t> remaining; // metadata.remainingItemCount
    size_t items = 0;                 // in the page
    size_t written = 0;               // as YAML documents
    size_t skipped = 0;               // finished pods, completed PodGroups
};

// Appends the page's items to `out`. `itemKind` is the kind the request lists ("Pod"), used when the
// list does not say. Throws MalformedJson or NotAList.
StreamedPage streamListPage(const std::string& json, const std::string& itemKind, std::string& out);
StreamedPage streamListPage(std::istream& json, const std::string& itemKind, std::string& out);

} // namespace gantry::live
