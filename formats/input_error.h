#pragma once
// The exception importers throw for input a user got wrong. It always carries a location.
#include "model/diagnostic.h"

#include <stdexcept>

namespace gantry {

class InputError : public std::runtime_error {
  public:
    explicit InputError(Diagnostic diagnostic)
        : std::runtime_error(diagnostic.str()), diagnostic_(std::move(diagnostic)), all_{diagnostic_} {}
    InputError(SourceRef where, const std::string& message)
        : InputError(Diagnostic{Severity::Error, std::move(where), message}) {}
    // Several errors found together (cross-object checks); the first is the one what() shows.
    explicit InputError(Diagnostics errors)
        : std::runtime_error(errors.at(0).str()), diagnostic_(errors.at(0)), all_(std::move(errors)) {}
    const Diagnostic& diagnostic() const { return diagnostic_; }
    const Diagnostics& all() const { return all_; }

  private:
    Diagnostic diagnostic_;
    Diagnostics all_;
};

// Throws InputError with every error of `diagnostics` when there is at least one.
inline void throwIfErrors(const Diagnostics& diagnostics) {
    Diagnostics errors;
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error) errors.push_back(d);
    if (!errors.empty()) throw InputError(std::move(errors));
}

} // namespace gantry
