#pragma once
// Kueue's Configuration as an export writes it (kueue_configuration.cpp).
#include "manifest/document.h"
#include "model/kueue_config.h"

namespace gantry::exporting {

Json kueueConfigurationJson(const KueueConfig& config);

} // namespace gantry::exporting
