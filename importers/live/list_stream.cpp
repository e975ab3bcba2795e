#include "live/list_stream.h"

#include "live/snapshot_sanitize.h"
#include "yaml/yaml_scalar.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace gantry::live {

namespace {

using json = nlohmann::json;

// The snapshot's strings: plain only when identifier-like, literal blocks for config files.
constexpr PlainStrings kSnapshotStrings = PlainStrings::IdentifiersOnly;

// Writes one item as block YAML while JSON events arrive. A container's line ("key:" or "- ") is held
// back until its first child, so an empty one can still be written as "key: {}".
class ItemWriter {
  public:
    ItemWriter(std::string_view kind, std::string& out) : kind_(kind), out_(out) {}

    void begin() {
        start_ = out_.size();
        out_ += "---\n";
        frames_.clear();
        path_.clear();
        frames_.push_back(Frame{false, 0, false, false, true, {}});
        flushed_ = 1;
        skipContainers_ = 0;
        skipValue_ = false;
        pendingKey_.clear();
        hasKind_ = hasApiVersion_ = false;
        phase_.clear();
    }

    // Finishes the item; false when it was dropped (a finished pod). `apiVersion`/`kind` of the list
    // are added when the item has none.
    bool end(const std::string& apiVersion, const std::string& listItemKind) {
        std::string effectiveKind = hasKind_ ? itemKind_ : listItemKind;
        bool finished = (effectiveKind == "Pod" && (phase_ == "Succeeded" || phase_ == "Failed")) ||
                        (effectiveKind == "PodGroup" && phase_ == "Completed");
        if (finished) {
            out_.resize(start_);
            return false;
        }
        // The list's apiVersion and kind come from the server: quoted like any other string.
        std::string head;
        if (!hasApiVersion_ && !apiVersion.empty()) {
            head += "apiVersion: ";
            appendYamlStringValue(apiVersion, kSnapshotStrings, 2, head);
        }
        if (!hasKind_ && !listItemKind.empty()) {
            head += "kind: ";
            appendYamlStringValue(listItemKind, kSnapshotStrings, 2, head);
        }
        if (!head.empty()) out_.insert(start_ + 4, head);
        return true;
    }

    void key(const std::string& k) {
        if (skipContainers_ > 0) return;
        if (!keepField(kind_, path_, k)) {
            skipValue_ = true;
            return;
        }
        pendingKey_ = k;
    }

    void scalar(const char* text, size_t size) {
        if (skipValue()) return;
        openLine();
        out_.append(text, size);
        out_ += '\n';
    }

    void string(const std::string& s) {
        if (skipValue()) return;
        noteFacts(s);
        openLine();
        appendYamlStringValue(s, kSnapshotStrings, frames_.back().indent + 2, out_);
    }

    void startContainer(bool array) {
        if (skipContainers_ > 0) {
            ++skipContainers_;
            return;
        }
        if (skipValue_) {
            skipValue_ = false;
            skipContainers_ = 1;
            return;
        }
        Frame& parent = frames_.back();
        Frame f;
        f.array = array;
        std::string prefix;
        bool inlineHere = parent.inlineFirst && !parent.any;
        if (!inlineHere) prefix.append(size_t(parent.indent), ' ');
        if (parent.array) {
            prefix += '-';
            f.underKey = false;
            f.indent = parent.indent + 2;
            f.inlineFirst = true;
            path_.push_back("[]");
        } else {
            appendYamlScalar(pendingKey_, kSnapshotStrings, prefix);
            prefix += ':';
            f.underKey = true;
            f.indent = array ? parent.indent : parent.indent + 2; // kubectl: "- " at the key's column
            f.inlineFirst = false;
            path_.push_back(pendingKey_);
        }
        f.prefix = std::move(prefix);
        parent.any = true;
        frames_.push_back(std::move(f));
    }

