#include "options.h"

#include "options_help.h"
#include "value_grammar.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace gantry::cli {

namespace {

template <class... F> struct Overloaded : F... { using F::operator()...; };

std::string shortest(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

bool within(const Option& o, double v) {
    if (o.sign == Sign::Positive && !(v > 0)) return false;
    if (o.sign == Sign::NonNegative && !(v >= 0)) return false;
    return !o.max || v <= *o.max;
}

// Stores `text` as the option's value; false when it is not a value of the option's kind and bounds.
bool store(const Option& o, const std::string& text) {
    return std::visit(Overloaded{[](const Switch& s) { return *s.into = true; },
                                 [&](const Text& t) {
                                     *t.into = text;
                                     return true;
                                 },
                                 [&](const Texts& t) {
                                     t.into->push_back(text);
                                     return true;
                                 },
                                 [&](const Int& n) {
                                     auto v = parseWholeNumber(text);
                                     if (!v || !within(o, double(*v))) return false;
                                     *n.into = *v;
                                     return true;
                                 },
                                 [&](const Uint& n) {
                                     auto v = parseWholeNumber(text);
                                     if (!v || *v < 0 || !within(o, double(*v))) return false;
                                     *n.into = uint64_t(*v);
                                     return true;
                                 },
                                 [&](const Float& f) {
                                     auto v = parseNumber(text);
                                     if (!v || !within(o, *v)) return false;
                                     *f.into = *v;
                                     return true;
                                 },
                                 [&](const Duration& d) {
                                     auto v = parseSeconds(text);
                                     if (!v || !within(o, *v)) return false;
                                     *d.into = *v;
                                     return true;
                                 },
                                 [&](const Choice& c) {
                                     if (std::find(c.allowed.begin(), c.allowed.end(), text) ==
                                         c.allowed.end())
                                         return false;
                                     *c.into = text;
                                     return true;
                                 }},
                      o.value);
}

bool given(const Option& o) {
    return std::visit(Overloaded{[](const Switch& s) { return *s.into; },
                                 [](const Text& t) { return !t.into->empty(); },
                                 [](const Texts& t) { return !t.into->empty(); },
                                 [](const Choice& c) { return !c.into->empty(); },
                                 [](const auto& number) { return number.into->has_value(); }},
                      o.value);
}

std::string listed(const std::vector<std::string>& words, const char* last) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) {
        if (i > 0) out += i + 1 == words.size() ? last : ", ";
        out += words[i];
    }
    return out;
}

} // namespace

std::string valueName(const Option& o) {
    if (!o.metavar.empty() || !std::holds_alternative<Choice>(o.value)) return o.metavar;
    std::string words;
    for (const auto& w : std::get<Choice>(o.value).allowed) {
        if (!words.empty()) words += '|';
        words += w;
    }
    return words;
}

std::string expectedValue(const Option& o) {
    if (std::holds_alternative<Switch>(o.value)) return "no value";
    if (std::holds_alternative<Text>(o.value) || std::holds_alternative<Texts>(o.value)) return "a value";
    if (auto c = std::get_if<Choice>(&o.value)) return "one of " + listed(c->allowed, ", ");
    const bool whole = std::holds_alternative<Int>(o.value) || std::holds_alternative<Uint>(o.value);
    const bool duration = std::holds_alternative<Duration>(o.value);
    const bool nonNegative = o.sign == Sign::NonNegative || std::holds_alternative<Uint>(o.value) || duration;
    std::string noun = whole ? "whole number" : duration ? "duration" : "number";
    if (o.max) {
        const std::string max = shortest(*o.max);
        if (whole)
            noun += o.sign == Sign::Positive ? " from 1 to " + max
                    : nonNegative            ? " from 0 to " + max
                                             : " up to " + max;
        else
            noun += o.sign == Sign::Positive ? " in (0, " + max + "]"
                    : nonNegative            ? " in [0, " + max + "]"
                                             : " up to " + max;
    } else if (o.sign == Sign::Positive) {
        noun = "positive " + noun;
    } else if (nonNegative && !duration) { // a duration is never negative: no need to say so
        noun = "non-negative " + noun;
    }
    return "a " + noun + (duration ? " (e.g. 1s, 30m, 2h)" : "");
}

ParseOutcome parseArguments(const OptionTable& table, const Args& args) {
    const Option* positional = nullptr;
    for (const auto& o : table.options)
        if (o.names.empty()) positional = &o;
    auto error = [](std::string message) {
        return ParseOutcome{ParseOutcome::Kind::Error, std::move(message)};
    };

    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") return {ParseOutcome::Kind::Help, {}};
        auto named = std::find_if(table.options.begin(), table.options.end(), [&](const Option& o) {
            return std::find(o.names.begin(), o.names.end(), a) != o.names.end();
        });
        if (named != table.options.end()) {
            if (std::holds_alternative<Switch>(named->value)) {
                store(*named, a);
                continue;
            }
            // The next argument is the value, whatever it looks like (a file may be named "-x").
            if (i + 1 >= args.size()) return error(a + " needs " + expectedValue(*named));
            const std::string& v = args[++i];
            if (!store(*named, v)) return error(a + ": '" + v + "' is not " + expectedValue(*named));
        } else if (a.size() > 1 && a[0] == '-') {
            return error("unknown option '" + a + "'");
        } else if (positional) {
            std::get<Texts>(positional->value).into->push_back(a);
        } else {
            return error("unexpected argument '" + a + "'");
        }
    }

    std::vector<std::string> missing;
    for (const auto& o : table.options)
        if (o.required && !o.names.empty() && !given(o))
            missing.push_back(o.names.front() + " " + valueName(o));
    if (!missing.empty())
        return error(listed(missing, " and ") + (missing.size() == 1 ? " is required" : " are required"));
    if (positional && positional->required && !given(*positional))
        return error("no " + positional->metavar + " given");
    return {};
}

std::optional<int> parseCommandLine(const OptionTable& table, const Args& args) {
    ParseOutcome outcome = parseArguments(table, args);
    switch (outcome.kind) {
    case ParseOutcome::Kind::Run:
        return std::nullopt;
    case ParseOutcome::Kind::Help:
        std::cout << helpText(table);
        return Ok;
    case ParseOutcome::Kind::Error:
        return usageError(table.command, outcome.message);
    }
    return std::nullopt;
}

} // namespace gantry::cli
