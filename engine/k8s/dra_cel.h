#pragma once
// The part of CEL that DeviceClasses and ResourceClaims use to select devices (KEP-4381's
// `device` variable): `device.driver`, `device.attributes['<domain>'].<name>`,
// `device.capacity['<domain>'].<name>`, comparisons (== != < <= > >=) of strings, ints, bools and
// quantities, `.compareTo(quantity('40Gi'))`, `quantity(...)`, `'<name>' in device.attributes[...]`,
// `&&`, `||`, `!` and parentheses. Anything else does not compile, so a caller can say where; it
// never silently matches.
#include "model/dra.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::k8s {

class DeviceSelector {
  public:
    // nullopt with *error set (what and at which offset) when the expression is outside the subset.
    static std::optional<DeviceSelector> compile(const std::string& expression, std::string* error);

    // Whether the device (published by `driver`) passes. A runtime error (an attribute the device
    // lacks, types that do not compare) is false, with *error set when given; CEL's && and || absorb
    // an error the other side decides, as CEL does.
    bool matches(const std::string& driver, const Device& device, std::string* error = nullptr) const;

    struct Node;

  private:
    std::shared_ptr<const std::vector<Node>> nodes_; // the root is the last
};

} // namespace gantry::engine::k8s
