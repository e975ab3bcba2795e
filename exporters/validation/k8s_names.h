#pragma once
// Kubernetes' name rules (k8s.io/apimachinery/pkg/util/validation). Each returns "" when the text is
// valid, or the reason in Kubernetes' own terms.
#include <string>
#include <string_view>

namespace gantry {

std::string checkDns1123Subdomain(std::string_view name); // <= 253, lowercase, dots between labels
std::string checkDns1123Label(std::string_view name);     // <= 63, lowercase alphanumerics and '-'
std::string checkQualifiedName(std::string_view name);    // label/annotation keys: [prefix/]name
std::string checkLabelValue(std::string_view value);      // <= 63, may be empty

} // namespace gantry