    void endContainer() {
        if (skipContainers_ > 0) {
            --skipContainers_;
            return;
        }
        Frame& f = frames_.back();
        if (flushed_ < frames_.size()) { // nothing inside: "key: {}" / "- []"
            flushParents(frames_.size() - 1);
            out_ += f.prefix;
            out_ += f.array ? " []\n" : " {}\n";
        }
        frames_.pop_back();
        path_.pop_back();
        if (flushed_ > frames_.size()) flushed_ = frames_.size();
    }

  private:
    struct Frame {
        bool array = false;
        int indent = 0;           // column of this container's keys or "- "
        bool inlineFirst = false; // the first child continues the "- " line
        bool any = false;         // a child was written
        bool underKey = false;
        std::string prefix; // "  key:" or "  -", written before the first child
    };

    bool skipValue() {
        if (skipContainers_ > 0) return true;
        if (skipValue_) {
            skipValue_ = false;
            return true;
        }
        return false;
    }

    void flushParents(size_t upTo) {
        for (; flushed_ < upTo; ++flushed_) {
            const Frame& f = frames_[flushed_];
            out_ += f.prefix;
            out_ += f.underKey ? "\n" : " ";
        }
    }

    // Starts the line of a scalar value in the current container.
    void openLine() {
        flushParents(frames_.size());
        Frame& f = frames_.back();
        if (!(f.inlineFirst && !f.any)) out_.append(size_t(f.indent), ' ');
        f.any = true;
        if (f.array) {
            out_ += "- ";
        } else {
            appendYamlScalar(pendingKey_, kSnapshotStrings, out_);
            out_ += ": ";
        }
    }

    void noteFacts(const std::string& s) {
        if (frames_.size() == 1) {
            if (pendingKey_ == "kind") hasKind_ = true, itemKind_ = s;
            if (pendingKey_ == "apiVersion") hasApiVersion_ = true;
        } else if (frames_.size() == 2 && path_[0] == "status" && pendingKey_ == "phase") {
            phase_ = s;
        }
    }

    std::string_view kind_;
    std::string& out_;
    size_t start_ = 0;
    std::vector<Frame> frames_;
    std::vector<std::string> path_;
    size_t flushed_ = 0;
    int skipContainers_ = 0;
    bool skipValue_ = false;
    std::string pendingKey_;
    bool hasKind_ = false, hasApiVersion_ = false;
    std::string itemKind_, phase_;
};

// The list around the items: kind, apiVersion, metadata.continue / remainingItemCount, items.
class PageHandler : public nlohmann::json_sax<json> {
  public:
    PageHandler(const std::string& itemKind, std::string& out)
        : requestedKind_(itemKind), writer_(itemKind, out) {}

    bool null() override {
        if (depth_ == 1 && key_ == "items") sawItems_ = true; // "items": null is an empty list
        return scalar("null", 4);
    }
    bool boolean(bool v) override { return v ? scalar("true", 4) : scalar("false", 5); }
    bool number_integer(number_integer_t v) override {
        if (inItem())
            numberText(std::to_string(v));
        else
            topNumber(v);
        return true;
    }
    bool number_unsigned(number_unsigned_t v) override {
        if (inItem())
            numberText(std::to_string(v));
        else
            topNumber(int64_t(v));
        return true;
    }
    bool number_float(number_float_t, const string_t& s) override {
        if (inItem()) numberText(s);
        return true;
    }
    bool string(string_t& v) override {
        if (inItem()) {
            writer_.string(v);
        } else if (depth_ == 1 && key_ == "kind") {
            listKind_ = v;
        } else if (depth_ == 1 && key_ == "apiVersion") {
            apiVersion_ = v;
        } else if (depth_ == 2 && inMetadata_ && key_ == "continue") {
            page.continueToken = v;
        }
        return true;
    }
    bool binary(binary_t&) override { return true; }

