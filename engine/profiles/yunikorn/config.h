#pragma once
// The partition configuration the profile schedules with, and the mapping of a project's queues to
// it. Both live in the model because `gantry export --target yunikorn` writes the same mapping: a
// project runs under this profile with exactly the queue tree it would export.
#include "model/yunikorn_mapping.h"
#include "model/yunikorn_partition.h"

namespace gantry::engine::yunikorn {

using gantry::yunikorn::builtInPartitionConfig;
using gantry::yunikorn::Mapping;
using gantry::yunikorn::mapToYuniKorn;
using gantry::yunikorn::namespaceQueues;
using gantry::yunikorn::PartitionConfig;
using gantry::yunikorn::partitionConfigOf;
using gantry::yunikorn::QueueConfig;
using gantry::yunikorn::yunikornConfigOf;
using gantry::yunikorn::yunikornQueueName;

} // namespace gantry::engine::yunikorn
