#include "options_help.h"

#include <algorithm>
#include <vector>

namespace gantry::cli {

namespace {

constexpr size_t kWidth = 100;    // usage lines wrap here
constexpr size_t kMaxColumn = 30; // where option help starts, at most

std::string usageWord(const Option& o) {
    const bool repeatable = std::holds_alternative<Texts>(o.value);
    std::string word = o.names.empty() ? valueName(o) : o.names.front();
    if (!o.names.empty() && !std::holds_alternative<Switch>(o.value)) {
        word += ' ';
        word += valueName(o);
    }
    if (repeatable) word += "...";
    return o.required ? word : '[' + word + ']';
}

// How an option is shown in the list: "--out, -o FILE", "INPUT...".
std::string label(const Option& o) {
    if (o.names.empty()) return valueName(o) + "...";
    std::string names;
    for (const auto& n : o.names) {
        if (!names.empty()) names += ", ";
        names += n;
    }
    const std::string m = valueName(o);
    return m.empty() || std::holds_alternative<Switch>(o.value) ? names : names + " " + m;
}

// The usage line's words, each kept whole when the line wraps: "--snapshot FILE...", "[--json]".
std::vector<std::string> usageWords(const OptionTable& table) {
    if (!table.synopsis.empty()) return {table.synopsis};
    std::vector<std::string> words;
    for (const auto& o : table.options)
        if (!o.names.empty()) words.push_back(usageWord(o));
    for (const auto& o : table.options)
        if (o.names.empty()) words.push_back(usageWord(o));
    return words;
}

} // namespace

std::string synopsis(const OptionTable& table) {
    std::string out;
    for (const auto& w : usageWords(table)) {
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

std::string helpText(const OptionTable& table) {
    const std::string head = "Usage: gantry " + table.command;
    std::string text = head;
    size_t lineSize = head.size();
    for (const auto& word : usageWords(table)) {
        if (lineSize > head.size() && lineSize + 1 + word.size() > kWidth) {
            text += '\n';
            text.append(head.size(), ' ');
            lineSize = head.size();
        }
        text += ' ';
        text += word;
        lineSize += 1 + word.size();
    }
    text += "\n";
    if (!table.about.empty()) text += '\n' + table.about + '\n';

    size_t column = 0;
    for (const auto& o : table.options) column = std::max(column, 2 + label(o).size() + 2);
    column = std::min(column, kMaxColumn);
    for (size_t i = 0; i < table.options.size(); ++i) {
        const Option& o = table.options[i];
        if (i == 0 || !o.section.empty()) text += '\n' + (o.section.empty() ? "Options:" : o.section) + '\n';
        std::string entry = "  ";
        entry += label(o);
        if (entry.size() + 2 > column)
            entry += '\n' + std::string(column, ' ');
        else
            entry.resize(column, ' ');
        for (size_t start = 0, end = 0; end != std::string::npos; start = end + 1) {
            end = o.help.find('\n', start);
            if (start > 0) entry += '\n' + std::string(column, ' ');
            entry += o.help.substr(start, end - start);
        }
        text += entry + '\n';
    }
    if (!table.epilog.empty()) text += '\n' + table.epilog + '\n';
    return text;
}

} // namespace gantry::cli