    bool start_object(std::size_t) override {
        if (inItem()) {
            writer_.startContainer(false);
        } else if (depth_ == 0) {
            sawObject_ = true;
        } else if (depth_ == 1 && key_ == "metadata") {
            inMetadata_ = true;
        } else if (depth_ == 2 && inItems_) {
            ++page.items;
            itemDepth_ = depth_ + 1;
            writer_.begin();
        }
        ++depth_;
        return true;
    }
    bool end_object() override {
        --depth_;
        if (itemDepth_ > 0 && depth_ >= itemDepth_) {
            writer_.endContainer();
        } else if (itemDepth_ > 0 && depth_ == itemDepth_ - 1) {
            itemDepth_ = 0;
            std::string kind = itemKindFromList();
            if (writer_.end(apiVersion_, kind))
                ++page.written;
            else
                ++page.skipped;
        } else if (depth_ == 1) {
            inMetadata_ = false;
        }
        return true;
    }
    bool start_array(std::size_t) override {
        if (inItem()) {
            writer_.startContainer(true);
        } else if (depth_ == 1 && key_ == "items") {
            inItems_ = true;
            sawItems_ = true;
        } else if (depth_ == 2 && inItems_) {
            throw NotAList("the list holds an item that is not an object");
        }
        ++depth_;
        return true;
    }
    bool end_array() override {
        --depth_;
        if (itemDepth_ > 0 && depth_ >= itemDepth_)
            writer_.endContainer();
        else if (depth_ == 1)
            inItems_ = false;
        return true;
    }
    bool key(string_t& k) override {
        if (inItem())
            writer_.key(k);
        else
            key_ = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        throw MalformedJson(position, e.what());
    }

    void finish() {
        if (!sawObject_) throw NotAList("it is not a JSON object");
        if (!sawItems_) throw NotAList("it has no items (kind '" + listKind_ + "')");
        // A proxy or a misrouted request can answer with another list: its items are not what was asked.
        if (!listKind_.empty() && listKind_ != "List" && listKind_ != requestedKind_ + "List")
            throw NotAList("it is a " + listKind_ + ", not a " + requestedKind_ + "List");
    }

    StreamedPage page;

  private:
    bool inItem() const { return itemDepth_ > 0 && depth_ >= itemDepth_; }
    bool scalar(const char* text, size_t size) {
        if (inItem())
            writer_.scalar(text, size);
        else if (depth_ == 2 && inItems_)
            throw NotAList("the list holds an item that is not an object");
        return true;
    }
    void numberText(const std::string& s) { writer_.scalar(s.data(), s.size()); }
    void topNumber(int64_t v) {
        if (depth_ == 2 && inMetadata_ && key_ == "remainingItemCount")
            page.remaining = v;
        else if (depth_ == 2 && inItems_)
            throw NotAList("the list holds an item that is not an object");
    }
    std::string itemKindFromList() const {
        if (listKind_.size() > 4 && listKind_.ends_with("List") && listKind_ != "List")
            return listKind_.substr(0, listKind_.size() - 4);
        return requestedKind_;
    }

    std::string requestedKind_;
    ItemWriter writer_;
    int depth_ = 0;
    int itemDepth_ = 0;
    bool inMetadata_ = false, inItems_ = false, sawItems_ = false, sawObject_ = false;
    std::string key_, listKind_, apiVersion_;
};

template <class Input> StreamedPage streamPage(Input&& text, const std::string& itemKind, std::string& out) {
    PageHandler handler(itemKind, out);
    json::sax_parse(std::forward<Input>(text), &handler);
    handler.finish();
    return handler.page;
}

} // namespace

StreamedPage streamListPage(const std::string& json, const std::string& itemKind, std::string& out) {
    return streamPage(json, itemKind, out);
}

StreamedPage streamListPage(std::istream& json, const std::string& itemKind, std::string& out) {
    return streamPage(json, itemKind, out);
}

} // namespace gantry::live
